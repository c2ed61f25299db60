// The back office's money lists: payments across orders (the payments module's, served here
// under the order permissions), the refunds queue, and the refunds late payments owe with the
// payments that arrived late. The refunds' actions stay the order's routes (process-refund,
// settle), so a decision is taken by one rule whichever screen asks.
import type { PageMeta } from '../../../platform/http/pagination';
import { pageMeta } from '../../../platform/http/pagination';
import { customerIdsMatching, findUserContacts } from '../../identity';
import { completedPaymentsOf } from '../../payments';
import { customerOf, refundView } from '../admin/admin-orders.service';
import type { OrderDeps } from '../orders.commands';
import * as repo from './money.repository';
import {
  LATE_PAYMENT_REASON,
  type LateRefundItem,
  type LateRefundQuery,
  type RefundQueueItem,
  type RefundQueueQuery,
  type RefundState,
} from './money.schemas';

type Deps = Pick<OrderDeps, 'db'>;

function stateOf(r: repo.RefundWithOrder): RefundState {
  if (r.settledAt) return 'settled';
  if (r.status === 'requested') return 'to_decide';
  if (r.status === 'rejected') return 'rejected';
  return 'owed';
}

async function queueItems(deps: Deps, rows: repo.RefundWithOrder[]): Promise<RefundQueueItem[]> {
  const contacts = await findUserContacts(
    deps.db,
    rows.map((r) => r.order.customerId),
  );
  return rows.map((r) => ({
    ...refundView(r),
    orderId: r.orderId,
    orderNumber: r.order.orderNumber,
    orderStatus: r.order.status,
    paymentMethod: r.order.paymentMethod,
    customer: customerOf(contacts, r.order.customerId),
    state: stateOf(r),
    updatedAt: r.updatedAt.toISOString(),
  }));
}

/** `GET /api/admin/refunds`: every refund record, newest first, by where it stands. */
export async function refundQueue(
  deps: Deps,
  q: RefundQueueQuery,
): Promise<{ data: RefundQueueItem[]; meta: PageMeta }> {
  const term = q.search?.trim();
  const { rows, count } = await repo.listRefunds(
    deps.db,
    {
      state: q.state,
      status: q.status,
      reason: q.reason,
      search: term ? { term, matchingCustomers: customerIdsMatching(deps.db, term) } : null,
    },
    q,
  );
  return { data: await queueItems(deps, rows), meta: pageMeta(q, count) };
}

/**
 * `GET /api/admin/payments/late-refunds`: the refunds owed for money that arrived after its
 * order was given up (reason `late_payment`), each with the order's completed payments.
 */
export async function lateRefunds(
  deps: Deps,
  q: LateRefundQuery,
): Promise<{ data: LateRefundItem[]; meta: PageMeta }> {
  const { rows, count } = await repo.listRefunds(deps.db, { state: q.state, reason: LATE_PAYMENT_REASON }, q);
  const [items, payments] = await Promise.all([
    queueItems(deps, rows),
    completedPaymentsOf(deps.db, [...new Set(rows.map((r) => r.orderId))]),
  ]);
  return {
    data: items.map((item) => ({
      ...item,
      payments: payments
        .filter((p) => p.orderId === item.orderId)
        .map(({ orderId: _orderId, ...payment }) => payment),
    })),
    meta: pageMeta(q, count),
  };
}
