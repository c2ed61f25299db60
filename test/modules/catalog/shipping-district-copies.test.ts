// Each process's copy of the shipping districts (shipping-districts.copy.ts): an admin's change
// reaches the next cart change at once, on this process and through the cache's announcements; a
// write made outside the API shows once the copy is CACHE_LOCAL_TTL_MS old; with
// CACHE_LOCAL_TTL_MS=0 no copy is kept. A cart change prices its district inside its own
// transaction, so its answer shows the fee the copy (or the table) held.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shippingDistricts } from '../../../src/modules/catalog/shipping-districts/shipping-districts.table';
import { TestClock } from '../../../src/platform/clock';
import { type CartTestApp, cartTestApp } from '../cart/calls';

async function shopIn(c: CartTestApp, district: string) {
  const productId = await c.product();
  const buyer = await c.customer();
  await c.cartCall(buyer, 'POST', '/location', {
    districtName: district,
    addressLine1: 'Ward 1',
    city: district,
    postalCode: '33700',
  });
  /** Adds one unit and answers the shipping fee the cart was priced with. */
  const add = async () => (await c.cartCall(buyer, 'POST', '/items', { productId })).totals.shippingFee;
  return add;
}

/**
 * A buyer priced at `fee` in `district`, then the fee changed in the database itself, behind the
 * API (no drop announced): answers the buyer's `add`, for the test to see which fee it prices with.
 */
async function changedBehindTheApi(c: CartTestApp, district: string, fee: number, newFee: number) {
  await c.district(district, fee);
  const add = await shopIn(c, district);
  expect(await add()).toBe(fee);
  await c.db
    .update(shippingDistricts)
    .set({ shippingFee: newFee })
    .where(eq(shippingDistricts.name, district));
  return add;
}

describe('shipping districts: each process keeps a copy', () => {
  const clock = new TestClock('2026-11-30T10:00:00.000Z');
  let c: CartTestApp;
  beforeAll(async () => {
    c = await cartTestApp({ clock, schedules: false, env: { CACHE_LOCAL_TTL_MS: '2000' } });
  });
  afterAll(() => c?.t.close());

  it("an admin's change of a fee or of whether the store ships there reaches the next cart change at once", async () => {
    await c.district('Kaski', 120);
    const add = await shopIn(c, 'Kaski');
    expect(await add()).toBe(120);
    await c.district('Kaski', 180);
    expect(await add()).toBe(180);
    // Stopped shipping there: a new location in the district is refused at once.
    await c.district('Kaski', 180, false);
    const other = await c.customer();
    const res = await c.http.call('POST', '/api/cart/location', other.headers, {
      districtName: 'Kaski',
      addressLine1: 'Ward 2',
      city: 'Pokhara',
      postalCode: '33700',
    });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().errorCode).toBe('CART_SHIPPING_DISTRICT_INVALID');
  });

  it('a write made outside the API shows once the copy is CACHE_LOCAL_TTL_MS old, not before', async () => {
    const add = await changedBehindTheApi(c, 'Chitwan', 100, 250);
    expect(await add()).toBe(100);
    clock.advance(2_001);
    expect(await add()).toBe(250);
  });
});

describe('shipping districts: with CACHE_LOCAL_TTL_MS=0 no copy is kept', () => {
  let c: CartTestApp;
  beforeAll(async () => {
    c = await cartTestApp({ schedules: false, env: { CACHE_LOCAL_TTL_MS: '0' } });
  });
  afterAll(() => c?.t.close());

  it('a write made outside the API shows at the next cart change', async () => {
    const add = await changedBehindTheApi(c, 'Dang', 90, 140);
    expect(await add()).toBe(140);
  });
});
