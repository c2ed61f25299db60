// The banner area's error codes (interface document 3, "Errors").
import { AppError } from '../../platform/http/errors';

export const bannerErrors = {
  bannerNotFound: () => new AppError(404, 'BANNER_NOT_FOUND', 'Banner not found'),
  bannerAlreadyDeleted: () => new AppError(400, 'BANNER_ALREADY_DELETED', 'The banner is already deleted'),
  bannerNotDeleted: () => new AppError(400, 'BANNER_NOT_DELETED', 'The banner is not deleted'),
  scheduleInvalid: () => new AppError(400, 'BANNER_SCHEDULE_INVALID', 'publishAt must be before expiresAt'),
  seoNotFound: (id: string) => new AppError(404, 'BANNER_SEO_NOT_FOUND', `SEO record ${id} does not exist`),
  /** A brandId, categoryId or productId that names nothing (the catalog's naming: `PRODUCT_BRAND_INVALID`). */
  referenceInvalid: (what: 'BRAND' | 'CATEGORY' | 'PRODUCT', id: number) =>
    new AppError(400, `BANNER_${what}_INVALID`, `${what.toLowerCase()} ${id} does not exist`),

  placementNotFound: () => new AppError(404, 'PLACEMENT_NOT_FOUND', 'Placement not found'),
  placementSlugExists: (slug: string) =>
    new AppError(409, 'PLACEMENT_SLUG_EXISTS', `Another placement already has the slug ${slug}`),
  placementHasActiveAssignments: () =>
    new AppError(
      409,
      'PLACEMENT_HAS_ACTIVE_ASSIGNMENTS',
      'The placement still has active banner assignments',
    ),

  campaignNotFound: () => new AppError(404, 'CAMPAIGN_NOT_FOUND', 'Campaign not found'),
  campaignAlreadyDeleted: () =>
    new AppError(400, 'CAMPAIGN_ALREADY_DELETED', 'The campaign is already deleted'),
  campaignNotDeleted: () => new AppError(400, 'CAMPAIGN_NOT_DELETED', 'The campaign is not deleted'),
  campaignDateInvalid: (message = 'startsAt must be before endsAt') =>
    new AppError(400, 'CAMPAIGN_DATE_INVALID', message),
  campaignInvalidTransition: (from: string, to: string) =>
    new AppError(400, 'CAMPAIGN_INVALID_TRANSITION', `A ${from} campaign cannot become ${to}`, {
      from,
      to,
    }),

  campaignPlacementNotFound: () =>
    new AppError(404, 'CAMPAIGN_PLACEMENT_NOT_FOUND', 'The campaign is not linked to this placement'),
  campaignPlacementExists: () =>
    new AppError(
      409,
      'CAMPAIGN_PLACEMENT_ALREADY_EXISTS',
      'The campaign is already linked to this placement',
    ),
  assignmentNotFound: () =>
    new AppError(404, 'BANNER_ASSIGNMENT_NOT_FOUND', 'The banner is not assigned here'),
  assignmentExists: () =>
    new AppError(409, 'BANNER_ASSIGNMENT_ALREADY_EXISTS', 'The banner is already assigned here'),

  ruleNotFound: () => new AppError(404, 'TARGETING_RULE_NOT_FOUND', 'Targeting rule not found'),
  ruleOperatorInvalid: (ruleType: string, operator: string, allowed: readonly string[]) =>
    new AppError(
      400,
      'TARGETING_RULE_INVALID_OPERATOR',
      `Operator ${operator} is not valid for ${ruleType} (use ${allowed.join(' or ')})`,
    ),
};
