import { sql } from 'drizzle-orm';
import {
  bigint,
  check,
  doublePrecision,
  index,
  integer,
  pgTable,
  text,
  timestamp,
  unique,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { products } from '../../catalog/products/products.table';
import { users } from '../../identity/identity.table';
import { coupons } from '../coupons/coupons.table';

export const CART_STATUSES = ['active', 'ordered'] as const;
export type CartStatus = (typeof CART_STATUSES)[number];

/**
 * A customer's cart. At most one `active` cart per customer (a partial unique index, so two
 * first requests racing each other end with one cart); a cart whose order was confirmed
 * becomes `ordered` and the next request starts a new one.
 */
export const carts = pgTable(
  'carts',
  {
    id: uuid('id').primaryKey(),
    customerId: uuid('customer_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    status: text('status').$type<CartStatus>().notNull().default('active'),
    couponId: integer('coupon_id').references(() => coupons.id),
    /** Why the last change removed the coupon; cleared by the next change. */
    promoNotice: text('promo_notice'),
    districtName: text('district_name'),
    addressLine1: text('address_line1'),
    city: text('city'),
    postalCode: text('postal_code'),
    latitude: doublePrecision('latitude'),
    longitude: doublePrecision('longitude'),
    /** The last order the cart was checked out into (its reservations went to that order). */
    orderId: text('order_id'),
    /** When the stock the lines hold goes back on sale unless the cart changes; null: holds none. */
    reservedUntil: timestamp('reserved_until', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('carts_one_active_per_customer').on(t.customerId).where(sql`${t.status} = 'active'`),
    check('carts_status_check', sql`${t.status} IN ('active', 'ordered')`),
    index('carts_reserved_until_idx').on(t.reservedUntil),
  ],
);

/** A line of a cart: one per product, prices as they were when the line was last changed. */
export const cartItems = pgTable(
  'cart_items',
  {
    id: uuid('id').primaryKey(),
    cartId: uuid('cart_id')
      .notNull()
      .references(() => carts.id, { onDelete: 'cascade' }),
    productId: integer('product_id')
      .notNull()
      .references(() => products.id),
    quantity: integer('quantity').notNull(),
    unitMrp: bigint('unit_mrp', { mode: 'number' }).notNull(),
    unitSp: bigint('unit_sp', { mode: 'number' }).notNull(),
    carePackageId: integer('care_package_id'),
    pricingTierId: integer('pricing_tier_id'),
    carePackageName: text('care_package_name'),
    tierLabel: text('tier_label'),
    /** The tier's price per unit of the line when the package was attached. */
    carePackageUnitPrice: bigint('care_package_unit_price', { mode: 'number' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    unique('cart_items_cart_product_unique').on(t.cartId, t.productId),
    check('cart_items_quantity_check', sql`${t.quantity} BETWEEN 1 AND 99`),
    check(
      'cart_items_care_package_check',
      sql`(${t.carePackageId} IS NULL) = (${t.pricingTierId} IS NULL) AND (${t.carePackageId} IS NULL) = (${t.carePackageUnitPrice} IS NULL)`,
    ),
  ],
);
