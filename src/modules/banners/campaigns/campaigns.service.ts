// Campaigns with their lifecycle, their links to placements, the banners assigned in each
// link, and their targeting rules.
import type { UserPrincipal } from '../../../platform/auth/principal';
import type { Db } from '../../../platform/db/database';
import { httpErrors } from '../../../platform/http/errors';
import { pageMeta, pageWindow } from '../../../platform/http/pagination';
import { newUuid } from '../../../platform/ids';
import * as bannerRepo from '../banners/banners.repository';
import { bannerErrors } from '../banners.errors';
import type * as areaRepo from '../banners.repository';
import { type BannerDeps, bannerAreaWrite, cachedAdminList } from '../banners.service';
import type { RuleType } from '../banners.table';
import * as placementRepo from '../placements/placements.repository';
import * as repo from './campaigns.repository';
import type {
  AdminCampaign,
  AssignmentView,
  CampaignListQuery,
  CampaignPlacementView,
  CreateAssignmentBody,
  CreateCampaignBody,
  CreateLinkBody,
  CreateRuleBody,
  RuleView,
  UpdateAssignmentBody,
  UpdateCampaignBody,
  UpdateRuleBody,
} from './campaigns.schemas';
import { operatorAllowed, parseRuleValue, RULE_GRAMMAR } from './campaigns.targeting';
import { canTransition, LIFECYCLE_ROUTES, type LifecycleAction } from './campaigns.transitions';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export const toAdminCampaign = (r: areaRepo.CampaignRow): AdminCampaign => ({
  publicId: r.publicId,
  name: r.name,
  description: r.description,
  source: r.source,
  status: r.status,
  startsAt: iso(r.startsAt),
  endsAt: iso(r.endsAt),
  budgetTotalPaisa: r.budgetTotalPaisa,
  budgetDailyPaisa: r.budgetDailyPaisa,
  impressionCap: r.impressionCap,
  clickCap: r.clickCap,
  advertiserName: r.advertiserName,
  advertiserContact: r.advertiserContact,
  contractRef: r.contractRef,
  priority: r.priority,
  createdBy: r.createdBy,
  createdAt: r.createdAt.toISOString(),
  updatedAt: r.updatedAt.toISOString(),
  deletedAt: iso(r.deletedAt),
});

function checkDates(startsAt: Date | null | undefined, endsAt: Date | null | undefined) {
  if (startsAt && endsAt && startsAt.getTime() >= endsAt.getTime()) throw bannerErrors.campaignDateInvalid();
}

const activity = (action: string, entityType: string, entityId: string, summary: string) => ({
  action,
  entityType,
  entityId,
  summary,
});

// ---------- campaigns ----------

/**
 * Creates a draft: a `status` in the body was dropped by its schema
 * (docs/decisions.md "Campaign schedule").
 */
export function createCampaign(
  deps: BannerDeps,
  actor: UserPrincipal,
  body: CreateCampaignBody,
): Promise<AdminCampaign> {
  checkDates(body.startsAt, body.endsAt);
  return bannerAreaWrite(deps, actor, async (tx, now) => {
    const row = await repo.insertCampaign(tx, {
      ...body,
      status: 'draft',
      publicId: newUuid(),
      createdBy: actor.userId,
      createdAt: now,
      updatedAt: now,
    });
    return {
      result: toAdminCampaign(row),
      activity: activity('create', 'campaign', row.publicId, `Created campaign ${row.name}`),
    };
  });
}

export async function getCampaign(deps: Pick<BannerDeps, 'db'>, publicId: string): Promise<AdminCampaign> {
  const row = await repo.findCampaign(deps.db, publicId);
  if (!row) throw bannerErrors.campaignNotFound();
  return toAdminCampaign(row);
}

export function listCampaigns(deps: BannerDeps, q: CampaignListQuery) {
  return cachedAdminList(deps, 'campaigns', q, async () => {
    const { rows, count } = await repo.listCampaigns(deps.db, q, q.sort, q.order, pageWindow(q));
    return { campaigns: rows.map(toAdminCampaign), meta: pageMeta(q, count) };
  });
}

/** The campaign, locked; a deleted one is only restored (elsewhere it is not found). */
async function liveCampaign(tx: Db, publicId: string, strength: 'update' | 'share' = 'update') {
  const row = await repo.lockCampaign(tx, publicId, strength);
  if (!row || row.deletedAt) throw bannerErrors.campaignNotFound();
  return row;
}

export function updateCampaign(
  deps: BannerDeps,
  actor: UserPrincipal,
  publicId: string,
  body: UpdateCampaignBody,
): Promise<AdminCampaign> {
  return bannerAreaWrite(deps, actor, async (tx, now) => {
    const current = await liveCampaign(tx, publicId);
    const startsAt = body.startsAt === undefined ? current.startsAt : body.startsAt;
    checkDates(startsAt, body.endsAt === undefined ? current.endsAt : body.endsAt);
    if (current.status === 'scheduled' && !startsAt)
      throw bannerErrors.campaignDateInvalid('A scheduled campaign needs startsAt');
    const row = await repo.updateCampaign(tx, current.id, { ...body, updatedAt: now });
    const fields = Object.keys(body).join(', ');
    return {
      result: toAdminCampaign(row),
      activity: activity('update', 'campaign', publicId, `Updated campaign ${row.name}: ${fields}`),
    };
  });
}

/** schedule, activate, pause, end, cancel: the moves of docs/decisions.md "Campaign transitions". */
export function moveCampaign(
  deps: BannerDeps,
  actor: UserPrincipal,
  publicId: string,
  action: LifecycleAction,
): Promise<AdminCampaign> {
  const to = LIFECYCLE_ROUTES[action];
  return bannerAreaWrite(deps, actor, async (tx, now) => {
    const current = await liveCampaign(tx, publicId);
    if (!canTransition(current.status, to)) throw bannerErrors.campaignInvalidTransition(current.status, to);
    if (to === 'scheduled' && !current.startsAt)
      throw bannerErrors.campaignDateInvalid('startsAt is required to schedule a campaign');
    const row = await repo.transitionCampaign(tx, current.id, [current.status], to, now);
    if (!row) throw bannerErrors.campaignInvalidTransition(current.status, to);
    return {
      result: toAdminCampaign(row),
      activity: activity(action, 'campaign', publicId, `Campaign ${row.name}: ${current.status} → ${to}`),
    };
  });
}

export function deleteCampaign(
  deps: BannerDeps,
  actor: UserPrincipal,
  publicId: string,
): Promise<AdminCampaign> {
  return bannerAreaWrite(deps, actor, async (tx, now) => {
    const current = await repo.lockCampaign(tx, publicId);
    if (!current) throw bannerErrors.campaignNotFound();
    if (current.deletedAt) throw bannerErrors.campaignAlreadyDeleted();
    const row = await repo.updateCampaign(tx, current.id, { deletedAt: now, updatedAt: now });
    return {
      result: toAdminCampaign(row),
      activity: activity('delete', 'campaign', publicId, `Deleted campaign ${row.name}`),
    };
  });
}

export function restoreCampaign(
  deps: BannerDeps,
  actor: UserPrincipal,
  publicId: string,
): Promise<AdminCampaign> {
  return bannerAreaWrite(deps, actor, async (tx, now) => {
    const current = await repo.lockCampaign(tx, publicId);
    if (!current) throw bannerErrors.campaignNotFound();
    if (!current.deletedAt) throw bannerErrors.campaignNotDeleted();
    const row = await repo.updateCampaign(tx, current.id, { deletedAt: null, updatedAt: now });
    return {
      result: toAdminCampaign(row),
      activity: activity('restore', 'campaign', publicId, `Restored campaign ${row.name}`),
    };
  });
}

// ---------- campaign placements ----------

const toLinkView = (
  link: areaRepo.LinkRow,
  campaign: areaRepo.CampaignRow,
  placement: areaRepo.PlacementRow,
): CampaignPlacementView => ({
  campaignPublicId: campaign.publicId,
  placementPublicId: placement.publicId,
  placementSlug: placement.slug,
  isActive: link.isActive,
  createdAt: link.createdAt.toISOString(),
  updatedAt: link.updatedAt.toISOString(),
});

/** The placements a campaign is linked to (interface gap: only link writes are listed there). */
export async function listLinks(
  deps: BannerDeps,
  campaignPublicId: string,
): Promise<CampaignPlacementView[]> {
  const campaign = await repo.findCampaign(deps.db, campaignPublicId);
  if (!campaign || campaign.deletedAt) throw bannerErrors.campaignNotFound();
  const rows = await repo.listLinks(deps.db, campaign.id);
  return rows.map((r) => toLinkView(r.link, campaign, r.placement));
}

/** The campaign (live), the placement (locked FOR SHARE against its delete) and their link. */
async function resolveLink(tx: Db, campaignPublicId: string, placementPublicId: string) {
  const campaign = await liveCampaign(tx, campaignPublicId, 'share');
  const placement = await placementRepo.lockPlacement(tx, placementPublicId, 'share');
  if (!placement) throw bannerErrors.placementNotFound();
  const link = await repo.findLink(tx, campaign.id, placement.id);
  if (!link) throw bannerErrors.campaignPlacementNotFound();
  return { campaign, placement, link };
}

const linkId = (campaignPublicId: string, placementPublicId: string) =>
  `${campaignPublicId}/${placementPublicId}`;

export function createLink(
  deps: BannerDeps,
  actor: UserPrincipal,
  campaignPublicId: string,
  body: CreateLinkBody,
): Promise<CampaignPlacementView> {
  return bannerAreaWrite(deps, actor, async (tx, now) => {
    const campaign = await liveCampaign(tx, campaignPublicId, 'share');
    const placement = await placementRepo.lockPlacement(tx, body.placementPublicId, 'share');
    if (!placement) throw bannerErrors.placementNotFound();
    const link = await repo.insertLink(tx, {
      campaignId: campaign.id,
      placementId: placement.id,
      isActive: body.isActive ?? true,
      createdAt: now,
      updatedAt: now,
    });
    return {
      result: toLinkView(link, campaign, placement),
      activity: activity(
        'create',
        'campaign_placement',
        linkId(campaign.publicId, placement.publicId),
        `Linked campaign ${campaign.name} to placement ${placement.slug}`,
      ),
    };
  });
}

export function setLinkActive(
  deps: BannerDeps,
  actor: UserPrincipal,
  campaignPublicId: string,
  placementPublicId: string,
  isActive: boolean,
): Promise<CampaignPlacementView> {
  return bannerAreaWrite(deps, actor, async (tx, now) => {
    const { campaign, placement, link } = await resolveLink(tx, campaignPublicId, placementPublicId);
    const row = await repo.setLinkActive(tx, link.id, isActive, now);
    if (!row) throw bannerErrors.campaignPlacementNotFound();
    return {
      result: toLinkView(row, campaign, placement),
      activity: activity(
        isActive ? 'activate' : 'deactivate',
        'campaign_placement',
        linkId(campaignPublicId, placementPublicId),
        `${isActive ? 'Activated' : 'Deactivated'} campaign ${campaign.name} in placement ${placement.slug}`,
      ),
    };
  });
}

/** Removes the link and, with it, the banners assigned through it. */
export function deleteLink(
  deps: BannerDeps,
  actor: UserPrincipal,
  campaignPublicId: string,
  placementPublicId: string,
): Promise<void> {
  return bannerAreaWrite(deps, actor, async (tx) => {
    const { campaign, placement, link } = await resolveLink(tx, campaignPublicId, placementPublicId);
    if (!(await repo.deleteLink(tx, link.id))) throw bannerErrors.campaignPlacementNotFound();
    return {
      result: undefined,
      activity: activity(
        'delete',
        'campaign_placement',
        linkId(campaignPublicId, placementPublicId),
        `Unlinked campaign ${campaign.name} from placement ${placement.slug}`,
      ),
    };
  });
}

// ---------- assignments ----------

const toAssignmentView = (
  a: areaRepo.AssignmentRow,
  campaignPublicId: string,
  placementPublicId: string,
  banner: { publicId: string; title: string },
): AssignmentView => ({
  campaignPublicId,
  placementPublicId,
  bannerPublicId: banner.publicId,
  bannerTitle: banner.title,
  displayOrder: a.displayOrder,
  weight: a.weight,
  isFallback: a.isFallback,
  fallbackPriority: a.fallbackPriority,
  isActive: a.isActive,
  overrideCtaLabel: a.overrideCtaLabel,
  overrideCtaUrl: a.overrideCtaUrl,
  overrideHeadline: a.overrideHeadline,
  overrideSubheadline: a.overrideSubheadline,
  transitionDurationMs: a.transitionDurationMs,
  createdAt: a.createdAt.toISOString(),
  updatedAt: a.updatedAt.toISOString(),
});

export async function listAssignments(
  deps: BannerDeps,
  campaignPublicId: string,
  placementPublicId: string,
): Promise<AssignmentView[]> {
  const campaign = await repo.findCampaign(deps.db, campaignPublicId);
  if (!campaign || campaign.deletedAt) throw bannerErrors.campaignNotFound();
  const placement = await placementRepo.findPlacement(deps.db, placementPublicId);
  if (!placement) throw bannerErrors.placementNotFound();
  if (!(await repo.findLink(deps.db, campaign.id, placement.id)))
    throw bannerErrors.campaignPlacementNotFound();
  const rows = await repo.listAssignments(deps.db, campaign.id, placement.id);
  return rows.map((r) =>
    toAssignmentView(r.assignment, campaignPublicId, placementPublicId, {
      publicId: r.bannerPublicId,
      title: r.bannerTitle,
    }),
  );
}

async function liveBannerOf(tx: Db, publicId: string) {
  const banner = await bannerRepo.findBanner(tx, publicId);
  if (!banner || banner.deletedAt) throw bannerErrors.bannerNotFound();
  return banner;
}

export function createAssignment(
  deps: BannerDeps,
  actor: UserPrincipal,
  campaignPublicId: string,
  placementPublicId: string,
  body: CreateAssignmentBody,
): Promise<AssignmentView> {
  return bannerAreaWrite(deps, actor, async (tx, now) => {
    const { campaign, placement } = await resolveLink(tx, campaignPublicId, placementPublicId);
    const banner = await liveBannerOf(tx, body.bannerPublicId);
    const { bannerPublicId: _, ...fields } = body;
    const row = await repo.insertAssignment(tx, {
      ...fields,
      campaignId: campaign.id,
      placementId: placement.id,
      bannerId: banner.id,
      createdAt: now,
      updatedAt: now,
    });
    return {
      result: toAssignmentView(row, campaignPublicId, placementPublicId, banner),
      activity: activity(
        'create',
        'banner_assignment',
        `${linkId(campaignPublicId, placementPublicId)}/${banner.publicId}`,
        `Assigned banner ${banner.title} to campaign ${campaign.name} in placement ${placement.slug}`,
      ),
    };
  });
}

export function updateAssignment(
  deps: BannerDeps,
  actor: UserPrincipal,
  ids: { publicId: string; placementPublicId: string; bannerPublicId: string },
  body: UpdateAssignmentBody & { isActive?: boolean },
  action = 'update',
): Promise<AssignmentView> {
  return bannerAreaWrite(deps, actor, async (tx, now) => {
    const { campaign, placement } = await resolveLink(tx, ids.publicId, ids.placementPublicId);
    const banner = await bannerRepo.findBanner(tx, ids.bannerPublicId);
    if (!banner) throw bannerErrors.assignmentNotFound();
    const row = await repo.updateAssignment(
      tx,
      { campaignId: campaign.id, placementId: placement.id, bannerId: banner.id },
      { ...body, updatedAt: now },
    );
    if (!row) throw bannerErrors.assignmentNotFound();
    return {
      result: toAssignmentView(row, ids.publicId, ids.placementPublicId, banner),
      activity: activity(
        action,
        'banner_assignment',
        `${linkId(ids.publicId, ids.placementPublicId)}/${banner.publicId}`,
        `${action === 'update' ? `Updated (${Object.keys(body).join(', ')})` : action === 'activate' ? 'Activated' : 'Deactivated'} banner ${banner.title} in campaign ${campaign.name}, placement ${placement.slug}`,
      ),
    };
  });
}

export function deleteAssignment(
  deps: BannerDeps,
  actor: UserPrincipal,
  ids: { publicId: string; placementPublicId: string; bannerPublicId: string },
): Promise<void> {
  return bannerAreaWrite(deps, actor, async (tx) => {
    const { campaign, placement } = await resolveLink(tx, ids.publicId, ids.placementPublicId);
    const banner = await bannerRepo.findBanner(tx, ids.bannerPublicId);
    if (!banner) throw bannerErrors.assignmentNotFound();
    const removed = await repo.deleteAssignment(tx, {
      campaignId: campaign.id,
      placementId: placement.id,
      bannerId: banner.id,
    });
    if (!removed) throw bannerErrors.assignmentNotFound();
    return {
      result: undefined,
      activity: activity(
        'delete',
        'banner_assignment',
        `${linkId(ids.publicId, ids.placementPublicId)}/${banner.publicId}`,
        `Removed banner ${banner.title} from campaign ${campaign.name} in placement ${placement.slug}`,
      ),
    };
  });
}

// ---------- targeting rules ----------

const toRuleView = (r: areaRepo.RuleRow, campaignPublicId: string): RuleView => ({
  publicId: r.publicId,
  campaignPublicId,
  ruleType: r.ruleType,
  operator: r.operator,
  value: r.value,
  isActive: r.isActive,
  createdAt: r.createdAt.toISOString(),
  updatedAt: r.updatedAt.toISOString(),
});

/** Operator first (its own code), then the value's shape (VALIDATION_ERROR with details). */
function checkedRule(ruleType: RuleType, operator: string, value: unknown): unknown {
  if (!operatorAllowed(ruleType, operator))
    throw bannerErrors.ruleOperatorInvalid(ruleType, operator, RULE_GRAMMAR[ruleType].operators);
  const parsed = parseRuleValue(ruleType, value);
  if (!parsed.ok) throw httpErrors.validation(parsed.issues, `The value does not fit a ${ruleType} rule`);
  return parsed.value;
}

export async function listRules(deps: BannerDeps, campaignPublicId: string): Promise<RuleView[]> {
  const campaign = await repo.findCampaign(deps.db, campaignPublicId);
  if (!campaign || campaign.deletedAt) throw bannerErrors.campaignNotFound();
  return (await repo.listRules(deps.db, campaign.id)).map((r) => toRuleView(r, campaignPublicId));
}

export function createRule(deps: BannerDeps, actor: UserPrincipal, body: CreateRuleBody): Promise<RuleView> {
  const value = checkedRule(body.ruleType, body.operator, body.value);
  return bannerAreaWrite(deps, actor, async (tx, now) => {
    const campaign = await liveCampaign(tx, body.campaignPublicId, 'share');
    const row = await repo.insertRule(tx, {
      publicId: newUuid(),
      campaignId: campaign.id,
      ruleType: body.ruleType,
      operator: body.operator,
      value,
      isActive: body.isActive ?? true,
      createdAt: now,
      updatedAt: now,
    });
    return {
      result: toRuleView(row, campaign.publicId),
      activity: activity(
        'create',
        'targeting_rule',
        row.publicId,
        `Added ${row.ruleType} ${row.operator} rule to campaign ${campaign.name}`,
      ),
    };
  });
}

export function updateRule(
  deps: BannerDeps,
  actor: UserPrincipal,
  publicId: string,
  body: UpdateRuleBody,
): Promise<RuleView> {
  return bannerAreaWrite(deps, actor, async (tx, now) => {
    const current = await repo.lockRule(tx, publicId);
    if (!current) throw bannerErrors.ruleNotFound();
    const campaign = await repo.findCampaignById(tx, current.campaignId);
    if (!campaign || campaign.deletedAt) throw bannerErrors.ruleNotFound();
    const ruleType = body.ruleType ?? current.ruleType;
    const operator = body.operator ?? current.operator;
    const value = checkedRule(ruleType, operator, body.value === undefined ? current.value : body.value);
    const row = await repo.updateRule(tx, current.id, {
      ruleType,
      operator,
      value,
      ...(body.isActive === undefined ? {} : { isActive: body.isActive }),
      updatedAt: now,
    });
    return {
      result: toRuleView(row, campaign.publicId),
      activity: activity(
        'update',
        'targeting_rule',
        publicId,
        `Updated ${row.ruleType} rule of campaign ${campaign.name}: ${Object.keys(body).join(', ')}`,
      ),
    };
  });
}

export function deleteRule(deps: BannerDeps, actor: UserPrincipal, publicId: string): Promise<void> {
  return bannerAreaWrite(deps, actor, async (tx) => {
    const current = await repo.lockRule(tx, publicId);
    if (!current) throw bannerErrors.ruleNotFound();
    await repo.deleteRule(tx, current.id);
    return {
      result: undefined,
      activity: activity('delete', 'targeting_rule', publicId, `Deleted ${current.ruleType} targeting rule`),
    };
  });
}
