import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
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
import { users } from '../../identity/identity.table';

export const DISCOUNT_TYPES = ['percent', 'fixed'] as const;
export type DiscountType = (typeof DISCOUNT_TYPES)[number];

/**
 * A promotion code. `usedCount` counts paid orders that used it; the check makes more than
 * `usageLimit` impossible even for a write that forgets the rule. Deleting sets `deletedAt`
 * (redemptions keep their coupon) and frees the code for a new coupon.
 */
export const coupons = pgTable(
  'coupons',
  {
    id: serial('id').primaryKey(),
    code: text('code').notNull(),
    discountType: text('discount_type').$type<DiscountType>().notNull(),
    /** Percent (1–100) or NPR off. */
    value: integer('value').notNull(),
    minOrderTotal: bigint('min_order_total', { mode: 'number' }),
    maxDiscount: bigint('max_discount', { mode: 'number' }),
    startsAt: timestamp('starts_at', { withTimezone: true }),
    endsAt: timestamp('ends_at', { withTimezone: true }),
    usageLimit: integer('usage_limit'),
    perCustomerLimit: integer('per_customer_limit'),
    usedCount: integer('used_count').notNull().default(0),
    isActive: boolean('is_active').notNull().default(true),
    productIds: integer('product_ids').array().notNull().default(sql`'{}'::integer[]`),
    categoryIds: integer('category_ids').array().notNull().default(sql`'{}'::integer[]`),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('coupons_code_unique').on(sql`lower(${t.code})`).where(sql`${t.deletedAt} IS NULL`),
    check('coupons_discount_type_check', sql`${t.discountType} IN ('percent', 'fixed')`),
    check('coupons_value_check', sql`${t.value} > 0`),
    check(
      'coupons_used_count_check',
      sql`${t.usedCount} >= 0 AND (${t.usageLimit} IS NULL OR ${t.usedCount} <= ${t.usageLimit})`,
    ),
  ],
);

/** One paid order's use of a coupon: at most one per order, so counting twice is impossible. */
export const couponRedemptions = pgTable(
  'coupon_redemptions',
  {
    id: uuid('id').primaryKey(),
    couponId: integer('coupon_id')
      .notNull()
      .references(() => coupons.id),
    customerId: uuid('customer_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    orderId: text('order_id').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('coupon_redemptions_order_unique').on(t.orderId),
    index('coupon_redemptions_coupon_customer_idx').on(t.couponId, t.customerId),
  ],
);
