// The cart's arithmetic, the coupon rules and the sliding window, as tables.
import { describe, expect, it } from 'vitest';
import { cartTotals, lineAmounts } from '../../../src/modules/cart/carts/carts.pricing';
import { slidingEstimate } from '../../../src/modules/cart/carts/carts.rate-limit';
import { type CouponTerms, evaluateCoupon } from '../../../src/modules/cart/coupons/coupons.rules';

const phys = (quantity: number, unitMrp: number, unitSp: number, care: number | null = null) => ({
  productKind: 'physical',
  quantity,
  unitMrp,
  unitSp,
  carePackageUnitPrice: care,
});
const digital = (quantity: number, unitMrp: number, unitSp: number) => ({
  ...phys(quantity, unitMrp, unitSp),
  productKind: 'digital',
});

describe('lineAmounts', () => {
  it.each([
    // quantity, mrp, sp → effectivePrice, discountPerUnit, lineDiscount, lineTotal
    [1, 1000, 800, 800, 200, 200, 800],
    [3, 1000, 800, 800, 200, 600, 2400],
    [2, 1000, 0, 1000, 0, 0, 2000],
    [5, 500, 500, 500, 0, 0, 2500],
    [2, 400, 450, 450, 0, 0, 900],
    [99, 1, 0, 1, 0, 0, 99],
  ])(
    '%i × mrp %i sp %i',
    (quantity, unitMrp, unitSp, effectivePrice, discountPerUnit, lineDiscount, lineTotal) => {
      expect(lineAmounts({ quantity, unitMrp, unitSp })).toEqual({
        effectivePrice,
        discountPerUnit,
        lineDiscount,
        lineTotal,
      });
    },
  );
});

describe('cartTotals', () => {
  it.each([
    {
      name: 'empty cart',
      lines: [],
      coupon: 0,
      fee: 150,
      want: {
        totalMrp: 0,
        totalSp: 0,
        appliedDiscount: 0,
        shippingFee: 0,
        carePackageTotal: 0,
        finalPayable: 0,
        itemCount: 0,
      },
    },
    {
      name: 'physical with district',
      lines: [phys(2, 1000, 800)],
      coupon: 0,
      fee: 150,
      want: {
        totalMrp: 2000,
        totalSp: 1600,
        appliedDiscount: 0,
        shippingFee: 150,
        carePackageTotal: 0,
        finalPayable: 1750,
        itemCount: 2,
      },
    },
    {
      name: 'physical without a location',
      lines: [phys(2, 1000, 800)],
      coupon: 0,
      fee: null,
      want: {
        totalMrp: 2000,
        totalSp: 1600,
        appliedDiscount: 0,
        shippingFee: 0,
        carePackageTotal: 0,
        finalPayable: 1600,
        itemCount: 2,
      },
    },
    {
      name: 'digital only: no shipping',
      lines: [digital(1, 5000, 4500)],
      coupon: 0,
      fee: 150,
      want: {
        totalMrp: 5000,
        totalSp: 4500,
        appliedDiscount: 0,
        shippingFee: 0,
        carePackageTotal: 0,
        finalPayable: 4500,
        itemCount: 1,
      },
    },
    {
      name: 'coupon and care package per unit',
      lines: [phys(2, 1000, 0, 300), digital(1, 500, 0)],
      coupon: 250,
      fee: 100,
      want: {
        totalMrp: 2500,
        totalSp: 2500,
        appliedDiscount: 250,
        shippingFee: 100,
        carePackageTotal: 600,
        finalPayable: 2950,
        itemCount: 3,
      },
    },
    {
      name: 'coupon capped at totalSp',
      lines: [phys(1, 300, 200)],
      coupon: 999,
      fee: 50,
      want: {
        totalMrp: 300,
        totalSp: 200,
        appliedDiscount: 200,
        shippingFee: 50,
        carePackageTotal: 0,
        finalPayable: 50,
        itemCount: 1,
      },
    },
  ])('$name', ({ lines, coupon, fee, want }) => {
    const totals = cartTotals({ lines, couponDiscount: coupon, districtFee: fee });
    expect(totals).toEqual(want);
    expect(totals.finalPayable).toBe(
      totals.totalSp - totals.appliedDiscount + totals.shippingFee + totals.carePackageTotal,
    );
  });
});

describe('evaluateCoupon', () => {
  const base: CouponTerms = {
    discountType: 'percent',
    value: 10,
    minOrderTotal: null,
    maxDiscount: null,
    startsAt: null,
    endsAt: null,
    usageLimit: null,
    perCustomerLimit: null,
    isActive: true,
    productIds: [],
    categoryIds: [],
  };
  const at = new Date('2026-06-01T00:00:00Z');
  const lines = [
    { productId: 1, categoryPath: [10, 1], subtotal: 2000 },
    { productId: 2, categoryPath: [20], subtotal: 1000 },
  ];
  const usage = { used: 0, usedByCustomer: 0 };
  it.each([
    { name: '10% of everything', terms: {}, want: { ok: true, discount: 300 } },
    { name: 'rounded down', terms: { value: 7 }, want: { ok: true, discount: 210 } },
    {
      name: 'capped by maxDiscount',
      terms: { value: 50, maxDiscount: 500 },
      want: { ok: true, discount: 500 },
    },
    { name: 'fixed', terms: { discountType: 'fixed', value: 400 }, want: { ok: true, discount: 400 } },
    {
      name: 'fixed, at most the qualifying lines',
      terms: { discountType: 'fixed', value: 5000, productIds: [2] },
      want: { ok: true, discount: 1000 },
    },
    { name: 'listed product only', terms: { productIds: [2] }, want: { ok: true, discount: 100 } },
    { name: 'category above the product', terms: { categoryIds: [1] }, want: { ok: true, discount: 200 } },
    { name: 'nothing qualifies', terms: { productIds: [99] }, want: { ok: false, reason: 'not_applicable' } },
    { name: 'inactive', terms: { isActive: false }, want: { ok: false, reason: 'not_found' } },
    {
      name: 'not started',
      terms: { startsAt: new Date('2026-07-01T00:00:00Z') },
      want: { ok: false, reason: 'not_started' },
    },
    { name: 'expired', terms: { endsAt: at }, want: { ok: false, reason: 'expired' } },
    {
      name: 'minimum not met',
      terms: { minOrderTotal: 3001 },
      want: { ok: false, reason: 'min_order_not_met' },
    },
    { name: 'minimum met exactly', terms: { minOrderTotal: 3000 }, want: { ok: true, discount: 300 } },
    {
      name: 'usage limit',
      terms: { usageLimit: 5 },
      usage: { used: 5, usedByCustomer: 0 },
      want: { ok: false, reason: 'usage_limit_reached' },
    },
    {
      name: 'per-customer limit',
      terms: { perCustomerLimit: 1 },
      usage: { used: 1, usedByCustomer: 1 },
      want: { ok: false, reason: 'usage_limit_reached' },
    },
  ] as Array<{ name: string; terms: Partial<CouponTerms>; usage?: typeof usage; want: unknown }>)(
    '$name',
    ({ terms, usage: u, want }) => {
      expect(
        evaluateCoupon({ ...base, ...terms }, { lines, orderTotal: 3000, usage: u ?? usage, at }),
      ).toEqual(want);
    },
  );
});

describe('slidingEstimate', () => {
  const windowMs = 60_000;
  it.each([
    // previous, current, ms into the window, max → estimate, retry after (ms)
    [0, 60, 0, 60, 60, 0],
    [0, 61, 30_000, 60, 61, 30_000 + 60_000 * (1 - 59 / 61)],
    [60, 1, 30_000, 60, 31, 0],
    [60, 31, 30_000, 60, 61, 30_000 * 0 + 60_000 * (1 - 28 / 60) - 30_000],
    [40, 40, 0, 60, 80, 60_000 * (1 - 19 / 40)],
  ])('previous %i, current %i at +%ims, max %i', (previous, current, into, max, estimate, retry) => {
    const now = 1_800_000_000 * 1000 - ((1_800_000_000 * 1000) % windowMs) + into;
    const out = slidingEstimate({ previous, current, now, windowMs, max });
    expect(out.estimate).toBeCloseTo(estimate);
    expect(out.retryAfterMs).toBeCloseTo(retry);
  });
});
