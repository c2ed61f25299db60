import { sql } from 'drizzle-orm';
import {
  check,
  index,
  integer,
  pgTable,
  serial,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { products } from '../../catalog/products/products.table';
import { users } from '../../identity/identity.table';
import { orderItems, orders } from '../../orders/orders.table';

/** `customer`: written by a buyer about a delivered order item; `admin_seeded`: entered by staff. */
export const REVIEW_SOURCES = ['customer', 'admin_seeded'] as const;
export type ReviewSource = (typeof REVIEW_SOURCES)[number];

/** Customer reviews start `pending`; seeded ones `approved`; only `approved` ones are public. */
export const REVIEW_STATUSES = ['pending', 'approved', 'rejected'] as const;
export type ReviewStatus = (typeof REVIEW_STATUSES)[number];

export const productReviews = pgTable(
  'product_reviews',
  {
    id: serial('id').primaryKey(),
    productId: integer('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    /** The reviewed order item: one review per item, held by the unique index below. */
    orderItemId: integer('order_item_id').references(() => orderItems.id, { onDelete: 'cascade' }),
    orderId: integer('order_id').references(() => orders.id, { onDelete: 'set null' }),
    customerId: uuid('customer_id').references(() => users.id),
    reviewSource: text('review_source', { enum: REVIEW_SOURCES }).notNull(),
    /**
     * Seeded reviews only. A customer review keeps no copy of the customer's name or image: the
     * name is read from the account (so anonymising an account reaches its reviews too).
     */
    reviewerName: text('reviewer_name'),
    reviewerImageUrl: text('reviewer_image_url'),
    rating: integer('rating').notNull(),
    /** Plain text: markup is stripped before it is stored. */
    comment: text('comment'),
    status: text('status', { enum: REVIEW_STATUSES }).notNull(),
    createdByAdminId: uuid('created_by_admin_id').references(() => users.id, { onDelete: 'set null' }),
    moderatedByAdminId: uuid('moderated_by_admin_id').references(() => users.id, { onDelete: 'set null' }),
    moderatedAt: timestamp('moderated_at', { withTimezone: true }),
    /** Why staff rejected it (plain text, at most 500); null unless the status is `rejected`. */
    rejectionReason: text('rejection_reason'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    uniqueIndex('product_reviews_order_item_key').on(t.orderItemId),
    index('product_reviews_public_idx').on(t.productId, t.status, t.createdAt),
    index('product_reviews_customer_idx').on(t.customerId, t.createdAt),
    check('product_reviews_rating_check', sql`${t.rating} BETWEEN 1 AND 5`),
    check('product_reviews_status_check', sql`${t.status} IN ('pending', 'approved', 'rejected')`),
    check(
      'product_reviews_rejection_reason_check',
      sql`${t.rejectionReason} IS NULL OR ${t.status} = 'rejected'`,
    ),
    check('product_reviews_source_check', sql`${t.reviewSource} IN ('customer', 'admin_seeded')`),
    // A customer review names its buyer and item and copies nothing of the account; a seeded
    // one has no customer and carries its reviewer's name.
    check(
      'product_reviews_source_fields_check',
      sql`(${t.reviewSource} = 'customer' AND ${t.customerId} IS NOT NULL AND ${t.orderItemId} IS NOT NULL
          AND ${t.reviewerName} IS NULL AND ${t.reviewerImageUrl} IS NULL)
        OR (${t.reviewSource} = 'admin_seeded' AND ${t.customerId} IS NULL AND ${t.reviewerName} IS NOT NULL)`,
    ),
  ],
);
