// Pricing a set of lines, for a cart, a guest quote or a buy-now: each line at its snapshot
// prices with its care package, the coupon judged against the lines, the district's fee, and
// the totals. Reads only; the cart's changes (carts.service.ts) and checkout (carts.checkout.ts)
// write what comes of it.
import type { Db } from '../../../platform/db/database';
import type { ModuleContext } from '../../../platform/module';
import {
  type CarePackageChoice,
  findCarePackageTier,
  findEligibleCarePackageChoice,
  findProductsForSale,
  findShippingDistrict,
  type ProductForSale,
} from '../../catalog';
import { type CarePackageRejection, type CouponRejection, cartErrors } from '../cart.errors';
import * as couponRepo from '../coupons/coupons.repository';
import { evaluateCoupon } from '../coupons/coupons.rules';
import { type CartTotals, cartTotals, lineAmounts, MAX_LINE_QUANTITY } from './carts.pricing';
import * as repo from './carts.repository';
import type { CarePackageChoiceBody, CartItemView } from './carts.schemas';

/** More than MAX_LINE_QUANTITY of one product: CART_QUANTITY_EXCEEDED. */
export const checkQuantity = (quantity: number) => {
  if (quantity > MAX_LINE_QUANTITY) throw cartErrors.quantityExceeded(MAX_LINE_QUANTITY);
};

export interface LineCarePackage {
  carePackageId: number;
  pricingTierId: number;
  name: string;
  tierLabel: string;
  unitPrice: number;
}

export interface LineInput {
  /** The cart line's id; null in a quote. */
  id: string | null;
  product: ProductForSale;
  quantity: number;
  unitMrp: number;
  unitSp: number;
  carePackage: LineCarePackage | null;
}

export interface PricedLines {
  items: CartItemView[];
  totals: CartTotals;
  /** The coupon that applies, with what it takes off. */
  coupon: { id: number; code: string; discount: number } | null;
  /** Why the coupon asked for does not apply (null when none was asked for, or it applies). */
  couponRejection: CouponRejection | null;
  /** The code of the coupon asked for, even when it does not apply. */
  couponCode: string | null;
  district: { id: number; name: string; shippingFee: number; isActive: boolean } | null;
}

function itemView(line: LineInput): CartItemView {
  const amounts = lineAmounts(line);
  return {
    id: line.id ?? '',
    productId: line.product.id,
    productTitle: line.product.title,
    productSlug: line.product.slug,
    productKind: line.product.productKind,
    thumbnailUrl: line.product.thumbnailUrl,
    quantity: line.quantity,
    unitMrp: line.unitMrp,
    unitSp: line.unitSp,
    ...amounts,
    carePackage: line.carePackage,
  };
}

export async function priceLines(
  db: Db,
  p: {
    lines: LineInput[];
    coupon: { id: number } | { code: string } | null;
    customerId: string | null;
    districtName: string | null;
    /** The district of `districtName` when the caller has just read it (a quote): no second read. */
    knownDistrict?: PricedLines['district'];
    at: Date;
  },
): Promise<PricedLines> {
  const district =
    p.knownDistrict !== undefined
      ? p.knownDistrict
      : p.districtName
        ? ((await findShippingDistrict(db, { name: p.districtName })) ?? null)
        : null;
  const couponLines = p.lines.map((l) => ({
    productId: l.product.id,
    categoryPath: l.product.categoryPath,
    subtotal: lineAmounts(l).lineTotal,
  }));
  const orderTotal = couponLines.reduce((sum, l) => sum + l.subtotal, 0);
  let coupon: PricedLines['coupon'] = null;
  let couponRejection: CouponRejection | null = null;
  let couponCode: string | null = 'code' in (p.coupon ?? {}) ? (p.coupon as { code: string }).code : null;
  if (p.coupon) {
    const row =
      'id' in p.coupon
        ? await couponRepo.findCoupon(db, p.coupon.id)
        : await couponRepo.findCouponByCode(db, p.coupon.code);
    if (!row) couponRejection = 'not_found';
    else {
      couponCode = row.code;
      const outcome = evaluateCoupon(row, {
        lines: couponLines,
        orderTotal,
        usage: {
          used: row.usedCount,
          usedByCustomer: await couponRepo.redemptionsByCustomer(db, row.id, p.customerId),
        },
        at: p.at,
      });
      if (outcome.ok) coupon = { id: row.id, code: row.code, discount: outcome.discount };
      else couponRejection = outcome.reason;
    }
  }
  const totals = cartTotals({
    lines: p.lines.map((l) => ({
      productKind: l.product.productKind,
      quantity: l.quantity,
      unitMrp: l.unitMrp,
      unitSp: l.unitSp,
      carePackageUnitPrice: l.carePackage?.unitPrice ?? null,
    })),
    couponDiscount: coupon?.discount ?? 0,
    districtFee: district?.shippingFee ?? null,
  });
  return {
    items: p.lines.map(itemView),
    totals,
    coupon: coupon && { ...coupon, discount: totals.appliedDiscount },
    couponRejection,
    couponCode,
    district: pricedDistrict(district),
  };
}

/** What pricing tells of a district. */
export const pricedDistrict = (d: PricedLines['district']): PricedLines['district'] =>
  d && { id: d.id, name: d.name, shippingFee: d.shippingFee, isActive: d.isActive };

/**
 * The package and tier for a line, re-checked: the product is physical, the tier exists and is
 * the package's, package and tier are active, and the package's rules cover the product.
 * Answers why not instead of throwing (checkout compares an attached package with today's).
 */
export async function judgeCarePackage(
  db: Db,
  product: ProductForSale,
  choice: CarePackageChoiceBody,
): Promise<{ ok: true; choice: CarePackageChoice } | { ok: false; reason: CarePackageRejection }> {
  if (product.productKind !== 'physical') return { ok: false, reason: 'product_not_physical' };
  const tier = await findCarePackageTier(db, choice.pricingTierId);
  if (!tier || tier.carePackageId !== choice.carePackageId) return { ok: false, reason: 'tier_not_found' };
  if (!tier.carePackage.isActive) return { ok: false, reason: 'package_inactive' };
  if (!tier.isActive) return { ok: false, reason: 'tier_inactive' };
  const found = await findEligibleCarePackageChoice(db, { productId: product.id, ...choice });
  if (!found) return { ok: false, reason: 'not_eligible' };
  return { ok: true, choice: found };
}

/** `judgeCarePackage`, throwing CART_CARE_PACKAGE_INVALID with the reason. */
export async function checkCarePackage(
  db: Db,
  product: ProductForSale,
  choice: CarePackageChoiceBody,
): Promise<CarePackageChoice> {
  const judged = await judgeCarePackage(db, product, choice);
  if (!judged.ok) throw cartErrors.carePackageInvalid(judged.reason);
  return judged.choice;
}

export const linePackage = (c: CarePackageChoice): LineCarePackage => ({
  carePackageId: c.carePackageId,
  pricingTierId: c.pricingTierId,
  name: c.name,
  tierLabel: c.tierLabel,
  unitPrice: c.unitPrice,
});

export async function cartLines(
  deps: Pick<ModuleContext, 'storage'>,
  db: Db,
  items: repo.CartItemRow[],
  known: ReadonlyMap<number, ProductForSale> = new Map(),
): Promise<LineInput[]> {
  const missing = items.map((i) => i.productId).filter((id) => !known.has(id));
  const products = missing.length
    ? new Map([...known, ...(await findProductsForSale(deps, db, missing))])
    : known;
  return items.map((i) => ({
    id: i.id,
    product: products.get(i.productId)!,
    quantity: i.quantity,
    unitMrp: i.unitMrp,
    unitSp: i.unitSp,
    carePackage:
      i.carePackageId !== null
        ? {
            carePackageId: i.carePackageId,
            pricingTierId: i.pricingTierId!,
            name: i.carePackageName ?? '',
            tierLabel: i.tierLabel ?? '',
            unitPrice: i.carePackageUnitPrice!,
          }
        : null,
  }));
}

/**
 * The cart's lines priced. `known`: what a cart change already holds in the same transaction
 * (its lines as they now are, the products it read), so pricing reads neither again.
 */
export async function priceCart(
  deps: Pick<ModuleContext, 'storage'>,
  db: Db,
  cart: repo.CartRow,
  at: Date,
  known?: { items: repo.CartItemRow[]; products: ReadonlyMap<number, ProductForSale> },
) {
  const lines = await cartLines(deps, db, known?.items ?? (await repo.itemsOf(db, cart.id)), known?.products);
  const priced = await priceLines(db, {
    lines,
    coupon: cart.couponId ? { id: cart.couponId } : null,
    customerId: cart.customerId,
    districtName: cart.districtName,
    at,
  });
  return { lines, priced };
}
