// The daily figures grouped for the performance screen: per day and campaign, or per day and
// banner (the API's rows are per day, banner and campaign). Pure.

/** One row of GET /api/admin/banner-stats/daily (kept free of the client's types for Node tests). */
export interface DailyRow {
  date: string;
  bannerPublicId: string;
  bannerTitle: string;
  campaignPublicId: string;
  campaignName: string;
  impressions: number;
  clicks: number;
}

export interface FigureRow {
  date: string;
  id: string;
  name: string;
  impressions: number;
  clicks: number;
}

export function figureRows(rows: readonly DailyRow[], by: 'campaign' | 'banner'): FigureRow[] {
  const grouped = new Map<string, FigureRow>();
  for (const r of rows) {
    const id = by === 'campaign' ? r.campaignPublicId : r.bannerPublicId;
    const name = by === 'campaign' ? r.campaignName : r.bannerTitle;
    const key = `${r.date}|${id}`;
    const row = grouped.get(key) ?? { date: r.date, id, name, impressions: 0, clicks: 0 };
    row.impressions += r.impressions;
    row.clicks += r.clicks;
    grouped.set(key, row);
  }
  return [...grouped.values()].sort((a, b) => a.date.localeCompare(b.date) || a.name.localeCompare(b.name));
}

/** The last `days` UTC days up to `now`'s, as the API's `from` and `to`. */
export function rangeOf(now: Date, days: number): { from: string; to: string } {
  const to = now.toISOString().slice(0, 10);
  const from = new Date(Date.parse(`${to}T00:00:00Z`) - (days - 1) * 86_400_000).toISOString().slice(0, 10);
  return { from, to };
}
