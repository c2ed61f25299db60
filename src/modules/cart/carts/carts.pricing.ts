// The cart's arithmetic (docs/decisions.md, "Cart shape"): per line, the effective price, the
// discount against MRP per unit and for the line; for the cart, the totals and finalPayable.
// Pure, so the same numbers come out for a cart, a guest quote and a buy-now.

export const MAX_LINE_QUANTITY = 99;

export interface PricingLine {
  productKind: string;
  quantity: number;
  unitMrp: number;
  unitSp: number;
  /** The care package's price per unit of the line, or null without one. */
  carePackageUnitPrice: number | null;
}

export interface LineAmounts {
  /** unitSp when above 0, otherwise unitMrp. */
  effectivePrice: number;
  /** What one unit saves against MRP (never negative). */
  discountPerUnit: number;
  lineDiscount: number;
  /** effectivePrice × quantity (the care package is counted apart). */
  lineTotal: number;
}

export interface CartTotals {
  totalMrp: number;
  totalSp: number;
  appliedDiscount: number;
  shippingFee: number;
  carePackageTotal: number;
  finalPayable: number;
  /** Units, not lines. */
  itemCount: number;
}

export const effectivePrice = (unitMrp: number, unitSp: number) => (unitSp > 0 ? unitSp : unitMrp);

export function lineAmounts(line: Pick<PricingLine, 'quantity' | 'unitMrp' | 'unitSp'>): LineAmounts {
  const price = effectivePrice(line.unitMrp, line.unitSp);
  const discountPerUnit = Math.max(0, line.unitMrp - price);
  return {
    effectivePrice: price,
    discountPerUnit,
    lineDiscount: discountPerUnit * line.quantity,
    lineTotal: price * line.quantity,
  };
}

/**
 * `couponDiscount`: what the coupon takes off (0 without one), capped at totalSp.
 * `districtFee`: the fee of the chosen district, or null when no location is set; it is
 * charged only when a line is a physical product. Care packages add unitPrice × quantity and no
 * shipping. finalPayable = totalSp - appliedDiscount + shippingFee + carePackageTotal.
 */
export function cartTotals(p: {
  lines: readonly PricingLine[];
  couponDiscount: number;
  districtFee: number | null;
}): CartTotals {
  let totalMrp = 0;
  let totalSp = 0;
  let carePackageTotal = 0;
  let itemCount = 0;
  for (const line of p.lines) {
    totalMrp += line.unitMrp * line.quantity;
    totalSp += lineAmounts(line).lineTotal;
    carePackageTotal += (line.carePackageUnitPrice ?? 0) * line.quantity;
    itemCount += line.quantity;
  }
  const physical = p.lines.some((l) => l.productKind === 'physical');
  const shippingFee = physical && p.districtFee !== null ? p.districtFee : 0;
  const appliedDiscount = Math.min(Math.max(0, p.couponDiscount), totalSp);
  return {
    totalMrp,
    totalSp,
    appliedDiscount,
    shippingFee,
    carePackageTotal,
    finalPayable: totalSp - appliedDiscount + shippingFee + carePackageTotal,
    itemCount,
  };
}
