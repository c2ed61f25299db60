// Online checkout end to end through the payments module's sandbox: checkout → the sandbox
// page → Pay (or Fail) → the signed redirect → the verification job → the order. Orders and
// payments are wired at start-up; nothing here is faked.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type OrdersTestApp, ordersTestApp, RETURN_URL } from './calls';
import { payInSandbox } from './sandbox';

describe('online checkout through the sandbox', () => {
  let c: OrdersTestApp;
  beforeAll(async () => {
    c = await ordersTestApp({ env: { PAYMENT_RETURN_URL_ALLOWLIST: RETURN_URL } });
  });
  afterAll(() => c?.t.close());

  const pay = (paymentId: string, outcome: 'success' | 'failure') => payInSandbox(c.t, paymentId, outcome);

  it('Pay: the order turns paid once, the stock is taken, the cart is cleared', async () => {
    const me = await c.customer();
    const p = await c.product({ onHand: 5 });
    await c.cartWith(me, [{ productId: p, quantity: 2 }]);
    const started = await c.checkout(me, 'gateway_card');
    expect(started.statusCode, started.body).toBe(200);
    const init = started.json().data;
    expect(init).toMatchObject({ status: 'payment_pending', initiationType: 'redirect' });
    expect(init.redirectUrl).toContain(`/api/payments/sandbox/${init.paymentId}`);
    // Not paid yet: the cart stays, the units are reserved for the order.
    expect((await c.order(me, init.orderId)).orderStatus).toBe('payment_pending');
    expect(await c.stockOf(p)).toMatchObject({ onHand: 5, reserved: 2 });

    const redirect = await pay(init.paymentId, 'success');
    const paid = await c.order(me, init.orderId);
    expect(paid).toMatchObject({
      orderStatus: 'paid',
      paymentStatus: 'completed',
      fulfillmentStatus: 'received',
    });
    expect(await c.stockOf(p)).toMatchObject({ onHand: 3, reserved: 0 });
    const cart = await c.http.call('GET', '/api/cart', me.headers);
    expect(cart.json().data.items).toEqual([]);

    // The same success redirect replayed: nothing changes twice.
    for (let i = 0; i < 5; i++) await c.t.app.inject({ method: 'GET', url: redirect });
    await c.t.drainJobs();
    expect(await c.order(me, init.orderId)).toMatchObject({
      orderStatus: 'paid',
      paymentStatus: 'completed',
    });
    expect(await c.stockOf(p)).toMatchObject({ onHand: 3, reserved: 0 });
  });

  it('Fail: the order is payment_failed, its units are released and the cart is kept', async () => {
    const me = await c.customer();
    const p = await c.product({ onHand: 4 });
    await c.cartWith(me, [{ productId: p, quantity: 1 }]);
    const init = (await c.checkout(me, 'gateway_wallet_a')).json().data;
    await pay(init.paymentId, 'failure');
    expect(await c.order(me, init.orderId)).toMatchObject({
      orderStatus: 'payment_failed',
      paymentStatus: 'failed',
    });
    expect((await c.stockOf(p)).onHand).toBe(4);
    const cart = await c.http.call('GET', '/api/cart', me.headers);
    expect(cart.json().data.items.map((i: { productId: number }) => i.productId)).toEqual([p]);
  });
});
