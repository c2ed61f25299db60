// Checkouts racing each other (really at once on PostgreSQL; PGlite serialises them): never
// more orders than units, the losers refused with CART_INSUFFICIENT_STOCK and nothing kept,
// cancelling gives every unit back; one idempotency key sent many times at once makes one order.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expireStaleReservations } from '../../../src/modules/catalog';
import { IDEMPOTENCY_HEADER } from '../../../src/modules/idempotency';
import { type OrdersTestApp, ordersTestApp } from './calls';

describe('orders under concurrency', () => {
  let c: OrdersTestApp;
  beforeAll(async () => {
    c = await ordersTestApp({ env: { DATABASE_POOL_SIZE: '25', CART_EXPIRE_IDLE_MS: '1000' } });
  });
  afterAll(() => c?.t.close());

  it('32 COD checkouts of a product with 10 units: 10 orders, 22 CART_INSUFFICIENT_STOCK; cancelling all restores the stock', async () => {
    const p = await c.product({ onHand: 40 });
    const buyers = await Promise.all(Array.from({ length: 32 }, () => c.customer()));
    for (const b of buyers) await c.cartWith(b, [{ productId: p }]);
    // The carts' reservations lapse, and the store has only 10 units left: the checkouts compete.
    await new Promise((r) => setTimeout(r, 1100));
    await expireStaleReservations(c.db, { at: new Date() });
    const set = await c.http.call('PATCH', `/api/admin/products/${p}/stock`, c.admin.headers, {
      onHand: 10,
      reason: 'count',
    });
    expect(set.statusCode, set.body).toBe(200);
    expect(await c.stockOf(p)).toEqual({ onHand: 10, reserved: 0, available: 10 });

    const answers = await Promise.all(buyers.map((b) => c.checkout(b, 'cod')));
    const won = answers.filter((r) => r.statusCode === 200);
    expect(won).toHaveLength(10);
    for (const res of answers.filter((r) => r.statusCode !== 200)) {
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().errorCode).toBe('CART_INSUFFICIENT_STOCK');
    }
    expect(await c.stockOf(p)).toEqual({ onHand: 10, reserved: 10, available: 0 });
    // The losers have no order.
    for (const [i, res] of answers.entries()) {
      const list = await c.http.call('GET', '/api/orders', buyers[i]!.headers);
      expect(list.json().meta.count).toBe(res.statusCode === 200 ? 1 : 0);
    }

    const requests = await Promise.all(
      answers.flatMap((res, i) =>
        res.statusCode === 200
          ? [
              c.http
                .call('POST', `/api/orders/${res.json().data.orderId}/cancel`, buyers[i]!.headers, {})
                .then((r) => ({ who: buyers[i]!, requestId: r.json().data.requestId as string })),
            ]
          : [],
      ),
    );
    for (const r of requests)
      expect(await c.settled(r.who, r.requestId)).toMatchObject({ status: 'completed' });
    expect(await c.stockOf(p)).toEqual({ onHand: 10, reserved: 0, available: 10 });
  });

  it('one idempotency key sent 8 times at once makes one order', async () => {
    const me = await c.customer();
    const p = await c.product({ onHand: 20 });
    await c.cartWith(me, [{ productId: p }]);
    const key = `checkout-${me.userId}`;
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => c.checkout(me, 'cod', '/api/orders', { [IDEMPOTENCY_HEADER]: key })),
    );
    const ok = answers.filter((r) => r.statusCode === 200);
    expect(ok.length).toBeGreaterThanOrEqual(1);
    for (const res of answers.filter((r) => r.statusCode !== 200)) {
      expect(res.statusCode, res.body).toBe(409);
      expect(res.json().errorCode).toBe('IDEMPOTENCY_REQUEST_IN_PROGRESS');
    }
    expect(new Set(ok.map((r) => r.json().data.orderId)).size).toBe(1);
    // A later replay answers the same order again.
    const replay = await c.checkout(me, 'cod', '/api/orders', { [IDEMPOTENCY_HEADER]: key });
    expect(replay.statusCode, replay.body).toBe(200);
    expect(replay.json().data.orderId).toBe(ok[0]!.json().data.orderId);
    const list = await c.http.call('GET', '/api/orders', me.headers);
    expect(list.json().meta.count).toBe(1);
    expect(await c.stockOf(p)).toEqual({ onHand: 20, reserved: 1, available: 19 });
  });
});
