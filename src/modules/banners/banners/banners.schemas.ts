// Request and response schemas of banners (the admin routes).
import { z } from 'zod';
import { atLeastOneField, booleanQuery, safeUrl, searchTerm } from '../../../platform/http/fields';
import { paginationQuery } from '../../../platform/http/pagination';
import { intId } from '../../../platform/http/params';
import { clockTime, iso, required, text, timestamp } from '../banners.schemas';
import { BANNER_SOURCES, SCHEDULE_STATUSES } from '../banners.table';
import { isTimeZone } from '../campaigns/campaigns.targeting';

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
