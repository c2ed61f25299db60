// The back office's money lists, typed from the generated client:
//   GET /api/admin/payments                payments across orders (filters, `stale`)
//   GET /api/admin/refunds                 the refunds queue (by `state`)
//   GET /api/admin/payments/late-refunds   refunds owed for late payments, with those payments
// Acting on a refund uses the order page's commands (orders/OrderPayment.tsx).
import type { operations, PasalClient, paths } from '@pasal/client';

type Data<Answer> = Answer extends { content: { 'application/json': { data: infer D } } } ? D : never;

export type PaymentListQuery = NonNullable<operations['adminListPayments']['parameters']['query']>;
export type Payment = Data<paths['/api/admin/payments']['get']['responses'][200]>[number];
export type RefundQueueQuery = NonNullable<operations['adminListRefunds']['parameters']['query']>;
export type QueuedRefund = Data<paths['/api/admin/refunds']['get']['responses'][200]>[number];
export type LateRefundQuery = NonNullable<operations['adminListPaymentsLateRefunds']['parameters']['query']>;
export type LateRefund = Data<paths['/api/admin/payments/late-refunds']['get']['responses'][200]>[number];

export type PaymentStatus = Payment['status'];
export type RefundState = QueuedRefund['state'];

/** The gateways a payment record can name (COD orders keep none: their cash is on the order). */
export const PAYMENT_GATEWAYS = [
  'gateway_card',
  'gateway_wallet_a',
  'gateway_wallet_b',
  'gateway_bank',
  'pos_cash',
  'pos_wallet_a',
  'pos_wallet_b',
  'pos_card',
] as const satisfies readonly Payment['gateway'][];
export const PAYMENT_STATUSES = [
  'pending',
  'completed',
  'failed',
  'cancelled',
] as const satisfies readonly PaymentStatus[];
export const REFUND_STATES = [
  'to_decide',
  'owed',
  'settled',
  'rejected',
] as const satisfies readonly RefundState[];

export function fetchPayments(client: PasalClient, query: PaymentListQuery) {
  return client.list('/api/admin/payments', { params: { query } });
}

export function fetchRefunds(client: PasalClient, query: RefundQueueQuery) {
  return client.list('/api/admin/refunds', { params: { query } });
}

export function fetchLateRefunds(client: PasalClient, query: LateRefundQuery) {
  return client.list('/api/admin/payments/late-refunds', { params: { query } });
}
