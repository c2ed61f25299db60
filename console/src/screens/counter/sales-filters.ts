// The counter sales screen's range as it lives in the address (`?from=2026-11-01&to=2026-11-29`):
// store-local days, today when absent. Pure, like the orders list's filters.

export interface SalesRange {
  from: string;
  to: string;
  district: string;
}

/** The API's export takes at most 90 days, counting both ends. */
export const MAX_EXPORT_DAYS = 90;

const isDay = (value: unknown): value is string =>
  typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value) && !Number.isNaN(Date.parse(value));

export function rangeFromSearch(search: Record<string, unknown>, today: string): SalesRange {
  const from = isDay(search.from) ? search.from : today;
  const to = isDay(search.to) ? search.to : from > today ? from : today;
  const district = typeof search.district === 'string' ? search.district.trim().slice(0, 100) : '';
  return from <= to ? { from, to, district } : { from: to, to: from, district };
}

export function searchFromRange(range: SalesRange, today: string): Record<string, string | undefined> {
  return {
    from: range.from === today ? undefined : range.from,
    to: range.to === today ? undefined : range.to,
    district: range.district || undefined,
    page: undefined,
  };
}

/** Days in the range, both ends counted: 2026-11-01 to 2026-11-01 is 1. */
export function daysIn(range: Pick<SalesRange, 'from' | 'to'>): number {
  return Math.round((Date.parse(range.to) - Date.parse(range.from)) / 86_400_000) + 1;
}
