// A quote: items priced at today's prices without a cart (the guest quote, buy-now), and the
// merging of a payload's repeated products that the guest cart's sync shares.
import type { Db } from '../../../platform/db/database';
import type { ModuleContext } from '../../../platform/module';
import { findProductsForSale, findShippingDistrict } from '../../catalog';
import { cartErrors } from '../cart.errors';
import {
  checkCarePackage,
  checkQuantity,
  type LineInput,
  linePackage,
  type PricedLines,
  pricedDistrict,
  priceLines,
} from './carts.lines';
import type { CartQuoteView, QuoteItem } from './carts.schemas';

/** Adds up repeated products of a payload (a guest cart may hold one twice). */
export function mergeItems(items: QuoteItem[]): QuoteItem[] {
  const byProduct = new Map<number, QuoteItem>();
  for (const item of items) {
    const seen = byProduct.get(item.productId);
    byProduct.set(
      item.productId,
      seen
        ? {
            ...seen,
            quantity: seen.quantity + item.quantity,
            carePackage: seen.carePackage ?? item.carePackage,
          }
        : item,
    );
  }
  return [...byProduct.values()].sort((a, b) => a.productId - b.productId);
}

/**
 * Prices items at today's prices, with an optional district and coupon; persists and reserves
 * nothing. Unknown or unsellable products: ORDER_PRODUCT_NOT_FOUND; more than 99 of one:
 * CART_QUANTITY_EXCEEDED; a care package that may not go with its product: CART_CARE_PACKAGE_INVALID;
 * an unknown or inactive district: CART_SHIPPING_DISTRICT_INVALID; a coupon that does not apply:
 * CART_COUPON_INVALID.
 */
export async function quoteItems(
  deps: Pick<ModuleContext, 'storage' | 'clock'>,
  db: Db,
  p: {
    items: QuoteItem[];
    districtName?: string | null;
    /** The district of `districtName` when the caller has just read it (buy-now, the cart's): no second read. */
    knownDistrict?: PricedLines['district'];
    couponCode?: string | null;
    customerId?: string | null;
  },
): Promise<{ quote: CartQuoteView; lines: LineInput[]; priced: PricedLines }> {
  const merged = mergeItems(p.items);
  for (const item of merged) checkQuantity(item.quantity);
  const products = await findProductsForSale(
    deps,
    db,
    merged.map((i) => i.productId),
  );
  const lines: LineInput[] = [];
  for (const item of merged) {
    const product = products.get(item.productId);
    if (!product?.onSale) throw cartErrors.productNotFound(item.productId);
    const pkg = item.carePackage ? linePackage(await checkCarePackage(db, product, item.carePackage)) : null;
    lines.push({
      id: null,
      product,
      quantity: item.quantity,
      unitMrp: product.mrp,
      unitSp: product.sp,
      carePackage: pkg,
    });
  }
  const district = !p.districtName
    ? null
    : p.knownDistrict !== undefined
      ? p.knownDistrict
      : await findShippingDistrict(db, { name: p.districtName });
  if (p.districtName && !district?.isActive) throw cartErrors.districtInvalid(p.districtName);
  const priced = await priceLines(db, {
    lines,
    coupon: p.couponCode ? { code: p.couponCode } : null,
    customerId: p.customerId ?? null,
    districtName: district?.name ?? null,
    // Read once: pricing takes its fee from the same row.
    knownDistrict: district && pricedDistrict(district),
    at: deps.clock.now(),
  });
  if (priced.couponRejection) throw cartErrors.couponInvalid(priced.couponRejection);
  const quote: CartQuoteView = {
    items: priced.items.map(({ id: _, ...rest }) => rest),
    totals: priced.totals,
    appliedCoupon: priced.coupon && { code: priced.coupon.code, discount: priced.coupon.discount },
    promoNotice: null,
    shippingLocation: null,
  };
  return { quote, lines, priced };
}

/** `POST /cart/guest/quote`: the shape of a cart without `id`; the location shows only its district. */
export async function guestQuote(
  deps: Pick<ModuleContext, 'db' | 'storage' | 'clock'>,
  body: { items: QuoteItem[]; districtName?: string },
): Promise<CartQuoteView> {
  const { quote } = await quoteItems(deps, deps.db, { items: body.items, districtName: body.districtName });
  return quote;
}
