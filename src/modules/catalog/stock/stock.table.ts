import { sql } from 'drizzle-orm';
import {
  bigserial,
  check,
  index,
  integer,
  pgTable,
  text,
  timestamp,
  unique,
  uuid,
} from 'drizzle-orm/pg-core';
import { users } from '../../identity/identity.table';
import { products } from '../products/products.table';

/**
 * Stock of a physical product. `reserved` is held by carts and unpaid orders; the checks make
 * an oversell impossible even for a write that forgets the rule.
 */
export const productStock = pgTable(
  'product_stock',
  {
    productId: integer('product_id')
      .primaryKey()
      .references(() => products.id, { onDelete: 'cascade' }),
    onHand: integer('on_hand').notNull().default(0),
    reserved: integer('reserved').notNull().default(0),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('product_stock_reserved_check', sql`${t.reserved} >= 0`),
    check('product_stock_on_hand_check', sql`${t.onHand} >= ${t.reserved}`),
  ],
);

export const RESERVATION_OWNERS = ['cart', 'order'] as const;
export type ReservationOwnerType = (typeof RESERVATION_OWNERS)[number];

/** Units a cart or an order holds; one row per owner and product. */
export const stockReservations = pgTable(
  'stock_reservations',
  {
    id: uuid('id').primaryKey(),
    productId: integer('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    ownerType: text('owner_type').$type<ReservationOwnerType>().notNull(),
    ownerId: text('owner_id').notNull(),
    quantity: integer('quantity').notNull(),
    /** When an idle holder loses it; null holds until released or finalized. */
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    unique('stock_reservations_owner_product_unique').on(t.ownerType, t.ownerId, t.productId),
    check('stock_reservations_owner_check', sql`${t.ownerType} IN ('cart', 'order')`),
    check('stock_reservations_quantity_check', sql`${t.quantity} > 0`),
    index('stock_reservations_expires_idx').on(t.expiresAt),
    index('stock_reservations_product_idx').on(t.productId),
  ],
);

export const STOCK_SOURCES = ['adjustment', 'reservation', 'release', 'finalize'] as const;
export type StockSource = (typeof STOCK_SOURCES)[number];

/**
 * Every change to a product's stock, written in the transaction of the change. The serial id
 * follows the order of the changes of one product: each holds the stock row's lock until commit.
 */
export const stockLedger = pgTable(
  'stock_ledger',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    productId: integer('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    source: text('source').$type<StockSource>().notNull(),
    reason: text('reason').notNull(),
    onHandDelta: integer('on_hand_delta').notNull(),
    reservedDelta: integer('reserved_delta').notNull(),
    /** The stock right after this change. */
    onHand: integer('on_hand').notNull(),
    reserved: integer('reserved').notNull(),
    /** The admin of an adjustment. */
    actorId: uuid('actor_id').references(() => users.id, { onDelete: 'set null' }),
    ownerType: text('owner_type').$type<ReservationOwnerType>(),
    ownerId: text('owner_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check(
      'stock_ledger_source_check',
      sql`${t.source} IN ('adjustment', 'reservation', 'release', 'finalize')`,
    ),
    index('stock_ledger_product_idx').on(t.productId, t.id),
  ],
);
