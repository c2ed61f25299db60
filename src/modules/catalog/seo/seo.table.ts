import { boolean, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/**
 * Search-engine and social-card metadata that pages, banners, blog posts and categories point
 * at by id. The fields are exactly those of the content interface's `seo` object.
 */
export const seoRecords = pgTable('seo_records', {
  id: uuid('id').primaryKey(),
  metaTitle: text('meta_title'),
  metaDescription: text('meta_description'),
  metaKeywords: text('meta_keywords'),
  canonicalUrl: text('canonical_url'),
  robotsIndex: boolean('robots_index').notNull().default(true),
  robotsFollow: boolean('robots_follow').notNull().default(true),
  robotsAdvanced: text('robots_advanced'),
  ogTitle: text('og_title'),
  ogDescription: text('og_description'),
  ogType: text('og_type'),
  ogUrl: text('og_url'),
  ogImageUrl: text('og_image_url'),
  ogSiteName: text('og_site_name'),
  socialCard: text('social_card'),
  socialSite: text('social_site'),
  socialCreator: text('social_creator'),
  socialTitle: text('social_title'),
  socialDescription: text('social_description'),
  socialImageUrl: text('social_image_url'),
  alternates: jsonb('alternates').$type<SeoAlternate[]>(),
  structuredDataJsonLd: jsonb('structured_data_json_ld').$type<
    Record<string, unknown> | Record<string, unknown>[]
  >(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** One language or region version of the page (`<link rel="alternate" hreflang>`). */
export interface SeoAlternate {
  hreflang: string;
  href: string;
}
