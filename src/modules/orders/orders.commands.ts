// State changes of an existing order that the payments module, orders' own jobs and the back
// office call: payment verified, payment failed, COD cash collected, cancellation, refund
// decision. Each is a conditional update, so a replayed job or a racing change finds nothing
// left to do. Those an admin makes are also written to the activity log, in the same transaction.

import type { Db } from '../../platform/db/database';
import { type AfterCommit, inTransaction } from '../../platform/db/transaction';
import { publishEvent } from '../../platform/events/events';
import type { ModuleContext } from '../../platform/module';
import { recordActivity } from '../activity';
import { claimCouponUse, clearAfterOrderJob, releaseCouponUse } from '../cart';
import {
  deliveredKeyCount,
  finalizeStock,
  releaseStock,
  restockSoldUnits,
  revokeDeliveredKeys,
  type StockOwner,
} from '../catalog';
import { findUserEmail } from '../identity';
import { createNotifier } from '../notifications';
import { cancelOrderSubscriptions, onOrderPaid } from './fulfillment/fulfillment.commands';
import { forgetOrder } from './orders.cache';
import { type HistoryNote, historyNote } from './orders.history-notes';
import { orderEventEmail } from './orders.mail';
import { orderPermissions } from './orders.permissions';
import * as repo from './orders.repository';
import type { ActorType, OrderStatus } from './orders.table';

export type OrderDeps = Pick<
  ModuleContext,
  'db' | 'clock' | 'cache' | 'config' | 'storage' | 'jobs' | 'push' | 'realtime' | 'log' | 'mail'
>;

export const orderOwner = (orderId: number): StockOwner => ({ type: 'order', id: String(orderId) });

const NOTICES: Record<string, { title: string; body: (n: string) => string }> = {
  ORDER_PLACED_CHECKOUT: { title: 'Order placed', body: (n) => `Your order ${n} has been placed.` },
  ORDER_PLACED_BUYNOW: { title: 'Order placed', body: (n) => `Your order ${n} has been placed.` },
  ORDER_PAYMENT_RECEIVED_CHECKOUT: {
    title: 'Payment received',
    body: (n) => `We received the payment for ${n}.`,
  },
  ORDER_PAYMENT_RECEIVED_BUYNOW: {
    title: 'Payment received',
    body: (n) => `We received the payment for ${n}.`,
  },
  ORDER_PAYMENT_FAILED: { title: 'Payment failed', body: (n) => `The payment for ${n} did not go through.` },
  ORDER_CANCELLED: { title: 'Order cancelled', body: (n) => `Your order ${n} has been cancelled.` },
  ORDER_REFUND_REQUESTED: {
    title: 'Refund requested',
    body: (n) => `We received your refund request for ${n}.`,
  },
  ORDER_REFUND_APPROVED: {
    title: 'Refund approved',
    body: (n) => `Your refund for ${n} has been approved.`,
  },
  ORDER_REFUND_REJECTED: {
    title: 'Refund declined',
    body: (n) => `Your refund request for ${n} was declined.`,
  },
  ORDER_REFUND_SETTLED: {
    title: 'Refund paid',
    body: (n) => `We have given back the money for ${n}.`,
  },
  ORDER_KEY_SENT: { title: 'Keys sent', body: (n) => `The keys for ${n} are in your email.` },
  ORDER_SHIPPED: { title: 'Order on its way', body: (n) => `Your order ${n} is on its way.` },
  ORDER_DELIVERED: { title: 'Order delivered', body: (n) => `Your order ${n} has been delivered.` },
  ORDER_ACTIVATED: {
    title: 'Care package active',
    body: (n) => `The care package of ${n} is active from today.`,
  },
};

/** Events whose email is another one: the keys email (fulfilment) already tells the customer. */
const NOT_EMAILED = new Set<string>(['ORDER_KEY_SENT']);

/**
 * The customer's notification of an order event: in-app now, push and email after commit
 * (an anonymised account has no email left to write to).
 */
export async function notifyOrder(
  deps: Pick<OrderDeps, 'push' | 'clock' | 'realtime' | 'mail' | 'config' | 'db'>,
  tx: Db,
  afterCommit: AfterCommit,
  order: repo.OrderRow,
  event: keyof typeof NOTICES,
  /** The customer's email when the caller has just read it (checkout): no second read. */
  knownEmail?: string | null,
): Promise<void> {
  const notice = NOTICES[event]!;
  const sentence = notice.body(order.orderNumber);
  await createNotifier(deps).notifyCustomer(tx, afterCommit, {
    customerId: order.customerId,
    type: event,
    title: notice.title,
    body: sentence,
    data: { orderId: order.id, orderNumber: order.orderNumber },
  });
  if (NOT_EMAILED.has(event)) return;
  afterCommit(async () => {
    const to = knownEmail !== undefined ? knownEmail : await findUserEmail(deps.db, order.customerId);
    if (!to) return;
    await deps.mail.send(
      orderEventEmail({
        to,
        storeName: deps.config.STORE_NAME,
        webUrl: deps.config.PUBLIC_WEB_URL,
        orderId: order.id,
        orderNumber: order.orderNumber,
        title: notice.title,
        sentence,
      }),
    );
  });
}

/** The interface's event for a paid order names how it was bought. */
const paymentReceived = (order: repo.OrderRow) =>
  order.orderSource === 'buy_now' ? 'ORDER_PAYMENT_RECEIVED_BUYNOW' : 'ORDER_PAYMENT_RECEIVED_CHECKOUT';

export type ChangeOutcome = { changed: true; order: repo.OrderRow } | { changed: false };

/**
 * A completed payment (the payments module's payment-completed event: a verified online payment
 * or one recorded at the POS counter): an online or POS order still `payment_pending` becomes
 * `paid` / `completed`, its reserved units are sold, fulfilment starts at `received`, the cart it
 * came from is cleared (job) and the customer told. (The coupon use was claimed when the order
 * was placed; an order placed before uses were claimed at placement has it counted here.) An online order
 * already given up (payment failed, cancelled) stays as it is: the money came late and is owed
 * back (`recordLatePayment`). Any other state (already paid, a COD order): nothing changes.
 */
export async function markOrderPaid(
  deps: OrderDeps,
  tx: Db,
  afterCommit: AfterCommit,
  p: { orderId: number; paymentReference: string; amount?: number },
): Promise<ChangeOutcome> {
  const at = deps.clock.now();
  const order = await repo.updateOrderIf(
    tx,
    p.orderId,
    { from: ['payment_pending'], method: ['online', 'pos'] },
    {
      status: 'paid',
      paymentStatus: 'completed',
      paymentReference: p.paymentReference,
      fulfillmentStatus: 'received',
      paidAt: at,
      updatedAt: at,
    },
  );
  if (!order) {
    await recordLatePayment(deps, tx, afterCommit, p);
    return { changed: false };
  }
  forgetOrder(deps.cache, afterCommit, order);
  const atCounter = order.paymentMethod === 'pos';
  await finalizeStock(tx, {
    owner: orderOwner(order.id),
    at,
    reason: `${atCounter ? 'In-store order' : 'Order'} ${order.orderNumber} paid`,
  });
  if (order.couponId !== null) {
    const outcome = await claimCouponUse(tx, {
      couponId: order.couponId,
      customerId: order.customerId,
      orderId: order.id,
      at,
    });
    if (!outcome.ok) {
      // The money is taken: the order stands; the overrun is logged for the back office.
      deps.log.warn({ orderId: order.id, reason: outcome.reason }, 'coupon not counted for a paid order');
    }
  }
  await repo.insertStatus(tx, {
    orderId: order.id,
    status: 'paid',
    notes: atCounter
      ? historyNote('in_store_payment', { reference: p.paymentReference, gateway: order.gateway })
      : historyNote('payment_verified', { reference: p.paymentReference }),
    actorType: 'system',
    at,
  });
  await onOrderPaid(deps, tx, afterCommit, order);
  if (order.orderSource === 'checkout') {
    const job = clearAfterOrderJob(deps);
    afterCommit(() => deps.jobs.enqueue(job, { customerId: order.customerId, orderId: String(order.id) }));
  }
  await notifyOrder(deps, tx, afterCommit, order, paymentReceived(order));
  // A counter sale's payment names no admin: the one who rang it up made it paid.
  const paidByAdminId = atCounter ? await repo.lastAdminOfHistory(tx, order.id) : null;
  await publishEvent(tx, 'order.paid', { orderId: order.id, paidByAdminId });
  // Paying starts fulfilment (null → received): receivers of fulfilment changes hear it too.
  await publishEvent(tx, 'order.fulfillment_changed', { orderId: order.id, previousFulfillmentStatus: null });
  return { changed: true, order };
}

/**
 * docs/decisions.md, "Real gateways": a payment completed for an online order already given up
 * (payment failed, or cancelled) keeps the order as it is, owes the money back as a `pending`
 * refund with reason `late_payment`, and tells the admins who hold Orders_UPDATE in-app. Called
 * once per payment (the payment's own conditional move to completed).
 */
async function recordLatePayment(
  deps: OrderDeps,
  tx: Db,
  afterCommit: AfterCommit,
  p: { orderId: number; paymentReference: string; amount?: number },
): Promise<void> {
  const order = await repo.lockOrder(tx, p.orderId);
  if (order?.paymentMethod !== 'online' || !['cancelled', 'payment_failed'].includes(order.status)) return;
  const at = deps.clock.now();
  const amount = p.amount ?? order.finalPayable;
  const refund = await repo.insertRefund(tx, {
    orderId: order.id,
    amount,
    status: 'pending',
    reason: 'late_payment',
    remarks: `Payment ${p.paymentReference} completed after the order was ${order.status === 'cancelled' ? 'cancelled' : 'marked payment_failed'}`,
    at,
  });
  deps.log.warn(
    { orderId: order.id, refundId: refund.id, amount },
    'late payment for an order given up; refund owed',
  );
  await createNotifier(deps).notifyAdmins(tx, afterCommit, {
    permission: orderPermissions.UPDATE,
    type: 'order.late_payment',
    title: 'Late payment to refund',
    body: `Order ${order.orderNumber} was paid (${amount} NPR, payment ${p.paymentReference}) after it was given up. Refund the customer.`,
    data: { orderId: order.id, orderNumber: order.orderNumber, refundId: refund.id, amount },
  });
}

/**
 * A failed online payment (`order.payment_failed`): an online order still `payment_pending`
 * becomes `payment_failed` / `failed`, its units and its coupon use go back. Otherwise nothing
 * changes.
 */
export async function markOrderPaymentFailed(
  deps: OrderDeps,
  tx: Db,
  afterCommit: AfterCommit,
  p: { orderId: number; reason?: string | null },
): Promise<ChangeOutcome> {
  const at = deps.clock.now();
  const order = await repo.updateOrderIf(
    tx,
    p.orderId,
    { from: ['payment_pending'], method: 'online' },
    { status: 'payment_failed', paymentStatus: 'failed', updatedAt: at },
  );
  if (!order) return { changed: false };
  forgetOrder(deps.cache, afterCommit, order);
  await releaseStock(tx, {
    owner: orderOwner(order.id),
    at,
    reason: `Payment of ${order.orderNumber} failed`,
  });
  await releaseCouponUse(tx, { orderId: order.id, at });
  await repo.insertStatus(tx, {
    orderId: order.id,
    status: 'payment_failed',
    notes: p.reason ? historyNote('payment_failed', { reason: p.reason }) : null,
    actorType: 'system',
    at,
  });
  await notifyOrder(deps, tx, afterCommit, order, 'ORDER_PAYMENT_FAILED');
  await publishEvent(tx, 'order.payment_failed', { orderId: order.id });
  return { changed: true, order };
}

/**
 * COD cash recorded by an admin (`PUT /admin/orders/:id/cod-collect`): a COD order still
 * `payment_pending` / `cod_pending` becomes `paid` / `cod_collected`, its reserved units are
 * sold, and the customer told. Any other state: nothing changes (the caller decides whether
 * that is a repeat or a refusal). The "order became paid" effects of paid orders belong here
 * too, beside `markOrderPaid`'s.
 */
export async function collectCod(
  deps: OrderDeps,
  tx: Db,
  afterCommit: AfterCommit,
  p: { orderId: number; adminId: string; remarks: string },
): Promise<ChangeOutcome> {
  const at = deps.clock.now();
  const order = await repo.updateOrderIf(
    tx,
    p.orderId,
    { from: ['payment_pending'], method: 'cod', paymentStatus: 'cod_pending' },
    {
      status: 'paid',
      paymentStatus: 'cod_collected',
      paidAt: at,
      codCollectedByAdminId: p.adminId,
      codRemarks: p.remarks,
      updatedAt: at,
    },
  );
  if (!order) return { changed: false };
  forgetOrder(deps.cache, afterCommit, order);
  await finalizeStock(tx, {
    owner: orderOwner(order.id),
    at,
    reason: `Order ${order.orderNumber} paid (COD)`,
  });
  await repo.insertStatus(tx, {
    orderId: order.id,
    status: 'paid',
    notes: p.remarks,
    actorType: 'admin',
    adminId: p.adminId,
    at,
  });
  await onOrderPaid(deps, tx, afterCommit, order);
  await recordActivity(tx, {
    adminId: p.adminId,
    action: 'cod_collect',
    entityType: 'order',
    entityId: order.id,
    summary: `Collected ${order.finalPayable} NPR cash on delivery for order ${order.orderNumber}`,
    at,
  });
  await notifyOrder(deps, tx, afterCommit, order, paymentReceived(order));
  await publishEvent(tx, 'order.paid', { orderId: order.id, paidByAdminId: p.adminId });
  return { changed: true, order };
}

/**
 * The units of an order that will not ship go back: what it still holds is released, and
 * what it bought (a paid order: `markOrderPaid` or `collectCod` sold them) is put back on
 * the shelf.
 */
async function returnOrderStock(tx: Db, order: repo.OrderRow, at: Date, reason: string): Promise<void> {
  const owner = orderOwner(order.id);
  await releaseStock(tx, { owner, at, reason });
  if (order.paidAt) {
    const items = await repo.itemsOf(tx, [order.id]);
    await restockSoldUnits(tx, {
      owner,
      lines: items.filter((i) => i.productKind === 'physical'),
      at,
      reason,
    });
  }
}

const requestResult = (order: repo.OrderRow, extra: Record<string, unknown> = {}) => ({
  orderId: order.id,
  orderStatus: order.status,
  paymentStatus: order.paymentStatus,
  fulfillmentStatus: order.fulfillmentStatus,
  ...extra,
});

/** States a customer (and the unpaid-order sweep) may cancel from (docs/decisions.md, "Cancel"). */
const CANCELLABLE: readonly OrderStatus[] = ['created', 'payment_pending'];

/**
 * Whether `actorType` may cancel `order` now: anyone before payment while fulfilment has not
 * passed `received`; an admin also a paid order that has not left the store (`received` or
 * `ready`), which then owes the customer a refund.
 */
function cancelKind(order: repo.OrderRow, actorType: ActorType): 'unpaid' | 'paid' | null {
  const f = order.fulfillmentStatus;
  if (CANCELLABLE.includes(order.status) && (f === null || f === 'received')) return 'unpaid';
  if (actorType === 'admin' && order.status === 'paid' && (f === 'received' || f === 'ready')) return 'paid';
  return null;
}

export type CancelFailure = 'order_not_found' | 'invalid_transition' | 'digital_keys_delivered';

export interface CancelRequest {
  orderId: number;
  reason?: string | null;
  actorType: ActorType;
  actorId?: string | null;
  requestId?: string;
  onlyUnpaidOnline?: boolean;
  /** The history note when the server cancels (its code); otherwise `reason` is the note. */
  note?: HistoryNote;
}

/**
 * Cancels an order (job `order.cancel`, or `order.auto_cancel` with `onlyUnpaidOnline`) when
 * `cancelKind` allows it; the order's units go back, an unpaid order's coupon use goes back, and
 * a paid order gets a `pending` refund record. Ends the async request `requestId` when given.
 * Returns why it refused.
 */
export function cancelOrder(deps: OrderDeps, p: CancelRequest): Promise<CancelFailure | null> {
  return inTransaction(deps.db, (tx, afterCommit) => cancelOrderInTransaction(deps, tx, afterCommit, p));
}

/** `cancelOrder` in the caller's transaction (a new checkout replacing the cart's unpaid order). */
export async function cancelOrderInTransaction(
  deps: OrderDeps,
  tx: Db,
  afterCommit: AfterCommit,
  p: CancelRequest,
): Promise<CancelFailure | null> {
  const at = deps.clock.now();
  const fail = async (error: CancelFailure) => {
    if (p.requestId) await repo.finishRequest(tx, p.requestId, { status: 'failed', result: null, error, at });
    return error;
  };
  const current = await repo.lockOrder(tx, p.orderId);
  if (!current) return fail('order_not_found');
  const kind = p.onlyUnpaidOnline
    ? current.status === 'payment_pending' && current.paymentMethod === 'online'
      ? 'unpaid'
      : null
    : cancelKind(current, p.actorType);
  if (!kind) return fail('invalid_transition');
  const order = (await repo.updateOrderIf(
    tx,
    current.id,
    { from: [current.status] },
    {
      status: 'cancelled',
      fulfillmentStatus: current.fulfillmentStatus ? 'cancelled' : null,
      cancelledAt: at,
      updatedAt: at,
    },
  ))!;
  forgetOrder(deps.cache, afterCommit, order);
  await returnOrderStock(tx, order, at, `Order ${order.orderNumber} cancelled`);
  await cancelOrderSubscriptions(tx, order.id, at);
  // Cancelled before payment: the coupon use was never paid for (docs/api-notes.md, "Coupon uses").
  if (kind === 'unpaid') await releaseCouponUse(tx, { orderId: order.id, at });
  const refund =
    kind === 'paid'
      ? await repo.insertRefund(tx, {
          orderId: order.id,
          amount: order.finalPayable,
          status: 'pending',
          reason: 'admin_cancel',
          remarks: p.reason ?? null,
          at,
        })
      : null;
  await repo.insertStatus(tx, {
    orderId: order.id,
    status: 'cancelled',
    notes: p.note ?? p.reason ?? null,
    actorType: p.actorType,
    customerId: p.actorType === 'customer' ? p.actorId : null,
    adminId: p.actorType === 'admin' ? p.actorId : null,
    at,
  });
  if (p.actorType === 'admin' && p.actorId) {
    await recordActivity(tx, {
      adminId: p.actorId,
      action: 'cancel',
      entityType: 'order',
      entityId: order.id,
      summary: `Cancelled order ${order.orderNumber}${refund ? `; refund of ${refund.amount} NPR pending` : ''}`,
      at,
    });
  }
  await notifyOrder(deps, tx, afterCommit, order, 'ORDER_CANCELLED');
  // A paid order cancelled is a return: the money goes back (invoices issues a credit note).
  await publishEvent(tx, 'order.cancelled', {
    orderId: order.id,
    refundDue: kind === 'paid',
    adminId: p.actorType === 'admin' ? (p.actorId ?? null) : null,
    reason: p.reason ?? null,
  });
  if (current.fulfillmentStatus && current.fulfillmentStatus !== 'cancelled') {
    await publishEvent(tx, 'order.fulfillment_changed', {
      orderId: order.id,
      previousFulfillmentStatus: current.fulfillmentStatus,
    });
  }
  if (p.requestId) {
    await repo.finishRequest(tx, p.requestId, {
      status: 'completed',
      result: requestResult(order, refund ? { refundId: refund.id, refundStatus: refund.status } : {}),
      error: null,
      at,
    });
  }
  return null;
}

/** Whether any licence key sold with the order is with the customer (docs/decisions.md, "Refunds after digital delivery"). */
export async function orderKeysDelivered(db: Db, orderId: number): Promise<boolean> {
  const itemIds = (await repo.itemsOf(db, [orderId])).map((i) => i.id);
  return (await deliveredKeyCount(db, itemIds)) > 0;
}

export type RefundDecision = 'approve' | 'reject';

/** Fulfilment states after which the goods (or keys, or cover) are with the customer. */
const HANDED_OVER = new Set(['delivered', 'key_sent', 'activated']);

/**
 * An admin's decision on a refund request (job `order.process_refund`): `refund_requested`
 * becomes `refund_approved` or `refund_rejected` directly (the money goes back by hand, no
 * gateway call). Approving the refund of an order not yet handed over stops its fulfilment
 * and puts its units back. The same decision again ends `completed` with
 * `skipped: already_at_target_status`; any other state fails `invalid_transition`.
 */
export async function processRefund(
  deps: OrderDeps,
  p: {
    orderId: number;
    adminId: string;
    action: RefundDecision;
    remarks: string;
    revokeKeys?: boolean;
    requestId?: string;
  },
): Promise<CancelFailure | null> {
  return inTransaction(deps.db, async (tx, afterCommit) => {
    const at = deps.clock.now();
    const finish = (values: Parameters<typeof repo.finishRequest>[2]) =>
      p.requestId ? repo.finishRequest(tx, p.requestId, values) : Promise.resolve(false);
    const fail = async (error: CancelFailure) => {
      await finish({ status: 'failed', result: null, error, at });
      return error;
    };
    const target: OrderStatus = p.action === 'approve' ? 'refund_approved' : 'refund_rejected';
    const current = await repo.lockOrder(tx, p.orderId);
    if (!current) return fail('order_not_found');
    if (current.status === target) {
      await finish({
        status: 'completed',
        result: requestResult(current, { skipped: 'already_at_target_status' }),
        error: null,
        at,
      });
      return null;
    }
    if (current.status !== 'refund_requested') return fail('invalid_transition');
    // docs/decisions.md, "Refunds after digital delivery": keys delivered since the route checked.
    const revokeKeys = p.action === 'approve' && p.revokeKeys;
    const revokedKeys = revokeKeys
      ? await revokeDeliveredKeys(tx, {
          orderItemIds: (await repo.itemsOf(tx, [current.id])).map((i) => i.id),
          at,
        })
      : [];
    if (p.action === 'approve' && !revokeKeys && (await orderKeysDelivered(tx, current.id)))
      return fail('digital_keys_delivered');
    const stopFulfilment =
      p.action === 'approve' &&
      current.fulfillmentStatus !== null &&
      current.fulfillmentStatus !== 'cancelled' &&
      !HANDED_OVER.has(current.fulfillmentStatus);
    const order = (await repo.updateOrderIf(
      tx,
      current.id,
      { from: ['refund_requested'] },
      {
        status: target,
        ...(stopFulfilment ? { fulfillmentStatus: 'cancelled' as const } : {}),
        updatedAt: at,
      },
    ))!;
    forgetOrder(deps.cache, afterCommit, order);
    if (stopFulfilment)
      await returnOrderStock(tx, order, at, `Refund of order ${order.orderNumber} approved`);
    // The money goes back, and the cover sold with the order ends with it.
    if (p.action === 'approve') {
      await cancelOrderSubscriptions(tx, order.id, at);
    }
    const decided = p.action === 'approve' ? 'approved' : 'rejected';
    const settled = await repo.settleRequestedRefunds(tx, order.id, {
      status: decided,
      remarks: p.remarks,
      adminId: p.adminId,
      at,
    });
    if (settled === 0) {
      // A request made before refund records existed: record the decision all the same.
      await repo.insertRefund(tx, {
        orderId: order.id,
        amount: order.finalPayable,
        status: 'requested',
        reason: order.refundReason ?? 'customer_request',
        at,
      });
      await repo.settleRequestedRefunds(tx, order.id, {
        status: decided,
        remarks: p.remarks,
        adminId: p.adminId,
        at,
      });
    }
    await repo.insertStatus(tx, {
      orderId: order.id,
      status: target,
      notes: p.remarks,
      actorType: 'admin',
      adminId: p.adminId,
      at,
    });
    await recordActivity(tx, {
      adminId: p.adminId,
      action: p.action === 'approve' ? 'refund_approve' : 'refund_reject',
      entityType: 'order',
      entityId: order.id,
      summary: `${p.action === 'approve' ? 'Approved' : 'Rejected'} the refund of order ${order.orderNumber} (${order.finalPayable} NPR)${revokedKeys.length ? `; revoked licence keys ${revokedKeys.join(', ')}` : ''}`,
      at,
    });
    await notifyOrder(
      deps,
      tx,
      afterCommit,
      order,
      p.action === 'approve' ? 'ORDER_REFUND_APPROVED' : 'ORDER_REFUND_REJECTED',
    );
    await publishEvent(tx, 'refund.processed', {
      orderId: order.id,
      approved: p.action === 'approve',
      adminId: p.adminId,
      reason: p.remarks || order.refundReason,
    });
    if (stopFulfilment) {
      await publishEvent(tx, 'order.fulfillment_changed', {
        orderId: order.id,
        previousFulfillmentStatus: current.fulfillmentStatus,
      });
    }
    await finish({ status: 'completed', result: requestResult(order), error: null, at });
    return null;
  });
}
