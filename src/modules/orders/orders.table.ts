import { sql } from 'drizzle-orm';
import {
  check,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  serial,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { coupons } from '../cart/coupons/coupons.table';
import { products } from '../catalog/products/products.table';
import { users } from '../identity/identity.table';
import {
  allowedMovesCheckSql,
  type FulfillmentStatus,
  type OrderType,
} from './fulfillment/fulfillment.rules';
import type { HistoryNoteCode } from './orders.history-notes';

export const ORDER_STATUSES = [
  'created',
  'payment_pending',
  'paid',
  'payment_failed',
  'cancelled',
  'refund_requested',
  'refund_pending',
  'refund_approved',
  'refund_rejected',
] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

export const PAYMENT_STATUSES = ['pending', 'completed', 'failed', 'cod_pending', 'cod_collected'] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

export const PAYMENT_METHODS = ['online', 'cod', 'pos'] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];

export const ORDER_SOURCES = ['checkout', 'buy_now', 'training_enroll', 'admin_manual', 'pos_sale'] as const;
export type OrderSource = (typeof ORDER_SOURCES)[number];

export const ACTOR_TYPES = ['customer', 'admin', 'system'] as const;
export type ActorType = (typeof ACTOR_TYPES)[number];

/** One order: totals and shipping are snapshots taken at checkout; amounts are whole NPR. */
export const orders = pgTable(
  'orders',
  {
    id: serial('id').primaryKey(),
    orderNumber: text('order_number').notNull(),
    customerId: uuid('customer_id')
      .notNull()
      .references(() => users.id),
    orderType: text('order_type').$type<OrderType>().notNull(),
    status: text('status').$type<OrderStatus>().notNull(),
    paymentStatus: text('payment_status').$type<PaymentStatus>().notNull(),
    paymentMethod: text('payment_method').$type<PaymentMethod>().notNull(),
    /** The gateway asked for at checkout (`cod`, `gateway_card`, …). */
    gateway: text('gateway').notNull(),
    orderSource: text('order_source').$type<OrderSource>().notNull(),
    totalMrp: integer('total_mrp').notNull(),
    totalSp: integer('total_sp').notNull(),
    couponId: integer('coupon_id').references(() => coupons.id, { onDelete: 'set null' }),
    couponCode: text('coupon_code'),
    couponDiscount: integer('coupon_discount').notNull().default(0),
    shippingFee: integer('shipping_fee').notNull().default(0),
    carePackageTotal: integer('care_package_total').notNull().default(0),
    finalPayable: integer('final_payable').notNull(),
    shippingDistrict: text('shipping_district'),
    shippingMobileNum: text('shipping_mobile_num'),
    shippingAddressLine1: text('shipping_address_line1'),
    shippingAddressLine2: text('shipping_address_line2'),
    shippingCity: text('shipping_city'),
    shippingState: text('shipping_state'),
    shippingPostalCode: text('shipping_postal_code'),
    shippingLandmark: text('shipping_landmark'),
    shippingLatitude: doublePrecision('shipping_latitude'),
    shippingLongitude: doublePrecision('shipping_longitude'),
    receiver: text('receiver'),
    /** Who the tax invoice names (optional at checkout, buy-now and POS), and their 9-digit PAN. */
    buyerName: text('buyer_name'),
    buyerPan: text('buyer_pan'),
    contactNumber: text('contact_number'),
    /** Null until fulfilment starts (online payment verified, or COD placed). */
    fulfillmentStatus: text('fulfillment_status').$type<FulfillmentStatus>(),
    /** The cart the order came from (checkout); null for buy-now. */
    cartId: uuid('cart_id'),
    returnUrl: text('return_url'),
    /** The COD payment's id, until the payments module keeps COD payments itself. */
    codPaymentId: uuid('cod_payment_id'),
    /** What verified the payment (the payments module's reference). */
    paymentReference: text('payment_reference'),
    refundReason: text('refund_reason'),
    refundRemarks: text('refund_remarks'),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
    cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
    refundRequestedAt: timestamp('refund_requested_at', { withTimezone: true }),
    /** Who recorded the COD cash (with `paidAt` as when), and what they noted. */
    codCollectedByAdminId: uuid('cod_collected_by_admin_id'),
    codRemarks: text('cod_remarks'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    uniqueIndex('orders_order_number_key').on(t.orderNumber),
    index('orders_customer_created_idx').on(t.customerId, t.createdAt),
    index('orders_unpaid_idx').on(t.status, t.paymentMethod, t.createdAt),
  ],
);

/** A line of an order: the product and prices as they were at checkout. */
export const orderItems = pgTable(
  'order_items',
  {
    id: serial('id').primaryKey(),
    orderId: integer('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    productId: integer('product_id')
      .notNull()
      .references(() => products.id),
    productKind: text('product_kind').notNull(),
    productTitle: text('product_title').notNull(),
    productSlug: text('product_slug').notNull(),
    thumbnailUrl: text('thumbnail_url'),
    quantity: integer('quantity').notNull(),
    unitMrp: integer('unit_mrp').notNull(),
    unitSp: integer('unit_sp').notNull(),
    /** What the line saves against MRP (per unit × quantity). */
    discount: integer('discount').notNull(),
    /** effective price × quantity. */
    finalValue: integer('final_value').notNull(),
    carePackageId: integer('care_package_id'),
    pricingTierId: integer('pricing_tier_id'),
    carePackageName: text('care_package_name'),
    carePackageTierLabel: text('care_package_tier_label'),
    carePackageUnitPrice: integer('care_package_unit_price'),
    serialNumber: text('serial_number'),
  },
  (t) => [index('order_items_order_idx').on(t.orderId)],
);

export const orderStatusHistory = pgTable(
  'order_status_history',
  {
    id: serial('id').primaryKey(),
    orderId: integer('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    status: text('status').$type<OrderStatus>().notNull(),
    notes: text('notes'),
    /** The code of a note the server wrote (orders.history-notes.ts); null for notes people typed. */
    noteCode: text('note_code').$type<HistoryNoteCode>(),
    noteParams: jsonb('note_params').$type<Record<string, string>>(),
    actorType: text('actor_type').$type<ActorType>().notNull(),
    createdByCustomerId: uuid('created_by_customer_id'),
    createdByAdminId: uuid('created_by_admin_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('order_status_history_order_idx').on(t.orderId)],
);

/** Every fulfilment move; the CHECK holds the state machine's (from, to) pairs. */
export const orderFulfillmentHistory = pgTable(
  'order_fulfillment_history',
  {
    id: serial('id').primaryKey(),
    orderId: integer('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    fromStatus: text('from_status').$type<FulfillmentStatus>().notNull(),
    toStatus: text('to_status').$type<FulfillmentStatus>().notNull(),
    remarks: text('remarks'),
    /** The code of remarks the server wrote (orders.history-notes.ts); null for typed remarks. */
    remarksCode: text('remarks_code').$type<HistoryNoteCode>(),
    actorType: text('actor_type').$type<ActorType>().notNull(),
    actorId: uuid('actor_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    index('order_fulfillment_history_order_idx').on(t.orderId),
    check(
      'order_fulfillment_history_allowed_move',
      sql.raw(allowedMovesCheckSql('from_status', 'to_status')),
    ),
  ],
);

export const ORDER_REQUEST_STATUSES = ['pending', 'completed', 'failed'] as const;
export type OrderRequestStatus = (typeof ORDER_REQUEST_STATUSES)[number];

/** An async order command (cancel, …) and how it ended; polled by its `requestId`. */
export const orderRequests = pgTable(
  'order_requests',
  {
    requestId: text('request_id').primaryKey(),
    orderId: integer('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    command: text('command').notNull(),
    /** Who asked: the customer (customer routes see only their own) or an admin. */
    customerId: uuid('customer_id'),
    adminId: uuid('admin_id'),
    status: text('status').$type<OrderRequestStatus>().notNull(),
    result: jsonb('result').$type<Record<string, unknown>>(),
    error: text('error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    completedAt: timestamp('completed_at', { withTimezone: true }),
  },
  (t) => [index('order_requests_order_idx').on(t.orderId)],
);

/** A back-office note on an order: for staff only, never shown to the customer. */
export const orderAdminNotes = pgTable(
  'order_admin_notes',
  {
    id: serial('id').primaryKey(),
    orderId: integer('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    note: text('note').notNull(),
    adminId: uuid('admin_id').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('order_admin_notes_order_idx').on(t.orderId)],
);

export const REFUND_STATUSES = ['requested', 'pending', 'approved', 'rejected'] as const;
export type RefundStatus = (typeof REFUND_STATUSES)[number];
/** How owed money went back to the customer. */
export const REFUND_SETTLEMENT_METHODS = ['cash', 'wallet', 'bank_transfer'] as const;
export type RefundSettlementMethod = (typeof REFUND_SETTLEMENT_METHODS)[number];

/**
 * Money owed back on an order, paid out by hand (no gateway call): `requested` by the
 * customer then `approved` or `rejected` by an admin; `pending` when an admin cancels a paid
 * order (the refund is due, nobody has to decide). Each is written under the order's own
 * conditional status change, so a replay or a race cannot write it twice.
 */
export const orderRefunds = pgTable(
  'order_refunds',
  {
    id: serial('id').primaryKey(),
    orderId: integer('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    amount: integer('amount').notNull(),
    status: text('status').$type<RefundStatus>().notNull(),
    /** Why it is owed (`admin_cancel`, the customer's reason, …). */
    reason: text('reason').notNull(),
    remarks: text('remarks'),
    processedByAdminId: uuid('processed_by_admin_id'),
    processedAt: timestamp('processed_at', { withTimezone: true }),
    /** When the money owed went back to the customer (by hand: cash, wallet, bank transfer). */
    settledAt: timestamp('settled_at', { withTimezone: true }),
    settledByAdminId: uuid('settled_by_admin_id'),
    settlementMethod: text('settlement_method').$type<RefundSettlementMethod>(),
    settlementReference: text('settlement_reference'),
    settlementRemarks: text('settlement_remarks'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    index('order_refunds_order_idx').on(t.orderId),
    check(
      'order_refunds_settlement_method_check',
      sql`${t.settlementMethod} IS NULL OR ${t.settlementMethod} IN ('cash', 'wallet', 'bank_transfer')`,
    ),
    check('order_refunds_status_check', sql`${t.status} IN ('requested', 'pending', 'approved', 'rejected')`),
    check('order_refunds_amount_check', sql`${t.amount} >= 0`),
  ],
);
