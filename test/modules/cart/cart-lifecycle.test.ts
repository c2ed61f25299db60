// Time and limits: idle expiry (job cart.expire), the per-customer rate limit, automatic
// location when enabled, and the functions orders call (checkout read, hand-over, clearing).
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  cartForCheckout,
  clearAfterOrderJob,
  handOverCartToOrder,
  quoteItems,
} from '../../../src/modules/cart';
import { expireCartsJob } from '../../../src/modules/cart/carts/carts.jobs';
import { stockReservations } from '../../../src/modules/catalog/stock/stock.table';
import { TestClock } from '../../../src/platform/clock';
import { inTransaction } from '../../../src/platform/db/transaction';
import { createTestApp } from '../../helpers/app';
import { servicesTier } from '../../helpers/services';
import { type CartTestApp, cartTestApp, expectError } from './calls';

const IDLE = 30 * 60_000;

describe('idle expiry (cart.expire)', () => {
  let c: CartTestApp;
  const clock = new TestClock('2026-03-01T10:00:00.000Z');
  beforeAll(async () => {
    // Tokens must outlive the hours this clock moves.
    c = await cartTestApp({
      clock,
      env: { CART_EXPIRE_IDLE_MS: String(IDLE), JWT_ACCESS_TTL_SECONDS: '86400' },
    });
  });
  afterAll(() => c?.t.close());

  const runExpiry = async () => {
    const { platform } = c.t;
    await platform.jobs.enqueue(
      expireCartsJob({ db: platform.database.db, cache: platform.cache, clock }),
      {},
    );
    await c.t.drainJobs();
  };

  it('releases the reservations of a cart idle past CART_EXPIRE_IDLE_MS; the lines stay and reserve again', async () => {
    const me = await c.customer();
    const p = await c.product({ onHand: 5 });
    const line = (await c.cartCall(me, 'POST', '/items', { productId: p, quantity: 2 })).items[0]!;
    expect(await c.stockOf(p)).toMatchObject({ reserved: 2 });

    clock.advance(IDLE - 1000);
    await runExpiry();
    expect(await c.stockOf(p)).toMatchObject({ reserved: 2 });
    // A change restarts the idle time.
    await c.cartCall(me, 'PUT', `/items/${line.id}/quantity`, { quantity: 3 });
    clock.advance(IDLE - 1000);
    await runExpiry();
    expect(await c.stockOf(p)).toMatchObject({ reserved: 3 });

    clock.advance(2000);
    await runExpiry();
    expect(await c.stockOf(p)).toEqual({ onHand: 5, reserved: 0, available: 5 });
    const cart = await c.cartCall(me, 'GET', '');
    expect(cart.items).toHaveLength(1);
    expect(cart.items[0]!.quantity).toBe(3);

    const again = await c.cartCall(me, 'POST', `/items/${line.id}/increase`);
    expect(again.items[0]!.quantity).toBe(4);
    expect(await c.stockOf(p)).toMatchObject({ reserved: 4 });
  });

  it('the functions orders call: checkout read, hand-over to the order, clearing once confirmed', async () => {
    const me = await c.customer();
    await c.district('Gorkha', 120);
    const a = await c.product({ mrp: 1000, sp: 900, onHand: 5 });
    const d = await c.product({ kind: 'digital', mrp: 300 });
    await c.coupon({ code: 'CHECKOUT10', value: 10 });
    await c.cartCall(me, 'POST', '/items', { productId: a, quantity: 2 });
    await c.cartCall(me, 'POST', '/items', { productId: d });
    await c.cartCall(me, 'POST', '/location', {
      districtName: 'Gorkha',
      addressLine1: 'Bazaar',
      city: 'Gorkha',
      postalCode: '34000',
    });
    const shown = await c.cartCall(me, 'POST', '/coupon', { code: 'CHECKOUT10' });
    const { platform } = c.t;
    const deps = { storage: platform.storage, clock, cache: platform.cache };

    const orderId = 'order-4711';
    const read = await inTransaction(c.db, async (tx, afterCommit) => {
      const cart = await cartForCheckout(deps, tx, me.userId);
      await handOverCartToOrder(deps, tx, afterCommit, { cart: cart!, orderId, at: clock.now() });
      return cart;
    });
    expect(read).toMatchObject({
      cartId: shown.id,
      customerId: me.userId,
      totals: shown.totals,
      coupon: { code: 'CHECKOUT10', discount: 210 },
      couponRejection: null,
      shippingLocation: { districtName: 'Gorkha', addressLine1: 'Bazaar' },
      district: { name: 'Gorkha', shippingFee: 120, isActive: true },
      hasPhysical: true,
      orderId: null,
    });
    expect(read!.totals).toMatchObject({
      totalSp: 2100,
      appliedDiscount: 210,
      shippingFee: 120,
      finalPayable: 2010,
    });
    expect(read!.lines.map((l) => [l.productId, l.quantity, l.onSale, l.lineTotal])).toEqual([
      [a, 2, true, 1800],
      [d, 1, true, 300],
    ]);
    // The order now holds the units, without expiry; the cart holds none, and keeps its lines.
    const held = await c.db.select().from(stockReservations).where(eq(stockReservations.productId, a));
    expect(held.map((r) => [r.ownerType, r.ownerId, r.quantity, r.expiresAt])).toEqual([
      ['order', orderId, 2, null],
    ]);
    expect(await c.stockOf(a)).toMatchObject({ reserved: 2 });
    const still = await c.cartCall(me, 'GET', '');
    expect(still.id).toBe(shown.id);
    expect(still.items).toHaveLength(2);

    // Another order's confirmation (a buy-now) leaves the cart alone.
    const clear = clearAfterOrderJob({ db: c.db, cache: platform.cache, clock });
    await platform.jobs.enqueue(clear, { customerId: me.userId, orderId: 'buy-now-1' });
    await c.t.drainJobs();
    expect((await c.cartCall(me, 'GET', '')).id).toBe(shown.id);
    await platform.jobs.enqueue(clear, { customerId: me.userId, orderId });
    await c.t.drainJobs();
    const fresh = await c.cartCall(me, 'GET', '');
    expect(fresh.id).not.toBe(shown.id);
    expect(fresh.items).toEqual([]);
    expect(await c.stockOf(a)).toMatchObject({ reserved: 2 });
    const orderHeld = await c.db
      .select()
      .from(stockReservations)
      .where(and(eq(stockReservations.ownerType, 'order'), eq(stockReservations.ownerId, orderId)));
    expect(orderHeld).toHaveLength(1);
  });

  it('a hand-over whose units are gone fails with CART_INSUFFICIENT_STOCK and changes nothing', async () => {
    const me = await c.customer();
    const rival = await c.customer();
    const p = await c.product({ onHand: 2 });
    await c.cartCall(me, 'POST', '/items', { productId: p, quantity: 2 });
    clock.advance(IDLE + 1000);
    await runExpiry();
    await c.cartCall(rival, 'POST', '/items', { productId: p, quantity: 1 });
    const { platform } = c.t;
    const deps = { storage: platform.storage, cache: platform.cache, clock };
    await expect(
      inTransaction(c.db, async (tx, afterCommit) => {
        const cart = (await cartForCheckout(deps, tx, me.userId))!;
        await handOverCartToOrder(deps, tx, afterCommit, { cart, orderId: 'o-fail', at: clock.now() });
      }),
    ).rejects.toMatchObject({ errorCode: 'CART_INSUFFICIENT_STOCK' });
    expect(await c.stockOf(p)).toEqual({ onHand: 2, reserved: 1, available: 1 });
    const orders = await c.db.select().from(stockReservations).where(eq(stockReservations.ownerId, 'o-fail'));
    expect(orders).toEqual([]);
  });

  it('quoteItems prices one product for buy-now, with a promo code, reserving nothing', async () => {
    const me = await c.customer();
    const p = await c.product({ mrp: 5000, sp: 4000, onHand: 1 });
    await c.coupon({ code: 'BUYNOW', discountType: 'fixed', value: 500 });
    const { platform } = c.t;
    const { quote, priced } = await quoteItems({ storage: platform.storage, clock }, c.db, {
      items: [{ productId: p, quantity: 1 }],
      districtName: 'Gorkha',
      couponCode: 'buynow',
      customerId: me.userId,
    });
    expect(quote.totals).toEqual({
      totalMrp: 5000,
      totalSp: 4000,
      appliedDiscount: 500,
      shippingFee: 120,
      carePackageTotal: 0,
      finalPayable: 3620,
      itemCount: 1,
    });
    expect(priced.coupon).toMatchObject({ code: 'BUYNOW', discount: 500 });
    expect(await c.stockOf(p)).toMatchObject({ reserved: 0 });
    await expect(
      quoteItems({ storage: platform.storage, clock }, c.db, {
        items: [{ productId: p, quantity: 1 }],
        couponCode: 'NOPE',
      }),
    ).rejects.toMatchObject({ errorCode: 'CART_COUPON_INVALID', extra: { reason: 'not_found' } });
  });
});

describe('per-customer rate limit on cart changes', () => {
  let c: CartTestApp;
  const clock = new TestClock('2026-03-01T10:00:10.000Z');
  beforeAll(async () => {
    c = await cartTestApp({
      clock,
      env: { CART_CUSTOMER_OPERATION_RATE_LIMIT: '3', CART_CUSTOMER_RATE_WINDOW_SECONDS: '60' },
    });
  });
  afterAll(() => c?.t.close());

  it('answers 429 RATE_LIMITED with Retry-After past the limit, per customer, reads not counted', async () => {
    const me = await c.customer();
    const other = await c.customer();
    const p = await c.product();
    for (let i = 0; i < 3; i++)
      await c.cartCall(me, 'POST', '/items', { productId: p }, i % 2 ? '/api/mobile/cart' : '/api/cart');
    await c.cartCall(me, 'GET', '');
    const limited = await c.http.call('DELETE', '/api/mobile/cart/coupon', me.headers);
    expectError(limited, 429, 'RATE_LIMITED');
    const retry = Number(limited.headers['retry-after']);
    expect(retry).toBeGreaterThanOrEqual(1);
    expect(retry).toBeLessThanOrEqual(120);
    expect((await c.http.call('GET', '/api/cart', me.headers)).statusCode).toBe(200);
    await c.cartCall(other, 'POST', '/items', { productId: p });

    // Sliding: a window later the previous window still weighs; two more windows and it is gone.
    clock.advance(60_000);
    expectError(await c.http.call('DELETE', '/api/cart/coupon', me.headers), 429, 'RATE_LIMITED');
    clock.advance(120_000);
    await c.cartCall(me, 'DELETE', '/coupon');
  });

  it.skipIf(!servicesTier)('is shared by two processes through Redis', async () => {
    const second = await createTestApp({
      clock,
      database: c.t.platform.database,
      env: {
        CART_CUSTOMER_OPERATION_RATE_LIMIT: '3',
        CART_CUSTOMER_RATE_WINDOW_SECONDS: '60',
        REDIS_PREFIX: c.t.platform.config.REDIS_PREFIX,
      },
    });
    try {
      clock.advance(600_000);
      const me = await c.customer();
      const p = await c.product();
      await c.cartCall(me, 'POST', '/items', { productId: p });
      const other = (url: string) => second.app.inject({ method: 'DELETE', url, headers: me.headers });
      expect((await other('/api/cart/coupon')).statusCode).toBe(200);
      await c.cartCall(me, 'DELETE', '/coupon');
      expectError(await other('/api/mobile/cart/coupon'), 429, 'RATE_LIMITED');
    } finally {
      await second.close();
    }
  });
});

describe('automatic location when CART_AUTO_LOCATE_ENABLED', () => {
  let c: CartTestApp;
  beforeAll(async () => {
    c = await cartTestApp({ env: { CART_AUTO_LOCATE_ENABLED: 'true' } });
  });
  afterAll(() => c?.t.close());

  it.each(['/api/cart', '/api/mobile/cart'])(
    '%s: adds coordinates to the location set, else 400 CART_LOCATION_AUTO_UNRESOLVED',
    async (prefix) => {
      const me = await c.customer();
      const auto = (body: unknown) => c.http.call('POST', `${prefix}/location/auto`, me.headers, body);
      expectError(await auto({ latitude: 27.7, longitude: 85.3 }), 400, 'CART_LOCATION_AUTO_UNRESOLVED');
      expectError(await auto({ latitude: 127 }), 400, 'VALIDATION_ERROR');
      await c.district('Kathmandu', 100);
      await c.cartCall(
        me,
        'POST',
        '/location',
        { districtName: 'Kathmandu', addressLine1: 'Thamel', city: 'Kathmandu', postalCode: '44600' },
        prefix,
      );
      const res = await auto({ latitude: 27.7, longitude: 85.3 });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().data.shippingLocation).toMatchObject({
        districtName: 'Kathmandu',
        latitude: 27.7,
        longitude: 85.3,
      });
    },
  );
});
