// The commerce issue's reliability cases through the real orders ↔ payments wiring (the
// sandbox gateway, no fakes): many customers racing for a few units with online checkouts,
// then every way an unpaid order can end giving its units back; and a success and a failure
// redirect racing for one payment. On PostgreSQL the requests really run at once (a pool of
// 25 connections); PGlite serialises them, so the embedded tier runs a smaller crowd.
import { expect, it } from 'vitest';
import { expireStaleReservations } from '../../../src/modules/catalog';
import { queueUnpaidOrderCancels } from '../../../src/modules/orders';
import { TestClock } from '../../../src/platform/clock';
import { servicesTier } from '../../helpers/services';
import { ordersTestApp, RETURN_URL } from './calls';
import { payInSandbox, pressSandboxButton } from './sandbox';

const CROWD = servicesTier ? 200 : 40;
const UNITS = 10;

it(`${CROWD} customers check out online at once for ${UNITS} units: ${UNITS} orders; failures, cancels and expiries give every unit back`, async () => {
  const clock = new TestClock('2026-05-01T06:00:00.000Z');
  const c = await ordersTestApp({
    clock,
    env: {
      DATABASE_POOL_SIZE: '25',
      CART_EXPIRE_IDLE_MS: '60000',
      PAYMENT_RETURN_URL_ALLOWLIST: RETURN_URL,
    },
  });
  try {
    const p = await c.product({ onHand: CROWD });
    const buyers = await Promise.all(Array.from({ length: CROWD }, () => c.customer()));
    for (const b of buyers) await c.cartWith(b, [{ productId: p }]);
    // The carts' holds lapse and a stock count finds only UNITS: the checkouts compete for them.
    clock.advance(61_000);
    await expireStaleReservations(c.db, { at: clock.now() });
    const count = await c.http.call('PATCH', `/api/admin/products/${p}/stock`, c.admin.headers, {
      onHand: UNITS,
      reason: 'count',
    });
    expect(count.statusCode, count.body).toBe(200);

    const answers = await Promise.all(buyers.map((b) => c.checkout(b, 'gateway_card')));
    const winners = answers.flatMap((res, i) =>
      res.statusCode === 200
        ? [{ who: buyers[i]!, init: res.json().data as { orderId: number; paymentId: string } }]
        : [],
    );
    expect(winners).toHaveLength(UNITS);
    for (const res of answers.filter((r) => r.statusCode !== 200)) {
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().errorCode).toBe('CART_INSUFFICIENT_STOCK');
    }
    expect(await c.stockOf(p)).toEqual({ onHand: UNITS, reserved: UNITS, available: 0 });
    const orderCount = await Promise.all(
      buyers.map(async (b) => (await c.http.call('GET', '/api/orders', b.headers)).json().meta.count),
    );
    expect(orderCount.reduce((a: number, n: number) => a + n, 0)).toBe(UNITS);

    // Three payments fail, three customers cancel, the rest are never paid and expire.
    const failed = winners.slice(0, 3);
    const cancelled = winners.slice(3, 6);
    const expired = winners.slice(6);
    await Promise.all(failed.map((w) => pressSandboxButton(c.t, w.init.paymentId, 'failure')));
    const requests = await Promise.all(
      cancelled.map(async (w) => {
        const res = await c.http.call('POST', `/api/orders/${w.init.orderId}/cancel`, w.who.headers, {});
        expect(res.statusCode, res.body).toBe(202);
        return { who: w.who, requestId: res.json().data.requestId as string };
      }),
    );
    await c.t.drainJobs();
    for (const r of requests)
      expect(await c.settled(r.who, r.requestId)).toMatchObject({ status: 'completed' });
    for (const w of failed) expect((await c.order(w.who, w.init.orderId)).orderStatus).toBe('payment_failed');
    for (const w of cancelled) expect((await c.order(w.who, w.init.orderId)).orderStatus).toBe('cancelled');

    clock.advance(31 * 60_000);
    expect(await queueUnpaidOrderCancels(c.deps)).toBe(expired.length);
    await c.t.drainJobs();
    expect(await c.stockOf(p)).toEqual({ onHand: UNITS, reserved: 0, available: UNITS });
    // A payment completed after its order expired changes nothing: the units stay free.
    await payInSandbox(c.t, expired[0]!.init.paymentId, 'success');
    expect(await c.stockOf(p)).toEqual({ onHand: UNITS, reserved: 0, available: UNITS });
  } finally {
    await c.t.close();
  }
}, 120_000);

it('a success and a failure redirect racing for one payment: one outcome, consistent stock, one cart clearing', async () => {
  const c = await ordersTestApp({ env: { PAYMENT_RETURN_URL_ALLOWLIST: RETURN_URL } });
  try {
    for (let round = 0; round < 6; round++) {
      const me = await c.customer();
      const p = await c.product({ onHand: 5 });
      await c.cartWith(me, [{ productId: p, quantity: 2 }]);
      const init = (await c.checkout(me, 'gateway_wallet_b')).json().data;
      const [paid, failed] = await Promise.all([
        pressSandboxButton(c.t, init.paymentId, 'success'),
        pressSandboxButton(c.t, init.paymentId, 'failure'),
      ]);
      await c.t.drainJobs();
      const order = await c.order(me, init.orderId);
      const cart = async () =>
        (await c.http.call('GET', '/api/cart', me.headers)).json().data.items as Array<{ quantity: number }>;
      if (order.orderStatus === 'paid') {
        expect(order.paymentStatus).toBe('completed');
        expect(await c.stockOf(p)).toEqual({ onHand: 3, reserved: 0, available: 3 });
        expect(await cart()).toEqual([]);
      } else {
        expect(order).toMatchObject({ orderStatus: 'payment_failed', paymentStatus: 'failed' });
        expect(await c.stockOf(p)).toEqual({ onHand: 5, reserved: 0, available: 5 });
        expect((await cart()).map((i) => i.quantity)).toEqual([2]);
      }
      // The customer shops on; both redirects replayed change neither the order nor the new cart.
      const again = await c.product({ onHand: 5 });
      await c.cartWith(me, [{ productId: again }], false);
      const before = await cart();
      for (const redirect of [paid, failed]) await c.t.app.inject({ method: 'GET', url: redirect });
      await c.t.drainJobs();
      expect((await c.order(me, init.orderId)).orderStatus).toBe(order.orderStatus);
      expect(await cart()).toEqual(before);
    }
  } finally {
    await c.t.close();
  }
}, 60_000);
