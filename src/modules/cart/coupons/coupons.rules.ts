// Whether a coupon applies to a cart and how much it takes off (docs/decisions.md, "Coupons" and
// "Cart"). Pure: the caller reads the coupon, the usage counts and the lines.
import type { CouponRejection } from '../cart.errors';
import type { DiscountType } from './coupons.table';

export interface CouponTerms {
  discountType: DiscountType;
  value: number;
  minOrderTotal: number | null;
  maxDiscount: number | null;
  startsAt: Date | null;
  endsAt: Date | null;
  usageLimit: number | null;
  perCustomerLimit: number | null;
  isActive: boolean;
  productIds: readonly number[];
  categoryIds: readonly number[];
}

export interface CouponUsage {
  /** Paid orders that used the coupon. */
  used: number;
  /** Paid orders of this customer that used it (0 for a guest). */
  usedByCustomer: number;
}

/** A line as the coupon sees it: what it sells and what it costs (effective price × quantity). */
export interface CouponLine {
  productId: number;
  categoryPath: readonly number[];
  subtotal: number;
}

export type CouponOutcome = { ok: true; discount: number } | { ok: false; reason: CouponRejection };

/** A line counts when the coupon lists no products or categories, or lists its product or a category above it. */
export function lineQualifies(
  terms: Pick<CouponTerms, 'productIds' | 'categoryIds'>,
  line: CouponLine,
): boolean {
  if (!terms.productIds.length && !terms.categoryIds.length) return true;
  return (
    terms.productIds.includes(line.productId) ||
    line.categoryPath.some((id) => terms.categoryIds.includes(id))
  );
}

/**
 * Checks in this order: active, window, usage limits, something to apply to, minimum order.
 * `orderTotal` is the products' total at their effective prices (no shipping, no care packages).
 * Percent: that share of the qualifying lines, rounded down, at most `maxDiscount`; fixed: the
 * value, at most the qualifying lines' total. Never more than the qualifying total.
 */
export function evaluateCoupon(
  terms: CouponTerms,
  p: { lines: readonly CouponLine[]; orderTotal: number; usage: CouponUsage; at: Date },
): CouponOutcome {
  if (!terms.isActive) return { ok: false, reason: 'not_found' };
  if (terms.startsAt && p.at < terms.startsAt) return { ok: false, reason: 'not_started' };
  if (terms.endsAt && p.at >= terms.endsAt) return { ok: false, reason: 'expired' };
  if (terms.usageLimit !== null && p.usage.used >= terms.usageLimit)
    return { ok: false, reason: 'usage_limit_reached' };
  if (terms.perCustomerLimit !== null && p.usage.usedByCustomer >= terms.perCustomerLimit)
    return { ok: false, reason: 'usage_limit_reached' };
  const qualifying = p.lines.filter((l) => lineQualifies(terms, l)).reduce((sum, l) => sum + l.subtotal, 0);
  if (qualifying <= 0) return { ok: false, reason: 'not_applicable' };
  if (terms.minOrderTotal !== null && p.orderTotal < terms.minOrderTotal)
    return { ok: false, reason: 'min_order_not_met' };
  let discount =
    terms.discountType === 'percent' ? Math.floor((qualifying * terms.value) / 100) : terms.value;
  if (terms.maxDiscount !== null) discount = Math.min(discount, terms.maxDiscount);
  return { ok: true, discount: Math.min(discount, qualifying) };
}
