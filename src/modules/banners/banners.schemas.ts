// Request and response schemas of the banner area: banners, placements, campaigns, links and
// assignments, targeting rules, serving and tracking.
import { z } from 'zod';
import { atLeastOneField, booleanQuery, safeUrl, searchTerm } from '../../platform/http/fields';
import { paginationQuery } from '../../platform/http/pagination';
import { intId } from '../../platform/http/params';
import {
  BANNER_SOURCES,
  CAMPAIGN_STATUSES,
  LAYOUT_TYPES,
  RULE_TYPES,
  SCHEDULE_STATUSES,
} from './banners.table';
import { isTimeZone } from './targeting';

const text = (max: number) => z.string().trim().max(max);
const required = (max: number) => z.string().trim().min(1).max(max);
const timestamp = z.iso.datetime({ offset: true }).transform((v) => new Date(v));
const clockTime = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d:[0-5]\d$/, 'must be HH:MM:SS');
export const publicIdParams = z.object({ publicId: z.uuid({ error: 'must be a uuid' }) });
export const linkParams = publicIdParams.extend({
  placementPublicId: z.uuid({ error: 'must be a uuid' }),
});
export const assignmentParams = linkParams.extend({ bannerPublicId: z.uuid({ error: 'must be a uuid' }) });

// ---------- banners ----------

const scheduleFields = {
  scheduleStatus: z.enum(SCHEDULE_STATUSES),
  publishAt: timestamp.nullable(),
  expiresAt: timestamp.nullable(),
  scheduleTimezone: z.string().trim().min(1).max(64).refine(isTimeZone, 'must be an IANA time zone'),
  recurrenceRule: text(500).nullable(),
  recurrenceWindowStart: clockTime.nullable(),
  recurrenceWindowEnd: clockTime.nullable(),
};

const bannerFields = {
  title: required(255),
  description: text(10_000).nullable(),
  source: z.enum(BANNER_SOURCES),
  isActive: z.boolean(),
  primaryImageUrl: safeUrl,
  primaryImageAlt: text(255).nullable(),
  mobileImageUrl: safeUrl.nullable(),
  videoUrl: safeUrl.nullable(),
  mediaVariants: z.record(z.string().min(1).max(64), safeUrl),
  headline: text(255).nullable(),
  subheadline: text(255).nullable(),
  ctaLabel: text(100).nullable(),
  ctaUrl: safeUrl.nullable(),
  ctaOpenNewTab: z.boolean(),
  utmSource: text(100).nullable(),
  utmMedium: text(100).nullable(),
  utmCampaign: text(100).nullable(),
  utmContent: text(100).nullable(),
  brandId: intId.nullable(),
  categoryId: intId.nullable(),
  productId: intId.nullable(),
  tags: z
    .array(required(100))
    .max(50)
    .transform((t) => [...new Set(t)]),
  bgColor: z
    .string()
    .regex(/^#[0-9A-Fa-f]{6}$/, 'must be a hex colour #RRGGBB')
    .nullable(),
  priority: z.number().int().min(0).max(1_000_000),
  seoId: z.uuid().nullable(),
  isEvergreenFallback: z.boolean(),
  fallbackPlaceholderUrl: safeUrl.nullable(),
  ...scheduleFields,
};

/** `status`-like fields the server owns (createdBy, dates) are not accepted; unknown keys are dropped. */
export const createBannerBody = z
  .object(bannerFields)
  .partial()
  .required({ title: true, primaryImageUrl: true });
export type CreateBannerBody = z.output<typeof createBannerBody>;

export const updateBannerBody = z
  .object(bannerFields)
  .partial()
  .refine(...atLeastOneField);
export type UpdateBannerBody = z.output<typeof updateBannerBody>;

export const scheduleBannerBody = z
  .object(scheduleFields)
  .partial()
  .refine(...atLeastOneField);
export type ScheduleBannerBody = z.output<typeof scheduleBannerBody>;

export const BANNER_SORTS = [
  'updatedAt',
  'createdAt',
  'priority',
  'publishAt',
  'expiresAt',
  'title',
] as const;
export const bannerListQuery = paginationQuery.extend({
  sort: z.enum(BANNER_SORTS).default('updatedAt'),
  search: searchTerm,
  isActive: booleanQuery.optional(),
  scheduleStatus: z.enum(SCHEDULE_STATUSES).optional(),
  brandId: intId.optional(),
  categoryId: intId.optional(),
  includeDeleted: booleanQuery.default(false),
});
export type BannerListQuery = z.output<typeof bannerListQuery>;

const iso = z.iso.datetime();
export const adminBanner = z.object({
  publicId: z.uuid(),
  title: z.string(),
  description: z.string().nullable(),
  source: z.enum(BANNER_SOURCES),
  isActive: z.boolean(),
  primaryImageUrl: z.string(),
  primaryImageAlt: z.string().nullable(),
  mobileImageUrl: z.string().nullable(),
  videoUrl: z.string().nullable(),
  mediaVariants: z.record(z.string(), z.string()),
  headline: z.string().nullable(),
  subheadline: z.string().nullable(),
  ctaLabel: z.string().nullable(),
  ctaUrl: z.string().nullable(),
  ctaOpenNewTab: z.boolean(),
  utmSource: z.string().nullable(),
  utmMedium: z.string().nullable(),
  utmCampaign: z.string().nullable(),
  utmContent: z.string().nullable(),
  brandId: z.number().int().nullable(),
  categoryId: z.number().int().nullable(),
  productId: z.number().int().nullable(),
  tags: z.array(z.string()),
  bgColor: z.string().nullable(),
  priority: z.number().int(),
  seoId: z.string().nullable(),
  publishAt: iso.nullable(),
  expiresAt: iso.nullable(),
  scheduleTimezone: z.string(),
  recurrenceRule: z.string().nullable(),
  recurrenceWindowStart: z.string().nullable(),
  recurrenceWindowEnd: z.string().nullable(),
  scheduleStatus: z.enum(SCHEDULE_STATUSES),
  isEvergreenFallback: z.boolean(),
  fallbackPlaceholderUrl: z.string().nullable(),
  createdBy: z.string().nullable(),
  createdAt: iso,
  updatedAt: iso,
  deletedAt: iso.nullable(),
});
export type AdminBanner = z.infer<typeof adminBanner>;

export const bannerListEnvelope = z.object({
  message: z.string(),
  data: z.array(adminBanner),
  pagination: z
    .object({ count: z.number().int(), page: z.number().int(), size: z.number().int() })
    .optional()
    .describe('Present when pagination is on'),
});

// ---------- placements ----------

const placementFields = {
  slug: z
    .string()
    .trim()
    .min(1)
    .max(100)
    .regex(/^[a-z0-9]+(?:[-_][a-z0-9]+)*$/, 'lowercase letters, digits, single hyphens or underscores'),
  label: required(255),
  layoutType: z.enum(LAYOUT_TYPES),
  pageContext: text(100).nullable(),
  maxBanners: z.number().int().min(1).max(100),
  recommendedWidth: z.number().int().min(1).max(100_000).nullable(),
  recommendedHeight: z.number().int().min(1).max(100_000).nullable(),
  recommendedAspectRatio: text(20).nullable(),
  notes: text(5000).nullable(),
  isActive: z.boolean(),
  sortOrder: z.number().int().min(0).max(1_000_000),
  fallbackPlaceholderUrl: safeUrl.nullable(),
  allowPartialRender: z.boolean(),
};
export const createPlacementBody = z
  .object(placementFields)
  .partial()
  .required({ slug: true, label: true, layoutType: true });
export type CreatePlacementBody = z.output<typeof createPlacementBody>;
export const updatePlacementBody = z
  .object(placementFields)
  .partial()
  .refine(...atLeastOneField);
export type UpdatePlacementBody = z.output<typeof updatePlacementBody>;

export const PLACEMENT_SORTS = ['sortOrder', 'createdAt', 'updatedAt', 'slug', 'label'] as const;
export const placementListQuery = paginationQuery.extend({
  sort: z.enum(PLACEMENT_SORTS).default('sortOrder'),
  order: z.enum(['asc', 'desc']).default('asc'),
  search: searchTerm,
  isActive: booleanQuery.optional(),
  pageContext: text(100).optional(),
  layoutType: z.enum(LAYOUT_TYPES).optional(),
});
export type PlacementListQuery = z.output<typeof placementListQuery>;

export const adminPlacement = z.object({
  publicId: z.uuid(),
  slug: z.string(),
  label: z.string(),
  layoutType: z.enum(LAYOUT_TYPES),
  pageContext: z.string().nullable(),
  maxBanners: z.number().int(),
  recommendedWidth: z.number().int().nullable(),
  recommendedHeight: z.number().int().nullable(),
  recommendedAspectRatio: z.string().nullable(),
  notes: z.string().nullable(),
  isActive: z.boolean(),
  sortOrder: z.number().int(),
  fallbackPlaceholderUrl: z.string().nullable(),
  allowPartialRender: z.boolean(),
  createdAt: iso,
  updatedAt: iso,
});
export type AdminPlacement = z.infer<typeof adminPlacement>;

// ---------- campaigns ----------

const paisa = z.number().int().min(0).max(1_000_000_000_000_000);
const campaignFields = {
  name: required(255),
  description: text(10_000).nullable(),
  source: z.enum(BANNER_SOURCES),
  startsAt: timestamp.nullable(),
  endsAt: timestamp.nullable(),
  budgetTotalPaisa: paisa.nullable(),
  budgetDailyPaisa: paisa.nullable(),
  impressionCap: z.number().int().min(0).max(2_000_000_000).nullable(),
  clickCap: z.number().int().min(0).max(2_000_000_000).nullable(),
  advertiserName: text(255).nullable(),
  advertiserContact: text(255).nullable(),
  contractRef: text(255).nullable(),
  priority: z.number().int().min(0).max(1_000_000),
};
/** A `status` in the body is dropped: a new campaign is always a draft (decisions.md). */
export const createCampaignBody = z.object(campaignFields).partial().required({ name: true });
export type CreateCampaignBody = z.output<typeof createCampaignBody>;
export const updateCampaignBody = z
  .object(campaignFields)
  .partial()
  .refine(...atLeastOneField);
export type UpdateCampaignBody = z.output<typeof updateCampaignBody>;

export const CAMPAIGN_SORTS = ['updatedAt', 'createdAt', 'startsAt', 'endsAt', 'name', 'priority'] as const;
export const campaignListQuery = paginationQuery.extend({
  sort: z.enum(CAMPAIGN_SORTS).default('updatedAt'),
  search: searchTerm,
  status: z.enum(CAMPAIGN_STATUSES).optional(),
  source: z.enum(BANNER_SOURCES).optional(),
  includeDeleted: booleanQuery.default(false),
});
export type CampaignListQuery = z.output<typeof campaignListQuery>;

export const adminCampaign = z.object({
  publicId: z.uuid(),
  name: z.string(),
  description: z.string().nullable(),
  source: z.enum(BANNER_SOURCES),
  status: z.enum(CAMPAIGN_STATUSES),
  startsAt: iso.nullable(),
  endsAt: iso.nullable(),
  budgetTotalPaisa: z.number().int().nullable(),
  budgetDailyPaisa: z.number().int().nullable(),
  impressionCap: z.number().int().nullable(),
  clickCap: z.number().int().nullable(),
  advertiserName: z.string().nullable(),
  advertiserContact: z.string().nullable(),
  contractRef: z.string().nullable(),
  priority: z.number().int(),
  createdBy: z.string().nullable(),
  createdAt: iso,
  updatedAt: iso,
  deletedAt: iso.nullable(),
});
export type AdminCampaign = z.infer<typeof adminCampaign>;

// ---------- campaign placements and assignments ----------

export const createLinkBody = z.object({
  placementPublicId: z.uuid(),
  isActive: z.boolean().optional(),
});
export type CreateLinkBody = z.output<typeof createLinkBody>;

export const campaignPlacementView = z.object({
  campaignPublicId: z.uuid(),
  placementPublicId: z.uuid(),
  placementSlug: z.string(),
  isActive: z.boolean(),
  createdAt: iso,
  updatedAt: iso,
});
export type CampaignPlacementView = z.infer<typeof campaignPlacementView>;

const assignmentFields = {
  displayOrder: z.number().int().min(0).max(1_000_000),
  weight: z.number().int().min(0).max(1_000_000),
  isFallback: z.boolean(),
  fallbackPriority: z.number().int().min(0).max(1_000_000),
  overrideCtaLabel: text(100).nullable(),
  overrideCtaUrl: safeUrl.nullable(),
  overrideHeadline: text(255).nullable(),
  overrideSubheadline: text(255).nullable(),
  transitionDurationMs: z.number().int().min(0).max(600_000).nullable(),
};
export const createAssignmentBody = z
  .object({ bannerPublicId: z.uuid(), ...assignmentFields })
  .partial()
  .required({
    bannerPublicId: true,
  });
export type CreateAssignmentBody = z.output<typeof createAssignmentBody>;
export const updateAssignmentBody = z
  .object(assignmentFields)
  .partial()
  .refine(...atLeastOneField);
export type UpdateAssignmentBody = z.output<typeof updateAssignmentBody>;

export const assignmentView = z.object({
  campaignPublicId: z.uuid(),
  placementPublicId: z.uuid(),
  bannerPublicId: z.uuid(),
  bannerTitle: z.string(),
  displayOrder: z.number().int(),
  weight: z.number().int(),
  isFallback: z.boolean(),
  fallbackPriority: z.number().int(),
  isActive: z.boolean(),
  overrideCtaLabel: z.string().nullable(),
  overrideCtaUrl: z.string().nullable(),
  overrideHeadline: z.string().nullable(),
  overrideSubheadline: z.string().nullable(),
  transitionDurationMs: z.number().int().nullable(),
  createdAt: iso,
  updatedAt: iso,
});
export type AssignmentView = z.infer<typeof assignmentView>;

// ---------- targeting rules ----------

const ruleValue = z
  .unknown()
  .refine((v) => v !== undefined, 'value is required')
  .describe('Shape depends on ruleType (docs/api-notes.md, "Targeting rules")');
export const ruleListQuery = z.object({ campaignPublicId: z.uuid() });
export const createRuleBody = z.object({
  campaignPublicId: z.uuid(),
  ruleType: z.enum(RULE_TYPES),
  operator: required(32),
  value: ruleValue,
  isActive: z.boolean().optional(),
});
export type CreateRuleBody = z.output<typeof createRuleBody>;
export const updateRuleBody = z
  .object({
    ruleType: z.enum(RULE_TYPES),
    operator: required(32),
    value: z.unknown(),
    isActive: z.boolean(),
  })
  .partial()
  .refine(...atLeastOneField);
export type UpdateRuleBody = z.output<typeof updateRuleBody>;

export const ruleView = z.object({
  publicId: z.uuid(),
  campaignPublicId: z.uuid(),
  ruleType: z.enum(RULE_TYPES),
  operator: z.string(),
  value: z.unknown(),
  isActive: z.boolean(),
  createdAt: iso,
  updatedAt: iso,
});
export type RuleView = z.infer<typeof ruleView>;

// ---------- serving ----------

export const slugParams = z.object({ slug: z.string().min(1).max(100) });

export const servedBanner = z.object({
  publicId: z.uuid(),
  title: z.string(),
  primaryImageUrl: z.string(),
  primaryImageAlt: z.string().nullable(),
  mobileImageUrl: z.string().nullable(),
  videoUrl: z.string().nullable(),
  mediaVariants: z.record(z.string(), z.string()),
  headline: z.string().nullable(),
  subheadline: z.string().nullable(),
  ctaLabel: z.string().nullable(),
  ctaUrl: z.string().nullable(),
  ctaOpenNewTab: z.boolean(),
  utmSource: z.string().nullable(),
  utmMedium: z.string().nullable(),
  utmCampaign: z.string().nullable(),
  utmContent: z.string().nullable(),
  bgColor: z.string().nullable(),
  transitionDurationMs: z.number().int().nullable(),
  isFallback: z.boolean(),
  displayOrder: z.number().int(),
});
export type ServedBanner = z.infer<typeof servedBanner>;

export const servedPlacement = z.object({
  slug: z.string(),
  label: z.string(),
  layoutType: z.enum(LAYOUT_TYPES),
  maxBanners: z.number().int(),
  allowPartialRender: z.boolean(),
  fallbackPlaceholderUrl: z.string().nullable(),
});
export type ServedPlacement = z.infer<typeof servedPlacement>;

/** What the serving cache holds (as JSON text): everything but `servedAt`. */
export const servedSelection = z.object({
  placement: servedPlacement,
  banners: z.array(servedBanner),
});

export const serveResult = servedSelection.extend({ servedAt: iso });
export type ServeResult = z.infer<typeof serveResult>;

// ---------- tracking ----------

const trackingFields = {
  bannerPublicId: z.uuid(),
  placementPublicId: z.uuid(),
  campaignPublicId: z.uuid().optional(),
  sessionId: z.string().min(1).max(128).optional(),
  userId: z.uuid().optional(),
  deviceType: z.string().min(1).max(20).optional(),
  countryCode: z
    .string()
    .regex(/^[A-Za-z]{1,2}$/, 'must be a country code of at most 2 letters')
    .transform((c) => c.toUpperCase())
    .optional(),
  pageUrl: z.string().min(1).max(2048).optional(),
  occurredAt: z.iso.datetime({ offset: true }),
  correlationId: z.string().trim().min(1).max(128),
};
export const impressionBody = z.object({
  ...trackingFields,
  referrerUrl: z.string().min(1).max(2048).optional(),
});
export type ImpressionBody = z.output<typeof impressionBody>;
export const clickBody = z.object({ ...trackingFields, destinationUrl: safeUrl });
export type ClickBody = z.output<typeof clickBody>;

export const trackingAccepted = z.object({ message: z.string(), data: z.null() });
