import { AppError } from '../../platform/http/errors';

// Codes of the cart and coupons (docs/api-notes.md, "Cart and coupons"). The interface fixes
// CART_INSUFFICIENT_STOCK, CART_QUANTITY_EXCEEDED, CART_LOCATION_AUTO_DISABLED,
// CARE_PACKAGE_CART_ITEM_ALREADY_HAS_PACKAGE and ORDER_PRODUCT_NOT_FOUND;
// docs/decisions.md ("Remove", "Coupon") CART_ITEM_NOT_FOUND and CART_COUPON_INVALID with its
// reasons. The others are ours.

export const COUPON_REJECTIONS = [
  'not_found',
  'expired',
  'not_started',
  'min_order_not_met',
  'usage_limit_reached',
  'not_applicable',
] as const;
export type CouponRejection = (typeof COUPON_REJECTIONS)[number];

export const CARE_PACKAGE_REJECTIONS = [
  'product_not_physical',
  'package_inactive',
  'tier_not_found',
  'tier_inactive',
  'not_eligible',
] as const;
export type CarePackageRejection = (typeof CARE_PACKAGE_REJECTIONS)[number];

/** A line whose price moved, or whose care package changed (its price, or it may no longer be sold). */
export type CheckoutPriceChange =
  | { productId: number; oldEffectivePrice: number; newEffectivePrice: number }
  | { productId: number; carePackageId: number; reason: 'price_changed' | CarePackageRejection };

const couponMessages: Record<CouponRejection, string> = {
  not_found: 'No such coupon',
  expired: 'The coupon has expired',
  not_started: 'The coupon is not valid yet',
  min_order_not_met: 'The order total is below the coupon minimum',
  usage_limit_reached: 'The coupon has been used as often as it may be',
  not_applicable: 'The coupon does not apply to anything in the cart',
};

export const couponRejectionMessage = (reason: CouponRejection) => couponMessages[reason];

export const cartErrors = {
  /** Also reorder's (not in the order, no longer on sale) and POS's: one code, the reason in words. */
  productNotFound: (productId: number, reason = 'is not on sale') =>
    new AppError(404, 'ORDER_PRODUCT_NOT_FOUND', `Product ${productId} ${reason}`, { productId }),
  insufficientStock: (productId: number, available: number) =>
    new AppError(400, 'CART_INSUFFICIENT_STOCK', `Not enough stock of product ${productId}`, {
      productId,
      available,
    }),
  quantityExceeded: (max: number) =>
    new AppError(400, 'CART_QUANTITY_EXCEEDED', `A cart line holds at most ${max} units`),
  itemNotFound: () => new AppError(404, 'CART_ITEM_NOT_FOUND', 'Cart item not found'),
  cartNotFound: () => new AppError(404, 'CART_NOT_FOUND', 'The user has no active cart'),
  autoLocationDisabled: () =>
    new AppError(
      410,
      'CART_LOCATION_AUTO_DISABLED',
      'Automatic location is disabled; set the location manually',
    ),
  autoLocationUnresolved: () =>
    new AppError(
      400,
      'CART_LOCATION_AUTO_UNRESOLVED',
      'The district cannot be found from coordinates; set the location manually first',
    ),
  districtInvalid: (name: string) =>
    new AppError(400, 'CART_SHIPPING_DISTRICT_INVALID', `The store does not ship to ${name}`),
  couponInvalid: (reason: CouponRejection) =>
    new AppError(400, 'CART_COUPON_INVALID', couponMessages[reason], { reason }),
  carePackageInvalid: (reason: CarePackageRejection) =>
    new AppError(400, 'CART_CARE_PACKAGE_INVALID', `The care package cannot be added: ${reason}`, { reason }),
  carePackageAlreadyAttached: () =>
    new AppError(
      400,
      'CARE_PACKAGE_CART_ITEM_ALREADY_HAS_PACKAGE',
      'The cart item already has a care package; remove it first',
    ),
  noCarePackage: () =>
    new AppError(404, 'CART_ITEM_CARE_PACKAGE_NOT_FOUND', 'The cart item has no care package'),

  /**
   * Checkout found the cart's price snapshots out of date (docs/api-notes.md, "Prices at
   * checkout"); the snapshots were refreshed, and `cart` is the cart at today's prices.
   */
  pricesChanged: (details: CheckoutPriceChange[], cart?: unknown) =>
    new AppError(
      409,
      'CART_PRICES_CHANGED',
      'Prices in the cart have changed since it was filled; check the cart and place the order again',
      { details, ...(cart === undefined ? {} : { cart }) },
    ),

  couponNotFound: (id: number) => new AppError(404, 'COUPON_NOT_FOUND', `Coupon ${id} does not exist`),
  couponCodeExists: (code: string) =>
    new AppError(409, 'COUPON_CODE_EXISTS', `Another coupon already has the code ${code}`),
};
