// Queries of tracking: ids of what an event names, the impression and click rows, daily statistics.
import { and, asc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../../platform/db/database';
import type { DailyStatRow, NewClickRow, NewImpressionRow } from '../banners.repository';
import {
  bannerAssignments,
  bannerClicks,
  bannerDailyStats,
  bannerImpressions,
  banners,
  campaigns,
  placements,
} from '../banners.table';

export async function bannerIdOf(db: Db, publicId: string): Promise<number | undefined> {
  const [row] = await db.select({ id: banners.id }).from(banners).where(eq(banners.publicId, publicId));
  return row?.id;
}
export async function placementIdOf(db: Db, publicId: string): Promise<number | undefined> {
  const [row] = await db
    .select({ id: placements.id })
    .from(placements)
    .where(eq(placements.publicId, publicId));
  return row?.id;
}
export async function campaignIdOf(db: Db, publicId: string): Promise<number | undefined> {
  const [row] = await db.select({ id: campaigns.id }).from(campaigns).where(eq(campaigns.publicId, publicId));
  return row?.id;
}

/** The campaigns through which the banner is assigned to the placement (none: never shown there). */
export async function campaignsShowingBannerIn(
  db: Db,
  bannerId: number,
  placementId: number,
): Promise<number[]> {
  const rows = await db
    .select({ campaignId: bannerAssignments.campaignId })
    .from(bannerAssignments)
    .where(and(eq(bannerAssignments.bannerId, bannerId), eq(bannerAssignments.placementId, placementId)));
  return rows.map((r) => r.campaignId);
}

/** True when the row was written; false when the correlation id was already recorded. */
export async function insertImpression(db: Db, row: NewImpressionRow): Promise<boolean> {
  const rows = await db
    .insert(bannerImpressions)
    .values(row)
    .onConflictDoNothing({ target: bannerImpressions.correlationId })
    .returning({ id: bannerImpressions.id });
  return rows.length > 0;
}

export async function insertClick(db: Db, row: NewClickRow): Promise<boolean> {
  const rows = await db
    .insert(bannerClicks)
    .values(row)
    .onConflictDoNothing({ target: bannerClicks.correlationId })
    .returning({ id: bannerClicks.id });
  return rows.length > 0;
}

export interface DailyAggregate {
  bannerId: number;
  placementId: number;
  campaignId: number;
  impressions: number;
  clicks: number;
}

/** Impressions and clicks with a campaign on one UTC day, per (banner, placement, campaign). */
export async function aggregateDay(db: Db, statDate: string): Promise<DailyAggregate[]> {
  const from = sql`(${statDate}::date)::timestamp AT TIME ZONE 'UTC'`;
  const to = sql`((${statDate}::date + 1))::timestamp AT TIME ZONE 'UTC'`;
  const result = (await db.execute(sql`
    select banner_id as "bannerId", placement_id as "placementId", campaign_id as "campaignId",
           sum(impressions)::int as impressions, sum(clicks)::int as clicks
    from (
      select banner_id, placement_id, campaign_id, 1 as impressions, 0 as clicks
      from ${bannerImpressions}
      where campaign_id is not null and occurred_at >= ${from} and occurred_at < ${to}
      union all
      select banner_id, placement_id, campaign_id, 0, 1
      from ${bannerClicks}
      where campaign_id is not null and occurred_at >= ${from} and occurred_at < ${to}
    ) events
    group by banner_id, placement_id, campaign_id
    order by banner_id, placement_id, campaign_id`)) as unknown as { rows: DailyAggregate[] };
  return result.rows.map((r) => ({ ...r, impressions: Number(r.impressions), clicks: Number(r.clicks) }));
}

/** Overwrites (or creates) one batch of a day's rows. */
export async function upsertDailyStats(tx: Db, statDate: string, batch: DailyAggregate[], now: Date) {
  if (batch.length === 0) return;
  await tx
    .insert(bannerDailyStats)
    .values(batch.map((r) => ({ ...r, statDate, spendPaisa: null, updatedAt: now })))
    .onConflictDoUpdate({
      target: [
        bannerDailyStats.bannerId,
        bannerDailyStats.placementId,
        bannerDailyStats.campaignId,
        bannerDailyStats.statDate,
      ],
      set: {
        impressions: sql`excluded.impressions`,
        clicks: sql`excluded.clicks`,
        spendPaisa: sql`excluded.spend_paisa`,
        updatedAt: sql`excluded.updated_at`,
      },
      // A row whose counts did not change is left as it is, so a re-run leaves identical rows.
      setWhere: sql`(${bannerDailyStats.impressions}, ${bannerDailyStats.clicks}, ${bannerDailyStats.spendPaisa})
        IS DISTINCT FROM (excluded.impressions, excluded.clicks, excluded.spend_paisa)`,
    });
}

/** Rows of the day that no longer have events (overwrite semantics: the day is the aggregate). */
export async function deleteStaleDailyStats(tx: Db, statDate: string, keep: DailyAggregate[]): Promise<void> {
  const keys = new Set(keep.map((r) => `${r.bannerId}:${r.placementId}:${r.campaignId}`));
  const existing = await tx.select().from(bannerDailyStats).where(eq(bannerDailyStats.statDate, statDate));
  for (const row of existing) {
    if (!keys.has(`${row.bannerId}:${row.placementId}:${row.campaignId}`)) {
      await tx
        .delete(bannerDailyStats)
        .where(
          and(
            eq(bannerDailyStats.statDate, statDate),
            eq(bannerDailyStats.bannerId, row.bannerId),
            eq(bannerDailyStats.placementId, row.placementId),
            eq(bannerDailyStats.campaignId, row.campaignId),
          ),
        );
    }
  }
}

export function dailyStatsOf(db: Db, statDate: string): Promise<DailyStatRow[]> {
  return db
    .select()
    .from(bannerDailyStats)
    .where(eq(bannerDailyStats.statDate, statDate))
    .orderBy(
      asc(bannerDailyStats.bannerId),
      asc(bannerDailyStats.placementId),
      asc(bannerDailyStats.campaignId),
    );
}

export interface DailyFigure {
  date: string;
  bannerPublicId: string;
  bannerTitle: string;
  campaignPublicId: string;
  campaignName: string;
  impressions: number;
  clicks: number;
}

/**
 * Impressions and clicks per UTC day, banner and campaign (placements summed) from `from` to
 * `to`: days before `today` from the nightly rollup, `today` itself counted from the events (it
 * has no rollup yet). Optionally one campaign's or one banner's.
 */
export async function dailyFigures(
  db: Db,
  f: { from: string; to: string; today: string; campaignPublicId?: string; bannerPublicId?: string },
): Promise<DailyFigure[]> {
  const start = sql`(${f.today}::date)::timestamp AT TIME ZONE 'UTC'`;
  const end = sql`((${f.today}::date + 1))::timestamp AT TIME ZONE 'UTC'`;
  const todayInRange = sql`${f.today}::date between ${f.from}::date and ${f.to}::date`;
  const result = (await db.execute(sql`
    select e.stat_date as "date", b.public_id as "bannerPublicId", b.title as "bannerTitle",
           c.public_id as "campaignPublicId", c.name as "campaignName",
           sum(e.impressions)::int as impressions, sum(e.clicks)::int as clicks
    from (
      select stat_date::text as stat_date, banner_id, campaign_id, impressions, clicks
      from ${bannerDailyStats}
      where stat_date between ${f.from}::date and ${f.to}::date and stat_date < ${f.today}::date
      union all
      select ${f.today}::text, banner_id, campaign_id, 1, 0
      from ${bannerImpressions}
      where campaign_id is not null and occurred_at >= ${start} and occurred_at < ${end} and ${todayInRange}
      union all
      select ${f.today}::text, banner_id, campaign_id, 0, 1
      from ${bannerClicks}
      where campaign_id is not null and occurred_at >= ${start} and occurred_at < ${end} and ${todayInRange}
    ) e
    join ${banners} b on b.id = e.banner_id
    join ${campaigns} c on c.id = e.campaign_id
    where (${f.campaignPublicId ?? null}::uuid is null or c.public_id = ${f.campaignPublicId ?? null}::uuid)
      and (${f.bannerPublicId ?? null}::uuid is null or b.public_id = ${f.bannerPublicId ?? null}::uuid)
    group by e.stat_date, b.public_id, b.title, c.public_id, c.name
    order by e.stat_date, c.name, b.title`)) as unknown as { rows: DailyFigure[] };
  return result.rows.map((r) => ({ ...r, impressions: Number(r.impressions), clicks: Number(r.clicks) }));
}
