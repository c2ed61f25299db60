// The public serving answer: a placement and its banners, as the visitor sees them.
import { z } from 'zod';
import { adminBanner } from '../banners/banners.schemas';
import { iso } from '../banners.schemas';
import { LAYOUT_TYPES } from '../banners.table';

export const slugParams = z.object({ slug: z.string().min(1).max(100) });

/**
 * A banner as served: the admin view's public fields (in the same order, so the payload stays
 * as it was) and what the serving decides (the assignment's transition and display order).
 */
export const servedBanner = adminBanner
  .pick({
    publicId: true,
    title: true,
    primaryImageUrl: true,
    primaryImageAlt: true,
    mobileImageUrl: true,
    videoUrl: true,
    mediaVariants: true,
    headline: true,
    subheadline: true,
    ctaLabel: true,
    ctaUrl: true,
    ctaOpenNewTab: true,
    utmSource: true,
    utmMedium: true,
    utmCampaign: true,
    utmContent: true,
    bgColor: true,
  })
  .extend({
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
