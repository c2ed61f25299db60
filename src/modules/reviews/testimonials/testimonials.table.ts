import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';

/** Storefront testimonials: no moderation, `isVisible` decides whether they are shown. */
export const testimonials = pgTable(
  'testimonials',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    rating: integer('rating').notNull(),
    comment: text('comment').notNull(),
    imageUrl: text('image_url'),
    isVisible: boolean('is_visible').notNull().default(true),
    /** The `order` field: position on the storefront, smallest first. */
    displayOrder: integer('display_order').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    index('testimonials_visible_order_idx').on(t.isVisible, t.displayOrder),
    check('testimonials_rating_check', sql`${t.rating} BETWEEN 1 AND 5`),
    check('testimonials_name_check', sql`length(btrim(${t.name})) BETWEEN 1 AND 120`),
    check('testimonials_comment_check', sql`length(btrim(${t.comment})) > 0`),
  ],
);
