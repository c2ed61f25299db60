// The customer's own orders: the list and detail, the async cancel request and its state, and
// the refund request.

import type { Db } from '../../../platform/db/database';
import { inTransaction } from '../../../platform/db/transaction';
import { publishEvent } from '../../../platform/events/events';
import { pageSchema, serializedWith } from '../../../platform/http/envelope';
import { pageMeta } from '../../../platform/http/pagination';
import { newUuid } from '../../../platform/ids';
import { subscriptionInfoOf } from '../fulfillment/fulfillment.commands';
import { forgetOrder, orderCache } from '../orders.cache';
import { notifyOrder, type OrderDeps, orderKeysDelivered } from '../orders.commands';
import { orderErrors } from '../orders.errors';
import { cancelJob } from '../orders.jobs';
import * as repo from '../orders.repository';
import {
  type AsyncRequestView,
  type OrderDetail,
  type OrderListQuery,
  orderListItem,
  type RefundBody,
} from '../orders.schemas';
import { toDetail, toListItem, toRequestView } from '../orders.views';

async function ownOrder(db: Db, customerId: string, orderId: number) {
  const order = await repo.findOrder(db, orderId);
  if (!order) throw orderErrors.notFound();
  if (order.customerId !== customerId) throw orderErrors.accessDenied();
  return order;
}

/** The customer's page of orders as the JSON text of `{ data, meta }` (cached that way). */
export function listOrdersText(
  deps: Pick<OrderDeps, 'db' | 'cache' | 'config'>,
  customerId: string,
  q: OrderListQuery,
): Promise<string> {
  const ttl = deps.config.ORDER_HISTORY_CACHE_TTL_SECONDS;
  return orderCache.customerList(deps.cache, ttl, customerId, q, async () =>
    serializedWith(pageSchema(orderListItem), await loadOrderList(deps, customerId, q)),
  );
}

async function loadOrderList(deps: Pick<OrderDeps, 'db'>, customerId: string, q: OrderListQuery) {
  const { rows, count } = await repo.listCustomerOrders(deps.db, customerId, q);
  const items = await repo.itemsOf(
    deps.db,
    rows.map((r) => r.id),
  );
  return {
    data: rows.map((r) =>
      toListItem(
        r,
        items.filter((i) => i.orderId === r.id),
      ),
    ),
    meta: pageMeta(q, count),
  };
}

export async function getOrder(
  deps: Pick<OrderDeps, 'db' | 'cache' | 'config'>,
  customerId: string,
  orderId: number,
): Promise<OrderDetail> {
  // Cached with its owner, so the access check holds for a cached copy too; an unknown id is
  // not cached (the next order may take it).
  const { owner, detail } = await orderCache.detail(
    deps.cache,
    deps.config.ORDER_HISTORY_CACHE_TTL_SECONDS,
    orderId,
    async () => {
      const order = await repo.findOrder(deps.db, orderId);
      if (!order) throw orderErrors.notFound();
      const items = await repo.itemsOf(deps.db, [order.id]);
      return {
        owner: order.customerId,
        detail: toDetail(order, items, await subscriptionInfoOf(deps.db, items)),
      };
    },
  );
  if (owner !== customerId) throw orderErrors.accessDenied();
  return detail;
}

// ---------- async cancel ----------

/** `POST /orders/:id/cancel`: records the request and queues `order.cancel`; the job decides. */
export async function requestCancel(
  deps: OrderDeps,
  customerId: string,
  orderId: number,
  reason: string | undefined,
): Promise<AsyncRequestView> {
  await ownOrder(deps.db, customerId, orderId);
  const row = await repo.insertRequest(deps.db, {
    requestId: newUuid(),
    orderId,
    command: 'cancel',
    customerId,
    status: 'pending',
    createdAt: deps.clock.now(),
  });
  await deps.jobs.enqueue(cancelJob(deps), {
    orderId,
    reason: reason ?? null,
    cancelledBy: customerId,
    cancelledByActorType: 'customer',
    requestId: row.requestId,
  });
  return toRequestView(row);
}

export async function getRequest(deps: Pick<OrderDeps, 'db'>, customerId: string, requestId: string) {
  const row = await repo.findRequest(deps.db, requestId);
  if (!row || row.customerId !== customerId) throw orderErrors.requestNotFound();
  return toRequestView(row);
}

// ---------- refund request ----------

const DAY_MS = 86_400_000;

/**
 * `POST /orders/:id/request-refund`: a `paid` order (payment completed or COD collected),
 * before dispatch (fulfilment `received` or `ready`) or within REFUND_WINDOW_DAYS of delivery.
 */
export async function requestRefund(
  deps: OrderDeps,
  customerId: string,
  orderId: number,
  body: RefundBody,
): Promise<OrderDetail> {
  return inTransaction(deps.db, async (tx, afterCommit) => {
    const at = deps.clock.now();
    await ownOrder(tx, customerId, orderId);
    const current = (await repo.lockOrder(tx, orderId))!;
    const beforeDispatch = current.fulfillmentStatus === 'received' || current.fulfillmentStatus === 'ready';
    const inWindow =
      current.fulfillmentStatus === 'delivered' &&
      current.deliveredAt !== null &&
      at.getTime() - current.deliveredAt.getTime() <= deps.config.REFUND_WINDOW_DAYS * DAY_MS;
    const paid =
      current.status === 'paid' &&
      (current.paymentStatus === 'completed' || current.paymentStatus === 'cod_collected');
    if (!paid || !(beforeDispatch || inWindow)) throw orderErrors.refundNotAllowed();
    // A licence key the customer has cannot be given back
    // (docs/decisions.md, "Refunds after digital delivery"): only the shop may refund such an
    // order, revoking the keys.
    if (await orderKeysDelivered(tx, orderId)) throw orderErrors.refundNotAllowed('digital_keys_delivered');
    const order = (await repo.updateOrderIf(
      tx,
      orderId,
      { from: ['paid'] },
      {
        status: 'refund_requested',
        refundReason: body.reason,
        refundRemarks: body.remarks ?? null,
        refundRequestedAt: at,
        updatedAt: at,
      },
    ))!;
    forgetOrder(deps.cache, afterCommit, order);
    await repo.insertRefund(tx, {
      orderId,
      amount: order.finalPayable,
      status: 'requested',
      reason: body.reason,
      remarks: body.remarks ?? null,
      at,
    });
    await repo.insertStatus(tx, {
      orderId,
      status: 'refund_requested',
      notes: body.reason,
      actorType: 'customer',
      customerId,
      at,
    });
    await notifyOrder(deps, tx, afterCommit, order, 'ORDER_REFUND_REQUESTED');
    await publishEvent(tx, 'order.refund_requested', { orderId });
    const items = await repo.itemsOf(tx, [orderId]);
    return toDetail(order, items, await subscriptionInfoOf(tx, items));
  });
}
