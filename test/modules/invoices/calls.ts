// Helpers of the tax invoice tests: a collected COD order (its invoice issued on collection) and
// a document read back from the admin lists.
import { expect } from 'vitest';
import type { SignedIn } from '../../helpers/factories';
import { type OrdersTestApp, RETURN_URL } from '../orders/calls';

/**
 * A COD order of one unit at `price` (plus the Kathmandu delivery fee of 100) with the `buyer`
 * fields, its cash collected by the superadmin; answers the order and its customer.
 */
export async function collectedOrder(
  c: OrdersTestApp,
  price: number,
  buyer: Record<string, string> = {},
  who?: SignedIn,
): Promise<{ orderId: number; who: SignedIn }> {
  const customer = who ?? (await c.customer());
  const productId = await c.product({ mrp: price, onHand: 5 });
  await c.cartWith(customer, [{ productId }]);
  const placed = await c.http.call('POST', '/api/orders/checkout', customer.headers, {
    gateway: 'cod',
    returnUrl: RETURN_URL,
    ...buyer,
  });
  expect(placed.statusCode, placed.body).toBe(200);
  const orderId = placed.json().data.orderId as number;
  const res = await c.http.call('PUT', `/api/admin/orders/${orderId}/cod-collect`, c.admin.headers, {
    remarks: 'rider cash',
  });
  expect(res.statusCode, res.body).toBe(200);
  return { orderId, who: customer };
}

/** The order's invoice or credit note as the admin list shows it (undefined: none). */
export async function documentOf(
  c: OrdersTestApp,
  who: SignedIn,
  kind: 'invoices' | 'credit-notes',
  orderId: number,
) {
  const all = await c.http.call('GET', `/api/admin/${kind}?pagination=false`, who.headers);
  expect(all.statusCode, all.body).toBe(200);
  return all.json().data.find((d: { orderId: number }) => d.orderId === orderId);
}
