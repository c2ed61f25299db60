// The back office's queries of orders: the filtered list, notes, items' serial numbers and the
// fulfilment history. State changes go through orders.commands.ts.
import { and, asc, count, desc, eq, ilike, inArray, or, type SQLWrapper } from 'drizzle-orm';
import type { Db } from '../../../platform/db/database';
import { containsPattern as contains } from '../../../platform/db/like';
import { pageWindow } from '../../../platform/http/pagination';
import type { OrderItemRow, OrderRow } from '../orders.repository';
import { orderAdminNotes, orderFulfillmentHistory, orderItems, orders } from '../orders.table';
import type { AdminOrderListQuery } from './admin-orders.schemas';

export type AdminNoteRow = typeof orderAdminNotes.$inferSelect;
export type FulfillmentHistoryRow = typeof orderFulfillmentHistory.$inferSelect;

/**
 * Every order matching the filters. `matchingCustomers` is the identity module's subquery of
 * customer ids for the search term: a search hits the order number or the customer.
 */
export async function listOrders(
  db: Db,
  q: AdminOrderListQuery,
  search: { term: string; matchingCustomers: SQLWrapper } | null,
): Promise<{ rows: OrderRow[]; count: number }> {
  const where = and(
    q.status ? eq(orders.status, q.status) : undefined,
    q.paymentMethod ? eq(orders.paymentMethod, q.paymentMethod) : undefined,
    q.paymentStatus ? eq(orders.paymentStatus, q.paymentStatus) : undefined,
    q.orderType ? eq(orders.orderType, q.orderType) : undefined,
    q.fulfillmentStatus ? eq(orders.fulfillmentStatus, q.fulfillmentStatus) : undefined,
    search
      ? or(
          ilike(orders.orderNumber, contains(search.term)),
          inArray(orders.customerId, search.matchingCustomers),
        )
      : undefined,
  );
  const column = q.sort === 'updatedAt' ? orders.updatedAt : orders.createdAt;
  const dir = q.order === 'asc' ? asc : desc;
  const { limit, offset } = pageWindow(q);
  const base = db.select().from(orders).where(where).orderBy(dir(column), dir(orders.id)).offset(offset);
  const rows = await (limit === undefined ? base : base.limit(limit));
  const [total] = await db.select({ n: count() }).from(orders).where(where);
  return { rows, count: Number(total?.n ?? 0) };
}

export async function fulfillmentHistoryOf(db: Db, orderId: number): Promise<FulfillmentHistoryRow[]> {
  return db
    .select()
    .from(orderFulfillmentHistory)
    .where(eq(orderFulfillmentHistory.orderId, orderId))
    .orderBy(asc(orderFulfillmentHistory.id));
}

export async function insertNote(
  tx: Db,
  p: { orderId: number; note: string; adminId: string; at: Date },
): Promise<AdminNoteRow> {
  const [row] = await tx
    .insert(orderAdminNotes)
    .values({ orderId: p.orderId, note: p.note, adminId: p.adminId, createdAt: p.at })
    .returning();
  return row!;
}

export async function notesOf(db: Db, orderId: number): Promise<AdminNoteRow[]> {
  return db
    .select()
    .from(orderAdminNotes)
    .where(eq(orderAdminNotes.orderId, orderId))
    .orderBy(asc(orderAdminNotes.id));
}

/** The item, only when it belongs to `orderId`. */
export async function findItem(db: Db, orderId: number, itemId: number): Promise<OrderItemRow | undefined> {
  const [row] = await db
    .select()
    .from(orderItems)
    .where(and(eq(orderItems.id, itemId), eq(orderItems.orderId, orderId)));
  return row;
}

export async function setSerialNumber(tx: Db, itemId: number, serialNumber: string): Promise<OrderItemRow> {
  const [row] = await tx
    .update(orderItems)
    .set({ serialNumber })
    .where(eq(orderItems.id, itemId))
    .returning();
  return row!;
}
