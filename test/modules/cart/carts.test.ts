// The customer's cart on both prefixes: read, add, quantities, remove, location, coupons, care
// packages, sync, the guest quote, and the admin's read.
import { count } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cartItems, carts } from '../../../src/modules/cart/carts/carts.table';
import { categories } from '../../../src/modules/catalog/taxonomy/taxonomy.table';
import type { SignedIn } from '../../helpers/factories';
import { type CartBody, type CartTestApp, cartTestApp, expectError, PREFIXES } from './calls';

const uuid = '01900000-0000-7000-8000-000000000000';

describe('cart', () => {
  let c: CartTestApp;
  beforeAll(async () => {
    c = await cartTestApp();
  });
  afterAll(() => c?.t.close());

  describe.each(PREFIXES)('%s', (prefix) => {
    let me: SignedIn;
    beforeAll(async () => {
      me = await c.customer();
    });
    const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, payload?: unknown, who = me) =>
      c.http.call(method, `${prefix}${path}`, who.headers, payload);
    const ok = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, payload?: unknown, who = me) =>
      c.cartCall(who, method, path, payload, prefix);

    it('GET answers an empty cart first, then the same cart', async () => {
      const first = await ok('GET', '');
      expect(first).toMatchObject({
        items: [],
        totals: {
          totalMrp: 0,
          totalSp: 0,
          appliedDiscount: 0,
          shippingFee: 0,
          carePackageTotal: 0,
          finalPayable: 0,
          itemCount: 0,
        },
        appliedCoupon: null,
        promoNotice: null,
        shippingLocation: null,
      });
      expect(first.id).toMatch(/^[0-9a-f-]{36}$/);
      expect((await ok('GET', '')).id).toBe(first.id);
    });

    it('refuses guests, and admins', async () => {
      for (const [method, path] of [
        ['GET', ''],
        ['POST', '/items'],
        ['DELETE', `/items/${uuid}`],
        ['POST', `/items/${uuid}/increase`],
        ['POST', `/items/${uuid}/decrease`],
        ['PUT', `/items/${uuid}/quantity`],
        ['POST', '/coupon'],
        ['DELETE', '/coupon'],
        ['GET', '/location'],
        ['POST', '/location'],
        ['POST', '/location/auto'],
        ['DELETE', '/location'],
      ] as const) {
        expectError(await c.http.call(method, `${prefix}${path}`, {}, {}), 401, 'AUTH_UNAUTHORIZED');
        expectError(
          await c.http.call(method, `${prefix}${path}`, c.admin.headers, {}),
          403,
          'AUTH_FORBIDDEN',
        );
      }
    });

    it('adds a product with price snapshots and a reservation; a second add merges', async () => {
      const id = await c.product({ mrp: 1200, sp: 1000, onHand: 5 });
      const cart = await ok('POST', '/items', { productId: id, quantity: 2 });
      expect(cart.items).toHaveLength(1);
      expect(cart.items[0]).toMatchObject({
        productId: id,
        productKind: 'physical',
        quantity: 2,
        unitMrp: 1200,
        unitSp: 1000,
        effectivePrice: 1000,
        discountPerUnit: 200,
        lineDiscount: 400,
        lineTotal: 2000,
        carePackage: null,
      });
      expect(cart.totals).toMatchObject({ totalMrp: 2400, totalSp: 2000, finalPayable: 2000, itemCount: 2 });
      expect(await c.stockOf(id)).toEqual({ onHand: 5, reserved: 2, available: 3 });

      const merged = await ok('POST', '/items', { productId: id });
      expect(merged.items[0]!.quantity).toBe(3);
      expect(await c.stockOf(id)).toMatchObject({ reserved: 3 });
      await ok('DELETE', `/items/${merged.items[0]!.id}`);
    });

    it('keeps the snapshot of a line until the line changes', async () => {
      const id = await c.product({ mrp: 1000, sp: 900 });
      const cart = await ok('POST', '/items', { productId: id });
      const { products } = await import('../../../src/modules/catalog/products/products.table');
      const { eq } = await import('drizzle-orm');
      await c.db.update(products).set({ sp: 700 }).where(eq(products.id, id));
      const read = await c.cartCall(me, 'GET', '', undefined, prefix);
      // GET is cached; a write reprices from the snapshot, and the line's own change refreshes it.
      expect(read.items.find((i) => i.productId === id)!.unitSp).toBe(900);
      const other = await c.product();
      const after = await ok('POST', '/items', { productId: other });
      expect(after.items.find((i) => i.productId === id)!.unitSp).toBe(900);
      const bumped = await ok('POST', `/items/${cart.items.find((i) => i.productId === id)!.id}/increase`);
      expect(bumped.items.find((i) => i.productId === id)).toMatchObject({ quantity: 2, unitSp: 700 });
      for (const item of bumped.items) await ok('DELETE', `/items/${item.id}`);
    });

    it('increase, decrease, set and remove follow the reservation', async () => {
      const id = await c.product({ onHand: 4 });
      const line = (await ok('POST', '/items', { productId: id })).items[0]!;
      expect((await ok('POST', `/items/${line.id}/increase`)).items[0]!.quantity).toBe(2);
      expect(await c.stockOf(id)).toMatchObject({ reserved: 2 });
      expect((await ok('PUT', `/items/${line.id}/quantity`, { quantity: 4 })).items[0]!.quantity).toBe(4);
      expect(await c.stockOf(id)).toMatchObject({ reserved: 4, available: 0 });
      expectError(await call('POST', `/items/${line.id}/increase`), 400, 'CART_INSUFFICIENT_STOCK');
      expectError(
        await call('PUT', `/items/${line.id}/quantity`, { quantity: 5 }),
        400,
        'CART_INSUFFICIENT_STOCK',
      );
      expect((await ok('POST', `/items/${line.id}/decrease`)).items[0]!.quantity).toBe(3);
      expect(await c.stockOf(id)).toMatchObject({ reserved: 3 });
      expect(
        (await ok('PUT', `/items/${line.id}/quantity`, { quantity: 1, operation: 'set' })).items[0]!.quantity,
      ).toBe(1);
      const gone = await ok('POST', `/items/${line.id}/decrease`);
      expect(gone.items.find((i) => i.productId === id)).toBeUndefined();
      expect(await c.stockOf(id)).toMatchObject({ reserved: 0, available: 4 });
      expectError(await call('POST', `/items/${line.id}/increase`), 404, 'CART_ITEM_NOT_FOUND');

      const again = (await ok('POST', '/items', { productId: id, quantity: 2 })).items[0]!;
      const removed = await ok('DELETE', `/items/${again.id}`);
      expect(removed.items).toEqual([]);
      expect(await c.stockOf(id)).toMatchObject({ reserved: 0 });
    });

    it('quantity: 1 to 99, CART_QUANTITY_EXCEEDED above, VALIDATION_ERROR below', async () => {
      const id = await c.product({ onHand: 200 });
      expectError(
        await call('POST', '/items', { productId: id, quantity: 100 }),
        400,
        'CART_QUANTITY_EXCEEDED',
      );
      expectError(await call('POST', '/items', { productId: id, quantity: 0 }), 400, 'VALIDATION_ERROR');
      expectError(await call('POST', '/items', { productId: id, quantity: 1.5 }), 400, 'VALIDATION_ERROR');
      const line = (await ok('POST', '/items', { productId: id, quantity: 99 })).items[0]!;
      expectError(
        await call('POST', '/items', { productId: id, quantity: 1 }),
        400,
        'CART_QUANTITY_EXCEEDED',
      );
      expectError(await call('POST', `/items/${line.id}/increase`), 400, 'CART_QUANTITY_EXCEEDED');
      expectError(
        await call('PUT', `/items/${line.id}/quantity`, { quantity: 100 }),
        400,
        'CART_QUANTITY_EXCEEDED',
      );
      expectError(await call('PUT', `/items/${line.id}/quantity`, { quantity: 0 }), 400, 'VALIDATION_ERROR');
      expect(await c.stockOf(id)).toMatchObject({ reserved: 99 });
      await ok('DELETE', `/items/${line.id}`);
    });

    it('unknown, draft, unsellable products: 404 ORDER_PRODUCT_NOT_FOUND; no stock: CART_INSUFFICIENT_STOCK', async () => {
      expectError(await call('POST', '/items', { productId: 999999 }), 404, 'ORDER_PRODUCT_NOT_FOUND');
      const draft = await c.product({ status: 'draft' });
      expectError(await call('POST', '/items', { productId: draft }), 404, 'ORDER_PRODUCT_NOT_FOUND');
      const unsellable = await c.product({ isSellable: false });
      expectError(await call('POST', '/items', { productId: unsellable }), 404, 'ORDER_PRODUCT_NOT_FOUND');
      const empty = await c.product({ onHand: 0 });
      const res = await call('POST', '/items', { productId: empty });
      expectError(res, 400, 'CART_INSUFFICIENT_STOCK');
      expect(res.json().available).toBe(0);
      expectError(await call('POST', '/items', { productId: 'x' }), 400, 'VALIDATION_ERROR');
      // Digital products hold no stock in the cart.
      const key = await c.product({ kind: 'digital', mrp: 5000, sp: 4500 });
      const cart = await ok('POST', '/items', { productId: key });
      expect(cart.items[0]).toMatchObject({ productKind: 'digital', quantity: 1, lineTotal: 4500 });
      await ok('DELETE', `/items/${cart.items[0]!.id}`);
    });

    it("another customer's line: 404 CART_ITEM_NOT_FOUND; a bad id: 400", async () => {
      const other = await c.customer();
      const id = await c.product();
      const theirs = (await c.cartCall(other, 'POST', '/items', { productId: id }, prefix)).items[0]!;
      for (const [method, path, body] of [
        ['POST', `/items/${theirs.id}/increase`, undefined],
        ['POST', `/items/${theirs.id}/decrease`, undefined],
        ['PUT', `/items/${theirs.id}/quantity`, { quantity: 3 }],
        ['DELETE', `/items/${theirs.id}`, undefined],
      ] as const) {
        expectError(await call(method, path, body), 404, 'CART_ITEM_NOT_FOUND');
      }
      expect((await c.cartCall(other, 'GET', '', undefined, prefix)).items[0]!.quantity).toBe(1);
      expectError(await call('DELETE', '/items/not-a-uuid'), 400, 'VALIDATION_ERROR');
    });

    it('shipping location: set, read, fee on physical carts only, clear', async () => {
      const who = await c.customer();
      const name = prefix === '/api/cart' ? 'Lalitpur' : 'Bhaktapur';
      const districtId = await c.district(name, 150);
      const get = async () => {
        const res = await c.http.call('GET', `${prefix}/location`, who.headers);
        expect(res.statusCode).toBe(200);
        return res.json().data;
      };
      expect(await get()).toEqual({});
      const digitalId = await c.product({ kind: 'digital', mrp: 800 });
      await c.cartCall(who, 'POST', '/items', { productId: digitalId }, prefix);
      const set = await c.cartCall(
        who,
        'POST',
        '/location',
        {
          districtName: name.toUpperCase(),
          addressLine1: 'Ward 3',
          city: name,
          postalCode: '44700',
          latitude: 27.67,
        },
        prefix,
      );
      expect(set.shippingLocation).toEqual({
        districtName: name,
        addressLine1: 'Ward 3',
        city: name,
        postalCode: '44700',
        latitude: 27.67,
        longitude: null,
      });
      expect(set.totals.shippingFee).toBe(0); // digital only
      expect(await get()).toMatchObject({ districtName: name, districtId, shippingFee: 150 });
      const physical = await c.product({ mrp: 1000 });
      const withPhysical = await c.cartCall(who, 'POST', '/items', { productId: physical }, prefix);
      expect(withPhysical.totals).toMatchObject({ totalSp: 1800, shippingFee: 150, finalPayable: 1950 });
      const cleared = await c.cartCall(who, 'DELETE', '/location', undefined, prefix);
      expect(cleared.shippingLocation).toBeNull();
      expect(cleared.totals).toMatchObject({ shippingFee: 0, finalPayable: 1800 });
      expect(await get()).toEqual({});

      const off = prefix === '/api/cart' ? 'Dolakha' : 'Ramechhap'; // seeded inactive
      const bad = await c.http.call('POST', `${prefix}/location`, who.headers, {
        districtName: off,
        addressLine1: 'x',
        city: 'x',
        postalCode: '1',
      });
      expectError(bad, 400, 'CART_SHIPPING_DISTRICT_INVALID');
      expectError(
        await c.http.call('POST', `${prefix}/location`, who.headers, {
          districtName: name,
          city: 'x',
          postalCode: '1',
        }),
        400,
        'VALIDATION_ERROR',
      );
    });

    it('text with a NUL character is a validation error, never a 500', async () => {
      expectError(await call('POST', '/coupon', { code: 'A\u0000B' }), 400, 'VALIDATION_ERROR');
      expectError(
        await call('POST', '/location', {
          districtName: 'Kaski',
          addressLine1: 'x\u0000',
          city: 'x',
          postalCode: '1',
        }),
        400,
        'VALIDATION_ERROR',
      );
      const quote = await c.http.call(
        'POST',
        `${prefix}/guest/quote`,
        {},
        { items: [], districtName: '\u0000' },
      );
      expectError(quote, 400, 'VALIDATION_ERROR');
    });

    it('the districts the store ships to are listed on this prefix too (the catalog serves it)', async () => {
      await c.district('Syangja', 175);
      const res = await c.http.call('GET', `${prefix}/location/districts`);
      expect(res.statusCode).toBe(200);
      expect(res.json().data).toContainEqual({
        id: expect.any(Number),
        name: 'Syangja',
        province: 'Gandaki',
        shippingFee: 175,
      });
    });

    it('auto location is 410 CART_LOCATION_AUTO_DISABLED while disabled', async () => {
      expectError(
        await call('POST', '/location/auto', { latitude: 27.7, longitude: 85.3 }),
        410,
        'CART_LOCATION_AUTO_DISABLED',
      );
    });

    it('guest quote: public, priced like a cart, persists and reserves nothing', async () => {
      const [carts0] = await c.db.select({ n: count() }).from(carts);
      const [items0] = await c.db.select({ n: count() }).from(cartItems);
      const name = prefix === '/api/cart' ? 'Kaski' : 'Chitwan';
      await c.district(name, 200);
      const id = await c.product({ mrp: 1500, sp: 1200, onHand: 3 });
      const pkg = await c.carePackage();
      const res = await c.http.call(
        'POST',
        `${prefix}/guest/quote`,
        {},
        {
          items: [
            {
              productId: id,
              quantity: 2,
              carePackage: { carePackageId: pkg.id, pricingTierId: pkg.tiers[0]!.id },
            },
          ],
          districtName: name,
        },
      );
      expect(res.statusCode, res.body).toBe(200);
      const quote = res.json().data;
      expect(quote.id).toBeUndefined();
      expect(quote.items[0]).toMatchObject({
        productId: id,
        quantity: 2,
        unitMrp: 1500,
        unitSp: 1200,
        lineTotal: 2400,
        carePackage: {
          carePackageId: pkg.id,
          pricingTierId: pkg.tiers[0]!.id,
          name: 'Cover',
          tierLabel: '1 year',
          unitPrice: 500,
        },
      });
      expect(quote.totals).toEqual({
        totalMrp: 3000,
        totalSp: 2400,
        appliedDiscount: 0,
        shippingFee: 200,
        carePackageTotal: 1000,
        finalPayable: 3600,
        itemCount: 2,
      });
      expect(await c.stockOf(id)).toMatchObject({ reserved: 0 });
      const [carts1] = await c.db.select({ n: count() }).from(carts);
      const [items1] = await c.db.select({ n: count() }).from(cartItems);
      expect([carts1!.n, items1!.n]).toEqual([carts0!.n, items0!.n]);

      const quoteOf = (body: unknown) => c.http.call('POST', `${prefix}/guest/quote`, {}, body);
      expectError(
        await quoteOf({ items: [{ productId: 999999, quantity: 1 }] }),
        404,
        'ORDER_PRODUCT_NOT_FOUND',
      );
      expectError(
        await quoteOf({ items: [{ productId: id, quantity: 100 }] }),
        400,
        'CART_QUANTITY_EXCEEDED',
      );
      expectError(
        await quoteOf({ items: [{ productId: id, quantity: 1 }], districtName: 'Nowhere' }),
        400,
        'CART_SHIPPING_DISTRICT_INVALID',
      );
      expectError(await quoteOf({ items: 'x' }), 400, 'VALIDATION_ERROR');
      const digitalId = await c.product({ kind: 'digital' });
      const refused = await quoteOf({
        items: [
          {
            productId: digitalId,
            quantity: 1,
            carePackage: { carePackageId: pkg.id, pricingTierId: pkg.tiers[0]!.id },
          },
        ],
      });
      expectError(refused, 400, 'CART_CARE_PACKAGE_INVALID');
      expect(refused.json().reason).toBe('product_not_physical');
    });
  });

  describe('coupons on the cart', () => {
    it('applies, revalidates after each change with a promoNotice, and removes', async () => {
      const me = await c.customer();
      const a = await c.product({ mrp: 1000, onHand: 10 });
      const b = await c.product({ mrp: 500, onHand: 10 });
      const coupon = await c.coupon({ code: 'Save10', value: 10, minOrderTotal: 1500 });
      const lineA = (await c.cartCall(me, 'POST', '/items', { productId: a })).items[0]!;
      await c.cartCall(me, 'POST', '/items', { productId: b });
      const applied = await c.cartCall(me, 'POST', '/coupon', { code: 'save10' });
      expect(applied.appliedCoupon).toEqual({ code: 'Save10', discount: 150 });
      expect(applied.totals).toMatchObject({ totalSp: 1500, appliedDiscount: 150, finalPayable: 1350 });
      const more = await c.cartCall(me, 'POST', `/items/${lineA.id}/increase`);
      expect(more.appliedCoupon).toEqual({ code: 'Save10', discount: 250 });
      expect(more.promoNotice).toBeNull();
      // Below the minimum: the coupon goes, with a notice, once.
      const less = await c.cartCall(me, 'DELETE', `/items/${lineA.id}`);
      expect(less.appliedCoupon).toBeNull();
      expect(less.totals.appliedDiscount).toBe(0);
      expect(less.promoNotice?.message).toContain('Save10');
      expect(less.promoNotice?.message).toContain('minimum');
      const next = await c.cartCall(me, 'POST', '/items', { productId: a });
      expect(next.promoNotice).toBeNull();
      expect(next.appliedCoupon).toBeNull();

      await c.cartCall(me, 'POST', '/coupon', { code: 'SAVE10' });
      const removed = await c.cartCall(me, 'DELETE', '/coupon');
      expect(removed.appliedCoupon).toBeNull();
      expect(removed.totals.appliedDiscount).toBe(0);
      expect(coupon.id).toBeGreaterThan(0);
    });

    it("a category's coupon applies to products of the category and of every category below it", async () => {
      // The products' category paths are read with the products, in one statement.
      const [top] = await c.db
        .insert(categories)
        .values({ name: 'Computers', slug: 'cc-computers' })
        .returning();
      const [mid] = await c.db
        .insert(categories)
        .values({ name: 'Laptops', slug: 'cc-laptops', parentId: top!.id })
        .returning();
      const [low] = await c.db
        .insert(categories)
        .values({ name: 'Gaming laptops', slug: 'cc-gaming-laptops', parentId: mid!.id })
        .returning();
      const [other] = await c.db.insert(categories).values({ name: 'Phones', slug: 'cc-phones' }).returning();
      await c.coupon({ code: 'COMPUTERS10', value: 10, categoryIds: [top!.id] });
      await c.coupon({ code: 'LAPTOPS10', value: 10, categoryIds: [mid!.id] });
      const gaming = await c.product({ mrp: 1000, categoryId: low!.id });
      const phone = await c.product({ mrp: 500, categoryId: other!.id });
      const plain = await c.product({ mrp: 300 });

      const me = await c.customer();
      await c.cartCall(me, 'POST', '/items', { productId: gaming });
      await c.cartCall(me, 'POST', '/items', { productId: phone });
      await c.cartCall(me, 'POST', '/items', { productId: plain });
      // Ten per cent of the gaming laptop's line only (two levels below the coupon's category).
      expect((await c.cartCall(me, 'POST', '/coupon', { code: 'COMPUTERS10' })).appliedCoupon).toEqual({
        code: 'COMPUTERS10',
        discount: 100,
      });
      expect((await c.cartCall(me, 'POST', '/coupon', { code: 'LAPTOPS10' })).appliedCoupon).toEqual({
        code: 'LAPTOPS10',
        discount: 100,
      });

      const phoneOnly = await c.customer();
      await c.cartCall(phoneOnly, 'POST', '/items', { productId: phone });
      await c.cartCall(phoneOnly, 'POST', '/items', { productId: plain });
      const refused = await c.http.call('POST', '/api/cart/coupon', phoneOnly.headers, {
        code: 'COMPUTERS10',
      });
      expectError(refused, 400, 'CART_COUPON_INVALID');
      expect(refused.json().reason).toBe('not_applicable');
    });

    it('400 CART_COUPON_INVALID with reason at the top level, for every reason', async () => {
      const me = await c.customer();
      const shirt = await c.product({ mrp: 1000 });
      const other = await c.product({ mrp: 1000 });
      await c.cartCall(me, 'POST', '/items', { productId: shirt });
      await c.coupon({ code: 'LATER', startsAt: new Date(Date.now() + 86_400_000).toISOString() });
      await c.coupon({ code: 'PAST', endsAt: new Date(Date.now() - 1000).toISOString() });
      await c.coupon({ code: 'BIGORDER', minOrderTotal: 5000 });
      await c.coupon({ code: 'OTHERPRODUCT', productIds: [other] });
      await c.coupon({ code: 'OFF', isActive: false });
      const used = await c.coupon({ code: 'USEDUP', usageLimit: 1 });
      const { claimCouponUse } = await import('../../../src/modules/cart');
      const someone = await c.customer();
      await c.db.transaction(async (tx) => {
        await claimCouponUse(tx as never, {
          couponId: used.id,
          customerId: someone.userId,
          orderId: 'o-usedup',
        });
      });
      for (const [code, reason] of [
        ['NOSUCH', 'not_found'],
        ['OFF', 'not_found'],
        ['LATER', 'not_started'],
        ['PAST', 'expired'],
        ['BIGORDER', 'min_order_not_met'],
        ['OTHERPRODUCT', 'not_applicable'],
        ['USEDUP', 'usage_limit_reached'],
      ]) {
        for (const prefix of PREFIXES) {
          const res = await c.http.call('POST', `${prefix}/coupon`, me.headers, { code });
          expectError(res, 400, 'CART_COUPON_INVALID');
          expect(res.json().reason, code).toBe(reason);
          expect(res.json().timestamp).toBeTruthy();
        }
      }
      expect((await c.cartCall(me, 'GET', '')).appliedCoupon).toBeNull();
      expectError(
        await c.http.call('POST', '/api/cart/coupon', me.headers, { code: '' }),
        400,
        'VALIDATION_ERROR',
      );
    });

    it('a coupon deactivated by an admin shows as a notice on read and goes at the next change', async () => {
      const me = await c.customer();
      const p = await c.product({ mrp: 2000 });
      const coupon = await c.coupon({ code: 'FLASH', value: 20 });
      await c.cartCall(me, 'POST', '/items', { productId: p });
      expect((await c.cartCall(me, 'POST', '/coupon', { code: 'FLASH' })).appliedCoupon).toEqual({
        code: 'FLASH',
        discount: 400,
      });
      const off = await c.http.call('PATCH', `/api/admin/coupons/${coupon.id}`, c.admin.headers, {
        isActive: false,
      });
      expect(off.statusCode).toBe(200);
      const read = await c.cartCall(me, 'GET', '', undefined, '/api/mobile/cart');
      expect(read.appliedCoupon).toBeNull();
      expect(read.promoNotice?.message).toContain('FLASH');
      const changed = await c.cartCall(me, 'POST', '/items', { productId: p });
      expect(changed.appliedCoupon).toBeNull();
      expect(changed.promoNotice?.message).toContain('FLASH');
    });
  });

  describe('care packages on a line (mobile, JWT only)', () => {
    it('attaches with every re-check, refuses a second, detaches', async () => {
      const me = await c.customer();
      const laptop = await c.product({ mrp: 60000 });
      const pkg = await c.carePackage({ rules: { productIds: [laptop] } });
      const line = (
        await c.cartCall(me, 'POST', '/items', { productId: laptop, quantity: 2 }, '/api/mobile/cart')
      ).items[0]!;
      const url = `/api/mobile/cart/items/${line.id}/care-package`;
      const body = { carePackageId: pkg.id, pricingTierId: pkg.tiers[1]!.id };

      expectError(await c.http.call('POST', url, {}, body), 401, 'AUTH_UNAUTHORIZED');
      expectError(await c.http.call('POST', url, c.admin.headers, body), 403, 'AUTH_FORBIDDEN');
      expectError(
        await c.http.call('POST', url, me.headers, { carePackageId: pkg.id }),
        400,
        'VALIDATION_ERROR',
      );

      const attached = await c.cartCall(
        me,
        'POST',
        `/items/${line.id}/care-package`,
        body,
        '/api/mobile/cart',
      );
      expect(attached.items[0]!.carePackage).toEqual({
        carePackageId: pkg.id,
        pricingTierId: pkg.tiers[1]!.id,
        name: 'Cover',
        tierLabel: '2 years',
        unitPrice: 900,
      });
      expect(attached.totals).toMatchObject({
        totalSp: 120000,
        carePackageTotal: 1800,
        finalPayable: 121800,
      });
      const second = await c.http.call('POST', url, me.headers, {
        carePackageId: pkg.id,
        pricingTierId: pkg.tiers[0]!.id,
      });
      expectError(second, 400, 'CARE_PACKAGE_CART_ITEM_ALREADY_HAS_PACKAGE');
      // Adding the product again with another package is refused the same way.
      expectError(
        await c.http.call('POST', '/api/cart/items', me.headers, {
          productId: laptop,
          carePackage: { carePackageId: pkg.id, pricingTierId: pkg.tiers[0]!.id },
        }),
        400,
        'CARE_PACKAGE_CART_ITEM_ALREADY_HAS_PACKAGE',
      );

      const detached = await c.cartCall(
        me,
        'DELETE',
        `/items/${line.id}/care-package`,
        undefined,
        '/api/mobile/cart',
      );
      expect(detached.items[0]!.carePackage).toBeNull();
      expect(detached.totals.carePackageTotal).toBe(0);
      expectError(await c.http.call('DELETE', url, me.headers), 404, 'CART_ITEM_CARE_PACKAGE_NOT_FOUND');

      const other = await c.customer();
      expectError(await c.http.call('POST', url, other.headers, body), 404, 'CART_ITEM_NOT_FOUND');
      expectError(await c.http.call('DELETE', url, other.headers), 404, 'CART_ITEM_NOT_FOUND');
      // The interface lists these routes on the mobile prefix only.
      expectError(
        await c.http.call('POST', `/api/cart/items/${line.id}/care-package`, me.headers, body),
        404,
        'ROUTE_NOT_FOUND',
      );
    });

    it('refuses, with a reason: not physical, tier of another package, inactive package or tier, not eligible', async () => {
      const me = await c.customer();
      const laptop = await c.product({ mrp: 60000 });
      const phone = await c.product({ mrp: 20000 });
      const key = await c.product({ kind: 'digital' });
      const pkg = await c.carePackage({ rules: { productIds: [laptop] } });
      const otherPkg = await c.carePackage({ name: 'Other' });
      const closed = await c.carePackage({ name: 'Closed', isActive: false });
      const oneTierOff = await c.carePackage({
        name: 'Tier off',
        tiers: [
          { label: 'a', durationMonths: 12, price: 100 },
          { label: 'b', durationMonths: 12, price: 100, isActive: false },
        ],
      });
      const lines = (await c.cartCall(me, 'POST', '/items', { productId: laptop }, '/api/mobile/cart')).items;
      await c.cartCall(me, 'POST', '/items', { productId: phone });
      const cart = await c.cartCall(me, 'POST', '/items', { productId: key });
      const lineOf = (id: number) => cart.items.find((i) => i.productId === id)!.id;
      const attach = (productId: number, carePackageId: number, pricingTierId: number) =>
        c.http.call('POST', `/api/mobile/cart/items/${lineOf(productId)}/care-package`, me.headers, {
          carePackageId,
          pricingTierId,
        });
      for (const [res, reason] of [
        [await attach(key, otherPkg.id, otherPkg.tiers[0]!.id), 'product_not_physical'],
        [await attach(laptop, pkg.id, otherPkg.tiers[0]!.id), 'tier_not_found'],
        [await attach(laptop, closed.id, closed.tiers[0]!.id), 'package_inactive'],
        [await attach(laptop, oneTierOff.id, oneTierOff.tiers[1]!.id), 'tier_inactive'],
        [await attach(phone, pkg.id, pkg.tiers[0]!.id), 'not_eligible'],
      ] as const) {
        expectError(res, 400, 'CART_CARE_PACKAGE_INVALID');
        expect(res.json().reason).toBe(reason);
      }
      expect(lines).toHaveLength(1);
      // Added together with the product.
      const withPkg = await c.cartCall(me, 'POST', '/items', {
        productId: laptop,
        carePackage: { carePackageId: pkg.id, pricingTierId: pkg.tiers[0]!.id },
      });
      expect(withPkg.items.find((i) => i.productId === laptop)).toMatchObject({
        quantity: 2,
        carePackage: { carePackageId: pkg.id, unitPrice: 500 },
      });
    });
  });

  describe('POST /api/mobile/cart/sync', () => {
    it('adds what is missing, keeps the larger quantity, and changes nothing the second time', async () => {
      const me = await c.customer();
      const a = await c.product({ onHand: 10 });
      const b = await c.product({ onHand: 10 });
      const d = await c.product({ onHand: 10 });
      const pkg = await c.carePackage();
      await c.cartCall(me, 'POST', '/items', { productId: a, quantity: 5 });
      await c.cartCall(me, 'POST', '/items', { productId: b, quantity: 1 });
      const guest = {
        items: [
          { productId: a, quantity: 2 },
          {
            productId: b,
            quantity: 3,
            carePackage: { carePackageId: pkg.id, pricingTierId: pkg.tiers[0]!.id },
          },
          { productId: d, quantity: 4 },
        ],
      };
      const first = await c.cartCall(me, 'POST', '/sync', guest, '/api/mobile/cart');
      const q = (cart: CartBody) => Object.fromEntries(cart.items.map((i) => [i.productId, i.quantity]));
      expect(q(first)).toEqual({ [a]: 5, [b]: 3, [d]: 4 });
      expect(first.items.find((i) => i.productId === b)!.carePackage?.carePackageId).toBe(pkg.id);
      const levels = [await c.stockOf(a), await c.stockOf(b), await c.stockOf(d)];
      expect(levels.map((l) => l.reserved)).toEqual([5, 3, 4]);

      const second = await c.cartCall(me, 'POST', '/sync', guest, '/api/mobile/cart');
      expect(second.items).toEqual(first.items);
      expect(second.totals).toEqual(first.totals);
      expect([await c.stockOf(a), await c.stockOf(b), await c.stockOf(d)]).toEqual(levels);

      expectError(await c.http.call('POST', '/api/mobile/cart/sync', {}, guest), 401, 'AUTH_UNAUTHORIZED');
      expectError(
        await c.http.call('POST', '/api/mobile/cart/sync', me.headers, {
          items: [{ productId: 999999, quantity: 1 }],
        }),
        404,
        'ORDER_PRODUCT_NOT_FOUND',
      );
      expectError(
        await c.http.call('POST', '/api/mobile/cart/sync', me.headers, {
          items: [{ productId: a, quantity: 120 }],
        }),
        400,
        'CART_QUANTITY_EXCEEDED',
      );
      expectError(
        await c.http.call('POST', '/api/mobile/cart/sync', me.headers, {}),
        400,
        'VALIDATION_ERROR',
      );
    });
  });

  describe('admin read', () => {
    it.each(['/api/admin/cart/users/', '/api/admin/cart/'])(
      '%s:userId answers the active cart with Cart_READ',
      async (base) => {
        const me = await c.customer();
        const p = await c.product({ mrp: 700 });
        const cart = await c.cartCall(me, 'POST', '/items', { productId: p, quantity: 2 });
        const reader = await (await import('../../helpers/factories')).signedInAdmin(c.t, {
          permissions: ['Cart_READ'],
        });
        const res = await c.http.call('GET', `${base}${me.userId}`, reader.headers);
        expect(res.statusCode, res.body).toBe(200);
        expect(res.json().data).toMatchObject({ id: cart.id, totals: { totalSp: 1400, itemCount: 2 } });
        await c.http.expectGuarded('GET', `${base}${me.userId}`, 'Cart_READ', me);
        const nobody = await c.customer();
        expectError(
          await c.http.call('GET', `${base}${nobody.userId}`, reader.headers),
          404,
          'CART_NOT_FOUND',
        );
        expectError(await c.http.call('GET', `${base}not-a-uuid`, reader.headers), 400, 'VALIDATION_ERROR');
      },
    );
  });

  describe('cache', () => {
    it('GET is served from the per-customer cache, and every write clears it', async () => {
      const me = await c.customer();
      const p = await c.product({ mrp: 1000 });
      const cart = await c.cartCall(me, 'POST', '/items', { productId: p });
      const line = cart.items[0]!;
      expect((await c.cartCall(me, 'GET', '')).items[0]!.quantity).toBe(1);
      // A change behind the service's back shows only once a write clears the cache.
      const { eq } = await import('drizzle-orm');
      await c.db.update(cartItems).set({ quantity: 7 }).where(eq(cartItems.id, line.id));
      expect((await c.cartCall(me, 'GET', '')).items[0]!.quantity).toBe(1);
      expect((await c.cartCall(me, 'GET', '', undefined, '/api/mobile/cart')).items[0]!.quantity).toBe(1);
      await c.cartCall(me, 'DELETE', '/location');
      expect((await c.cartCall(me, 'GET', '')).items[0]!.quantity).toBe(7);
      expect((await c.cartCall(me, 'GET', '', undefined, '/api/mobile/cart')).items[0]!.quantity).toBe(7);
    });
  });
});
