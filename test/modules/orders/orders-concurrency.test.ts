// One idempotency key sent many times at once makes one order (really at once on PostgreSQL;
// PGlite serialises them). Customers racing for a few units: orders-reliability.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IDEMPOTENCY_HEADER } from '../../../src/modules/idempotency';
import { type OrdersTestApp, ordersTestApp } from './calls';

describe('orders under concurrency', () => {
  let c: OrdersTestApp;
  beforeAll(async () => {
    c = await ordersTestApp({ env: { DATABASE_POOL_SIZE: '25' } });
  });
  afterAll(() => c?.t.close());

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
