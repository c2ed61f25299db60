// What must hold with many requests at once (really racing on PostgreSQL; PGlite serialises
// them): one active cart per customer, no oversell, and coupon usage limits.
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claimCouponUse } from '../../../src/modules/cart';
import { carts } from '../../../src/modules/cart/carts/carts.table';
import { couponRedemptions } from '../../../src/modules/cart/coupons/coupons.table';
import { inTransaction } from '../../../src/platform/db/transaction';
import { type CartTestApp, cartTestApp } from './calls';

describe('cart under concurrency', () => {
  let c: CartTestApp;
  beforeAll(async () => {
    c = await cartTestApp({ env: { DATABASE_POOL_SIZE: '25' } });
  });
  afterAll(() => c?.t.close());

  it('racing first requests of one customer end with one active cart', async () => {
    for (let round = 0; round < 3; round++) {
      const me = await c.customer();
      const p = await c.product({ onHand: 50 });
      const answers = await Promise.all([
        ...Array.from({ length: 6 }, () => c.http.call('GET', '/api/cart', me.headers)),
        ...Array.from({ length: 6 }, () =>
          c.http.call('POST', '/api/mobile/cart/items', me.headers, { productId: p }),
        ),
      ]);
      for (const res of answers) expect(res.statusCode, res.body).toBe(200);
      const ids = new Set(answers.map((r) => r.json().data.id));
      expect(ids.size).toBe(1);
      const rows = await c.db
        .select()
        .from(carts)
        .where(and(eq(carts.customerId, me.userId), eq(carts.status, 'active')));
      expect(rows).toHaveLength(1);
      // Every add counted: the adds of one customer queue on the cart row (a write answers fresh, uncached).
      const read = await c.http.call('DELETE', '/api/cart/location', me.headers);
      expect(read.json().data.items[0].quantity).toBe(6);
      expect(await c.stockOf(p)).toMatchObject({ reserved: 6 });
    }
  });

  it('racing adds against limited stock never oversell', async () => {
    const p = await c.product({ onHand: 3 });
    const buyers = await Promise.all(Array.from({ length: 8 }, () => c.customer()));
    const answers = await Promise.all(
      buyers.map((b) => c.http.call('POST', '/api/cart/items', b.headers, { productId: p, quantity: 1 })),
    );
    const codes = answers.map((r) => r.statusCode);
    expect(codes.filter((s) => s === 200)).toHaveLength(3);
    for (const res of answers.filter((r) => r.statusCode !== 200)) {
      expect(res.json().errorCode).toBe('CART_INSUFFICIENT_STOCK');
    }
    expect(await c.stockOf(p)).toEqual({ onHand: 3, reserved: 3, available: 0 });

    // One customer racing increases of its own line.
    const q = await c.product({ onHand: 4 });
    const me = await c.customer();
    const line = (await c.cartCall(me, 'POST', '/items', { productId: q })).items[0]!;
    const more = await Promise.all(
      Array.from({ length: 6 }, () => c.http.call('POST', `/api/cart/items/${line.id}/increase`, me.headers)),
    );
    expect(more.filter((r) => r.statusCode === 200)).toHaveLength(3);
    expect(await c.stockOf(q)).toEqual({ onHand: 4, reserved: 4, available: 0 });
    const after = await c.http.call('DELETE', '/api/cart/location', me.headers);
    expect(after.json().data.items[0].quantity).toBe(4);
  });

  it('20 concurrent redemptions of a coupon with usageLimit 5 count exactly 5', async () => {
    const coupon = await c.coupon({ code: 'RACE5', usageLimit: 5 });
    const buyers = await Promise.all(Array.from({ length: 20 }, () => c.customer()));
    const outcomes = await Promise.all(
      buyers.map((b, i) =>
        inTransaction(c.db, (tx) =>
          claimCouponUse(tx, { couponId: coupon.id, customerId: b.userId, orderId: `race5-${i}` }),
        ),
      ),
    );
    expect(outcomes.filter((o) => o.ok)).toHaveLength(5);
    expect(outcomes.filter((o) => !o.ok).every((o) => !o.ok && o.reason === 'usage_limit_reached')).toBe(
      true,
    );
    const rows = await c.db.select().from(couponRedemptions).where(eq(couponRedemptions.couponId, coupon.id));
    expect(rows).toHaveLength(5);
    const view = await c.http.call('GET', `/api/admin/coupons/${coupon.id}`, c.admin.headers);
    expect(view.json().data.usedCount).toBe(5);
  });

  it('perCustomerLimit holds under concurrency, and one order counts once', async () => {
    const coupon = await c.coupon({ code: 'ONCEEACH', perCustomerLimit: 2 });
    const me = await c.customer();
    const outcomes = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        inTransaction(c.db, (tx) =>
          claimCouponUse(tx, { couponId: coupon.id, customerId: me.userId, orderId: `each-${i}` }),
        ),
      ),
    );
    expect(outcomes.filter((o) => o.ok)).toHaveLength(2);

    const again = await c.coupon({ code: 'IDEMPOTENT', usageLimit: 10 });
    const same = await Promise.all(
      Array.from({ length: 6 }, () =>
        inTransaction(c.db, (tx) =>
          claimCouponUse(tx, { couponId: again.id, customerId: me.userId, orderId: 'one-order' }),
        ),
      ),
    );
    expect(same.every((o) => o.ok)).toBe(true);
    expect(same.filter((o) => o.ok && !o.alreadyRecorded)).toHaveLength(1);
    const view = await c.http.call('GET', `/api/admin/coupons/${again.id}`, c.admin.headers);
    expect(view.json().data.usedCount).toBe(1);
    expect(
      await inTransaction(c.db, (tx) =>
        claimCouponUse(tx, { couponId: 999999, customerId: me.userId, orderId: 'nothing' }),
      ),
    ).toEqual({ ok: false, reason: 'not_found' });
  });
});
