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
  uuid,
} from 'drizzle-orm/pg-core';
import { users } from '../../identity/identity.table';
import { products } from '../products/products.table';

/**
 * Care packages (extended warranty, servicing) sold with physical products. The rules say which
 * products a package may be attached to; an empty id list means "no rule of that kind".
 */
export const carePackages = pgTable(
  'care_packages',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    description: text('description'),
    isActive: boolean('is_active').notNull().default(true),
    categoryIds: integer('category_ids').array().notNull().default(sql`'{}'::integer[]`),
    brandIds: integer('brand_ids').array().notNull().default(sql`'{}'::integer[]`),
    productIds: integer('product_ids').array().notNull().default(sql`'{}'::integer[]`),
    /** Bounds on the product's effective price (NPR), inclusive. */
    minPrice: bigint('min_price', { mode: 'number' }),
    maxPrice: bigint('max_price', { mode: 'number' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check(
      'care_packages_price_range_check',
      sql`${t.minPrice} IS NULL OR ${t.maxPrice} IS NULL OR ${t.minPrice} <= ${t.maxPrice}`,
    ),
  ],
);

/** A pricing tier of a package: how long the cover lasts and what it costs. */
export const carePackageTiers = pgTable(
  'care_package_tiers',
  {
    id: serial('id').primaryKey(),
    carePackageId: integer('care_package_id')
      .notNull()
      .references(() => carePackages.id, { onDelete: 'cascade' }),
    label: text('label').notNull(),
    durationMonths: integer('duration_months').notNull(),
    /** Integer NPR. */
    price: bigint('price', { mode: 'number' }).notNull(),
    isActive: boolean('is_active').notNull().default(true),
    position: integer('position').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('care_package_tiers_duration_check', sql`${t.durationMonths} > 0`),
    check('care_package_tiers_price_check', sql`${t.price} >= 0`),
    index('care_package_tiers_package_idx').on(t.carePackageId),
  ],
);

export const SUBSCRIPTION_STATUSES = ['pending', 'active', 'expired', 'cancelled'] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

/** A customer's cover bought with an order: pending until the order is fulfilled. */
export const carePackageSubscriptions = pgTable(
  'care_package_subscriptions',
  {
    id: uuid('id').primaryKey(),
    customerId: uuid('customer_id')
      .notNull()
      .references(() => users.id),
    carePackageId: integer('care_package_id')
      .notNull()
      .references(() => carePackages.id),
    tierId: integer('tier_id')
      .notNull()
      .references(() => carePackageTiers.id),
    /** The physical product covered, when the package was attached to a cart line. */
    productId: integer('product_id').references(() => products.id),
    /** The order item that sold it; the orders module will own that table. */
    orderItemId: text('order_item_id'),
    status: text('status').$type<SubscriptionStatus>().notNull().default('pending'),
    /** Copied from the tier at purchase, so later tier edits do not change a sold cover. */
    durationMonths: integer('duration_months').notNull(),
    startsAt: timestamp('starts_at', { withTimezone: true }),
    endsAt: timestamp('ends_at', { withTimezone: true }),
    cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check(
      'care_package_subscriptions_status_check',
      sql`${t.status} IN ('pending', 'active', 'expired', 'cancelled')`,
    ),
    index('care_package_subscriptions_customer_idx').on(t.customerId),
    index('care_package_subscriptions_order_item_idx').on(t.orderItemId),
    index('care_package_subscriptions_ends_idx').on(t.status, t.endsAt),
  ],
);
