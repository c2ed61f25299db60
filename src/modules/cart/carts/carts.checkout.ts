// What orders call (through the module's index.ts): the active cart with fresh totals inside
// the checkout's transaction, what changed in its prices since it was filled (and the refresh
// of its snapshots), the hand-over of the cart's reservations to the new order, and the
// clearing of the cart once that order is confirmed (paid, or COD confirmed).

import type { Db } from '../../../platform/db/database';
import type { AfterCommit } from '../../../platform/db/transaction';
import { findShippingDistrict, handOverReservations, releaseStock } from '../../catalog';
import { type CheckoutPriceChange, type CouponRejection, cartErrors } from '../cart.errors';
import { forgetCachedCart } from './carts.cache';
import {
  judgeCarePackage,
  type LineCarePackage,
  type LineInput,
  linePackage,
  type PricedLines,
  priceCart,
  pricedDistrict,
} from './carts.lines';
import { type CartTotals, effectivePrice } from './carts.pricing';
import * as repo from './carts.repository';
import type { ShippingLocationView } from './carts.schemas';
import { type CartDeps, cartOwner, locationOf, packageColumns, removedNotice } from './carts.service';

export interface CheckoutLine extends Pick<LineInput, 'quantity' | 'unitMrp' | 'unitSp' | 'carePackage'> {
  itemId: string;
  productId: number;
  productKind: string;
  productTitle: string;
  productSlug: string;
  thumbnailUrl: string | null;
  /** Whether the product may still be sold (published and sellable): checkout should refuse a line that is not. */
  onSale: boolean;
  /** The product's effective price today (the snapshot may be older). */
  currentEffectivePrice: number;
  effectivePrice: number;
  discountPerUnit: number;
  lineDiscount: number;
  lineTotal: number;
}

export interface CheckoutCart {
  cartId: string;
  customerId: string;
  lines: CheckoutLine[];
  totals: CartTotals;
  /** The coupon that applies now, with its id for `claimCouponUse`. */
  coupon: { id: number; code: string; discount: number } | null;
  /** Set when the cart names a coupon that no longer applies (it is not counted in totals). */
  couponRejection: CouponRejection | null;
  /** The code of the coupon the cart names, even when it no longer applies. */
  couponCode: string | null;
  shippingLocation: ShippingLocationView | null;
  /** The district of the location (null without one); `isActive` false: the store stopped shipping there. */
  district: PricedLines['district'];
  hasPhysical: boolean;
  /** The order the cart was last handed to, if any. */
  orderId: string | null;
  /**
   * Lines whose snapshots no longer match today's prices (or whose care package changed), with
   * what each line should hold now; empty when the cart may be ordered as it shows.
   */
  priceChanges: Array<{
    itemId: string;
    change: CheckoutPriceChange;
    refresh: { unitMrp: number; unitSp: number } | { carePackage: LineCarePackage | null };
  }>;
}

/** What checkout compares (docs/api-notes.md, "Prices at checkout"): each snapshot with today's. */
async function priceChangesOf(db: Db, lines: LineInput[]): Promise<CheckoutCart['priceChanges']> {
  const changes: CheckoutCart['priceChanges'] = [];
  for (const line of lines) {
    const { product } = line;
    if (line.unitMrp !== product.mrp || line.unitSp !== product.sp) {
      changes.push({
        itemId: line.id!,
        change: {
          productId: product.id,
          oldEffectivePrice: effectivePrice(line.unitMrp, line.unitSp),
          newEffectivePrice: product.effectivePrice,
        },
        refresh: { unitMrp: product.mrp, unitSp: product.sp },
      });
    }
    const pkg = line.carePackage;
    if (!pkg) continue;
    const judged = await judgeCarePackage(db, product, pkg);
    if (!judged.ok) {
      changes.push({
        itemId: line.id!,
        change: { productId: product.id, carePackageId: pkg.carePackageId, reason: judged.reason },
        refresh: { carePackage: null },
      });
    } else if (judged.choice.unitPrice !== pkg.unitPrice) {
      changes.push({
        itemId: line.id!,
        change: { productId: product.id, carePackageId: pkg.carePackageId, reason: 'price_changed' },
        refresh: { carePackage: linePackage(judged.choice) },
      });
    }
  }
  return changes;
}

/**
 * The customer's active cart, locked for the rest of the caller's transaction (the customer's
 * cart changes wait until the checkout commits), with totals computed now: the coupon is
 * checked again and the shipping fee is the district's today. Null when there is no active
 * cart. Prices are the lines' snapshots.
 */
export async function cartForCheckout(
  deps: Pick<CartDeps, 'storage' | 'clock'>,
  tx: Db,
  customerId: string,
): Promise<CheckoutCart | null> {
  const cart = await repo.lockActiveCartIfAny(tx, customerId);
  if (!cart) return null;
  const { lines, priced } = await priceCart(deps, tx, cart, deps.clock.now());
  return {
    cartId: cart.id,
    customerId,
    lines: lines.map((l, i) => {
      const view = priced.items[i]!;
      return {
        itemId: l.id!,
        productId: l.product.id,
        productKind: l.product.productKind,
        productTitle: l.product.title,
        productSlug: l.product.slug,
        thumbnailUrl: l.product.thumbnailUrl,
        onSale: l.product.onSale,
        currentEffectivePrice: l.product.effectivePrice,
        quantity: l.quantity,
        unitMrp: l.unitMrp,
        unitSp: l.unitSp,
        effectivePrice: view.effectivePrice,
        discountPerUnit: view.discountPerUnit,
        lineDiscount: view.lineDiscount,
        lineTotal: view.lineTotal,
        carePackage: l.carePackage,
      };
    }),
    totals: priced.totals,
    coupon: priced.coupon,
    couponRejection: priced.couponRejection,
    couponCode: priced.couponCode,
    shippingLocation: locationOf(cart),
    district: priced.district,
    hasPhysical: lines.some((l) => l.product.productKind === 'physical'),
    orderId: cart.orderId,
    priceChanges: await priceChangesOf(tx, lines),
  };
}

/**
 * The shipping location of the customer's active cart and its district, the cart locked as
 * `cartForCheckout` locks it; null without an active cart. For buy-now, which ships there and
 * leaves the cart's lines alone: their products and prices are not read.
 */
export async function cartLocationForCheckout(
  tx: Db,
  customerId: string,
): Promise<Pick<CheckoutCart, 'shippingLocation' | 'district'> | null> {
  const cart = await repo.lockActiveCartIfAny(tx, customerId);
  if (!cart) return null;
  const district = cart.districtName ? await findShippingDistrict(tx, { name: cart.districtName }) : null;
  return { shippingLocation: locationOf(cart), district: pricedDistrict(district) };
}

/**
 * Brings the cart's snapshots to today's prices after checkout refused it for
 * CART_PRICES_CHANGED, in the caller's transaction (which must commit): each changed line
 * takes the product's current MRP and selling price, a care package its tier's current price,
 * and a package that may no longer be sold comes off its line. The next checkout then goes
 * through at the prices the cart shows.
 */
export async function refreshCartPrices(
  deps: Pick<CartDeps, 'cache'>,
  tx: Db,
  afterCommit: AfterCommit,
  p: { cart: Pick<CheckoutCart, 'cartId' | 'customerId' | 'priceChanges'>; at: Date },
): Promise<void> {
  for (const { itemId, refresh } of p.cart.priceChanges) {
    await repo.updateItem(tx, itemId, {
      ...('carePackage' in refresh ? packageColumns(refresh.carePackage) : refresh),
      updatedAt: p.at,
    });
  }
  await repo.updateCart(tx, p.cart.cartId, { updatedAt: p.at });
  afterCommit(() => forgetCachedCart(deps.cache, p.cart.customerId));
}

/**
 * Takes a coupon that no longer applies off the cart, with the cart's notice saying why, in the
 * caller's transaction (which must commit): checkout refused the order for it, and the next
 * checkout goes through without it, as the cart now shows.
 */
export async function dropCartCoupon(
  deps: Pick<CartDeps, 'cache'>,
  tx: Db,
  afterCommit: AfterCommit,
  p: { cartId: string; customerId: string; code: string | null; reason: CouponRejection; at: Date },
): Promise<void> {
  await repo.updateCart(tx, p.cartId, {
    couponId: null,
    promoNotice: removedNotice(p.code, p.reason),
    updatedAt: p.at,
  });
  afterCommit(() => forgetCachedCart(deps.cache, p.customerId));
}

/**
 * Hands the cart's stock over to a new order, in the caller's transaction: for each physical
 * line (ascending product id, the lock order of the stock service) the cart's reservation is
 * released and the order reserves the line's quantity without expiry. Both happen under the
 * product's stock-row lock, which this transaction keeps until commit, so nobody can take the
 * units in between. A line whose units are no longer all available (the cart's reservation
 * had expired) throws CART_INSUFFICIENT_STOCK: let it roll the checkout back. The cart stays
 * active with its lines (the interface clears it only once the order is confirmed) and
 * remembers the order; it holds no stock of its own afterwards. An order confirmed at once
 * (`confirmed`, COD) ends the cart in the same write.
 */
export async function handOverCartToOrder(
  deps: Pick<CartDeps, 'cache'>,
  tx: Db,
  afterCommit: AfterCommit,
  p: {
    cart: Pick<CheckoutCart, 'cartId' | 'customerId' | 'lines'>;
    orderId: string | number;
    at: Date;
    /** The order is confirmed already (COD): the cart ends now, as `clearCartAfterOrder` would end it. */
    confirmed?: boolean;
  },
): Promise<void> {
  // The cart is the one `cartForCheckout` locked in this transaction: its lines cannot have changed.
  const { cart } = p;
  const orderOwner = { type: 'order' as const, id: String(p.orderId) };
  // Every unit the cart holds goes to the order below, so ending it gives nothing back. The
  // cart row is ours already (locked by `cartForCheckout`); the stock rows are locked last.
  await repo.handCartToOrder(tx, {
    cartId: cart.cartId,
    orderId: orderOwner.id,
    at: p.at,
    confirmed: p.confirmed === true,
  });
  const physical = cart.lines.filter((l) => l.productKind === 'physical'); // digital and care-package lines hold no stock
  const outcomes = await handOverReservations(tx, {
    from: cartOwner(cart.cartId),
    owner: orderOwner,
    lines: physical.map((l) => ({ productId: l.productId, quantity: l.quantity })),
    expiresAt: null,
    at: p.at,
    reason: `Reserved for order ${orderOwner.id} from cart ${cart.cartId}`,
  });
  for (const [productId, outcome] of outcomes) {
    if (!outcome.ok) throw cartErrors.insufficientStock(productId, outcome.stock.available);
  }
  afterCommit(() => forgetCachedCart(deps.cache, cart.customerId));
}

/**
 * Ends the cart once the order it was handed to is confirmed (verified payment, or COD
 * confirmation): the cart becomes `ordered`, whatever stock it still holds goes back, and the
 * next request starts a new cart. Does nothing (false) when the active cart was not handed to
 * this order (a buy-now order, or a later checkout replaced it).
 */
export async function clearCartAfterOrder(
  deps: Pick<CartDeps, 'cache'>,
  tx: Db,
  afterCommit: AfterCommit,
  p: { customerId: string; orderId: string | number; at: Date },
): Promise<boolean> {
  const cart = await repo.lockActiveCartIfAny(tx, p.customerId);
  if (!cart || cart.orderId !== String(p.orderId)) return false;
  await releaseStock(tx, {
    owner: cartOwner(cart.id),
    at: p.at,
    reason: `Cart cleared after order ${cart.orderId}`,
  });
  await repo.updateCart(tx, cart.id, { status: 'ordered', reservedUntil: null, updatedAt: p.at });
  afterCommit(() => forgetCachedCart(deps.cache, p.customerId));
  return true;
}

/**
 * Locks the customer's active cart, if any: a step of orders that changes a checkout after the
 * fact (its compensation) takes its locks in checkout's order, cart → order → stock, so it and a
 * new checkout of the same customer never wait on each other (a deadlock).
 */
export async function lockCustomerCart(tx: Db, customerId: string): Promise<void> {
  await repo.lockActiveCartIfAny(tx, customerId);
}

/**
 * The compensation of `handOverCartToOrder` when the order's payment could not be started (the
 * provider refused or could not be reached): the order's units go back to the cart, held again
 * for CART_EXPIRE_IDLE_MS as after any change to it, and the cart is no longer the order's.
 * When the active cart is no longer the one handed over, the units simply go back to stock.
 */
export async function takeBackFromOrder(
  deps: Pick<CartDeps, 'cache' | 'config'>,
  tx: Db,
  afterCommit: AfterCommit,
  p: {
    customerId: string;
    orderId: string | number;
    lines: Array<{ productId: number; productKind: string; quantity: number }>;
    at: Date;
  },
): Promise<void> {
  const orderOwner = { type: 'order' as const, id: String(p.orderId) };
  const cart = await repo.lockActiveCartIfAny(tx, p.customerId);
  if (!cart || cart.orderId !== orderOwner.id) {
    await releaseStock(tx, { owner: orderOwner, at: p.at, reason: `Order ${orderOwner.id} not placed` });
    return;
  }
  const physical = p.lines.filter((l) => l.productKind === 'physical');
  const reservedUntil = physical.length ? new Date(p.at.getTime() + deps.config.CART_EXPIRE_IDLE_MS) : null;
  await repo.updateCart(tx, cart.id, { orderId: null, reservedUntil, updatedAt: p.at });
  await handOverReservations(tx, {
    from: orderOwner,
    owner: cartOwner(cart.id),
    lines: physical.map((l) => ({ productId: l.productId, quantity: l.quantity })),
    expiresAt: reservedUntil,
    at: p.at,
    reason: `Back to cart ${cart.id}: order ${orderOwner.id} not placed`,
  });
  afterCommit(() => forgetCachedCart(deps.cache, p.customerId));
}
