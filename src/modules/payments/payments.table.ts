import { sql } from 'drizzle-orm';
import {
  check,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

export const PAYMENT_METHODS = ['online', 'cod', 'pos'] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];
export const ONLINE_GATEWAYS = [
  'gateway_card',
  'gateway_wallet_a',
  'gateway_wallet_b',
  'gateway_bank',
] as const;
export type OnlineGateway = (typeof ONLINE_GATEWAYS)[number];
export const PAYMENT_GATEWAYS = [...ONLINE_GATEWAYS, 'cod'] as const;
export type PaymentGatewayName = (typeof PAYMENT_GATEWAYS)[number];
/** In-store gateways (POS): recorded by staff at the counter, completed as they are recorded. */
export const POS_GATEWAYS = ['pos_cash', 'pos_wallet_a', 'pos_wallet_b', 'pos_card'] as const;
export type PosGateway = (typeof POS_GATEWAYS)[number];
export const PAYMENT_STATUSES = ['pending', 'completed', 'failed', 'cancelled'] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

/**
 * One attempt to pay an order. `orderId` has no foreign key yet: the orders table lands on
 * another branch (the lead adds the reference when merging). A payment leaves `pending` once,
 * by a conditional UPDATE, so a replayed or racing redirect cannot pay or fail it twice.
 */
export const payments = pgTable(
  'payments',
  {
    id: uuid('id').primaryKey(),
    orderId: integer('order_id').notNull(),
    /** The order's number as the customer sees it (shown on the sandbox page, sent to providers). */
    orderNumber: text('order_number').notNull(),
    method: text('method').$type<PaymentMethod>().notNull(),
    gateway: text('gateway').$type<PaymentGatewayName | PosGateway>().notNull(),
    provider: text('provider').notNull(),
    amount: integer('amount').notNull(),
    status: text('status').$type<PaymentStatus>().notNull().default('pending'),
    /** Sent to the provider as its transaction reference: letters, digits and hyphens. */
    gatewayTransactionId: text('gateway_transaction_id').notNull(),
    returnUrl: text('return_url').notNull(),
    /** The provider's own reference once known (e.g. the signed sandbox reference). */
    providerReference: text('provider_reference'),
    /** What the provider sent or answered last (redirect parameters, status answer). */
    providerPayload: jsonb('provider_payload').$type<Record<string, unknown>>(),
    failureReason: text('failure_reason'),
    completedAt: timestamp('completed_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    uniqueIndex('payments_gateway_transaction_id_key').on(t.gatewayTransactionId),
    index('payments_order_id_idx').on(t.orderId),
    // payment.reconcile: the pending payments, oldest first.
    index('payments_pending_created_idx').on(t.createdAt).where(sql`${t.status} = 'pending'`),
    check('payments_method_check', sql`${t.method} in ('online', 'cod', 'pos')`),
    check(
      'payments_gateway_check',
      sql`${t.gateway} in ('gateway_card', 'gateway_wallet_a', 'gateway_wallet_b', 'gateway_bank', 'cod', 'pos_cash', 'pos_wallet_a', 'pos_wallet_b', 'pos_card')`,
    ),
    // A POS payment's slip or wallet reference (`providerReference`) is taken once per gateway:
    // the same slip recorded twice is a mistake at the counter (POS_DUPLICATE_PAYMENT_REFERENCE).
    uniqueIndex('payments_pos_reference_key')
      .on(t.gateway, t.providerReference)
      .where(sql`${t.method} = 'pos'`),
    check('payments_status_check', sql`${t.status} in ('pending', 'completed', 'failed', 'cancelled')`),
    check('payments_amount_check', sql`${t.amount} >= 0`),
    check('payments_gateway_transaction_id_check', sql`${t.gatewayTransactionId} ~ '^[A-Za-z0-9-]+$'`),
  ],
);
export type PaymentRow = typeof payments.$inferSelect;
