// What the back office reads of payments: every payment across orders with the flag that one
// is overdue for reconciliation, and the completed payments of orders (the late payments a
// refund is owed for). The orders module serves the routes, under its own permissions.
import type { Db } from '../../platform/db/database';
import { type PageMeta, pageMeta } from '../../platform/http/pagination';
import * as repo from './payments.repository';
import type { AdminPaymentItem, AdminPaymentListQuery } from './payments.schemas';
import type { PaymentsDeps } from './payments.service';
import type { PaymentRow } from './payments.table';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/**
 * Payments newest first. `stale`: an online payment still pending after
 * PAYMENT_RECONCILE_AFTER_SECONDS, the age at which `payment.reconcile` starts asking its
 * provider: one still pending after that needs a look (a provider down, a sandbox payment
 * nobody finished).
 */
export async function listPaymentsForStaff(
  deps: Pick<PaymentsDeps, 'db' | 'clock' | 'config'>,
  q: AdminPaymentListQuery,
): Promise<{ data: AdminPaymentItem[]; meta: PageMeta }> {
  const staleBefore = new Date(
    deps.clock.now().getTime() - deps.config.PAYMENT_RECONCILE_AFTER_SECONDS * 1000,
  );
  const { rows, count } = await repo.listPayments(deps.db, q, {
    staleBefore,
    timeZone: deps.config.STORE_TIMEZONE,
  });
  return { data: rows.map((r) => ({ ...toStaffView(r), stale: r.stale })), meta: pageMeta(q, count) };
}

function toStaffView(r: PaymentRow): Omit<AdminPaymentItem, 'stale'> {
  return {
    id: r.id,
    orderId: r.orderId,
    orderNumber: r.orderNumber,
    method: r.method,
    gateway: r.gateway,
    provider: r.provider,
    status: r.status,
    amount: r.amount,
    reference: r.gatewayTransactionId,
    providerReference: r.providerReference,
    failureReason: r.failureReason,
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
    completedAt: iso(r.completedAt),
  };
}

/** A completed online payment, as the late-payment refunds show it. */
export type CompletedPayment = Pick<
  AdminPaymentItem,
  'id' | 'gateway' | 'provider' | 'amount' | 'reference' | 'providerReference' | 'completedAt'
> & { orderId: number };

/** The completed online payments of these orders, oldest first. */
export async function completedPaymentsOf(db: Db, orderIds: number[]): Promise<CompletedPayment[]> {
  const rows = await repo.completedOnlinePaymentsOf(db, orderIds);
  return rows.map((r) => ({
    id: r.id,
    orderId: r.orderId,
    gateway: r.gateway,
    provider: r.provider,
    amount: r.amount,
    reference: r.gatewayTransactionId,
    providerReference: r.providerReference,
    completedAt: iso(r.completedAt),
  }));
}
