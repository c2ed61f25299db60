import { z } from 'zod';
import { paginationQuery } from '../../../platform/http/pagination';
import { blogSearch } from '../blog.schemas';

export const categoryBody = z.object({
  name: z.string().trim().min(1).max(120),
  description: z.string().trim().max(2000).nullable().optional(),
});
export type CategoryBody = z.output<typeof categoryBody>;

export const updateCategoryBody = categoryBody
  .partial()
  .refine((b) => Object.values(b).some((v) => v !== undefined), {
    message: 'give at least one field to change',
  });
export type UpdateCategoryBody = z.output<typeof updateCategoryBody>;

export const adminCategory = z
  .object({
    id: z.number().int(),
    name: z.string(),
    slug: z.string(),
    description: z.string().nullable(),
    postCount: z.number().int().describe('Posts in the category, drafts included'),
    publishedPostCount: z.number().int(),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .meta({ id: 'AdminBlogCategory' });
export type AdminCategoryView = z.infer<typeof adminCategory>;

export const publicCategory = z
  .object({
    id: z.number().int(),
    name: z.string(),
    slug: z.string(),
    description: z.string().nullable(),
    postCount: z.number().int().describe('Published posts in the category'),
  })
  .meta({ id: 'BlogCategory' });
export type PublicCategoryView = z.infer<typeof publicCategory>;

export const adminCategoryListQuery = paginationQuery.extend({
  sort: z.enum(['name', 'createdAt', 'updatedAt']).default('name'),
  order: z.enum(['asc', 'desc']).default('asc'),
  search: blogSearch.describe('Part of the name or slug, at least 2 characters'),
});
export type AdminCategoryListQuery = z.output<typeof adminCategoryListQuery>;
