// What the reviews module needs of orders: an order item a customer may review (an item of
// that customer's own order whose fulfilment is `delivered`), and whether an order exists.
import { and, eq } from 'drizzle-orm';
import type { Db } from '../../platform/db/database';
import { orderItems, orders } from './orders.table';

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
