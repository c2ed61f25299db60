import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  serial,
  timestamp,
  unique,
  uuid,
  varchar,
} from 'drizzle-orm/pg-core';
import { seoRecords } from '../catalog/seo/seo.table';

const timestamps = {
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
};

/** A named storefront page (`home`, `about`, …): made on the first admin call that needs it. */
export const contentPages = pgTable(
  'content_pages',
  {
    id: serial('id').primaryKey(),
    pageKey: varchar('page_key', { length: 80 }).notNull().unique('content_pages_page_key_unique'),
    title: varchar('title', { length: 255 }).notNull(),
    /** At most one page per SEO record; an SEO record a page uses cannot be deleted. */
    seoId: uuid('seo_id')
      .references(() => seoRecords.id)
      .unique('content_pages_seo_id_unique'),
    ...timestamps,
  },
  (t) => [
    check(
      'content_pages_page_key_check',
      sql`${t.pageKey} in ('home', 'about', 'faq', 'privacy_policy', 'terms_of_service', 'products_thangkas', 'products_singing_bowls', 'products_statues', 'products_jewellery', 'global_footer')`,
    ),
  ],
);

/** One keyed section of a page, with its validated payload; hidden from the public when disabled. */
export const contentSections = pgTable(
  'content_sections',
  {
    id: serial('id').primaryKey(),
    pageId: integer('page_id')
      .notNull()
      .references(() => contentPages.id, { onDelete: 'cascade' }),
    sectionKey: varchar('section_key', { length: 80 }).notNull(),
    position: integer('position').notNull().default(0),
    isEnabled: boolean('is_enabled').notNull().default(true),
    payloadJson: jsonb('payload_json').$type<Record<string, unknown>>().notNull(),
    ...timestamps,
  },
  (t) => [
    unique('content_sections_page_section_unique').on(t.pageId, t.sectionKey),
    index('content_sections_page_order_idx').on(t.pageId, t.position, t.id),
    check('content_sections_position_check', sql`${t.position} >= 0`),
  ],
);
