// What the banner area's repositories share: row types and list helpers. Each sub-area's queries
// are in its own repository; constraint violations become banner errors there.
import { count, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Db } from '../../platform/db/database';
import type { PageWindow } from '../../platform/http/pagination';
import type {
  bannerAssignments,
  bannerClicks,
  bannerDailyStats,
  bannerImpressions,
  banners,
  campaignPlacements,
  campaigns,
  placements,
  targetingRules,
} from './banners.table';

export type BannerRow = typeof banners.$inferSelect;
export type NewBannerRow = typeof banners.$inferInsert;
export type PlacementRow = typeof placements.$inferSelect;
export type NewPlacementRow = typeof placements.$inferInsert;
export type CampaignRow = typeof campaigns.$inferSelect;
export type NewCampaignRow = typeof campaigns.$inferInsert;
export type LinkRow = typeof campaignPlacements.$inferSelect;
export type AssignmentRow = typeof bannerAssignments.$inferSelect;
export type NewAssignmentRow = typeof bannerAssignments.$inferInsert;
export type RuleRow = typeof targetingRules.$inferSelect;
export type NewImpressionRow = typeof bannerImpressions.$inferInsert;
export type NewClickRow = typeof bannerClicks.$inferInsert;
export type DailyStatRow = typeof bannerDailyStats.$inferSelect;

export { containsPattern } from '../../platform/db/like';

export function orderBy(column: AnyPgColumn, order: 'asc' | 'desc', id: AnyPgColumn): SQL[] {
  return order === 'asc'
    ? [sql`${column} asc nulls last`, sql`${id} asc`]
    : [sql`${column} desc nulls last`, sql`${id} desc`];
}

export async function listPage<R>(
  db: Db,
  table: typeof banners | typeof placements | typeof campaigns,
  where: SQL | undefined,
  order: SQL[],
  page: PageWindow,
): Promise<{ rows: R[]; count: number }> {
  const query = db
    .select()
    .from(table)
    .where(where)
    .orderBy(...order)
    .offset(page.offset);
  const rows = (await (page.limit === undefined ? query : query.limit(page.limit))) as R[];
  const [total] = await db.select({ n: count() }).from(table).where(where);
  return { rows, count: total?.n ?? 0 };
}
