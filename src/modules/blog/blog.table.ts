import { sql } from 'drizzle-orm';
import {
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import { products } from '../catalog/products/products.table';
import { seoRecords } from '../catalog/seo/seo.table';
import { users } from '../identity/identity.table';

export const BLOG_POST_STATUSES = ['draft', 'published'] as const;
export type BlogPostStatus = (typeof BLOG_POST_STATUSES)[number];

/** The call-to-action box of a post: one per post, replaced whole. */
export interface BlogPostCta {
  ctaTitle: string;
  ctaButtonLabel: string;
  ctaButtonLink: string;
  position: number;
}

export const blogCategories = pgTable('blog_categories', {
  id: serial('id').primaryKey(),
  name: text('name').notNull(),
  /** Made from the name by the service; a collision is 409 BLOG_CATEGORY_SLUG_ALREADY_EXISTS. */
  slug: text('slug').notNull().unique(),
  description: text('description'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export const blogPosts = pgTable(
  'blog_posts',
  {
    id: serial('id').primaryKey(),
    title: text('title').notNull(),
    slug: text('slug').notNull().unique(),
    excerpt: text('excerpt'),
    heroIntro: text('hero_intro'),
    /** Sanitised HTML. */
    body: text('body').notNull().default(''),
    featuredImageUrl: text('featured_image_url'),
    featuredImageAlt: text('featured_image_alt'),
    displayDate: timestamp('display_date', { withTimezone: true }),
    /** A category with posts cannot be deleted (409 BLOG_CATEGORY_NOT_EMPTY). */
    categoryId: integer('category_id').references(() => blogCategories.id, { onDelete: 'restrict' }),
    seoId: uuid('seo_id').references(() => seoRecords.id),
    status: text('status').$type<BlogPostStatus>().notNull().default('draft'),
    publishedAt: timestamp('published_at', { withTimezone: true }),
    /** The admin who created the post: the public detail's `authorName`. */
    authorId: uuid('author_id').references(() => users.id, { onDelete: 'set null' }),
    cta: jsonb('cta').$type<BlogPostCta>(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('blog_posts_status_check', sql`${t.status} IN ('draft', 'published')`),
    index('blog_posts_category_idx').on(t.categoryId),
    index('blog_posts_listing_idx').on(t.status, t.publishedAt),
  ],
);

/** Slugs a post had before: old links keep resolving to the post. */
export const blogPostSlugHistory = pgTable(
  'blog_post_slug_history',
  {
    slug: text('slug').primaryKey(),
    postId: integer('post_id')
      .notNull()
      .references(() => blogPosts.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('blog_post_slug_history_post_idx').on(t.postId)],
);

/** The products a post links, in the admin's order. */
export const blogPostProducts = pgTable(
  'blog_post_products',
  {
    postId: integer('post_id')
      .notNull()
      .references(() => blogPosts.id, { onDelete: 'cascade' }),
    productId: integer('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    position: integer('position').notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.postId, t.productId] }),
    index('blog_post_products_product_idx').on(t.productId),
  ],
);

export const blogPostFaqs = pgTable(
  'blog_post_faqs',
  {
    id: serial('id').primaryKey(),
    postId: integer('post_id')
      .notNull()
      .references(() => blogPosts.id, { onDelete: 'cascade' }),
    question: text('question').notNull(),
    answer: text('answer').notNull(),
    position: integer('position').notNull().default(0),
  },
  (t) => [index('blog_post_faqs_post_idx').on(t.postId)],
);

export const blogPostVideos = pgTable(
  'blog_post_videos',
  {
    id: serial('id').primaryKey(),
    postId: integer('post_id')
      .notNull()
      .references(() => blogPosts.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    videoUrl: text('video_url').notNull(),
    /** One video per SEO record across every post: a taken one is 400 BLOG_VIDEO_SEO_INVALID. */
    seoId: uuid('seo_id')
      .notNull()
      .unique('blog_post_videos_seo_id_unique')
      .references(() => seoRecords.id),
    description: text('description'),
    thumbnailUrl: text('thumbnail_url'),
    position: integer('position').notNull().default(0),
  },
  (t) => [index('blog_post_videos_post_idx').on(t.postId)],
);
