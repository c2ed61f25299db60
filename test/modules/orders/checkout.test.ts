// Checkout and buy-now on both prefixes: COD completely, online through an injected payment
// initiator, every refusal; and the payment callbacks payments will call (markOrderPaid,
// markOrderPaymentFailed), replayed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { markOrderPaid, markOrderPaymentFailed } from '../../../src/modules/orders';
import { inTransaction } from '../../../src/platform/db/transaction';
import { expectError } from '../cart/calls';
import { fakeInitiator, ORDER_PREFIXES, type OrdersTestApp, ordersTestApp, RETURN_URL } from './calls';

describe('checkout (COD and online)', () => {
  let c: OrdersTestApp;
  const fake = fakeInitiator();
  beforeAll(async () => {
    c = await ordersTestApp({ initiator: fake });
  });
  afterAll(() => c?.t.close());

  for (const prefix of ORDER_PREFIXES) {
    it(`${prefix}/checkout with COD: order payment_pending/cod_pending, stock held for the order, cart cleared`, async () => {
      const me = await c.customer();
      const p = await c.product({ onHand: 5, mrp: 1000, sp: 900 });
      const d = await c.product({ kind: 'digital', mrp: 300 });
      await c.cartWith(me, [{ productId: p, quantity: 2 }, { productId: d }]);
      const res = await c.checkout(me, 'cod', prefix);
      expect(res.statusCode, res.body).toBe(200);
      const init = res.json().data;
      expect(init).toMatchObject({
        status: 'payment_pending',
        gatewayTransactionId: null,
        initiationType: 'none',
        redirectUrl: null,
        gatewayPayload: {},
      });
      expect(init.paymentId).toMatch(/^[0-9a-f-]{36}$/);
      const order = await c.order(me, init.orderId);
      expect(order).toMatchObject({
        orderStatus: 'payment_pending',
        paymentStatus: 'cod_pending',
        paymentMethod: 'cod',
        orderSource: 'checkout',
        orderType: 'mixed',
        fulfillmentStatus: 'received',
        totalSp: 2100,
        shippingFee: 100,
        finalPayable: 2200,
        shippingDistrict: 'Kathmandu',
        shippingCity: 'Kathmandu',
        itemCount: 3,
      });
      expect(order.orderNumber).toMatch(/^ORD-\d{6}-[0-9A-Z]{6}$/);
      expect(order.items).toHaveLength(2);
      expect(order.items.find((i: { productId: number }) => i.productId === p)).toMatchObject({
        quantity: 2,
        unitMrp: 1000,
        unitSp: 900,
        discount: 200,
        finalValue: 1800,
      });
      expect(order.fulfillmentTimeline[0]).toMatchObject({ status: 'received', current: true });
      expect(await c.stockOf(p)).toEqual({ onHand: 5, reserved: 2, available: 3 });
      const cart = await c.cartCall(me, 'GET', '');
      expect(cart.items).toHaveLength(0);
      // The next cart keeps the address: the next order needs no new location.
      expect(cart.shippingLocation).toMatchObject({ districtName: 'Kathmandu', city: 'Kathmandu' });
      await c.cartCall(me, 'POST', '/items', { productId: p });
      const again = await c.checkout(me, 'cod', prefix);
      expect(again.statusCode, again.body).toBe(200);
      expect((await c.order(me, again.json().data.orderId)).shippingDistrict).toBe('Kathmandu');
    });
  }

  it('refusals: returnUrl not allowed, empty cart, no district for physical items, unknown gateway', async () => {
    const me = await c.customer();
    const empty = await c.checkout(me);
    expectError(empty, 400, 'ORDER_CART_EMPTY');
    const p = await c.product({ onHand: 3 });
    await c.cartWith(me, [{ productId: p }], false);
    expectError(await c.checkout(me), 400, 'ORDER_SHIPPING_DISTRICT_REQUIRED');
    const bad = await c.http.call('POST', '/api/orders/checkout', me.headers, {
      gateway: 'cod',
      returnUrl: 'https://evil.example.com/x',
    });
    expectError(bad, 400, 'PAYMENT_RETURN_URL_NOT_ALLOWED');
    const gw = await c.http.call('POST', '/api/orders/checkout', me.headers, {
      gateway: 'bitcoin',
      returnUrl: RETURN_URL,
    });
    expectError(gw, 400, 'VALIDATION_ERROR');
    // Nothing was ordered and the cart still holds its unit.
    const list = await c.http.call('GET', '/api/orders', me.headers);
    expect(list.json().meta.count).toBe(0);
    expect(await c.stockOf(p)).toMatchObject({ reserved: 1 });
  });

  it('a digital-only cart needs no district and pays no shipping', async () => {
    const me = await c.customer();
    const d = await c.product({ kind: 'digital', mrp: 500 });
    await c.cartWith(me, [{ productId: d }], false);
    const res = await c.checkout(me);
    expect(res.statusCode, res.body).toBe(200);
    const order = await c.order(me, res.json().data.orderId);
    expect(order).toMatchObject({
      orderType: 'digital',
      shippingFee: 0,
      finalPayable: 500,
      shippingDistrict: null,
    });
  });

  it('guests and admins cannot check out', async () => {
    const none = await c.http.call(
      'POST',
      '/api/orders/checkout',
      {},
      { gateway: 'cod', returnUrl: RETURN_URL },
    );
    expectError(none, 401, 'AUTH_UNAUTHORIZED');
    const asAdmin = await c.http.call('POST', '/api/orders/checkout', c.admin.headers, {
      gateway: 'cod',
      returnUrl: RETURN_URL,
    });
    expectError(asAdmin, 403, 'AUTH_FORBIDDEN');
  });

  it('online checkout: the initiator answers, the order waits for payment, the cart stays', async () => {
    const me = await c.customer();
    const p = await c.product({ onHand: 4, mrp: 700 });
    await c.cartWith(me, [{ productId: p, quantity: 2 }]);
    const res = await c.checkout(me, 'gateway_wallet_a');
    expect(res.statusCode, res.body).toBe(200);
    const init = res.json().data;
    expect(init).toMatchObject({
      status: 'payment_pending',
      paymentId: `pay-${init.orderId}`,
      initiationType: 'redirect',
      redirectUrl: `http://127.0.0.1/sandbox/${init.orderId}`,
      gatewayPayload: { amount: 1500 },
    });
    expect(fake.calls.at(-1)).toEqual({ orderId: init.orderId, amount: 1500, gateway: 'gateway_wallet_a' });
    const order = await c.order(me, init.orderId);
    expect(order).toMatchObject({
      orderStatus: 'payment_pending',
      paymentStatus: 'pending',
      paymentMethod: 'online',
      fulfillmentStatus: null,
    });
    expect((await c.cartCall(me, 'GET', '')).items).toHaveLength(1);
    expect(await c.stockOf(p)).toEqual({ onHand: 4, reserved: 2, available: 2 });

    // Payment verified (what the payments module calls), then replayed: changes once.
    const first = await inTransaction(c.db, (tx, ac) =>
      markOrderPaid(c.deps, tx, ac, { orderId: init.orderId, paymentReference: 'ref-1' }),
    );
    expect(first.changed).toBe(true);
    const again = await inTransaction(c.db, (tx, ac) =>
      markOrderPaid(c.deps, tx, ac, { orderId: init.orderId, paymentReference: 'ref-1' }),
    );
    expect(again.changed).toBe(false);
    const failedLate = await inTransaction(c.db, (tx, ac) =>
      markOrderPaymentFailed(c.deps, tx, ac, { orderId: init.orderId, reason: 'late' }),
    );
    expect(failedLate.changed).toBe(false);
    expect(await c.stockOf(p)).toEqual({ onHand: 2, reserved: 0, available: 2 });
    expect(await c.order(me, init.orderId)).toMatchObject({
      orderStatus: 'paid',
      paymentStatus: 'completed',
      fulfillmentStatus: 'received',
    });
    await c.t.drainJobs();
    expect((await c.cartCall(me, 'GET', '')).items).toHaveLength(0);
    const inbox = await c.http.call('GET', '/api/mobile/notifications', me.headers);
    const types = inbox.json().data.map((n: { type: string }) => n.type);
    expect(types).toContain('ORDER_PAYMENT_RECEIVED_CHECKOUT');
    expect(types.filter((t: string) => t === 'ORDER_PAYMENT_RECEIVED_CHECKOUT')).toHaveLength(1);
  });

  it('a failed online payment releases the stock once; a paid replay after it changes nothing', async () => {
    const me = await c.customer();
    const p = await c.product({ onHand: 3 });
    await c.cartWith(me, [{ productId: p }]);
    const res = await c.checkout(me, 'gateway_card');
    const { orderId } = res.json().data;
    expect(await c.stockOf(p)).toMatchObject({ reserved: 1 });
    const failed = await inTransaction(c.db, (tx, ac) =>
      markOrderPaymentFailed(c.deps, tx, ac, { orderId, reason: 'declined' }),
    );
    expect(failed.changed).toBe(true);
    const replay = await inTransaction(c.db, (tx, ac) => markOrderPaymentFailed(c.deps, tx, ac, { orderId }));
    expect(replay.changed).toBe(false);
    const paid = await inTransaction(c.db, (tx, ac) =>
      markOrderPaid(c.deps, tx, ac, { orderId, paymentReference: 'x' }),
    );
    expect(paid.changed).toBe(false);
    expect(await c.stockOf(p)).toEqual({ onHand: 3, reserved: 0, available: 3 });
    expect(await c.order(me, orderId)).toMatchObject({
      orderStatus: 'payment_failed',
      paymentStatus: 'failed',
    });
  });

  it('a gateway that cannot be reached: 502 PAYMENT_GATEWAY_UNAVAILABLE, no order, the cart keeps its stock', async () => {
    const me = await c.customer();
    const p = await c.product({ onHand: 2 });
    await c.cartWith(me, [{ productId: p }]);
    fake.fail = true;
    try {
      expectError(await c.checkout(me, 'gateway_bank'), 502, 'PAYMENT_GATEWAY_UNAVAILABLE');
    } finally {
      fake.fail = false;
    }
    expect((await c.http.call('GET', '/api/orders', me.headers)).json().meta.count).toBe(0);
    expect(await c.stockOf(p)).toEqual({ onHand: 2, reserved: 1, available: 1 });
    // COD is not affected and markOrderPaid refuses a COD order.
    const cod = await c.checkout(me, 'cod');
    expect(cod.statusCode, cod.body).toBe(200);
    const paid = await inTransaction(c.db, (tx, ac) =>
      markOrderPaid(c.deps, tx, ac, { orderId: cod.json().data.orderId, paymentReference: 'x' }),
    );
    expect(paid.changed).toBe(false);
  });

  for (const prefix of ORDER_PREFIXES) {
    it(`${prefix}/buy-now: one unit, cart untouched; physical needs the cart's district`, async () => {
      const me = await c.customer();
      const p = await c.product({ onHand: 2, mrp: 400 });
      const call = (productId: number, gateway = 'cod') =>
        c.http.call('POST', `${prefix}/buy-now`, me.headers, { productId, gateway, returnUrl: RETURN_URL });
      expectError(await call(p), 400, 'ORDER_SHIPPING_DISTRICT_REQUIRED');
      const other = await c.product({ onHand: 1 });
      await c.cartWith(me, [{ productId: other }]);
      const res = await call(p);
      expect(res.statusCode, res.body).toBe(200);
      const order = await c.order(me, res.json().data.orderId);
      expect(order).toMatchObject({
        orderSource: 'buy_now',
        orderType: 'physical',
        itemCount: 1,
        finalPayable: 500,
        paymentStatus: 'cod_pending',
      });
      expect(await c.stockOf(p)).toEqual({ onHand: 2, reserved: 1, available: 1 });
      // Buy-now leaves the cart as it was.
      expect((await c.cartCall(me, 'GET', '')).items.map((i) => i.productId)).toEqual([other]);
      const online = await call(p, 'gateway_wallet_b');
      expect(online.statusCode, online.body).toBe(200);
      expectError(await call(p), 400, 'CART_INSUFFICIENT_STOCK');
      expectError(await call(999_999), 404, 'ORDER_PRODUCT_NOT_FOUND');
      const digital = await c.product({ kind: 'digital', mrp: 250 });
      const d = await call(digital);
      expect(d.statusCode, d.body).toBe(200);
    });
  }
});

describe('checkout with the online gateways unavailable (live mode, no provider yet) and COD_REQUIRES_VERIFIED_PHONE', () => {
  let c: OrdersTestApp;
  beforeAll(async () => {
    c = await ordersTestApp({ env: { COD_REQUIRES_VERIFIED_PHONE: 'true', PAYMENTS_MODE: 'live' } });
  });
  afterAll(() => c?.t.close());

  it('online gateways answer 502 when their provider is unavailable; COD needs a verified phone', async () => {
    const me = await c.customer();
    const p = await c.product({ onHand: 2 });
    await c.cartWith(me, [{ productId: p }]);
    expectError(await c.checkout(me, 'gateway_card'), 502, 'PAYMENT_GATEWAY_UNAVAILABLE');
    expectError(await c.checkout(me, 'cod'), 400, 'ORDER_PHONE_VERIFICATION_REQUIRED');
    expect((await c.http.call('GET', '/api/orders', me.headers)).json().meta.count).toBe(0);
    expect(await c.stockOf(p)).toMatchObject({ reserved: 1 });
  });
});
