// Every query of the banner area. Constraint violations become banner errors here.
import {
  and,
  asc,
  count,
  eq,
  gt,
  gte,
  ilike,
  inArray,
  isNull,
  lt,
  lte,
  or,
  type SQL,
  sql,
} from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Db } from '../../platform/db/database';
import { isForeignKeyViolation, isUniqueViolation } from '../../platform/db/errors';
import type { PageWindow } from '../../platform/http/pagination';
import { bannerErrors } from './banners.errors';
import {
  bannerAssignments,
  bannerClicks,
  bannerDailyStats,
  bannerImpressions,
  banners,
  type CampaignStatus,
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

const containsPattern = (term: string) => `%${term.replace(/[\\%_]/g, '\\$&')}%`;

function orderBy(column: AnyPgColumn, order: 'asc' | 'desc', id: AnyPgColumn): SQL[] {
  return order === 'asc'
    ? [sql`${column} asc nulls last`, sql`${id} asc`]
    : [sql`${column} desc nulls last`, sql`${id} desc`];
}

async function listPage<R>(
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

// ---------- banners ----------

const BANNER_FKS = [
  ['banners_brand_id_brands_id_fk', 'BRAND', 'brandId'],
  ['banners_category_id_categories_id_fk', 'CATEGORY', 'categoryId'],
  ['banners_product_id_products_id_fk', 'PRODUCT', 'productId'],
] as const;

/** A reference removed between the service's check and the write still answers its code. */
async function bannerWrite<T>(row: Partial<NewBannerRow>, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    for (const [constraint, what, field] of BANNER_FKS) {
      if (isForeignKeyViolation(error, constraint))
        throw bannerErrors.referenceInvalid(what, row[field] ?? 0);
    }
    if (isForeignKeyViolation(error, 'banners_seo_id_seo_records_id_fk'))
      throw bannerErrors.seoNotFound(row.seoId ?? '');
    throw error;
  }
}

export function insertBanner(tx: Db, row: NewBannerRow): Promise<BannerRow> {
  return bannerWrite(row, async () => {
    const [created] = await tx.insert(banners).values(row).returning();
    return created!;
  });
}

export async function findBanner(db: Db, publicId: string): Promise<BannerRow | undefined> {
  const [row] = await db.select().from(banners).where(eq(banners.publicId, publicId));
  return row;
}

export async function lockBanner(tx: Db, publicId: string): Promise<BannerRow | undefined> {
  const [row] = await tx.select().from(banners).where(eq(banners.publicId, publicId)).for('update');
  return row;
}

export function updateBanner(tx: Db, id: number, patch: Partial<NewBannerRow>): Promise<BannerRow> {
  return bannerWrite(patch, async () => {
    const [row] = await tx.update(banners).set(patch).where(eq(banners.id, id)).returning();
    return row!;
  });
}

export interface BannerFilters {
  search?: string;
  isActive?: boolean;
  scheduleStatus?: BannerRow['scheduleStatus'];
  brandId?: number;
  categoryId?: number;
  includeDeleted: boolean;
}

const BANNER_SORT_COLUMNS = {
  updatedAt: banners.updatedAt,
  createdAt: banners.createdAt,
  priority: banners.priority,
  publishAt: banners.publishAt,
  expiresAt: banners.expiresAt,
  title: banners.title,
} as const;

export function listBanners(
  db: Db,
  f: BannerFilters,
  sort: keyof typeof BANNER_SORT_COLUMNS,
  order: 'asc' | 'desc',
  page: PageWindow,
) {
  const pattern = f.search ? containsPattern(f.search) : undefined;
  const where = and(
    f.includeDeleted ? undefined : isNull(banners.deletedAt),
    pattern ? or(ilike(banners.title, pattern), ilike(banners.description, pattern)) : undefined,
    f.isActive === undefined ? undefined : eq(banners.isActive, f.isActive),
    f.scheduleStatus ? eq(banners.scheduleStatus, f.scheduleStatus) : undefined,
    f.brandId ? eq(banners.brandId, f.brandId) : undefined,
    f.categoryId ? eq(banners.categoryId, f.categoryId) : undefined,
  );
  return listPage<BannerRow>(db, banners, where, orderBy(BANNER_SORT_COLUMNS[sort], order, banners.id), page);
}

// ---------- placements ----------

const PLACEMENT_SLUG_UNIQUE = 'banner_placements_slug_unique';

async function slugSafe<T>(slug: string | undefined, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isUniqueViolation(error, PLACEMENT_SLUG_UNIQUE)) throw bannerErrors.placementSlugExists(slug ?? '');
    throw error;
  }
}

export function insertPlacement(tx: Db, row: NewPlacementRow): Promise<PlacementRow> {
  return slugSafe(row.slug, async () => {
    const [created] = await tx.insert(placements).values(row).returning();
    return created!;
  });
}

export async function findPlacement(db: Db, publicId: string): Promise<PlacementRow | undefined> {
  const [row] = await db.select().from(placements).where(eq(placements.publicId, publicId));
  return row;
}

export async function findPlacementBySlug(db: Db, slug: string): Promise<PlacementRow | undefined> {
  const [row] = await db.select().from(placements).where(eq(placements.slug, slug));
  return row;
}

/** FOR UPDATE: a delete waits for (and blocks) assignment writes, which take the row FOR SHARE. */
export async function lockPlacement(
  tx: Db,
  publicId: string,
  strength: 'update' | 'share' = 'update',
): Promise<PlacementRow | undefined> {
  const [row] = await tx.select().from(placements).where(eq(placements.publicId, publicId)).for(strength);
  return row;
}

export function updatePlacement(
  tx: Db,
  id: number,
  patch: Partial<NewPlacementRow>,
): Promise<PlacementRow | undefined> {
  return slugSafe(patch.slug, async () => {
    const [row] = await tx.update(placements).set(patch).where(eq(placements.id, id)).returning();
    return row;
  });
}

export async function countActiveAssignmentsOfPlacement(tx: Db, placementId: number): Promise<number> {
  const [row] = await tx
    .select({ n: count() })
    .from(bannerAssignments)
    .where(and(eq(bannerAssignments.placementId, placementId), eq(bannerAssignments.isActive, true)));
  return row?.n ?? 0;
}

export async function deletePlacement(tx: Db, id: number): Promise<void> {
  await tx.delete(placements).where(eq(placements.id, id));
}

export interface PlacementFilters {
  search?: string;
  isActive?: boolean;
  pageContext?: string;
  layoutType?: PlacementRow['layoutType'];
}
const PLACEMENT_SORT_COLUMNS = {
  sortOrder: placements.sortOrder,
  createdAt: placements.createdAt,
  updatedAt: placements.updatedAt,
  slug: placements.slug,
  label: placements.label,
} as const;

export function listPlacements(
  db: Db,
  f: PlacementFilters,
  sort: keyof typeof PLACEMENT_SORT_COLUMNS,
  order: 'asc' | 'desc',
  page: PageWindow,
) {
  const pattern = f.search ? containsPattern(f.search) : undefined;
  const where = and(
    pattern ? or(ilike(placements.slug, pattern), ilike(placements.label, pattern)) : undefined,
    f.isActive === undefined ? undefined : eq(placements.isActive, f.isActive),
    f.pageContext ? eq(placements.pageContext, f.pageContext) : undefined,
    f.layoutType ? eq(placements.layoutType, f.layoutType) : undefined,
  );
  return listPage<PlacementRow>(
    db,
    placements,
    where,
    orderBy(PLACEMENT_SORT_COLUMNS[sort], order, placements.id),
    page,
  );
}

// ---------- campaigns ----------

export async function insertCampaign(tx: Db, row: NewCampaignRow): Promise<CampaignRow> {
  const [created] = await tx.insert(campaigns).values(row).returning();
  return created!;
}

export async function findCampaign(db: Db, publicId: string): Promise<CampaignRow | undefined> {
  const [row] = await db.select().from(campaigns).where(eq(campaigns.publicId, publicId));
  return row;
}

export async function findCampaignById(db: Db, id: number): Promise<CampaignRow | undefined> {
  const [row] = await db.select().from(campaigns).where(eq(campaigns.id, id));
  return row;
}

export async function lockCampaign(
  tx: Db,
  publicId: string,
  strength: 'update' | 'share' = 'update',
): Promise<CampaignRow | undefined> {
  const [row] = await tx.select().from(campaigns).where(eq(campaigns.publicId, publicId)).for(strength);
  return row;
}

export async function updateCampaign(
  tx: Db,
  id: number,
  patch: Partial<NewCampaignRow>,
): Promise<CampaignRow> {
  const [row] = await tx.update(campaigns).set(patch).where(eq(campaigns.id, id)).returning();
  return row!;
}

/**
 * Moves a live campaign to `to` only from one of `from`: one conditional UPDATE, so two
 * concurrent moves cannot both succeed from the same state.
 */
export async function transitionCampaign(
  tx: Db,
  id: number,
  from: readonly CampaignStatus[],
  to: CampaignStatus,
  now: Date,
): Promise<CampaignRow | undefined> {
  if (from.length === 0) return undefined;
  const [row] = await tx
    .update(campaigns)
    .set({ status: to, updatedAt: now })
    .where(and(eq(campaigns.id, id), isNull(campaigns.deletedAt), inArray(campaigns.status, [...from])))
    .returning();
  return row;
}

export interface CampaignFilters {
  search?: string;
  status?: CampaignStatus;
  source?: CampaignRow['source'];
  includeDeleted: boolean;
}
const CAMPAIGN_SORT_COLUMNS = {
  updatedAt: campaigns.updatedAt,
  createdAt: campaigns.createdAt,
  startsAt: campaigns.startsAt,
  endsAt: campaigns.endsAt,
  name: campaigns.name,
  priority: campaigns.priority,
} as const;

export function listCampaigns(
  db: Db,
  f: CampaignFilters,
  sort: keyof typeof CAMPAIGN_SORT_COLUMNS,
  order: 'asc' | 'desc',
  page: PageWindow,
) {
  const pattern = f.search ? containsPattern(f.search) : undefined;
  const where = and(
    f.includeDeleted ? undefined : isNull(campaigns.deletedAt),
    pattern ? or(ilike(campaigns.name, pattern), ilike(campaigns.advertiserName, pattern)) : undefined,
    f.status ? eq(campaigns.status, f.status) : undefined,
    f.source ? eq(campaigns.source, f.source) : undefined,
  );
  return listPage<CampaignRow>(
    db,
    campaigns,
    where,
    orderBy(CAMPAIGN_SORT_COLUMNS[sort], order, campaigns.id),
    page,
  );
}

// ---------- links and assignments ----------

export async function insertLink(
  tx: Db,
  row: { campaignId: number; placementId: number; isActive: boolean; createdAt: Date; updatedAt: Date },
): Promise<LinkRow> {
  const [created] = await tx.insert(campaignPlacements).values(row).onConflictDoNothing().returning();
  if (!created) throw bannerErrors.campaignPlacementExists();
  return created;
}

export async function findLink(
  tx: Db,
  campaignId: number,
  placementId: number,
): Promise<LinkRow | undefined> {
  const [row] = await tx
    .select()
    .from(campaignPlacements)
    .where(
      and(eq(campaignPlacements.campaignId, campaignId), eq(campaignPlacements.placementId, placementId)),
    );
  return row;
}

export async function setLinkActive(
  tx: Db,
  id: number,
  isActive: boolean,
  now: Date,
): Promise<LinkRow | undefined> {
  const [row] = await tx
    .update(campaignPlacements)
    .set({ isActive, updatedAt: now })
    .where(eq(campaignPlacements.id, id))
    .returning();
  return row;
}

export async function deleteLink(tx: Db, id: number): Promise<boolean> {
  const rows = await tx
    .delete(campaignPlacements)
    .where(eq(campaignPlacements.id, id))
    .returning({ id: campaignPlacements.id });
  return rows.length > 0;
}

export async function insertAssignment(tx: Db, row: NewAssignmentRow): Promise<AssignmentRow> {
  try {
    const [created] = await tx.insert(bannerAssignments).values(row).onConflictDoNothing().returning();
    if (!created) throw bannerErrors.assignmentExists();
    return created;
  } catch (error) {
    // The link was removed between the check and the insert.
    if (isForeignKeyViolation(error, 'banner_assignments_link_fk'))
      throw bannerErrors.campaignPlacementNotFound();
    throw error;
  }
}

const assignmentKey = (campaignId: number, placementId: number, bannerId: number) =>
  and(
    eq(bannerAssignments.campaignId, campaignId),
    eq(bannerAssignments.placementId, placementId),
    eq(bannerAssignments.bannerId, bannerId),
  );

export async function updateAssignment(
  tx: Db,
  key: { campaignId: number; placementId: number; bannerId: number },
  patch: Partial<NewAssignmentRow>,
): Promise<AssignmentRow | undefined> {
  const [row] = await tx
    .update(bannerAssignments)
    .set(patch)
    .where(assignmentKey(key.campaignId, key.placementId, key.bannerId))
    .returning();
  return row;
}

export async function deleteAssignment(
  tx: Db,
  key: { campaignId: number; placementId: number; bannerId: number },
): Promise<boolean> {
  const rows = await tx
    .delete(bannerAssignments)
    .where(assignmentKey(key.campaignId, key.placementId, key.bannerId))
    .returning({ id: bannerAssignments.id });
  return rows.length > 0;
}

/** The assignments of one link with their banners' public ids and titles, in serving order. */
export function listAssignments(db: Db, campaignId: number, placementId: number) {
  return db
    .select({ assignment: bannerAssignments, bannerPublicId: banners.publicId, bannerTitle: banners.title })
    .from(bannerAssignments)
    .innerJoin(banners, eq(banners.id, bannerAssignments.bannerId))
    .where(and(eq(bannerAssignments.campaignId, campaignId), eq(bannerAssignments.placementId, placementId)))
    .orderBy(
      asc(bannerAssignments.isFallback),
      asc(bannerAssignments.displayOrder),
      sql`${bannerAssignments.weight} desc`,
      asc(bannerAssignments.id),
    );
}

// ---------- targeting rules ----------

export async function insertRule(tx: Db, row: typeof targetingRules.$inferInsert): Promise<RuleRow> {
  const [created] = await tx.insert(targetingRules).values(row).returning();
  return created!;
}

export async function findRule(db: Db, publicId: string): Promise<RuleRow | undefined> {
  const [row] = await db.select().from(targetingRules).where(eq(targetingRules.publicId, publicId));
  return row;
}

export async function lockRule(tx: Db, publicId: string): Promise<RuleRow | undefined> {
  const [row] = await tx
    .select()
    .from(targetingRules)
    .where(eq(targetingRules.publicId, publicId))
    .for('update');
  return row;
}

export async function updateRule(
  tx: Db,
  id: number,
  patch: Partial<typeof targetingRules.$inferInsert>,
): Promise<RuleRow> {
  const [row] = await tx.update(targetingRules).set(patch).where(eq(targetingRules.id, id)).returning();
  return row!;
}

export async function deleteRule(tx: Db, id: number): Promise<void> {
  await tx.delete(targetingRules).where(eq(targetingRules.id, id));
}

export function listRules(db: Db, campaignId: number): Promise<RuleRow[]> {
  return db
    .select()
    .from(targetingRules)
    .where(eq(targetingRules.campaignId, campaignId))
    .orderBy(asc(targetingRules.id));
}

// ---------- serving ----------

/**
 * Every assignment that could be served in the placement at `now`: active link and assignment,
 * a live active campaign inside its window, a live active banner not expired or a draft. The
 * schedule window and targeting are decided in code (serving.service.ts).
 */
export function servingCandidates(db: Db, placementId: number, now: Date) {
  return db
    .select({
      assignment: bannerAssignments,
      banner: banners,
      campaignPriority: campaigns.priority,
    })
    .from(bannerAssignments)
    .innerJoin(
      campaignPlacements,
      and(
        eq(campaignPlacements.campaignId, bannerAssignments.campaignId),
        eq(campaignPlacements.placementId, bannerAssignments.placementId),
      ),
    )
    .innerJoin(campaigns, eq(campaigns.id, bannerAssignments.campaignId))
    .innerJoin(banners, eq(banners.id, bannerAssignments.bannerId))
    .where(
      and(
        eq(bannerAssignments.placementId, placementId),
        eq(bannerAssignments.isActive, true),
        eq(campaignPlacements.isActive, true),
        eq(campaigns.status, 'active'),
        isNull(campaigns.deletedAt),
        or(isNull(campaigns.startsAt), lte(campaigns.startsAt, now)),
        or(isNull(campaigns.endsAt), gt(campaigns.endsAt, now)),
        eq(banners.isActive, true),
        isNull(banners.deletedAt),
        inArray(banners.scheduleStatus, ['evergreen', 'scheduled', 'active']),
      ),
    );
}

export function activeRulesOf(db: Db, campaignIds: number[]): Promise<RuleRow[]> {
  if (campaignIds.length === 0) return Promise.resolve([]);
  return db
    .select()
    .from(targetingRules)
    .where(and(inArray(targetingRules.campaignId, campaignIds), eq(targetingRules.isActive, true)));
}

// ---------- tracking ----------

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

// ---------- jobs ----------

/** The four condition-based updates of the sync job; a missed minute is caught up by the next. */
export async function syncScheduleStatuses(tx: Db, now: Date): Promise<number> {
  const expired = await tx
    .update(banners)
    .set({ scheduleStatus: 'expired', updatedAt: now })
    .where(
      and(
        inArray(banners.scheduleStatus, ['scheduled', 'active']),
        lt(banners.expiresAt, now),
        isNull(banners.deletedAt),
      ),
    )
    .returning({ id: banners.id });
  const activated = await tx
    .update(banners)
    .set({ scheduleStatus: 'active', updatedAt: now })
    .where(
      and(
        eq(banners.scheduleStatus, 'scheduled'),
        lte(banners.publishAt, now),
        or(isNull(banners.expiresAt), gte(banners.expiresAt, now)),
        isNull(banners.deletedAt),
      ),
    )
    .returning({ id: banners.id });
  const ended = await tx
    .update(campaigns)
    .set({ status: 'ended', updatedAt: now })
    .where(and(inArray(campaigns.status, ['scheduled', 'active']), lt(campaigns.endsAt, now)))
    .returning({ id: campaigns.id });
  const started = await tx
    .update(campaigns)
    .set({ status: 'active', updatedAt: now })
    .where(
      and(
        eq(campaigns.status, 'scheduled'),
        lte(campaigns.startsAt, now),
        or(isNull(campaigns.endsAt), gte(campaigns.endsAt, now)),
        isNull(campaigns.deletedAt),
      ),
    )
    .returning({ id: campaigns.id });
  return expired.length + activated.length + ended.length + started.length;
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
