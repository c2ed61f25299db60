// State changes of an existing order that the payments module and orders' own jobs call:
// payment verified, payment failed, cancellation. Each is a conditional update inside the
// caller's transaction, so a replayed job or a racing change finds nothing left to do.

import type { Db } from '../../platform/db/database';
import { type AfterCommit, inTransaction } from '../../platform/db/transaction';
import type { ModuleContext } from '../../platform/module';
import { clearAfterOrderJob, recordCouponRedemption } from '../cart';
import { finalizeStock, releaseStock, type StockOwner } from '../catalog';
import { createNotifier } from '../notifications';
import { cancelOrderSubscriptions, onOrderPaid } from './fulfillment/fulfillment.commands';
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
  ORDER_KEY_SENT: { title: 'Keys sent', body: (n) => `The keys for ${n} are in your email.` },
  ORDER_SHIPPED: { title: 'Order on its way', body: (n) => `Your order ${n} is on its way.` },
  ORDER_DELIVERED: { title: 'Order delivered', body: (n) => `Your order ${n} has been delivered.` },
  ORDER_ACTIVATED: {
    title: 'Care package active',
    body: (n) => `The care package of ${n} is active from today.`,
  },
};

/** The customer's notification of an order event (in-app now, push after commit). */
export async function notifyOrder(
  deps: Pick<OrderDeps, 'push' | 'clock' | 'realtime'>,
  tx: Db,
  afterCommit: AfterCommit,
  order: repo.OrderRow,
  event: keyof typeof NOTICES,
): Promise<void> {
  const notice = NOTICES[event]!;
  await createNotifier(deps).notifyCustomer(tx, afterCommit, {
    customerId: order.customerId,
    type: event,
    title: notice.title,
    body: notice.body(order.orderNumber),
    data: { orderId: order.id, orderNumber: order.orderNumber },
  });
}

export type ChangeOutcome = { changed: true; order: repo.OrderRow } | { changed: false };

/**
 * A verified online payment (the payments module's `order.payment_success`): an online order
 * still `payment_pending` becomes `paid` / `completed`, its reserved units are sold, fulfilment
 * starts at `received`, the coupon use is counted, the cart it came from is cleared (job) and
 * the customer told. Any other state (already paid, failed, cancelled): nothing changes.
 */
export async function markOrderPaid(
  deps: OrderDeps,
  tx: Db,
  afterCommit: AfterCommit,
  p: { orderId: number; paymentReference: string },
): Promise<ChangeOutcome> {
  const at = deps.clock.now();
  const order = await repo.updateOrderIf(
    tx,
    p.orderId,
    { from: ['payment_pending'], method: 'online' },
    {
      status: 'paid',
      paymentStatus: 'completed',
      paymentReference: p.paymentReference,
      fulfillmentStatus: 'received',
      paidAt: at,
      updatedAt: at,
    },
  );
  if (!order) return { changed: false };
  await finalizeStock(tx, { owner: orderOwner(order.id), at, reason: `Order ${order.orderNumber} paid` });
  if (order.couponId !== null) {
    const outcome = await recordCouponRedemption(tx, {
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
    notes: `Payment ${p.paymentReference} verified`,
    actorType: 'system',
    at,
  });
  await onOrderPaid(deps, tx, afterCommit, order);
  if (order.orderSource === 'checkout') {
    const job = clearAfterOrderJob(deps);
    afterCommit(() => deps.jobs.enqueue(job, { customerId: order.customerId, orderId: String(order.id) }));
  }
  await notifyOrder(
    deps,
    tx,
    afterCommit,
    order,
    order.orderSource === 'buy_now' ? 'ORDER_PAYMENT_RECEIVED_BUYNOW' : 'ORDER_PAYMENT_RECEIVED_CHECKOUT',
  );
  return { changed: true, order };
}

/**
 * A failed online payment (`order.payment_failed`): an online order still `payment_pending`
 * becomes `payment_failed` / `failed` and its units go back. Otherwise nothing changes.
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
  await releaseStock(tx, {
    owner: orderOwner(order.id),
    at,
    reason: `Payment of ${order.orderNumber} failed`,
  });
  await repo.insertStatus(tx, {
    orderId: order.id,
    status: 'payment_failed',
    notes: p.reason ?? null,
    actorType: 'system',
    at,
  });
  await notifyOrder(deps, tx, afterCommit, order, 'ORDER_PAYMENT_FAILED');
  return { changed: true, order };
}

/** States a customer (and the unpaid-order sweep) may cancel from (decisions.md, "Cancel"). */
const CANCELLABLE: readonly OrderStatus[] = ['created', 'payment_pending'];

export type CancelFailure = 'order_not_found' | 'invalid_transition';

/**
 * Cancels an order (job `order.cancel`, or `order.auto_cancel` with `onlyUnpaidOnline`):
 * from `created` or `payment_pending` while fulfilment has not passed `received`; the order's
 * units go back. Ends the async request `requestId` when given. Returns why it refused.
 */
export async function cancelOrder(
  deps: OrderDeps,
  p: {
    orderId: number;
    reason?: string | null;
    actorType: ActorType;
    actorId?: string | null;
    requestId?: string;
    onlyUnpaidOnline?: boolean;
  },
): Promise<CancelFailure | null> {
  return inTransaction(deps.db, async (tx, afterCommit) => {
    const at = deps.clock.now();
    const fail = async (error: CancelFailure) => {
      if (p.requestId)
        await repo.finishRequest(tx, p.requestId, { status: 'failed', result: null, error, at });
      return error;
    };
    const current = await repo.lockOrder(tx, p.orderId);
    if (!current) return fail('order_not_found');
    const fulfilmentOpen = current.fulfillmentStatus === null || current.fulfillmentStatus === 'received';
    const eligible = p.onlyUnpaidOnline
      ? current.status === 'payment_pending' && current.paymentMethod === 'online'
      : CANCELLABLE.includes(current.status) && fulfilmentOpen;
    if (!eligible) return fail('invalid_transition');
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
    await releaseStock(tx, {
      owner: orderOwner(order.id),
      at,
      reason: `Order ${order.orderNumber} cancelled`,
    });
    await cancelOrderSubscriptions(tx, order.id, at);
    await repo.insertStatus(tx, {
      orderId: order.id,
      status: 'cancelled',
      notes: p.reason ?? null,
      actorType: p.actorType,
      customerId: p.actorType === 'customer' ? p.actorId : null,
      adminId: p.actorType === 'admin' ? p.actorId : null,
      at,
    });
    await notifyOrder(deps, tx, afterCommit, order, 'ORDER_CANCELLED');
    if (p.requestId) {
      await repo.finishRequest(tx, p.requestId, {
        status: 'completed',
        result: {
          orderId: order.id,
          orderStatus: order.status,
          paymentStatus: order.paymentStatus,
          fulfillmentStatus: order.fulfillmentStatus,
        },
        error: null,
        at,
      });
    }
    return null;
  });
}
