import { z } from 'zod';
import { listQuery } from '../../../platform/http/pagination';
import { intId } from '../../../platform/http/params';
import { atLeastOneField, booleanQuery, safeUrl, searchTerm, slug, timestamps } from '../catalog.schemas';

const name = z.string().trim().min(1).max(120);

// ---------- categories ----------

export const category = z
  .object({
    id: z.number().int(),
    name: z.string(),
    slug: z.string(),
    parentId: z.number().int().nullable(),
    description: z.string().nullable(),
    imageUrl: z.string().nullable(),
    isActive: z.boolean(),
    position: z.number().int(),
    seoId: z.uuid().nullable(),
    ...timestamps,
  })
  .meta({ id: 'Category' });
export type CategoryView = z.infer<typeof category>;

const categoryFields = {
  name,
  slug: slug.describe('Generated from the name when left out'),
  parentId: intId.nullable(),
  description: z.string().trim().max(5000).nullable(),
  imageUrl: safeUrl.nullable(),
  isActive: z.boolean(),
  position: z.number().int().min(0).max(1_000_000),
  seoId: z.uuid().nullable(),
};
export const createCategoryBody = z.object(categoryFields).partial().required({ name: true });
export type CreateCategoryBody = z.output<typeof createCategoryBody>;
export const updateCategoryBody = z
  .object(categoryFields)
  .partial()
  .refine(...atLeastOneField);
export type UpdateCategoryBody = z.output<typeof updateCategoryBody>;

export const categoryListQuery = listQuery(['position', 'name', 'createdAt', 'updatedAt'] as const).extend({
  search: searchTerm.describe('Part of the name'),
  parentId: z
    .union([z.literal('root'), intId])
    .optional()
    .describe('Children of this category; `root` for top-level ones'),
  isActive: booleanQuery.optional(),
});
export type CategoryListQuery = z.output<typeof categoryListQuery>;

export const publicCategory = z
  .object({
    id: z.number().int(),
    name: z.string(),
    slug: z.string(),
    parentId: z.number().int().nullable(),
    description: z.string().nullable(),
    imageUrl: z.string().nullable(),
    position: z.number().int(),
    seoId: z.uuid().nullable(),
    productCount: z.number().int().describe('Published, sellable products here and in every sub-category'),
  })
  .meta({ id: 'PublicCategory' });
export type PublicCategoryView = z.infer<typeof publicCategory>;

// ---------- brands ----------

export const brand = z
  .object({
    id: z.number().int(),
    name: z.string(),
    slug: z.string(),
    logoUrl: z.string().nullable(),
    isActive: z.boolean(),
    ...timestamps,
  })
  .meta({ id: 'Brand' });
export type BrandView = z.infer<typeof brand>;

const brandFields = {
  name,
  slug: slug.describe('Generated from the name when left out'),
  logoUrl: safeUrl.nullable(),
  isActive: z.boolean(),
};
export const createBrandBody = z.object(brandFields).partial().required({ name: true });
export type CreateBrandBody = z.output<typeof createBrandBody>;
export const updateBrandBody = z
  .object(brandFields)
  .partial()
  .refine(...atLeastOneField);
export type UpdateBrandBody = z.output<typeof updateBrandBody>;

export const brandListQuery = listQuery(['name', 'createdAt', 'updatedAt'] as const).extend({
  search: searchTerm.describe('Part of the name'),
  isActive: booleanQuery.optional(),
});
export type BrandListQuery = z.output<typeof brandListQuery>;

export const publicBrand = z
  .object({
    id: z.number().int(),
    name: z.string(),
    slug: z.string(),
    logoUrl: z.string().nullable(),
    productCount: z.number().int().describe('Published, sellable products of the brand'),
  })
  .meta({ id: 'PublicBrand' });
export type PublicBrandView = z.infer<typeof publicBrand>;

// ---------- tags ----------

export const tag = z
  .object({ id: z.number().int(), name: z.string(), slug: z.string(), ...timestamps })
  .meta({ id: 'Tag' });
export type TagView = z.infer<typeof tag>;

const tagFields = { name, slug: slug.describe('Generated from the name when left out') };
export const createTagBody = z.object(tagFields).partial().required({ name: true });
export type CreateTagBody = z.output<typeof createTagBody>;
export const updateTagBody = z
  .object(tagFields)
  .partial()
  .refine(...atLeastOneField);
export type UpdateTagBody = z.output<typeof updateTagBody>;

export const tagListQuery = listQuery(['name', 'createdAt', 'updatedAt'] as const).extend({
  search: searchTerm.describe('Part of the name'),
});
export type TagListQuery = z.output<typeof tagListQuery>;
