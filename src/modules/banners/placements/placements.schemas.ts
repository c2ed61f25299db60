// Request and response schemas of placements.
import { z } from 'zod';
import { atLeastOneField, booleanQuery, safeUrl, searchTerm } from '../../../platform/http/fields';
import { paginationQuery } from '../../../platform/http/pagination';
import { iso, required, text } from '../banners.schemas';
import { LAYOUT_TYPES } from '../banners.table';

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
