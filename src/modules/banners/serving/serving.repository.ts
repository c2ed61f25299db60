// The queries of public serving: the candidate assignments of a placement and their rules.
import { and, eq, gt, inArray, isNull, lte, or } from 'drizzle-orm';
import type { Db } from '../../../platform/db/database';
import type { RuleRow } from '../banners.repository';
import { bannerAssignments, banners, campaignPlacements, campaigns, targetingRules } from '../banners.table';

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
