// Reorder: a delivered order's physical products back in the cart (merged with what the cart
// holds, duplicate lines summed, a chosen subset), each rule and error code, the partial result
// of a failure part-way, and who may call it.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orderItems } from '../../../src/modules/orders/orders.table';
import { TestClock } from '../../../src/platform/clock';
import type { SignedIn } from '../../helpers/factories';
import { type CartBody, expectError } from '../cart/calls';
import { ORDER_PREFIXES, type OrdersTestApp, ordersTestApp } from './calls';

const clock = new TestClock('2026-03-01T08:00:00.000Z');
let c: OrdersTestApp;

beforeAll(async () => {
  c = await ordersTestApp({ clock });
});
afterAll(() => c?.t.close());

/** A COD order of `items` by `who`, then marked delivered (the cart is empty again). */
async function deliveredOrder(who: SignedIn, items: Array<{ productId: number; quantity?: number }>) {
  const orderId = await placedOrder(who, items);
  await c.forceOrder(orderId, {
    status: 'paid',
    paymentStatus: 'cod_collected',
    fulfillmentStatus: 'delivered',
  });
  return orderId;
}

async function placedOrder(who: SignedIn, items: Array<{ productId: number; quantity?: number }>) {
  await c.cartWith(who, items);
  const res = await c.checkout(who, 'cod');
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data.orderId as number;
}

const reorder = (
  who: SignedIn,
  orderId: number | string,
  body?: unknown,
  prefix: string = ORDER_PREFIXES[0],
) => c.http.call('POST', `${prefix}/${orderId}/reorder`, who.headers, body);

const cartOf = (who: SignedIn) => c.cartCall(who, 'GET', '');
const quantities = (cart: CartBody) => Object.fromEntries(cart.items.map((i) => [i.productId, i.quantity]));

describe('POST /orders/:orderId/reorder', () => {
  for (const prefix of ORDER_PREFIXES) {
    it(`${prefix}: physical products go back in the cart, added to what it holds`, async () => {
      const me = await c.customer();
      const kettle = await c.product({ title: 'Electric Kettle', mrp: 2500, sp: 2200, onHand: 20 });
      const mug = await c.product({ title: 'Clay Mug', mrp: 300, onHand: 20 });
      const licence = await c.product({ title: 'Antivirus Licence', mrp: 900, kind: 'digital' });
      const orderId = await deliveredOrder(me, [
        { productId: kettle, quantity: 2 },
        { productId: mug, quantity: 1 },
        { productId: licence, quantity: 1 },
      ]);
      expect((await cartOf(me)).items).toEqual([]);
      await c.cartCall(me, 'POST', '/items', { productId: kettle, quantity: 1 });

      const res = await reorder(me, orderId, undefined, prefix);
      expect(res.statusCode, res.body).toBe(200);
      const cart = await cartOf(me);
      expect(res.json()).toEqual({
        message: 'Items added to the cart',
        data: {
          cartId: cart.id,
          addedItems: [
            { productId: kettle, productTitle: 'Electric Kettle', quantity: 2, unitSp: 2200 },
            { productId: mug, productTitle: 'Clay Mug', quantity: 1, unitSp: 0 },
          ],
          totalCartItems: 4,
        },
      });
      // new = existing + reordered; the digital licence is not put back.
      expect(quantities(cart)).toEqual({ [kettle]: 3, [mug]: 1 });
      expect(cart.totals.itemCount).toBe(4);
      // The cart reserves the units like any add.
      expect((await c.stockOf(kettle)).reserved).toBeGreaterThanOrEqual(3);
    });
  }

  it('duplicate lines of a product are summed into one add', async () => {
    const me = await c.customer();
    const lamp = await c.product({ title: 'Desk Lamp', onHand: 10 });
    const orderId = await deliveredOrder(me, [{ productId: lamp, quantity: 1 }]);
    const [line] = await c.db.select().from(orderItems).where(eq(orderItems.orderId, orderId));
    // A second line of the same product (as an order made elsewhere may hold).
    const { id: _, ...copy } = line!;
    await c.db.insert(orderItems).values({ ...copy, quantity: 2 });
    const res = await reorder(me, orderId, { productIds: [lamp] });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.addedItems).toEqual([
      { productId: lamp, productTitle: 'Desk Lamp', quantity: 3, unitSp: 0 },
    ]);
    expect(quantities(await cartOf(me))).toEqual({ [lamp]: 3 });
  });

  it('productIds picks a subset; a product not in the order is 404 ORDER_PRODUCT_NOT_FOUND and adds nothing', async () => {
    const me = await c.customer();
    const a = await c.product({ onHand: 10 });
    const b = await c.product({ onHand: 10 });
    const elsewhere = await c.product({ onHand: 10 });
    const orderId = await deliveredOrder(me, [{ productId: a }, { productId: b, quantity: 2 }]);
    const picked = await reorder(me, orderId, { productIds: [b, b] });
    expect(picked.statusCode, picked.body).toBe(200);
    expect(picked.json().data.addedItems.map((i: { productId: number }) => i.productId)).toEqual([b]);
    expect(quantities(await cartOf(me))).toEqual({ [b]: 2 });

    const missing = await reorder(me, orderId, { productIds: [a, elsewhere] });
    expectError(missing, 404, 'ORDER_PRODUCT_NOT_FOUND');
    expect(missing.json().productId).toBe(elsewhere);
    expect(quantities(await cartOf(me))).toEqual({ [b]: 2 });
  });

  it('a selection without a physical product is 400 ORDER_HAS_DIGITAL_ONLY', async () => {
    const me = await c.customer();
    const book = await c.product({ onHand: 10 });
    const ebook = await c.product({ kind: 'digital' });
    const mixed = await deliveredOrder(me, [{ productId: book }, { productId: ebook }]);
    expectError(await reorder(me, mixed, { productIds: [ebook] }), 400, 'ORDER_HAS_DIGITAL_ONLY');
    const digitalOnly = await deliveredOrder(me, [{ productId: ebook }]);
    expectError(await reorder(me, digitalOnly), 400, 'ORDER_HAS_DIGITAL_ONLY');
    expect((await cartOf(me)).items).toEqual([]);
  });

  it('only a delivered order: 400 ORDER_NOT_DELIVERED', async () => {
    const me = await c.customer();
    const p = await c.product({ onHand: 10 });
    const orderId = await placedOrder(me, [{ productId: p }]);
    expect((await c.order(me, orderId)).fulfillmentStatus).toBe('received');
    expectError(await reorder(me, orderId), 400, 'ORDER_NOT_DELIVERED');
    await c.forceOrder(orderId, { fulfillmentStatus: 'in_transit' });
    expectError(await reorder(me, orderId), 400, 'ORDER_NOT_DELIVERED');
    expect((await cartOf(me)).items).toEqual([]);
  });

  it('a product no longer on sale is 404 ORDER_PRODUCT_NOT_FOUND before anything is added', async () => {
    const me = await c.customer();
    const kept = await c.product({ onHand: 10 });
    const withdrawn = await c.product({ onHand: 10 });
    const orderId = await deliveredOrder(me, [{ productId: kept }, { productId: withdrawn }]);
    const off = await c.http.call('POST', `/api/admin/products/${withdrawn}/unpublish`, c.admin.headers);
    expect(off.statusCode, off.body).toBe(200);
    const res = await reorder(me, orderId);
    expectError(res, 404, 'ORDER_PRODUCT_NOT_FOUND');
    expect(res.json().productId).toBe(withdrawn);
    expect((await cartOf(me)).items).toEqual([]);
  });

  it('stock and quantity checks of the cart apply; a failure part-way keeps the earlier products', async () => {
    const me = await c.customer();
    const plenty = await c.product({ onHand: 10 });
    const last = await c.product({ onHand: 1 });
    const orderId = await deliveredOrder(me, [{ productId: plenty }, { productId: last }]);
    expect((await c.stockOf(last)).available).toBe(0);
    const res = await reorder(me, orderId);
    expectError(res, 400, 'CART_INSUFFICIENT_STOCK');
    // Sequential, not one transaction: the first product stays in the cart.
    expect(quantities(await cartOf(me))).toEqual({ [plenty]: 1 });

    const bulk = await c.product({ onHand: 200 });
    const bulkOrder = await deliveredOrder(me, [{ productId: bulk, quantity: 2 }]);
    await c.cartCall(me, 'POST', '/items', { productId: bulk, quantity: 98 });
    expectError(await reorder(me, bulkOrder), 400, 'CART_QUANTITY_EXCEEDED');
    expect(quantities(await cartOf(me))[bulk]).toBe(98);
  });

  it('unknown order 404 ORDER_NOT_FOUND, another customer’s 403 ORDER_ACCESS_DENIED, bad input 400', async () => {
    const owner = await c.customer();
    const p = await c.product({ onHand: 10 });
    const orderId = await deliveredOrder(owner, [{ productId: p }]);
    const other = await c.customer();
    expectError(await reorder(other, 99999999), 404, 'ORDER_NOT_FOUND');
    const denied = await reorder(other, orderId);
    expectError(denied, 403, 'ORDER_ACCESS_DENIED');
    expect(denied.body).not.toContain(String(p));
    expect((await cartOf(other)).items).toEqual([]);
    expectError(await reorder(owner, 'abc'), 400, 'VALIDATION_ERROR');
    expectError(await reorder(owner, orderId, { productIds: [] }), 400, 'VALIDATION_ERROR');
    expectError(await reorder(owner, orderId, { productIds: ['x'] }), 400, 'VALIDATION_ERROR');
    expect((await cartOf(owner)).items).toEqual([]);
  });

  it('customer JWT with ORDERS_REORDER: 401 without, 403 for an admin or without the permission', async () => {
    const me = await c.customer();
    const p = await c.product({ onHand: 10 });
    const orderId = await deliveredOrder(me, [{ productId: p }]);
    expectError(await c.http.call('POST', `/api/orders/${orderId}/reorder`), 401, 'AUTH_UNAUTHORIZED');
    expectError(await reorder(c.admin, orderId), 403, 'AUTH_FORBIDDEN');

    const roles = await c.http.call(
      'GET',
      '/api/admin/roles?search=customer&pagination=false',
      c.admin.headers,
    );
    const customerRole = roles.json().data.find((r: { name: string }) => r.name === 'customer');
    const setCodes = async (permissions: string[]) => {
      const res = await c.http.call('PATCH', `/api/admin/roles/${customerRole.id}`, c.admin.headers, {
        permissions,
      });
      expect(res.statusCode, res.body).toBe(200);
    };
    await setCodes([]);
    try {
      expectError(await reorder(me, orderId), 403, 'AUTH_PERMISSION_DENIED');
    } finally {
      await setCodes(customerRole.permissions);
    }
    expect(customerRole.permissions).toContain('ORDERS_REORDER');
    expect((await reorder(me, orderId)).statusCode).toBe(200);
  });
});
