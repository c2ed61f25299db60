// One line that says what a coupon does, in the admin's language: "10% off, at most NPR 500, on
// orders of NPR 2,000 or more; 2 products; from 1 Nov 2026, 00:00 to 15 Nov 2026, 23:59;
// 12 of 100 uses, 1 per customer". Pure: the words come from `t`.
import type { components } from '@pasal/client';
import type { TFunction } from 'i18next';
import { formatCount, formatDateTime, formatMoney, type Language } from '../../lib/format';

export type Coupon = components['schemas']['Coupon'];
type Translate = TFunction<'coupons'>;

export function couponSummary(coupon: Coupon, t: Translate, language: Language, timeZone: string): string {
  const money = (amount: number) => formatMoney(amount, language);
  const parts: string[] = [];
  let offer =
    coupon.discountType === 'percent'
      ? t('summary.percent', { value: coupon.value })
      : t('summary.fixed', { amount: money(coupon.value) });
  if (coupon.discountType === 'percent' && coupon.maxDiscount !== null) {
    offer += `, ${t('summary.atMost', { amount: money(coupon.maxDiscount) })}`;
  }
  if (coupon.minOrderTotal !== null && coupon.minOrderTotal > 0) {
    offer += `, ${t('summary.minimum', { amount: money(coupon.minOrderTotal) })}`;
  }
  parts.push(offer);
  const scope: string[] = [];
  if (coupon.productIds.length > 0) scope.push(t('summary.products', { count: coupon.productIds.length }));
  if (coupon.categoryIds.length > 0)
    scope.push(t('summary.categories', { count: coupon.categoryIds.length }));
  parts.push(
    scope.length > 0 ? t('summary.only', { what: scope.join(t('summary.and')) }) : t('summary.everything'),
  );
  const at = (value: string) => formatDateTime(value, { timeZone, language });
  if (coupon.startsAt && coupon.endsAt)
    parts.push(t('summary.between', { from: at(coupon.startsAt), to: at(coupon.endsAt) }));
  else if (coupon.startsAt) parts.push(t('summary.from', { from: at(coupon.startsAt) }));
  else if (coupon.endsAt) parts.push(t('summary.until', { to: at(coupon.endsAt) }));
  const uses: string[] = [];
  uses.push(
    coupon.usageLimit === null
      ? t('summary.usedNoLimit', { used: formatCount(coupon.usedCount) })
      : t('summary.used', { used: formatCount(coupon.usedCount), limit: formatCount(coupon.usageLimit) }),
  );
  if (coupon.perCustomerLimit !== null)
    uses.push(t('summary.perCustomer', { count: coupon.perCustomerLimit }));
  parts.push(uses.join(', '));
  return parts.join('; ');
}
