// Reorder (interface, "Reorder"): the physical products of a delivered order go back into the
// customer's cart through the cart's own add, one call per product with the order's quantities
// summed, so the normal stock and quantity checks apply and the quantity adds to what the cart
// holds. Sequential and not one transaction, as the interface says: a failure leaves the
// products added before it in the cart.
import { addItem, type CartChangeDeps, type CartView } from '../../cart';
import { findProductsForSale } from '../../catalog';
import { orderErrors } from '../orders.errors';
import * as repo from '../orders.repository';
import { reorderErrors } from './reorder.errors';
import type { ReorderBody, ReorderView } from './reorder.schemas';

export async function reorder(
  deps: CartChangeDeps,
  customerId: string,
  orderId: number,
  body: ReorderBody,
): Promise<ReorderView> {
  const order = await repo.findOrder(deps.db, orderId);
  if (!order) throw orderErrors.notFound();
  if (order.customerId !== customerId) throw orderErrors.accessDenied();
  if (order.fulfillmentStatus !== 'delivered') throw reorderErrors.notDelivered();

  const lines = await repo.itemsOf(deps.db, [order.id]);
  const wanted = body?.productIds ? [...new Set(body.productIds)] : null;
  for (const productId of wanted ?? []) {
    if (!lines.some((l) => l.productId === productId)) throw reorderErrors.productNotInOrder(productId);
  }
  // Digital keys and care plans are not goods to ship again: only physical lines come back.
  const quantities = new Map<number, number>();
  for (const line of lines) {
    if (line.productKind !== 'physical') continue;
    if (wanted && !wanted.includes(line.productId)) continue;
    quantities.set(line.productId, (quantities.get(line.productId) ?? 0) + line.quantity);
  }
  if (quantities.size === 0) throw reorderErrors.digitalOnly();

  // Checked before the first add, so a product taken off sale fails the reorder without
  // leaving the others half added.
  const products = await findProductsForSale(deps, deps.db, [...quantities.keys()]);
  for (const productId of quantities.keys()) {
    const product = products.get(productId);
    if (!product?.onSale || product.productKind !== 'physical') throw reorderErrors.productNotSold(productId);
  }

  let cart: CartView | undefined;
  const addedItems: ReorderView['addedItems'] = [];
  for (const [productId, quantity] of quantities) {
    cart = await addItem(deps, customerId, { productId, quantity });
    const line = cart.items.find((i) => i.productId === productId)!;
    addedItems.push({ productId, productTitle: line.productTitle, quantity, unitSp: line.unitSp });
  }
  return { cartId: cart!.id, addedItems, totalCartItems: cart!.totals.itemCount };
}
