// Queries of campaigns, their placements (links) and banner assignments, and targeting rules.
import { and, asc, eq, ilike, inArray, isNull, or, sql } from 'drizzle-orm';
import type { Db } from '../../../platform/db/database';
import { isForeignKeyViolation } from '../../../platform/db/errors';
import type { PageWindow } from '../../../platform/http/pagination';
import { bannerErrors } from '../banners.errors';
import {
  type AssignmentRow,
  type CampaignRow,
  containsPattern,
  type LinkRow,
  listPage,
  type NewAssignmentRow,
  type NewCampaignRow,
  orderBy,
  type RuleRow,
} from '../banners.repository';
import {
  bannerAssignments,
  banners,
  type CampaignStatus,
  campaignPlacements,
  campaigns,
  placements,
  targetingRules,
} from '../banners.table';

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

/** A campaign's links with their placements, in the placements' own order. */
export function listLinks(db: Db, campaignId: number) {
  return db
    .select({ link: campaignPlacements, placement: placements })
    .from(campaignPlacements)
    .innerJoin(placements, eq(placements.id, campaignPlacements.placementId))
    .where(eq(campaignPlacements.campaignId, campaignId))
    .orderBy(asc(placements.sortOrder), asc(placements.slug));
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
