// Cart and coupons: the customer's one active cart (lines with price snapshots and stock
// reservations, care packages, coupon, shipping location), the guest quote, and the coupons
// admins manage. Orders call the functions exported here (docs/architecture.md, "cart").
import type { PasalModule } from '../../platform/module';
import { cartPermissions, couponPermissions } from './cart.permissions';
import { registerCarts } from './carts/carts.routes';
import { couponRoutes } from './coupons/coupons.routes';

export { type CheckoutPriceChange, type CouponRejection, cartErrors } from './cart.errors';
export { forgetCachedCart } from './carts/carts.cache';
export {
  type CheckoutCart,
  type CheckoutLine,
  cartForCheckout,
  cartLocationForCheckout,
  clearCartAfterOrder,
  dropCartCoupon,
  handOverCartToOrder,
  lockCustomerCart,
  refreshCartPrices,
  takeBackFromOrder,
} from './carts/carts.checkout';
export { type ClearAfterOrderPayload, clearAfterOrderJob } from './carts/carts.jobs';
export type { PricedLines } from './carts/carts.lines';
export {
  type CartTotals,
  cartTotals,
  effectivePrice,
  lineAmounts,
  MAX_LINE_QUANTITY,
} from './carts/carts.pricing';
export { quoteItems } from './carts/carts.quote';
export type { AddItemBody, CartQuoteView, CartView, QuoteItem } from './carts/carts.schemas';
export { addItem, type CartChangeDeps, type CartDeps, getCart } from './carts/carts.service';
export {
  claimCouponUse,
  couponClaimable,
  type RedemptionOutcome,
  releaseCouponUse,
} from './coupons/coupons.service';

export const cartModule: PasalModule = {
  name: 'cart',
  tags: {
    cart: 'Carts of customers and guests: items, coupon, delivery location, quotes.',
    coupons: 'Discount coupons.',
  },
  permissions: [
    { module: cartPermissions.module, codes: cartPermissions.codes },
    { module: couponPermissions.module, codes: couponPermissions.codes },
  ],
  async register(ctx) {
    await registerCarts(ctx);
    couponRoutes(ctx);
  },
};
