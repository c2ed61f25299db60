import { z } from 'zod';
import { paginationQuery } from '../../../platform/http/pagination';
import { intId } from '../../../platform/http/params';
import { blogPostStatus, blogSearch, categoryRef, ctaView, safeUrl } from '../blog.schemas';

const position = z.number().int().min(0).max(10_000);
const optionalText = (max: number) => z.string().trim().max(max).nullable();

/** ISO-8601: a date-time with offset, or a date (midnight UTC). */
const displayDate = z
  .union([z.iso.datetime({ offset: true }), z.iso.date()])
  .transform((v) => new Date(v.length === 10 ? `${v}T00:00:00.000Z` : v));

const faqInput = z.object({
  question: z.string().trim().min(1).max(500),
  answer: z.string().trim().min(1).max(5000),
  position: position.optional().describe('Default: the index in the array'),
});

const ctaInput = z.object({
  ctaTitle: z.string().trim().min(1).max(255),
  ctaButtonLabel: z.string().trim().min(1).max(100),
  ctaButtonLink: safeUrl,
  position: position.default(0),
});

const videoInput = z.object({
  title: z.string().trim().min(1).max(255),
  videoUrl: safeUrl,
  seoId: z
    .unknown()
    .optional()
    .describe(
      'uuid of an SEO record no other post’s video uses, unique in the payload; missing, invalid, unknown, repeated or taken: 400 BLOG_VIDEO_SEO_INVALID',
    ),
  description: optionalText(5000).optional(),
  thumbnailUrl: safeUrl.nullable().optional(),
  position: position.optional().describe('Default: the index in the array'),
});

const writable = {
  title: z.string().trim().min(1).max(255),
  slug: z
    .string()
    .trim()
    .min(1)
    .max(160)
    .describe('Base of the slug instead of the title; normalised and made unique like a generated one'),
  excerpt: optionalText(1000),
  heroIntro: optionalText(5000),
  body: z.string().max(500_000).describe('HTML; sanitised on write (no scripts, handlers, javascript: URLs)'),
  featuredImageUrl: safeUrl.nullable(),
  featuredImageAlt: optionalText(255),
  displayDate: displayDate.nullable(),
  categoryId: intId.nullable(),
  seoId: z.uuid().nullable().describe('Unknown: 400 BLOG_POST_SEO_NOT_FOUND'),
  status: blogPostStatus,
  productIds: z
    .array(intId)
    .max(50)
    .transform((ids) => [...new Set(ids)])
    .describe('Replaces the whole linked set; every id a published product (else 400 PRODUCT_NOT_FOUND)'),
  faqs: z.array(faqInput).max(50).describe('Replaces every FAQ; [] clears'),
  cta: ctaInput.nullable().describe('Replaces the call-to-action; null removes it'),
  videos: z.array(videoInput).max(20).describe('Replaces every video; [] clears; at most 20'),
};

export const createPostBody = z.object(writable).partial().required({ title: true });
export type CreatePostBody = z.output<typeof createPostBody>;

export const updatePostBody = z
  .object(writable)
  .partial()
  .refine((b) => Object.values(b).some((v) => v !== undefined), {
    message: 'give at least one field to change',
  });
export type UpdatePostBody = z.output<typeof updatePostBody>;

export const bodyPreviewRequest = z.object({ body: writable.body });

export const bodyPreview = z
  .object({
    body: z.string().describe('The HTML a save keeps of the body sent'),
    removed: z
      .boolean()
      .describe('True when the sanitiser takes something away (a tag, an attribute, a link)'),
  })
  .meta({ id: 'BlogBodyPreview' });
export type VideoInput = z.output<typeof videoInput>;

// ---------- responses ----------

const listFields = {
  id: z.number().int(),
  title: z.string(),
  slug: z.string(),
  excerpt: z.string().nullable(),
  featuredImageUrl: z.string().nullable(),
  featuredImageAlt: z.string().nullable(),
  displayDate: z.iso.datetime().nullable(),
  categoryId: z.number().int().nullable(),
  category: categoryRef.nullable(),
  seoId: z.uuid().nullable(),
  status: blogPostStatus,
  publishedAt: z.iso.datetime().nullable(),
  authorId: z.uuid().nullable(),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
};

export const adminPostListItem = z.object(listFields).meta({ id: 'AdminBlogPostListItem' });
export type AdminPostListItem = z.infer<typeof adminPostListItem>;

export const adminPost = z
  .object({
    ...listFields,
    heroIntro: z.string().nullable(),
    body: z.string(),
    authorName: z.string().nullable(),
    productIds: z.array(z.number().int()),
    faqs: z.array(
      z.object({
        id: z.number().int(),
        question: z.string(),
        answer: z.string(),
        position: z.number().int(),
      }),
    ),
    cta: ctaView.nullable(),
    videos: z.array(
      z.object({
        id: z.number().int(),
        title: z.string(),
        videoUrl: z.string(),
        seoId: z.uuid(),
        description: z.string().nullable(),
        thumbnailUrl: z.string().nullable(),
        position: z.number().int(),
      }),
    ),
    previousSlugs: z.array(z.string()).describe('Old slugs that still lead to this post, newest first'),
  })
  .meta({ id: 'AdminBlogPost' });
export type AdminPostView = z.infer<typeof adminPost>;

export const ADMIN_POST_SORTS = [
  'updatedAt',
  'title',
  'slug',
  'status',
  'displayDate',
  'publishedAt',
  'createdAt',
] as const;

export const adminPostListQuery = paginationQuery.extend({
  sort: z.enum(ADMIN_POST_SORTS).default('updatedAt'),
  search: blogSearch.describe('Part of the title, slug or excerpt (case-insensitive), at least 2 characters'),
  status: blogPostStatus.optional(),
  categoryId: intId.optional(),
});
export type AdminPostListQuery = z.output<typeof adminPostListQuery>;
