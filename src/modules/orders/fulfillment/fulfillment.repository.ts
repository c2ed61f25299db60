// The SQL of fulfilment: the conditional move of an order's fulfilment status, its history,
// and whether a cancellation is waiting for the order.
import { and, eq, notInArray } from 'drizzle-orm';
import type { Db } from '../../../platform/db/database';
import type { HistoryNote } from '../orders.history-notes';
import type { OrderRow } from '../orders.repository';
import {
  type ActorType,
  type OrderStatus,
  orderFulfillmentHistory,
  orderRequests,
  orders,
} from '../orders.table';
import type { FulfillmentStatus } from './fulfillment.rules';

/**
 * Moves the order's fulfilment from `from` to `to` only while it is still at `from` and the
 * order is in none of `closedStatuses` (a racing move or a cancellation leaves nothing to do).
 */
export async function moveFulfillment(
  tx: Db,
  p: {
    orderId: number;
    from: FulfillmentStatus;
    to: FulfillmentStatus;
    closedStatuses: readonly OrderStatus[];
    at: Date;
  },
): Promise<OrderRow | undefined> {
  const [row] = await tx
    .update(orders)
    .set({
      fulfillmentStatus: p.to,
      updatedAt: p.at,
      ...(p.to === 'delivered' ? { deliveredAt: p.at } : {}),
    })
    .where(
      and(
        eq(orders.id, p.orderId),
        eq(orders.fulfillmentStatus, p.from),
        notInArray(orders.status, [...p.closedStatuses]),
      ),
    )
    .returning();
  return row;
}

export async function insertFulfillmentHistory(
  tx: Db,
  p: {
    orderId: number;
    from: FulfillmentStatus;
    to: FulfillmentStatus;
    /** Typed by an admin, or written by the server (`historyNote(…)`, a code without parameters). */
    remarks?: string | HistoryNote | null;
    actorType: ActorType;
    actorId?: string | null;
    at: Date;
  },
): Promise<void> {
  await tx.insert(orderFulfillmentHistory).values({
    orderId: p.orderId,
    fromStatus: p.from,
    toStatus: p.to,
    ...(typeof p.remarks === 'object' && p.remarks !== null
      ? { remarks: p.remarks.notes, remarksCode: p.remarks.noteCode }
      : { remarks: p.remarks ?? null, remarksCode: null }),
    actorType: p.actorType,
    actorId: p.actorId ?? null,
    createdAt: p.at,
  });
}

/** A cancellation of the order asked for and not yet decided. */
export async function hasPendingCancel(tx: Db, orderId: number): Promise<boolean> {
  const [row] = await tx
    .select({ id: orderRequests.requestId })
    .from(orderRequests)
    .where(
      and(
        eq(orderRequests.orderId, orderId),
        eq(orderRequests.command, 'cancel'),
        eq(orderRequests.status, 'pending'),
      ),
    )
    .limit(1);
  return row !== undefined;
}
