// What other modules need to link a record of theirs to an order (a repair request names the
// order a laptop was bought in): who owns the order and which items it holds.
import { asc, eq } from 'drizzle-orm';
import type { Db } from '../../platform/db/database';
import { orderItems, orders } from './orders.table';

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
