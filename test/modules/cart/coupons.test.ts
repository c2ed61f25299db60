// Admin coupons: /api/admin/coupons (Coupons_*), with the activity trail.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SignedIn, signedInAdmin } from '../../helpers/factories';
import { type CartTestApp, cartTestApp, expectError } from './calls';

describe('admin coupons', () => {
  let c: CartTestApp;
  let customer: SignedIn;
  beforeAll(async () => {
    c = await cartTestApp();
    customer = await c.customer();
  });
  afterAll(() => c?.t.close());

  const url = '/api/admin/coupons';

  it('creates with every field, 201, and records activity', async () => {
    const editor = await signedInAdmin(c.t, { permissions: ['Coupons_CREATE'] });
    const body = {
      code: 'Dashain25',
      discountType: 'percent',
      value: 25,
      minOrderTotal: 2000,
      maxDiscount: 1500,
      startsAt: '2026-10-01T00:00:00.000Z',
      endsAt: '2026-10-20T00:00:00+05:45',
      usageLimit: 100,
      perCustomerLimit: 1,
      isActive: true,
      productIds: [3, 1, 3],
      categoryIds: [7],
    };
    const res = await c.http.call('POST', url, editor.headers, body);
    expect(res.statusCode, res.body).toBe(201);
    const created = res.json().data;
    expect(created).toMatchObject({
      ...body,
      endsAt: '2026-10-19T18:15:00.000Z',
      productIds: [3, 1],
      usedCount: 0,
    });
    expect(typeof created.id).toBe('number');
    const trail = await c.http.activityOf(c.admin, 'coupon', created.id);
    expect(trail[0]).toMatchObject({ adminId: editor.userId, action: 'create' });
    expect(trail[0]!.summary).toContain('Dashain25');

    const minimal = await c.http.call('POST', url, editor.headers, {
      code: 'FLAT100',
      discountType: 'fixed',
      value: 100,
    });
    expect(minimal.statusCode).toBe(201);
    expect(minimal.json().data).toMatchObject({
      minOrderTotal: null,
      maxDiscount: null,
      startsAt: null,
      endsAt: null,
      usageLimit: null,
      perCustomerLimit: null,
      isActive: true,
      productIds: [],
      categoryIds: [],
    });
  });

  it('the code is unique case-insensitively: 409 COUPON_CODE_EXISTS', async () => {
    await c.coupon({ code: 'Tihar' });
    expectError(
      await c.http.call('POST', url, c.admin.headers, { code: 'TIHAR', discountType: 'fixed', value: 5 }),
      409,
      'COUPON_CODE_EXISTS',
    );
    const other = await c.coupon({ code: 'Holi' });
    expectError(
      await c.http.call('PATCH', `${url}/${other.id}`, c.admin.headers, { code: 'tihar' }),
      409,
      'COUPON_CODE_EXISTS',
    );
  });

  it('validation: percent over 100, window backwards, bad code, missing fields', async () => {
    for (const body of [
      { code: 'P', discountType: 'percent', value: 101 },
      {
        code: 'W',
        discountType: 'fixed',
        value: 1,
        startsAt: '2026-02-01T00:00:00Z',
        endsAt: '2026-01-01T00:00:00Z',
      },
      { code: 'has space', discountType: 'fixed', value: 1 },
      { code: 'X', discountType: 'bogus', value: 1 },
      { code: 'Y', discountType: 'fixed', value: 0 },
      { discountType: 'fixed', value: 1 },
      { code: 'Z', discountType: 'fixed', value: 1, usageLimit: 0 },
    ]) {
      expectError(await c.http.call('POST', url, c.admin.headers, body), 400, 'VALIDATION_ERROR');
    }
    const made = await c.coupon({ code: 'PCT', discountType: 'percent', value: 50 });
    expectError(
      await c.http.call('PATCH', `${url}/${made.id}`, c.admin.headers, { value: 150 }),
      400,
      'VALIDATION_ERROR',
    );
    expectError(
      await c.http.call('PATCH', `${url}/${made.id}`, c.admin.headers, {}),
      400,
      'VALIDATION_ERROR',
    );
  });

  it('lists with search, isActive, sort and pagination; reads one', async () => {
    const a = await c.coupon({ code: 'LIST-ALPHA' });
    await c.coupon({ code: 'LIST-BETA', isActive: false });
    const list = await c.http.call('GET', `${url}?search=list-&sort=code&order=asc`, c.admin.headers);
    expect(list.statusCode).toBe(200);
    expect(list.json().data.map((x: { code: string }) => x.code)).toEqual(['LIST-ALPHA', 'LIST-BETA']);
    expect(list.json().meta).toEqual({ count: 2, page: 1, size: 20 });
    const active = await c.http.call(
      'GET',
      `${url}?search=list-&isActive=false&pagination=false`,
      c.admin.headers,
    );
    expect(active.json().data.map((x: { code: string }) => x.code)).toEqual(['LIST-BETA']);
    expect(active.json().meta).toEqual({ count: 1 });
    const paged = await c.http.call(
      'GET',
      `${url}?search=list-&sort=code&order=asc&size=1&page=2`,
      c.admin.headers,
    );
    expect(paged.json().data.map((x: { code: string }) => x.code)).toEqual(['LIST-BETA']);
    expectError(await c.http.call('GET', `${url}?isActive=maybe`, c.admin.headers), 400, 'VALIDATION_ERROR');
    expectError(await c.http.call('GET', `${url}?search=a%00b`, c.admin.headers), 400, 'VALIDATION_ERROR');

    const one = await c.http.call('GET', `${url}/${a.id}`, c.admin.headers);
    expect(one.statusCode).toBe(200);
    expect(one.json().data).toMatchObject({ id: a.id, code: 'LIST-ALPHA' });
    expectError(await c.http.call('GET', `${url}/999999`, c.admin.headers), 404, 'COUPON_NOT_FOUND');
    expectError(await c.http.call('GET', `${url}/abc`, c.admin.headers), 400, 'VALIDATION_ERROR');
  });

  it('updates, records activity, and refuses a usageLimit below the uses', async () => {
    const made = await c.coupon({ code: 'UPD', usageLimit: 5 });
    const res = await c.http.call('PATCH', `${url}/${made.id}`, c.admin.headers, {
      value: 15,
      maxDiscount: null,
      productIds: [1],
      endsAt: '2027-01-01T00:00:00Z',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ value: 15, productIds: [1], endsAt: '2027-01-01T00:00:00.000Z' });
    const trail = await c.http.activityOf(c.admin, 'coupon', made.id);
    expect(trail[0]).toMatchObject({ action: 'update' });
    expect(trail[0]!.summary).toContain('value');

    const { claimCouponUse } = await import('../../../src/modules/cart');
    await c.db.transaction(async (tx) => {
      for (const orderId of ['u1', 'u2', 'u3'])
        await claimCouponUse(tx as never, {
          couponId: made.id,
          customerId: customer.userId,
          orderId,
        });
    });
    expect((await c.http.call('GET', `${url}/${made.id}`, c.admin.headers)).json().data.usedCount).toBe(3);
    expectError(
      await c.http.call('PATCH', `${url}/${made.id}`, c.admin.headers, { usageLimit: 2 }),
      400,
      'VALIDATION_ERROR',
    );
    expectError(
      await c.http.call('PATCH', `${url}/999999`, c.admin.headers, { value: 1 }),
      404,
      'COUPON_NOT_FOUND',
    );
  });

  it('deletes softly: gone from reads, the code free again, activity recorded', async () => {
    const made = await c.coupon({ code: 'GONE' });
    const res = await c.http.call('DELETE', `${url}/${made.id}`, c.admin.headers);
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toBeNull();
    expectError(await c.http.call('GET', `${url}/${made.id}`, c.admin.headers), 404, 'COUPON_NOT_FOUND');
    expectError(await c.http.call('DELETE', `${url}/${made.id}`, c.admin.headers), 404, 'COUPON_NOT_FOUND');
    const list = await c.http.call('GET', `${url}?search=GONE`, c.admin.headers);
    expect(list.json().meta.count).toBe(0);
    const again = await c.coupon({ code: 'gone' });
    expect(again.id).not.toBe(made.id);
    const trail = await c.http.activityOf(c.admin, 'coupon', made.id);
    expect(trail[0]).toMatchObject({ action: 'delete' });
    // A cart cannot apply the deleted code's old coupon.
    const p = await c.product();
    await c.cartCall(customer, 'POST', '/items', { productId: p });
    expect((await c.cartCall(customer, 'POST', '/coupon', { code: 'GONE' })).appliedCoupon?.code).toBe(
      'gone',
    );
  });

  it('guards every route with its permission', async () => {
    const made = await c.coupon({ code: 'GUARD' });
    await c.http.expectGuarded('GET', url, 'Coupons_READ', customer);
    await c.http.expectGuarded('GET', `${url}/${made.id}`, 'Coupons_READ', customer);
    await c.http.expectGuarded('POST', url, 'Coupons_CREATE', customer, {
      code: 'G2',
      discountType: 'fixed',
      value: 1,
    });
    await c.http.expectGuarded('PATCH', `${url}/${made.id}`, 'Coupons_UPDATE', customer, { value: 2 });
    await c.http.expectGuarded('DELETE', `${url}/${made.id}`, 'Coupons_DELETE', customer);
    const reader = await signedInAdmin(c.t, { permissions: ['Coupons_READ'] });
    expectError(
      await c.http.call('POST', url, reader.headers, { code: 'G3', discountType: 'fixed', value: 1 }),
      403,
      'AUTH_PERMISSION_DENIED',
    );
    expect((await c.http.call('GET', `${url}/${made.id}`, reader.headers)).statusCode).toBe(200);
  });
});
