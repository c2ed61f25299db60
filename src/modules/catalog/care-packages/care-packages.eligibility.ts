// Which physical products a care package may be attached to
// (docs/decisions.md, "Care-package eligibility"): a product matches when it is in at least one
// listed id set, or no id set is listed, and its effective price is inside the range when one
// is given.

export interface EligibilityRules {
  categoryIds: readonly number[];
  brandIds: readonly number[];
  productIds: readonly number[];
  minPrice: number | null;
  maxPrice: number | null;
}

export interface EligibilityProduct {
  id: number;
  productKind: string;
  /** The product's category and every ancestor of it: a rule on "Laptops" covers "Gaming laptops". */
  categoryPath: readonly number[];
  brandId: number | null;
  effectivePrice: number;
}

export function isEligible(product: EligibilityProduct, rules: EligibilityRules): boolean {
  if (product.productKind !== 'physical') return false;
  const listed = rules.categoryIds.length + rules.brandIds.length + rules.productIds.length > 0;
  const matchesId =
    !listed ||
    rules.productIds.includes(product.id) ||
    (product.brandId !== null && rules.brandIds.includes(product.brandId)) ||
    product.categoryPath.some((id) => rules.categoryIds.includes(id));
  if (!matchesId) return false;
  if (rules.minPrice !== null && product.effectivePrice < rules.minPrice) return false;
  if (rules.maxPrice !== null && product.effectivePrice > rules.maxPrice) return false;
  return true;
}

/** `months` calendar months after `start`; the day is clamped to the end of a shorter month. */
export function addMonths(start: Date, months: number): Date {
  const end = new Date(start.getTime());
  const day = start.getUTCDate();
  end.setUTCDate(1);
  end.setUTCMonth(end.getUTCMonth() + months);
  const lastDay = new Date(Date.UTC(end.getUTCFullYear(), end.getUTCMonth() + 1, 0)).getUTCDate();
  end.setUTCDate(Math.min(day, lastDay));
  return end;
}
