// The back office's fulfilment actions: advance an order along the physical path (checked,
// then applied by the `order.fulfillment_status` job), deliver a digital order's keys,
// activate a care-package order, and read an order's keys.

import type { Db } from '../../../platform/db/database';
import { isCheckViolation } from '../../../platform/db/errors';
import { type AfterCommit, inTransaction } from '../../../platform/db/transaction';
import { publishEvent } from '../../../platform/events/events';
import { newUuid } from '../../../platform/ids';
import { defineJob } from '../../../platform/jobs/jobs';
import { recordActivity } from '../../activity';
import { assignedKeysForStaff } from '../../catalog';
import { forgetOrder } from '../orders.cache';
import { notifyOrder, type OrderDeps } from '../orders.commands';
import { orderErrors } from '../orders.errors';
import * as ordersRepo from '../orders.repository';
import type { OrderStatus } from '../orders.table';
import {
  activatePendingSubscriptions,
  deliverDigitalKeys,
  type FulfillmentDeps,
} from './fulfillment.commands';
import { fulfillmentErrors } from './fulfillment.errors';
import * as repo from './fulfillment.repository';
import {
  checkFulfillmentMove,
  type FulfillmentMove,
  type FulfillmentStatus,
  type OrderType,
} from './fulfillment.rules';
import {
  type CarePackageActivationView,
  type DigitalDeliveryView,
  type FulfillmentRequestedView,
  type FulfillmentStatusBody,
  type FulfillmentStatusPayload,
  fulfillmentStatusPayload,
  type OrderItemKeysView,
} from './fulfillment.schemas';

export type FulfillmentServiceDeps = OrderDeps & FulfillmentDeps;

/**
 * Orders whose fulfilment is over whatever its status says: cancelled, or refunded before
 * delivery (the sale is undone and its stock released).
 */
const CLOSED_ORDER_STATUSES: readonly OrderStatus[] = ['cancelled', 'refund_approved'];

/** The customer's notice for reaching a fulfilment step, where there is one. */
const STEP_NOTICES: Partial<Record<FulfillmentStatus, Parameters<typeof notifyOrder>[4]>> = {
  in_transit: 'ORDER_SHIPPED',
  delivered: 'ORDER_DELIVERED',
  key_sent: 'ORDER_KEY_SENT',
  activated: 'ORDER_ACTIVATED',
};

/**
 * A move the fulfilment-status command may make: the state machine's answer, except that a
 * digital or care-package order's only step goes through its own action (keys, activation).
 */
function adminMove(
  orderType: OrderType,
  current: FulfillmentStatus,
  target: FulfillmentStatus,
): FulfillmentMove {
  const move = checkFulfillmentMove(orderType, current, target);
  if (move.kind === 'move' && orderType !== 'physical' && orderType !== 'mixed') return { kind: 'invalid' };
  return move;
}

const ACTION_HINT: Partial<Record<OrderType, string>> = {
  digital: 'a digital order moves on with send-digital-delivery',
  care_package: 'a care-package order moves on with activate-care-package',
};

/** One step forward, with its history row and the customer's notice; undefined when it lost a race. */
async function advance(
  deps: OrderDeps,
  tx: Db,
  afterCommit: AfterCommit,
  p: {
    order: ordersRepo.OrderRow;
    from: FulfillmentStatus;
    to: FulfillmentStatus;
    remarks?: string | null;
    adminId: string;
    at: Date;
  },
): Promise<ordersRepo.OrderRow | undefined> {
  const moved = await repo.moveFulfillment(tx, {
    orderId: p.order.id,
    from: p.from,
    to: p.to,
    closedStatuses: CLOSED_ORDER_STATUSES,
    at: p.at,
  });
  if (!moved) return undefined;
  forgetOrder(deps.cache, afterCommit, moved);
  await repo.insertFulfillmentHistory(tx, {
    orderId: moved.id,
    from: p.from,
    to: p.to,
    remarks: p.remarks,
    actorType: 'admin',
    actorId: p.adminId,
    at: p.at,
  });
  const notice = STEP_NOTICES[p.to];
  if (notice) await notifyOrder(deps, tx, afterCommit, moved, notice);
  await publishEvent(tx, 'order.fulfillment_changed', {
    orderId: moved.id,
    previousFulfillmentStatus: p.from,
  });
  return moved;
}

// ---------- fulfilment-status (async) ----------

/**
 * `POST /api/admin/orders/:id/fulfillment-status`: refuses at once what can never succeed
 * (docs/decisions.md, "Fulfilment route"), records the request and queues the job that applies it.
 */
export async function requestFulfillmentStatus(
  deps: FulfillmentServiceDeps,
  adminId: string,
  orderId: number,
  body: FulfillmentStatusBody,
): Promise<FulfillmentRequestedView> {
  const order = await ordersRepo.findOrder(deps.db, orderId);
  if (!order) throw orderErrors.notFound();
  if (CLOSED_ORDER_STATUSES.includes(order.status)) throw fulfillmentErrors.closed(order.status);
  const current = order.fulfillmentStatus;
  if (current === null)
    throw fulfillmentErrors.invalidTransition(null, body.status, 'fulfilment starts once the order is paid');
  const move = adminMove(order.orderType, current, body.status);
  if (move.kind === 'closed') throw fulfillmentErrors.closed(current);
  if (move.kind === 'invalid')
    throw fulfillmentErrors.invalidTransition(current, body.status, ACTION_HINT[order.orderType]);
  const row = await ordersRepo.insertRequest(deps.db, {
    requestId: newUuid(),
    orderId,
    command: 'fulfillment_status',
    adminId,
    status: 'pending',
    createdAt: deps.clock.now(),
  });
  await deps.jobs.enqueue(
    fulfillmentStatusJob(deps),
    { orderId, status: body.status, remarks: body.remarks ?? null, adminId, requestId: row.requestId },
    { jobId: row.requestId },
  );
  return { requestId: row.requestId, status: 'pending', createdAt: row.createdAt.toISOString() };
}

/**
 * The job's work, under the order's row lock: a cancellation already made or still waiting
 * wins (the request fails `invalid_transition`), the current state is checked again (another
 * admin's move may have won), and the move is a conditional UPDATE with its history row.
 */
export async function applyFulfillmentStatus(
  deps: FulfillmentServiceDeps,
  p: FulfillmentStatusPayload,
): Promise<void> {
  try {
    await inTransaction(deps.db, async (tx, afterCommit) => {
      const at = deps.clock.now();
      const fail = (error: string) =>
        ordersRepo.finishRequest(tx, p.requestId, { status: 'failed', result: null, error, at });
      const complete = (order: ordersRepo.OrderRow, extra: Record<string, unknown> = {}) =>
        ordersRepo.finishRequest(tx, p.requestId, {
          status: 'completed',
          result: {
            orderId: order.id,
            orderStatus: order.status,
            paymentStatus: order.paymentStatus,
            fulfillmentStatus: order.fulfillmentStatus,
            ...extra,
          },
          error: null,
          at,
        });
      const order = await ordersRepo.lockOrder(tx, p.orderId);
      if (!order) return fail('order_not_found');
      if (CLOSED_ORDER_STATUSES.includes(order.status) || (await repo.hasPendingCancel(tx, order.id)))
        return fail('invalid_transition');
      const current = order.fulfillmentStatus;
      if (current === null) return fail('invalid_transition');
      const move = adminMove(order.orderType, current, p.status);
      if (move.kind === 'skip') return complete(order, { skipped: move.reason });
      if (move.kind !== 'move') return fail('invalid_transition');
      const moved = await advance(deps, tx, afterCommit, {
        order,
        from: move.from,
        to: move.to,
        remarks: p.remarks,
        adminId: p.adminId,
        at,
      });
      if (!moved) return fail('invalid_transition');
      // The cover sold with the goods starts when they arrive.
      if (move.to === 'delivered') await activatePendingSubscriptions(tx, moved.id, at);
      return complete(moved);
    });
  } catch (error) {
    // The database's own copy of the state machine refused the move: retrying cannot help.
    if (!isCheckViolation(error)) throw error;
    await ordersRepo.finishRequest(deps.db, p.requestId, {
      status: 'failed',
      result: null,
      error: 'constraint_violation_non_retryable',
      at: deps.clock.now(),
    });
  }
}

export const fulfillmentStatusJob = (deps: FulfillmentServiceDeps) =>
  defineJob({
    name: 'order.fulfillment_status',
    payload: fulfillmentStatusPayload,
    handler: (p) => applyFulfillmentStatus(deps, p),
  });

// ---------- digital delivery ----------

/**
 * `POST /api/admin/orders/:id/send-digital-delivery`: a paid digital (or mixed) order's lines
 * get their keys, all or none (409 when a product has too few), and the customer the keys
 * email. A digital order moves `received` → `key_sent`. Sending again assigns nothing new: it
 * mails the same keys once more.
 */
export async function sendDigitalDelivery(
  deps: FulfillmentServiceDeps,
  adminId: string,
  orderId: number,
): Promise<DigitalDeliveryView> {
  return inTransaction(deps.db, async (tx, afterCommit) => {
    const at = deps.clock.now();
    const order = await ordersRepo.lockOrder(tx, orderId);
    if (!order) throw orderErrors.notFound();
    if (order.orderType !== 'digital' && order.orderType !== 'mixed') throw fulfillmentErrors.notDigital();
    if (order.status !== 'paid') throw fulfillmentErrors.notPaid();
    const delivery = await deliverDigitalKeys(deps, tx, afterCommit, order, at, { strict: true });
    let fulfillmentStatus = order.fulfillmentStatus;
    if (order.orderType === 'digital' && order.fulfillmentStatus === 'received') {
      const moved = await advance(deps, tx, afterCommit, {
        order,
        from: 'received',
        to: 'key_sent',
        adminId,
        at,
      });
      fulfillmentStatus = moved?.fulfillmentStatus ?? fulfillmentStatus;
    }
    await recordActivity(tx, {
      adminId,
      action: 'digital_delivery_send',
      entityType: 'order',
      entityId: order.id,
      summary: `Sent ${delivery.deliveredItems.length} key(s) of order ${order.orderNumber} to ${
        delivery.emailSentTo ?? 'no address'
      }`,
      at,
    });
    return {
      orderId: order.id,
      deliveredItems: delivery.deliveredItems,
      emailSentTo: delivery.emailSentTo,
      fulfillmentStatus: fulfillmentStatus ?? 'received',
    };
  });
}

/**
 * `GET /api/admin/orders/:id/digital-keys`: each digital line with the keys sold with it. The
 * route needs Orders_READ (the interface); the full values also need DigitalKeys_READ
 * (`revealValues`), since a licence key read off the screen is as good as the product itself.
 */
export async function orderDigitalKeys(
  deps: Pick<FulfillmentServiceDeps, 'db' | 'config'>,
  orderId: number,
  revealValues: boolean,
): Promise<OrderItemKeysView[]> {
  const order = await ordersRepo.findOrder(deps.db, orderId);
  if (!order) throw orderErrors.notFound();
  const items = (await ordersRepo.itemsOf(deps.db, [orderId])).filter((i) => i.productKind === 'digital');
  const views: OrderItemKeysView[] = [];
  for (const item of items) {
    const keys = await assignedKeysForStaff(deps, String(item.id), revealValues);
    views.push({
      orderItemId: item.id,
      productId: item.productId,
      productTitle: item.productTitle,
      quantity: item.quantity,
      keys: keys.map((k) => ({
        keyId: k.id,
        value: k.value,
        maskedValue: k.maskedValue,
        assignedAt: k.assignedAt,
      })),
    });
  }
  return views;
}

// ---------- care-package activation ----------

/**
 * `POST /api/admin/orders/:id/activate-care-package`: every pending subscription of a
 * care-package order becomes active and fulfilment moves `received` → `activated`.
 */
export async function activateCarePackage(
  deps: FulfillmentServiceDeps,
  adminId: string,
  orderId: number,
): Promise<CarePackageActivationView> {
  return inTransaction(deps.db, async (tx, afterCommit) => {
    const at = deps.clock.now();
    const order = await ordersRepo.lockOrder(tx, orderId);
    if (!order) throw orderErrors.notFound();
    if (order.orderType !== 'care_package') throw fulfillmentErrors.carePackageNotApplicable();
    if (CLOSED_ORDER_STATUSES.includes(order.status)) throw fulfillmentErrors.closed(order.status);
    if (order.fulfillmentStatus !== 'received') throw fulfillmentErrors.noPendingSubscriptions();
    const activatedCount = await activatePendingSubscriptions(tx, order.id, at);
    if (activatedCount === 0) throw fulfillmentErrors.noPendingSubscriptions();
    const moved = await advance(deps, tx, afterCommit, {
      order,
      from: 'received',
      to: 'activated',
      adminId,
      at,
    });
    // Under the row lock the order is still at `received`, so the move cannot lose.
    if (!moved) throw fulfillmentErrors.noPendingSubscriptions();
    return { orderId: order.id, activatedCount, fulfillmentStatus: 'activated' };
  });
}
