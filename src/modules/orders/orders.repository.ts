// Every query of orders: orders, their items and histories, and async requests.
import { and, asc, count, desc, eq, inArray, isNotNull, lt, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/database';
import { type PlaceheldRows, placeheldRows, preparedPerDb } from '../../platform/db/prepared';
import { pageWindow } from '../../platform/http/pagination';
import type { HistoryNote } from './orders.history-notes';
import type { OrderListQuery } from './orders.schemas';
import {
  type ActorType,
  type OrderStatus,
  orderItems,
  orderRefunds,
  orderRequests,
  orderStatusHistory,
  orders,
  type PaymentMethod,
  type PaymentStatus,
  type RefundSettlementMethod,
  type RefundStatus,
} from './orders.table';

export type OrderRow = typeof orders.$inferSelect;
export type NewOrder = typeof orders.$inferInsert;
export type OrderItemRow = typeof orderItems.$inferSelect;
export type NewOrderItem = typeof orderItems.$inferInsert;
export type OrderRequestRow = typeof orderRequests.$inferSelect;
export type OrderRefundRow = typeof orderRefunds.$inferSelect;

/**
 * Serialises the placing of one customer's orders until the transaction ends (an advisory lock
 * on the customer, not a row: a customer without a cart has no row to lock), so the
 * unpaid-order limit holds under concurrent checkouts and buy-nows.
 */
export async function lockCustomerOrders(tx: Db, customerId: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`orders:${customerId}`}))`);
}

/** The customer's online orders still waiting for their payment. */
export async function countPendingOnlineOrders(db: Db, customerId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(orders)
    .where(
      and(
        eq(orders.customerId, customerId),
        eq(orders.paymentMethod, 'online'),
        eq(orders.status, 'payment_pending'),
      ),
    );
  return row?.n ?? 0;
}

/** A status history entry as a service writes it. */
export interface StatusEntry {
  orderId: number;
  status: OrderStatus;
  /** Typed by a person (no code), or written by the server (`historyNote(…)`). */
  notes?: string | HistoryNote | null;
  actorType: ActorType;
  customerId?: string | null;
  adminId?: string | null;
  at: Date;
}

function statusRow(p: Omit<StatusEntry, 'orderId'>) {
  return {
    status: p.status,
    ...(typeof p.notes === 'object' && p.notes !== null
      ? p.notes
      : { notes: p.notes ?? null, noteCode: null, noteParams: null }),
    actorType: p.actorType,
    createdByCustomerId: p.customerId ?? null,
    createdByAdminId: p.adminId ?? null,
    createdAt: p.at,
  };
}

export async function insertStatus(tx: Db, p: StatusEntry): Promise<void> {
  await tx.insert(orderStatusHistory).values({ orderId: p.orderId, ...statusRow(p) });
}

type ItemOf = Omit<NewOrderItem, 'orderId'>;
type StatusOf = Omit<StatusEntry, 'orderId'>;

/** The insert of an order's items as a `with` expression (none without items). */
function itemsInsert(tx: Db, orderId: number | SQL, items: ItemOf[]) {
  if (!items.length) return [];
  return [tx.$with('new_items').as(tx.insert(orderItems).values(items.map((i) => ({ ...i, orderId }))))];
}

/**
 * A new order with its items and its first history entry in one statement (one round trip
 * instead of three, inside checkout's transaction): data-modifying `with` expressions run once
 * each, whether the outer query reads them or not, and the items and entry take the order's id
 * from the order's own expression. The foreign keys are checked at the end of the statement, when
 * the order row is there.
 */
function orderWithItemsQuery(tx: Db, order: NewOrder, items: ItemOf[], status: ReturnType<typeof statusRow>) {
  const newOrder = tx.$with('new_order').as(tx.insert(orders).values(order).returning());
  const orderId = sql<number>`(select ${newOrder.id} from ${newOrder})`;
  const newStatus = tx.$with('new_status').as(tx.insert(orderStatusHistory).values({ orderId, ...status }));
  return tx
    .with(newOrder, ...itemsInsert(tx, orderId, items), newStatus)
    .select()
    .from(newOrder);
}

// Building that statement (an order's forty columns, its items', its entry's) was a sixth of a
// checkout's CPU (bench/README.md, "Issue 33, round five"): it is built once per shape (which
// fields are given, which are null, how many items) and then run with its values only. Shapes
// are few (checkout and buy-now each give the same fields); past the bound, a rare shape is built
// as before. A counter sale is built each time (`prepared: false`): it comes at a cashier's pace,
// and the address fields a clerk fills or leaves would make many shapes that take the bound's
// slots from checkout's (and a named statement on every PostgreSQL connection each).
const orderInsertsByShape = new Map<string, ReturnType<typeof preparedOrderInsert>>();
const ORDER_INSERT_SHAPES = 64;
const preparedOrderInsert = (name: string, held: PlaceheldRows, items: number) =>
  preparedPerDb((db) =>
    orderWithItemsQuery(
      db,
      held.rows.order as NewOrder,
      Array.from({ length: items }, (_, n) => held.rows[`item${n}`] as ItemOf),
      held.rows.status as ReturnType<typeof statusRow>,
    ).prepare(name),
  );

/**
 * The order, its items and its first history entry in one statement (checkout, buy-now, the
 * counter); returns the order row. `prepared: false` builds the statement for this call only.
 */
export async function insertOrderWithItems(
  tx: Db,
  p: { order: NewOrder; items: ItemOf[]; status: StatusOf },
  opts: { prepared?: boolean } = {},
): Promise<OrderRow> {
  const status = statusRow(p.status);
  if (opts.prepared === false) {
    const [row] = await orderWithItemsQuery(tx, p.order, p.items, status);
    return row!;
  }
  const held = placeheldRows({
    order: p.order,
    status,
    ...Object.fromEntries(p.items.map((item, n) => [`item${n}`, item])),
  });
  let statement = held && orderInsertsByShape.get(held.shape);
  if (held && !statement && orderInsertsByShape.size < ORDER_INSERT_SHAPES) {
    statement = preparedOrderInsert(
      `orders_insert_with_items_${orderInsertsByShape.size + 1}`,
      held,
      p.items.length,
    );
    orderInsertsByShape.set(held.shape, statement);
  }
  const [row] =
    held && statement
      ? await statement(tx).execute(held.values)
      : await orderWithItemsQuery(tx, p.order, p.items, status);
  return row!;
}

export async function statusHistoryOf(db: Db, orderId: number) {
  return db
    .select()
    .from(orderStatusHistory)
    .where(eq(orderStatusHistory.orderId, orderId))
    .orderBy(asc(orderStatusHistory.id));
}

export async function findOrder(db: Db, id: number): Promise<OrderRow | undefined> {
  const [row] = await db.select().from(orders).where(eq(orders.id, id));
  return row;
}

/** The order locked for the rest of the transaction. */
export async function lockOrder(tx: Db, id: number): Promise<OrderRow | undefined> {
  const [row] = await tx.select().from(orders).where(eq(orders.id, id)).for('update');
  return row;
}

/**
 * Changes the order only while its status is one of `from` (a conditional update, so a replay
 * or a racing change finds nothing to do); returns the new row, or undefined.
 */
export async function updateOrderIf(
  tx: Db,
  id: number,
  when: {
    from: readonly OrderStatus[];
    method?: PaymentMethod | readonly PaymentMethod[];
    paymentStatus?: PaymentStatus;
  },
  values: Partial<NewOrder>,
): Promise<OrderRow | undefined> {
  const [row] = await tx
    .update(orders)
    .set(values)
    .where(
      and(
        eq(orders.id, id),
        inArray(orders.status, [...when.from]),
        typeof when.method === 'string'
          ? eq(orders.paymentMethod, when.method)
          : when.method
            ? inArray(orders.paymentMethod, [...when.method])
            : undefined,
        when.paymentStatus ? eq(orders.paymentStatus, when.paymentStatus) : undefined,
      ),
    )
    .returning();
  return row;
}

export async function itemsOf(db: Db, orderIds: number[]): Promise<OrderItemRow[]> {
  if (!orderIds.length) return [];
  return db
    .select()
    .from(orderItems)
    .where(inArray(orderItems.orderId, orderIds))
    .orderBy(asc(orderItems.id));
}

export async function listCustomerOrders(
  db: Db,
  customerId: string,
  q: OrderListQuery,
): Promise<{ rows: OrderRow[]; count: number }> {
  const where = and(
    eq(orders.customerId, customerId),
    q.status ? eq(orders.status, q.status) : undefined,
    q.fulfillmentStatus ? eq(orders.fulfillmentStatus, q.fulfillmentStatus) : undefined,
  );
  const column = q.sort === 'updatedAt' ? orders.updatedAt : orders.createdAt;
  const dir = q.order === 'asc' ? asc : desc;
  const { limit, offset } = pageWindow(q);
  const base = db.select().from(orders).where(where).orderBy(dir(column), dir(orders.id)).offset(offset);
  const rows = await (limit === undefined ? base : base.limit(limit));
  const [total] = await db.select({ n: count() }).from(orders).where(where);
  return { rows, count: Number(total?.n ?? 0) };
}

/** Online orders still waiting for payment that were created before `before`. */
export async function unpaidOnlineOrders(db: Db, before: Date, limit: number): Promise<number[]> {
  const rows = await db
    .select({ id: orders.id })
    .from(orders)
    .where(
      and(
        eq(orders.status, 'payment_pending'),
        eq(orders.paymentMethod, 'online'),
        lt(orders.createdAt, before),
      ),
    )
    .orderBy(asc(orders.id))
    .limit(limit);
  return rows.map((r) => r.id);
}

export async function insertRequest(
  tx: Db,
  values: typeof orderRequests.$inferInsert,
): Promise<OrderRequestRow> {
  const [row] = await tx.insert(orderRequests).values(values).returning();
  return row!;
}

export async function findRequest(db: Db, requestId: string): Promise<OrderRequestRow | undefined> {
  const [row] = await db.select().from(orderRequests).where(eq(orderRequests.requestId, requestId));
  return row;
}

/** Ends a pending request once (a retried job finds it ended and changes nothing). */
export async function finishRequest(
  tx: Db,
  requestId: string,
  values: {
    status: 'completed' | 'failed';
    result: Record<string, unknown> | null;
    error: string | null;
    at: Date;
  },
): Promise<boolean> {
  const rows = await tx
    .update(orderRequests)
    .set({ status: values.status, result: values.result, error: values.error, completedAt: values.at })
    .where(and(eq(orderRequests.requestId, requestId), eq(orderRequests.status, 'pending')))
    .returning({ id: orderRequests.requestId });
  return rows.length > 0;
}

export async function insertRefund(
  tx: Db,
  p: {
    orderId: number;
    amount: number;
    status: RefundStatus;
    reason: string;
    remarks?: string | null;
    at: Date;
  },
): Promise<OrderRefundRow> {
  const [row] = await tx
    .insert(orderRefunds)
    .values({
      orderId: p.orderId,
      amount: p.amount,
      status: p.status,
      reason: p.reason,
      remarks: p.remarks ?? null,
      createdAt: p.at,
      updatedAt: p.at,
    })
    .returning();
  return row!;
}

/** Settles the order's `requested` refunds (an admin's decision); returns how many changed. */
export async function settleRequestedRefunds(
  tx: Db,
  orderId: number,
  p: { status: 'approved' | 'rejected'; remarks: string; adminId: string; at: Date },
): Promise<number> {
  const rows = await tx
    .update(orderRefunds)
    .set({
      status: p.status,
      remarks: p.remarks,
      processedByAdminId: p.adminId,
      processedAt: p.at,
      updatedAt: p.at,
    })
    .where(and(eq(orderRefunds.orderId, orderId), eq(orderRefunds.status, 'requested')))
    .returning({ id: orderRefunds.id });
  return rows.length;
}

/** One refund of the order, locked for the rest of the transaction. */
export async function lockRefund(
  tx: Db,
  orderId: number,
  refundId: number,
): Promise<OrderRefundRow | undefined> {
  const [row] = await tx
    .select()
    .from(orderRefunds)
    .where(and(eq(orderRefunds.id, refundId), eq(orderRefunds.orderId, orderId)))
    .for('update');
  return row;
}

/** Records that an owed refund was given back. */
export async function markRefundSettled(
  tx: Db,
  refundId: number,
  p: {
    method: RefundSettlementMethod;
    reference: string | null;
    remarks: string;
    adminId: string;
    at: Date;
  },
): Promise<OrderRefundRow> {
  const [row] = await tx
    .update(orderRefunds)
    .set({
      settledAt: p.at,
      settledByAdminId: p.adminId,
      settlementMethod: p.method,
      settlementReference: p.reference,
      settlementRemarks: p.remarks,
      updatedAt: p.at,
    })
    .where(eq(orderRefunds.id, refundId))
    .returning();
  return row!;
}

export async function refundsOf(db: Db, orderId: number): Promise<OrderRefundRow[]> {
  return db
    .select()
    .from(orderRefunds)
    .where(eq(orderRefunds.orderId, orderId))
    .orderBy(asc(orderRefunds.id));
}

/** The admin of the order's latest status entry written by one (who rang up a counter sale). */
export async function lastAdminOfHistory(tx: Db, orderId: number): Promise<string | null> {
  const [row] = await tx
    .select({ adminId: orderStatusHistory.createdByAdminId })
    .from(orderStatusHistory)
    .where(and(eq(orderStatusHistory.orderId, orderId), isNotNull(orderStatusHistory.createdByAdminId)))
    .orderBy(desc(orderStatusHistory.id))
    .limit(1);
  return row?.adminId ?? null;
}

/** Removes an order that was never placed (its items and history go with it: cascade). */
export async function deleteOrder(tx: Db, orderId: number): Promise<void> {
  await tx.delete(orders).where(eq(orders.id, orderId));
}

// ---------- read by other modules ----------

// A repair request names the order a laptop was bought in: the order's owner and items.
export interface OrderLink {
  id: number;
  orderNumber: string;
  customerId: string;
  items: Array<{ id: number; productId: number; productTitle: string }>;
}

/** The order's owner, number and items; undefined for an unknown id. Ownership is the caller's to check. */
export async function findOrderLink(db: Db, orderId: number): Promise<OrderLink | undefined> {
  const [order] = await db
    .select({ id: orders.id, orderNumber: orders.orderNumber, customerId: orders.customerId })
    .from(orders)
    .where(eq(orders.id, orderId));
  if (!order) return undefined;
  const items = await db
    .select({ id: orderItems.id, productId: orderItems.productId, productTitle: orderItems.productTitle })
    .from(orderItems)
    .where(eq(orderItems.orderId, orderId))
    .orderBy(asc(orderItems.id));
  return { ...order, items };
}

// The reviews module: an order item a customer may review (an item of that customer's own
// order whose fulfilment is `delivered`).
export interface ReviewableOrderItem {
  orderItemId: number;
  orderId: number;
  productId: number;
}

/**
 * The item `orderItemId` when it belongs to an order of `customerId` that has been delivered;
 * undefined otherwise (unknown item, another customer's order, or not delivered yet).
 */
export async function findDeliveredOrderItem(
  db: Db,
  p: { orderItemId: number; customerId: string },
): Promise<ReviewableOrderItem | undefined> {
  const [row] = await db
    .select({ orderItemId: orderItems.id, orderId: orderItems.orderId, productId: orderItems.productId })
    .from(orderItems)
    .innerJoin(orders, eq(orders.id, orderItems.orderId))
    .where(
      and(
        eq(orderItems.id, p.orderItemId),
        eq(orders.customerId, p.customerId),
        eq(orders.fulfillmentStatus, 'delivered'),
      ),
    );
  return row;
}
