import { z } from 'zod';
import { paginationQuery } from '../../../platform/http/pagination';
import { intId } from '../../../platform/http/params';
import { blogSearch, ctaView } from '../blog.schemas';

export const publicPostListQuery = paginationQuery.extend({
  sort: z.enum(['publishedAt', 'displayDate', 'createdAt', 'updatedAt', 'title']).default('publishedAt'),
  search: blogSearch.describe(
    'Part of the title, excerpt or hero intro (case-insensitive), at least 2 characters',
  ),
  categoryId: intId.optional(),
});
export type PublicPostListQuery = z.output<typeof publicPostListQuery>;

export const publicPostListItem = z
  .object({
    id: z.number().int(),
    title: z.string(),
    slug: z.string(),
    excerpt: z.string().nullable(),
    featuredImageUrl: z.string().nullable(),
    featuredImageAlt: z.string().nullable(),
    displayDate: z.iso.datetime().nullable(),
    publishedAt: z.iso.datetime().nullable(),
    categoryName: z.string().nullable(),
    categorySlug: z.string().nullable(),
  })
  .meta({ id: 'BlogPostListItem' });
export type PublicPostListItem = z.infer<typeof publicPostListItem>;

/** The blog list envelope of the interface: `count`, `currentPage`, `totalPage` beside `data`. */
export const publicPostListEnvelope = z.object({
  message: z.string(),
  data: z.array(publicPostListItem),
  count: z.number().int().describe('Published posts matching the query'),
  currentPage: z.number().int(),
  totalPage: z.number().int().describe('ceil(count / size); 0 when nothing matches'),
});

const jsonLd = z.record(z.string(), z.unknown());

export const publicPostDetail = publicPostListItem
  .extend({
    heroIntro: z.string().nullable(),
    body: z.string().describe('Sanitised HTML'),
    authorName: z.string().nullable(),
    linkedProducts: z.array(
      z.object({
        id: z.number().int(),
        title: z.string(),
        slug: z.string(),
        mrp: z.number().int(),
        sp: z.number().int(),
        thumbnailUrl: z.string().nullable(),
        position: z.number().int(),
      }),
    ),
    faqs: z.array(z.object({ question: z.string(), answer: z.string(), position: z.number().int() })),
    cta: ctaView.nullable(),
    videos: z.array(
      z.object({
        id: z.number().int(),
        title: z.string(),
        videoUrl: z.string(),
        description: z.string().nullable(),
        thumbnailUrl: z.string().nullable(),
        position: z.number().int(),
      }),
    ),
    seo: z
      .record(z.string(), z.unknown())
      .nullable()
      .describe('The resolved SEO record of the post (fields as the content page `seo`), or null'),
    structuredData: z
      .object({ article: jsonLd, faq: jsonLd.optional(), breadcrumb: jsonLd })
      .describe(
        'schema.org JSON-LD documents: BlogPosting (with VideoObject entries), FAQPage, BreadcrumbList',
      ),
    updatedAt: z.iso.datetime(),
  })
  .meta({ id: 'BlogPostDetail' });
export type PublicPostDetail = z.infer<typeof publicPostDetail>;
