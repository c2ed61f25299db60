// Money paths that probing broke (docs/api-notes.md, "Coupon uses", "Prices at checkout",
// "Unpaid online orders"): a coupon's limits hold for online and COD orders alike, at once and
// one after another; a cart never checks out at a price it no longer shows; one customer cannot
// hold a product's stock with unpaid orders. On PostgreSQL the races run really at once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectRace, race } from '../../helpers/money-races';
import { expectError } from '../cart/calls';
import { type OrdersTestApp, ordersTestApp, RETURN_URL } from './calls';
import { payInSandbox } from './sandbox';

const USED_UP = '400 CART_COUPON_INVALID usage_limit_reached';

describe('money paths', () => {
  let c: OrdersTestApp;
  beforeAll(async () => {
    c = await ordersTestApp({
      env: {
        PAYMENT_RETURN_URL_ALLOWLIST: RETURN_URL,
        DATABASE_POOL_SIZE: '40',
        RATE_LIMIT_ENABLED: 'false',
        ORDER_MAX_PENDING_ONLINE_PER_CUSTOMER: '3',
      },
    });
  });
  afterAll(() => c?.t.close());

  const buyNow = (who: { headers: Record<string, string> }, body: Record<string, unknown>) =>
    c.http.call('POST', '/api/orders/buy-now', who.headers, { returnUrl: RETURN_URL, ...body });

  async function couponView(id: number) {
    const res = await c.http.call('GET', `/api/admin/coupons/${id}`, c.admin.headers);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data as { usedCount: number };
  }

  const ordersWithCoupon = async (code: string) => {
    const res = await c.http.call('GET', '/api/admin/orders?size=100', c.admin.headers);
    expect(res.statusCode, res.body).toBe(200);
    const ids = (res.json().data as Array<{ id: number }>).map((o) => o.id);
    const details = await Promise.all(ids.map((id) => c.adminOrder(id)));
    return details.filter((d) => d.couponCode === code);
  };

  describe('coupon uses are claimed when the order is placed', () => {
    it('30 online checkouts and buy-nows at once with a 1-use coupon: one discounted order; a failed payment gives the use back', async () => {
      const productId = await c.product({ onHand: 100, mrp: 1000 });
      const coupon = await c.coupon({ code: 'HALF1', value: 50, usageLimit: 1, perCustomerLimit: 1 });
      const buyers = await Promise.all(Array.from({ length: 30 }, () => c.customer()));
      for (const [i, who] of buyers.entries()) {
        if (i % 2 === 0) {
          await c.cartWith(who, [{ productId }]);
          await c.cartCall(who, 'POST', '/coupon', { code: 'HALF1' });
        } else {
          await c.cartWith(who, []);
        }
      }
      const outcome = await race(30, (i) =>
        i % 2 === 0
          ? c.checkout(buyers[i]!, 'gateway_card')
          : buyNow(buyers[i]!, { productId, gateway: 'gateway_wallet_a', promoCode: 'half1' }),
      );
      expectRace(outcome, { won: 1, refusedAs: [USED_UP] });
      expect((await couponView(coupon.id)).usedCount).toBe(1);
      const discounted = await ordersWithCoupon('HALF1');
      expect(discounted).toHaveLength(1);
      expect(discounted[0]).toMatchObject({ couponDiscount: 500, finalPayable: 600 });

      // The winner does not pay: the use goes back, and the next buyer has it.
      await payInSandbox(c.t, outcome.won[0]!.json().data.paymentId, 'failure');
      expect((await couponView(coupon.id)).usedCount).toBe(0);
      const next = await c.customer();
      await c.cartWith(next, []);
      const again = await buyNow(next, { productId, gateway: 'gateway_card', promoCode: 'HALF1' });
      expect(again.statusCode, again.body).toBe(200);
      expect((await c.adminOrder(again.json().data.orderId)).couponDiscount).toBe(500);
      expect((await couponView(coupon.id)).usedCount).toBe(1);
    });

    it('the same cart checked out online five times: one live order, one use, its units held once', async () => {
      const productId = await c.product({ onHand: 10, mrp: 1000 });
      const coupon = await c.coupon({ code: 'AGAIN5', value: 50, usageLimit: 1, perCustomerLimit: 1 });
      const me = await c.customer();
      await c.cartWith(me, [{ productId, quantity: 2 }]);
      await c.cartCall(me, 'POST', '/coupon', { code: 'AGAIN5' });
      const placed: number[] = [];
      for (let i = 0; i < 5; i++) {
        const res = await c.checkout(me, 'gateway_card');
        expect(res.statusCode, res.body).toBe(200);
        placed.push(res.json().data.orderId);
      }
      const states = await Promise.all(placed.map((id) => c.order(me, id)));
      expect(states.map((o) => o.orderStatus)).toEqual([
        'cancelled',
        'cancelled',
        'cancelled',
        'cancelled',
        'payment_pending',
      ]);
      expect((await c.adminOrder(placed[4]!)).couponDiscount).toBe(1000);
      expect((await couponView(coupon.id)).usedCount).toBe(1);
      expect(await c.stockOf(productId)).toEqual({ onHand: 10, reserved: 2, available: 8 });
      // Paying the live order takes the units once.
      const live = await c.checkout(me, 'gateway_card');
      await payInSandbox(c.t, live.json().data.paymentId, 'success');
      expect(await c.stockOf(productId)).toEqual({ onHand: 8, reserved: 0, available: 8 });
      expect((await couponView(coupon.id)).usedCount).toBe(1);
    });

    it("buy-now's promoCode holds perCustomerLimit; cancelling the unpaid order gives the use back", async () => {
      const productId = await c.product({ onHand: 10, mrp: 1000 });
      const coupon = await c.coupon({ code: 'MINE1', value: 10, perCustomerLimit: 1 });
      const me = await c.customer();
      await c.cartWith(me, []);
      const first = await buyNow(me, { productId, gateway: 'gateway_card', promoCode: 'MINE1' });
      expect(first.statusCode, first.body).toBe(200);
      const second = await buyNow(me, { productId, gateway: 'gateway_card', promoCode: 'MINE1' });
      expectError(second, 400, 'CART_COUPON_INVALID');
      expect(second.json().reason).toBe('usage_limit_reached');
      const cancel = await c.http.call(
        'POST',
        `/api/orders/${first.json().data.orderId}/cancel`,
        me.headers,
        {},
      );
      expect(cancel.statusCode, cancel.body).toBe(202);
      expect((await c.settled(me, cancel.json().data.requestId)).status).toBe('completed');
      expect((await couponView(coupon.id)).usedCount).toBe(0);
      const third = await buyNow(me, { productId, gateway: 'cod', promoCode: 'MINE1' });
      expect(third.statusCode, third.body).toBe(200);
      expect((await couponView(coupon.id)).usedCount).toBe(1);
    });

    it('30 COD checkouts at once with a 1-use coupon: one discounted order, the others refused, never at full price', async () => {
      const productId = await c.product({ onHand: 100, mrp: 1000 });
      const coupon = await c.coupon({ code: 'CODONE', value: 20, usageLimit: 1 });
      const buyers = await Promise.all(Array.from({ length: 30 }, () => c.customer()));
      for (const who of buyers) {
        await c.cartWith(who, [{ productId }]);
        await c.cartCall(who, 'POST', '/coupon', { code: 'CODONE' });
      }
      const outcome = await race(30, (i) => c.checkout(buyers[i]!, 'cod'));
      expectRace(outcome, { won: 1, refusedAs: [USED_UP] });
      expect((await couponView(coupon.id)).usedCount).toBe(1);
      expect(await ordersWithCoupon('CODONE')).toHaveLength(1);

      // A refused buyer: the coupon is off the cart (said so) once checkout has found it used
      // up, and the next checkout goes through at the price the cart then shows.
      const loser = buyers[outcome.answers.findIndex((a) => a.statusCode !== 200)]!;
      let res = await c.checkout(loser, 'cod');
      if (res.statusCode === 400) {
        expect(res.json()).toMatchObject({ errorCode: 'CART_COUPON_INVALID', reason: 'usage_limit_reached' });
        res = await c.checkout(loser, 'cod');
      }
      expect(res.statusCode, res.body).toBe(200);
      const order = await c.adminOrder(res.json().data.orderId);
      expect(order).toMatchObject({ couponCode: null, couponDiscount: 0, finalPayable: 1100 });
    });

    it('a COD order cancelled before its cash is collected gives its use back', async () => {
      const productId = await c.product({ onHand: 10, mrp: 1000 });
      const coupon = await c.coupon({ code: 'CODBACK', value: 20, usageLimit: 1 });
      const me = await c.customer();
      await c.cartWith(me, [{ productId }]);
      await c.cartCall(me, 'POST', '/coupon', { code: 'CODBACK' });
      const res = await c.checkout(me, 'cod');
      expect(res.statusCode, res.body).toBe(200);
      expect((await couponView(coupon.id)).usedCount).toBe(1);
      const cancel = await c.http.call(
        'POST',
        `/api/orders/${res.json().data.orderId}/cancel`,
        me.headers,
        {},
      );
      expect((await c.settled(me, cancel.json().data.requestId)).status).toBe('completed');
      expect((await couponView(coupon.id)).usedCount).toBe(0);
    });
  });

  describe('prices at checkout', () => {
    it('a product repriced after it went into the cart: 409 CART_PRICES_CHANGED, no order, the cart refreshed; then the new price', async () => {
      const productId = await c.product({ onHand: 10, mrp: 60_000, sp: 100 });
      const me = await c.customer();
      await c.cartWith(me, [{ productId, quantity: 5 }]);
      const patched = await c.http.call('PATCH', `/api/admin/products/${productId}`, c.admin.headers, {
        sp: 50_000,
      });
      expect(patched.statusCode, patched.body).toBe(200);
      const before = await c.stockOf(productId);
      const refused = await c.checkout(me, 'cod');
      expectError(refused, 409, 'CART_PRICES_CHANGED');
      expect(refused.json().details).toEqual([
        { productId, oldEffectivePrice: 100, newEffectivePrice: 50_000 },
      ]);
      expect(refused.json().cart.items[0]).toMatchObject({ productId, unitSp: 50_000, lineTotal: 250_000 });
      expect((await c.http.call('GET', '/api/orders', me.headers)).json().meta.count).toBe(0);
      expect(await c.stockOf(productId)).toEqual(before);
      // The cart now shows the new price, and checkout charges it.
      const cart = await c.cartCall(me, 'GET', '');
      expect(cart.totals.totalSp).toBe(250_000);
      const res = await c.checkout(me, 'cod');
      expect(res.statusCode, res.body).toBe(200);
      expect((await c.adminOrder(res.json().data.orderId)).finalPayable).toBe(250_000 + 100);
    });

    it("a care package repriced, then stopped: 409 with its reason, the line's package refreshed, then taken off", async () => {
      const productId = await c.product({ onHand: 10, mrp: 1000 });
      const pkg = await c.carePackage({ rules: { productIds: [productId] } });
      const tier = pkg.tiers[0]!;
      const me = await c.customer();
      await c.cartWith(me, []);
      await c.cartCall(me, 'POST', '/items', {
        productId,
        quantity: 1,
        carePackage: { carePackageId: pkg.id, pricingTierId: tier.id },
      });
      const repriced = await c.http.call('PATCH', `/api/admin/care-packages/${pkg.id}`, c.admin.headers, {
        tiers: pkg.tiers.map((t) => ({
          id: t.id,
          label: t.label,
          durationMonths: 12,
          price: t.id === tier.id ? 20_000 : t.price,
        })),
      });
      expect(repriced.statusCode, repriced.body).toBe(200);
      const first = await c.checkout(me, 'cod');
      expectError(first, 409, 'CART_PRICES_CHANGED');
      expect(first.json().details).toEqual([{ productId, carePackageId: pkg.id, reason: 'price_changed' }]);
      expect(first.json().cart.items[0].carePackage.unitPrice).toBe(20_000);

      const stopped = await c.http.call('PATCH', `/api/admin/care-packages/${pkg.id}`, c.admin.headers, {
        isActive: false,
      });
      expect(stopped.statusCode, stopped.body).toBe(200);
      const second = await c.checkout(me, 'cod');
      expectError(second, 409, 'CART_PRICES_CHANGED');
      expect(second.json().details).toEqual([
        { productId, carePackageId: pkg.id, reason: 'package_inactive' },
      ]);
      expect(second.json().cart.items[0].carePackage).toBeNull();
      const third = await c.checkout(me, 'cod');
      expect(third.statusCode, third.body).toBe(200);
      expect((await c.adminOrder(third.json().data.orderId)).finalPayable).toBe(1000 + 100);
    });

    it('buy-now prices at the current price', async () => {
      const productId = await c.product({ onHand: 10, mrp: 5000, sp: 100 });
      const me = await c.customer();
      await c.cartWith(me, []);
      await c.http.call('PATCH', `/api/admin/products/${productId}`, c.admin.headers, { sp: 4000 });
      const res = await buyNow(me, { productId, gateway: 'cod' });
      expect(res.statusCode, res.body).toBe(200);
      expect((await c.adminOrder(res.json().data.orderId)).finalPayable).toBe(4000 + 100);
    });
  });

  describe('unpaid online orders', () => {
    it('a fourth unpaid online order is refused with 409 ORDER_TOO_MANY_PENDING_PAYMENTS, holding nothing; COD still goes', async () => {
      const productId = await c.product({ onHand: 200 });
      const me = await c.customer();
      await c.cartWith(me, []);
      for (let i = 0; i < 3; i++) {
        const res = await buyNow(me, { productId, gateway: 'gateway_card' });
        expect(res.statusCode, res.body).toBe(200);
      }
      const stock = await c.stockOf(productId);
      expect(stock.reserved).toBe(3);
      const refused = await buyNow(me, { productId, gateway: 'gateway_wallet_b' });
      expectError(refused, 409, 'ORDER_TOO_MANY_PENDING_PAYMENTS');
      await c.cartWith(me, [{ productId, quantity: 99 }], false);
      expectError(await c.checkout(me, 'gateway_card'), 409, 'ORDER_TOO_MANY_PENDING_PAYMENTS');
      expect((await c.http.call('GET', '/api/orders', me.headers)).json().meta.count).toBe(3);
      expect((await c.stockOf(productId)).reserved).toBe(3 + 99);
      // Cash on delivery waits for no payment: not counted.
      expect((await c.checkout(me, 'cod')).statusCode).toBe(200);
    });

    it('ten online buy-nows of one customer at once: exactly the limit placed', async () => {
      const productId = await c.product({ onHand: 50 });
      const me = await c.customer();
      await c.cartWith(me, []);
      const outcome = await race(10, () => buyNow(me, { productId, gateway: 'gateway_card' }));
      expectRace(outcome, { won: 3, refusedAs: ['409 ORDER_TOO_MANY_PENDING_PAYMENTS'] });
      expect((await c.stockOf(productId)).reserved).toBe(3);
    });
  });
});

describe('refunds after digital delivery', () => {
  let c: OrdersTestApp;
  beforeAll(async () => {
    c = await ordersTestApp({ env: { PAYMENT_RETURN_URL_ALLOWLIST: RETURN_URL } });
  });
  afterAll(() => c?.t.close());

  const keysOf = async (productId: number) => {
    const res = await c.http.call('GET', `/api/admin/products/${productId}/digital-keys`, c.admin.headers);
    expect(res.statusCode, res.body).toBe(200);
    return (res.json().data as Array<{ status: string }>).map((k) => k.status).sort();
  };

  it('a mixed order whose key was delivered: the customer cannot ask for a refund; the admin approves only by revoking the key', async () => {
    const me = await c.customer();
    const laptop = await c.product({ onHand: 5, mrp: 90_000 });
    const licence = await c.product({ kind: 'digital', mrp: 3000 });
    await c.addKeys(licence, ['LIC-AAAA-0001', 'LIC-AAAA-0002']);
    const orderId = await c.paidOrder(me, [{ productId: laptop }, { productId: licence }]);
    expect(await keysOf(licence)).toEqual(['assigned', 'available']);

    const asked = await c.http.call('POST', `/api/orders/${orderId}/request-refund`, me.headers, {
      reason: 'changed my mind',
    });
    expectError(asked, 400, 'ORDER_REFUND_NOT_ALLOWED');
    expect(asked.json().reason).toBe('digital_keys_delivered');
    expect((await c.order(me, orderId)).orderStatus).toBe('paid');

    // A refund asked for before the key went out (as an order of earlier releases could be).
    await c.forceOrder(orderId, { status: 'refund_requested', refundReason: 'changed my mind' });
    const approve = (body: Record<string, unknown>) =>
      c.http.call('POST', `/api/admin/orders/${orderId}/process-refund`, c.admin.headers, {
        action: 'approve',
        remarks: 'money back',
        ...body,
      });
    const refused = await approve({});
    expectError(refused, 400, 'ORDER_REFUND_NOT_ALLOWED');
    expect(refused.json().reason).toBe('digital_keys_delivered');
    expect(await keysOf(licence)).toEqual(['assigned', 'available']);

    const accepted = await approve({ revokeKeys: true });
    expect(accepted.statusCode, accepted.body).toBe(202);
    expect((await c.adminSettled(accepted.json().data.requestId)).status).toBe('completed');
    expect((await c.order(me, orderId)).orderStatus).toBe('refund_approved');
    expect(await keysOf(licence)).toEqual(['available', 'revoked']);
    const trail = await c.http.activityOf(c.admin, 'order', orderId);
    expect(trail[0]!.summary).toContain('revoked licence keys');

    // A revoked key is never sold again: the next buyer gets the other one.
    const next = await c.customer();
    const second = await c.paidOrder(next, [{ productId: laptop }, { productId: licence }]);
    expect(await keysOf(licence)).toEqual(['assigned', 'revoked']);
    expect((await c.order(next, second)).orderStatus).toBe('paid');
  });
});
