import { z } from 'zod';
import { paginationQuery } from '../../../platform/http/pagination';
import { bodyRating, queryRating, requiredPlainText } from '../reviews.fields';

const iso = z.string().describe('ISO-8601 instant');
const INT4_MIN = -2_147_483_648;
const INT4_MAX = 2_147_483_647;

const fields = {
  name: requiredPlainText(120).describe('1 to 120 characters after trim; plain text'),
  rating: bodyRating,
  comment: requiredPlainText(5000).describe('non-blank; plain text'),
  imageUrl: z.url().max(500).nullable().describe('null clears it'),
  isVisible: z.boolean(),
  order: z.number().int().min(INT4_MIN).max(INT4_MAX).describe('position on the storefront, smallest first'),
};

export const createTestimonialBody = z
  .object({
    name: fields.name,
    rating: fields.rating,
    comment: fields.comment,
    imageUrl: fields.imageUrl.optional(),
    isVisible: fields.isVisible.default(true),
    order: fields.order.default(0),
  })
  .strict();
export type CreateTestimonialBody = z.output<typeof createTestimonialBody>;

export const updateTestimonialBody = z
  .object({
    name: fields.name.optional(),
    rating: fields.rating.optional(),
    comment: fields.comment.optional(),
    imageUrl: fields.imageUrl.optional(),
    isVisible: fields.isVisible.optional(),
    order: fields.order.optional(),
  })
  .strict()
  .refine((b) => Object.values(b).some((v) => v !== undefined), {
    message: 'give at least one field to change',
  });
export type UpdateTestimonialBody = z.output<typeof updateTestimonialBody>;

export const ADMIN_SORTS = ['order', 'createdAt', 'updatedAt', 'rating'] as const;
export const PUBLIC_SORTS = ['order', 'createdAt', 'rating'] as const;
export type TestimonialSort = (typeof ADMIN_SORTS)[number];

const ascFirst = z.enum(['asc', 'desc']).default('asc');

const booleanQuery = z.enum(['true', 'false']).transform((v) => v === 'true');

export const adminTestimonialListQuery = paginationQuery.extend({
  sort: z.enum(ADMIN_SORTS).default('order'),
  order: ascFirst,
  search: z.string().trim().min(1).max(200).optional().describe('name and comment'),
  isVisible: booleanQuery.optional(),
});
export type AdminTestimonialListQuery = z.output<typeof adminTestimonialListQuery>;

/** The public sort is checked by the service: an unsupported one is TESTIMONIAL_INVALID_SORT. */
export const publicTestimonialListQuery = paginationQuery.extend({
  sort: z
    .string()
    .max(50)
    .default('order')
    .describe(`one of ${PUBLIC_SORTS.join(', ')}`),
  order: ascFirst,
  rating: queryRating.optional().describe('exact rating'),
});
export type PublicTestimonialListQuery = z.output<typeof publicTestimonialListQuery>;

export const testimonial = z
  .object({
    id: z.number().int(),
    name: z.string(),
    rating: z.number().int(),
    comment: z.string(),
    imageUrl: z.string().nullable(),
    isVisible: z.boolean(),
    order: z.number().int(),
    createdAt: iso,
    updatedAt: iso,
  })
  .meta({ id: 'Testimonial' });
export type Testimonial = z.output<typeof testimonial>;

export const publicTestimonial = testimonial
  .omit({ isVisible: true, updatedAt: true })
  .meta({ id: 'PublicTestimonial' });
export type PublicTestimonial = z.output<typeof publicTestimonial>;
