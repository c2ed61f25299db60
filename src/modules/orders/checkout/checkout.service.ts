// Placing an order, checkout and buy-now alike, is a short story in steps (`placeOrder`):
// reserve (one transaction: the order, its items and history, the stock handed over or
// reserved, the coupon use claimed, COD confirmed or the online payment opened `pending`) →
// ask the payment provider (no transaction open: a slow provider holds no stock row lock) →
// record the placement (the customer told, `order.created`); a provider that refuses or cannot
// be reached has the reservation taken back in one compensating transaction.

import type { Db } from '../../../platform/db/database';
import { type AfterCommit, inTransaction } from '../../../platform/db/transaction';
import { publishEvent } from '../../../platform/events/events';
import { AppError } from '../../../platform/http/errors';
import { crockfordCode, newUuid } from '../../../platform/ids';
import {
  type CheckoutCart,
  cartErrors,
  cartForCheckout,
  cartLocationForCheckout,
  claimCouponUse,
  couponClaimable,
  dropCartCoupon,
  getCart,
  handOverCartToOrder,
  lockCustomerCart,
  quoteItems,
  refreshCartPrices,
  releaseCouponUse,
  takeBackFromOrder,
} from '../../cart';
import { lockStockOf, releaseStock, setReservedQuantity } from '../../catalog';
import { findUserForOrder } from '../../identity';
import { returnUrlAllowed } from '../../payments';
import { openSubscriptions } from '../fulfillment/fulfillment.commands';
import type { OrderType } from '../fulfillment/fulfillment.rules';
import { forgetOrder } from '../orders.cache';
import { cancelOrderInTransaction, notifyOrder, type OrderDeps, orderOwner } from '../orders.commands';
import { orderErrors } from '../orders.errors';
import { historyNote } from '../orders.history-notes';
import * as repo from '../orders.repository';
import type { OrderSource } from '../orders.table';
import type { CheckoutPayments, PendingPayment } from './checkout.payments';
import type { BuyNowBody, CheckoutBody, Gateway, OnlineGateway, PaymentInitView } from './checkout.schemas';

export interface CheckoutDeps extends OrderDeps {
  payments: CheckoutPayments;
}

// ---------- checkout and buy-now ----------

interface DraftLine {
  productId: number;
  productKind: string;
  productTitle: string;
  productSlug: string;
  thumbnailUrl: string | null;
  quantity: number;
  unitMrp: number;
  unitSp: number;
  lineDiscount: number;
  lineTotal: number;
  carePackage: {
    carePackageId: number;
    pricingTierId: number;
    name: string;
    tierLabel: string;
    unitPrice: number;
  } | null;
}

interface Draft {
  refusal?: undefined;
  source: OrderSource;
  lines: DraftLine[];
  totals: {
    totalMrp: number;
    totalSp: number;
    appliedDiscount: number;
    shippingFee: number;
    carePackageTotal: number;
    finalPayable: number;
  };
  coupon: { id: number; code: string } | null;
  location: {
    districtName: string;
    addressLine1: string;
    city: string;
    postalCode: string;
    latitude: number | null;
    longitude: number | null;
  } | null;
  cartId: string | null;
  /** Takes the order's stock (hand-over from the cart, or a fresh reservation). */
  /** `confirmed`: the order needs no payment first (COD), so a checkout's cart ends here too. */
  reserve(tx: Db, afterCommit: AfterCommit, orderId: number, confirmed: boolean): Promise<void>;
  /** Undoes `reserve` for an order that is not placed after all (back to the cart, or to stock). */
  giveBack(tx: Db, afterCommit: AfterCommit, orderId: number): Promise<void>;
}

/**
 * Checkout refused, with a change that must still commit (the cart's refreshed prices, or its
 * coupon taken off): the transaction commits it, and the error is thrown afterwards.
 */
interface Refusal {
  refusal: () => Promise<AppError>;
}

export function orderTypeOf(kinds: readonly string[]): OrderType {
  const set = new Set(kinds);
  if (set.size === 1) {
    const [only] = set;
    if (only === 'physical' || only === 'digital' || only === 'care_package') return only;
  }
  return 'mixed';
}

/** `ORD-YYMMDD-XXXXXX`: short enough to read out over the phone; unique (index). */
export function orderNumber(at: Date): string {
  const d = at.toISOString().slice(2, 10).replaceAll('-', '');
  return `ORD-${d}-${crockfordCode(6)}`;
}

/** The payments module's rule (the one place return URLs are judged). */
function checkReturnUrl(deps: OrderDeps, url: string) {
  if (!returnUrlAllowed(deps.config, url)) throw orderErrors.returnUrlNotAllowed();
}

function requireDistrict(hasPhysical: boolean, district: { name: string; isActive: boolean } | null): void {
  if (!hasPhysical) return;
  if (!district) throw orderErrors.shippingDistrictRequired();
  if (!district.isActive) throw cartErrors.districtInvalid(district.name);
}

/**
 * docs/decisions.md "Unpaid online orders": at most ORDER_MAX_PENDING_ONLINE_PER_CUSTOMER online
 * orders waiting for payment, counted under the customer's lock so concurrent checkouts cannot
 * all slip under it.
 */
async function checkPendingOnlineLimit(deps: CheckoutDeps, tx: Db, customerId: string) {
  const limit = deps.config.ORDER_MAX_PENDING_ONLINE_PER_CUSTOMER;
  if (limit === 0) return;
  await repo.lockCustomerOrders(tx, customerId);
  if ((await repo.countPendingOnlineOrders(tx, customerId)) >= limit) {
    throw orderErrors.tooManyPendingPayments(limit);
  }
}

type PlaceOrderInput = { gateway: Gateway; returnUrl: string; buyerName?: string; buyerPan?: string };
type Customer = Awaited<ReturnType<typeof findUserForOrder>>;
type BuildDraft = (tx: Db, afterCommit: AfterCommit) => Promise<Draft | Refusal>;

/** What the reserve step leaves for the next ones. */
interface Reserved {
  order: repo.OrderRow;
  draft: Draft;
  /** The online payment opened `pending`; none for COD. */
  payment: PendingPayment | null;
}

/**
 * Placing an order, step by step: reserve → (online) ask the provider → record the placement.
 * A crash between the steps leaves an order `payment_pending` whose payment never started: the
 * unpaid-order sweep (`order.expire_unpaid`) gives it up like any unpaid order.
 */
async function placeOrder(
  deps: CheckoutDeps,
  customerId: string,
  p: PlaceOrderInput,
  build: BuildDraft,
): Promise<PaymentInitView> {
  checkReturnUrl(deps, p.returnUrl);
  const cod = p.gateway === 'cod';
  const customer = await findUserForOrder(deps.db, customerId);
  if (cod && deps.config.COD_REQUIRES_VERIFIED_PHONE && !customer?.phoneVerified) {
    throw orderErrors.phoneVerificationRequired();
  }

  const reserved = await reserveOrder(deps, customerId, p, customer, build);
  if ('refusal' in reserved) throw await reserved.refusal();
  const { order, payment } = reserved;
  if (!payment) {
    return {
      orderId: order.id,
      status: 'payment_pending',
      paymentId: order.codPaymentId!,
      gatewayTransactionId: null,
      initiationType: 'none',
      redirectUrl: null,
      gatewayPayload: {},
    };
  }
  const started = await startPaymentOrTakeBack(deps, reserved, payment);
  await recordPlacement(deps, reserved, customer);
  return { orderId: order.id, status: 'payment_pending', ...started };
}

/**
 * Step 1, one transaction: the order, its items and history, the coupon use claimed, its stock
 * held, and either COD confirmed (the order is placed: nothing follows) or the online payment
 * opened `pending`.
 */
async function reserveOrder(
  deps: CheckoutDeps,
  customerId: string,
  p: PlaceOrderInput,
  customer: Customer,
  build: BuildDraft,
): Promise<Reserved | Refusal> {
  const cod = p.gateway === 'cod';
  return inTransaction(deps.db, async (tx, afterCommit): Promise<Reserved | Refusal> => {
    const at = deps.clock.now();
    const draft = await build(tx, afterCommit);
    if (draft.refusal) return draft;
    if (!cod) await checkPendingOnlineLimit(deps, tx, customerId);
    // The order, its items and its first history entry in one statement (a round trip, not
    // three, while the cart is held). A coupon's row is locked already (the draft read its limits
    // under the lock), so the items written before the claim below change no lock order.
    const order = await repo.insertOrderWithItems(tx, {
      order: {
        orderNumber: orderNumber(at),
        customerId,
        orderType: orderTypeOf(draft.lines.map((l) => l.productKind)),
        status: 'payment_pending',
        paymentStatus: cod ? 'cod_pending' : 'pending',
        paymentMethod: cod ? 'cod' : 'online',
        gateway: p.gateway,
        orderSource: draft.source,
        totalMrp: draft.totals.totalMrp,
        totalSp: draft.totals.totalSp,
        couponId: draft.coupon?.id ?? null,
        couponCode: draft.coupon?.code ?? null,
        couponDiscount: draft.totals.appliedDiscount,
        shippingFee: draft.totals.shippingFee,
        carePackageTotal: draft.totals.carePackageTotal,
        finalPayable: draft.totals.finalPayable,
        shippingDistrict: draft.location?.districtName ?? null,
        shippingAddressLine1: draft.location?.addressLine1 ?? null,
        shippingCity: draft.location?.city ?? null,
        shippingPostalCode: draft.location?.postalCode ?? null,
        shippingLatitude: draft.location?.latitude ?? null,
        shippingLongitude: draft.location?.longitude ?? null,
        shippingMobileNum: customer?.phone ?? null,
        contactNumber: customer?.phone ?? null,
        receiver: customer?.name ?? null,
        buyerName: p.buyerName ?? null,
        buyerPan: p.buyerPan ?? null,
        // COD: fulfilment starts once the COD order is placed (interface, "Fulfillment").
        fulfillmentStatus: cod ? 'received' : null,
        cartId: draft.cartId,
        returnUrl: p.returnUrl,
        codPaymentId: cod ? newUuid() : null,
        createdAt: at,
        updatedAt: at,
      },
      items: draft.lines.map((l) => ({
        productId: l.productId,
        productKind: l.productKind,
        productTitle: l.productTitle,
        productSlug: l.productSlug,
        thumbnailUrl: l.thumbnailUrl,
        quantity: l.quantity,
        unitMrp: l.unitMrp,
        unitSp: l.unitSp,
        discount: l.lineDiscount,
        finalValue: l.lineTotal,
        carePackageId: l.carePackage?.carePackageId ?? null,
        pricingTierId: l.carePackage?.pricingTierId ?? null,
        carePackageName: l.carePackage?.name ?? null,
        carePackageTierLabel: l.carePackage?.tierLabel ?? null,
        carePackageUnitPrice: l.carePackage?.unitPrice ?? null,
      })),
      status: {
        status: 'payment_pending',
        notes: cod ? historyNote('cod_checkout') : historyNote('online_checkout', { gateway: p.gateway }),
        actorType: 'customer',
        customerId,
        at,
      },
    });
    forgetOrder(deps.cache, afterCommit, order);
    // The coupon use is claimed now, online or COD (docs/api-notes.md, "Coupon uses"): the
    // coupon row's lock makes concurrent orders with one coupon queue here, so its limits hold;
    // one that ran out refuses the whole order.
    if (draft.coupon) {
      const claim = await claimCouponUse(tx, {
        couponId: draft.coupon.id,
        customerId,
        orderId: order.id,
        at,
      });
      if (!claim.ok) throw cartErrors.couponInvalid('usage_limit_reached');
    }
    const reserved: Reserved = { order, draft, payment: null };
    if (cod) await recordPlacementIn(deps, tx, afterCommit, reserved, customer);
    else
      reserved.payment = await deps.payments.open(tx, {
        orderId: order.id,
        orderNumber: order.orderNumber,
        amount: order.finalPayable,
        gateway: p.gateway as OnlineGateway,
        returnUrl: p.returnUrl,
        customer: { name: customer?.name, email: customer?.email, phone: customer?.phone },
      });
    // The stock rows are locked from here to the commit, where concurrent checkouts of the same
    // products queue: the writes that need no stock come first.
    await draft.reserve(tx, afterCommit, order.id, cod);
    // The cart ended with the hand-over above. A confirmed COD order's covers open now
    // (docs/decisions.md, "Subscriptions").
    if (cod && draft.lines.some((l) => l.carePackage || l.productKind === 'care_package')) {
      await openSubscriptions(deps, tx, order, at);
    }
    return reserved;
  });
}

/**
 * Step 2, with no transaction open: the provider is asked how the customer pays. If it refuses
 * or cannot be reached, the reservation is taken back and checkout answers 502
 * PAYMENT_GATEWAY_UNAVAILABLE (an AppError of the payments module passes as it is).
 */
async function startPaymentOrTakeBack(deps: CheckoutDeps, reserved: Reserved, payment: PendingPayment) {
  try {
    return await deps.payments.start(payment);
  } catch (error) {
    await takeBackReservation(deps, reserved, payment);
    if (error instanceof AppError) throw error;
    deps.log.warn(
      { err: error, orderId: reserved.order.id, gateway: payment.request.gateway },
      'payment initiation failed',
    );
    throw orderErrors.gatewayUnavailable();
  }
}

/**
 * The compensation of step 1, one transaction: the payment is given up, the units go back
 * where they came from (the cart, or stock), the coupon use is released and the order, never
 * placed, is removed, so no order is left holding stock.
 */
async function takeBackReservation(deps: CheckoutDeps, reserved: Reserved, payment: PendingPayment) {
  const { order, draft } = reserved;
  await inTransaction(deps.db, async (tx, afterCommit) => {
    const at = deps.clock.now();
    // Checkout's lock order, cart first: a new checkout of this customer holds the cart and
    // waits on nothing this holds.
    if (draft.cartId) await lockCustomerCart(tx, order.customerId);
    const current = await repo.lockOrder(tx, order.id);
    // Only an order nothing else has moved yet (nothing can: its payment never started).
    if (current?.status !== 'payment_pending' || current.paymentStatus !== 'pending') return;
    await deps.payments.abandon(tx, payment);
    await draft.giveBack(tx, afterCommit, order.id);
    await releaseCouponUse(tx, { orderId: order.id, at });
    await repo.deleteOrder(tx, order.id);
    forgetOrder(deps.cache, afterCommit, order);
  });
}

/** Step 3: the order is placed; the customer is told and `order.created` is published. */
function recordPlacement(deps: CheckoutDeps, reserved: Reserved, customer: Customer) {
  return inTransaction(deps.db, (tx, afterCommit) =>
    recordPlacementIn(deps, tx, afterCommit, reserved, customer),
  );
}

async function recordPlacementIn(
  deps: CheckoutDeps,
  tx: Db,
  afterCommit: AfterCommit,
  { order, draft }: Reserved,
  customer: Customer,
) {
  await notifyOrder(
    deps,
    tx,
    afterCommit,
    order,
    draft.source === 'buy_now' ? 'ORDER_PLACED_BUYNOW' : 'ORDER_PLACED_CHECKOUT',
    customer?.email ?? null,
  );
  await publishEvent(tx, 'order.created', { orderId: order.id });
}

/**
 * Prices changed since the cart was filled: checkout refuses with 409 CART_PRICES_CHANGED and the
 * refreshed cart, and the snapshots are refreshed in the same request, so the next checkout
 * goes through at the prices the cart now shows; never an order at prices the customer was not
 * shown (docs/api-notes.md, "Prices at checkout").
 */
async function pricesRefusal(
  deps: CheckoutDeps,
  tx: Db,
  afterCommit: AfterCommit,
  cart: CheckoutCart,
): Promise<Refusal | null> {
  if (cart.priceChanges.length === 0) return null;
  await refreshCartPrices(deps, tx, afterCommit, { cart, at: deps.clock.now() });
  const details = cart.priceChanges.map((c) => c.change);
  return { refusal: async () => cartErrors.pricesChanged(details, await getCart(deps, cart.customerId)) };
}

/**
 * The cart's coupon no longer applies (used up, expired, ...): checkout refuses with 400
 * CART_COUPON_INVALID and its reason, and takes the coupon off the cart, never placing the
 * order silently at full price (docs/api-notes.md, "Coupon uses"). The limits are read under
 * the coupon's lock, which the order's claim then keeps until commit.
 */
async function couponRefusal(
  deps: CheckoutDeps,
  tx: Db,
  afterCommit: AfterCommit,
  cart: CheckoutCart,
): Promise<Refusal | null> {
  let reason = cart.couponRejection;
  if (!reason && cart.coupon) {
    const claimable = await couponClaimable(tx, { couponId: cart.coupon.id, customerId: cart.customerId });
    if (!claimable.ok) reason = claimable.reason;
  }
  if (!reason) return null;
  await dropCartCoupon(deps, tx, afterCommit, {
    cartId: cart.cartId,
    customerId: cart.customerId,
    code: cart.couponCode,
    reason,
    at: deps.clock.now(),
  });
  return { refusal: async () => cartErrors.couponInvalid(reason) };
}

/**
 * A new checkout of a cart whose earlier order still waits for its online payment replaces that
 * order: it is cancelled (its units and coupon use go back) in this transaction, so the cart's
 * units are never held twice and its coupon never used twice. The stock rows of both are locked
 * first, in the one order every stock change keeps. A payment that still arrives for the
 * replaced order is owed back (docs/decisions.md, "Real gateways": late payment).
 */
async function replaceEarlierUnpaidOrder(
  deps: CheckoutDeps,
  tx: Db,
  afterCommit: AfterCommit,
  cart: CheckoutCart,
): Promise<boolean> {
  if (!cart.orderId) return false;
  const earlier = await repo.lockOrder(tx, Number(cart.orderId));
  if (earlier?.status !== 'payment_pending' || earlier.paymentMethod !== 'online') return false;
  const earlierItems = await repo.itemsOf(tx, [earlier.id]);
  await lockStockOf(tx, [
    ...earlierItems.filter((i) => i.productKind === 'physical').map((i) => i.productId),
    ...cart.lines.filter((l) => l.productKind === 'physical').map((l) => l.productId),
  ]);
  await cancelOrderInTransaction(deps, tx, afterCommit, {
    orderId: earlier.id,
    reason: 'Replaced by a new checkout of the same cart',
    note: historyNote('replaced_by_new_checkout'),
    actorType: 'system',
    onlyUnpaidOnline: true,
  });
  return true;
}

/** `POST /orders/checkout`: the active cart becomes an order. */
export function checkout(deps: CheckoutDeps, customerId: string, body: CheckoutBody) {
  return placeOrder(deps, customerId, body, async (tx, afterCommit) => {
    let cart = await cartForCheckout(deps, tx, customerId);
    if (!cart || cart.lines.length === 0) throw orderErrors.cartEmpty();
    for (const line of cart.lines) if (!line.onSale) throw orderErrors.productNotAvailable(line.productId);
    requireDistrict(cart.hasPhysical, cart.district);
    const refused = await pricesRefusal(deps, tx, afterCommit, cart);
    if (refused) return refused;
    // The replaced order's coupon use went back: price the cart again, so the coupon it took
    // passes to this order.
    if (await replaceEarlierUnpaidOrder(deps, tx, afterCommit, cart)) {
      cart = (await cartForCheckout(deps, tx, customerId))!;
    }
    const couponRefused = await couponRefusal(deps, tx, afterCommit, cart);
    if (couponRefused) return couponRefused;
    return {
      source: 'checkout',
      lines: cart.lines.map((l) => ({
        productId: l.productId,
        productKind: l.productKind,
        productTitle: l.productTitle,
        productSlug: l.productSlug,
        thumbnailUrl: l.thumbnailUrl,
        quantity: l.quantity,
        unitMrp: l.unitMrp,
        unitSp: l.unitSp,
        lineDiscount: l.lineDiscount,
        lineTotal: l.lineTotal,
        carePackage: l.carePackage,
      })),
      totals: cart.totals,
      coupon: cart.coupon,
      location: cart.hasPhysical ? cart.shippingLocation : null,
      cartId: cart.cartId,
      reserve: (t, afterCommit, orderId, confirmed) =>
        handOverCartToOrder(deps, t, afterCommit, { cart, orderId, at: deps.clock.now(), confirmed }),
      giveBack: (t, afterCommit, orderId) =>
        takeBackFromOrder(deps, t, afterCommit, {
          customerId,
          orderId,
          lines: cart.lines,
          at: deps.clock.now(),
        }),
    };
  });
}

/** `POST /orders/buy-now`: one unit of one product, shipped to the cart's location; the cart is untouched. */
export function buyNow(deps: CheckoutDeps, customerId: string, body: BuyNowBody) {
  return placeOrder(deps, customerId, body, async (tx) => {
    // The cart's location only: its lines are not part of a buy-now.
    const cart = await cartLocationForCheckout(tx, customerId);
    const district = cart?.district ?? null;
    const { lines, priced } = await quoteItems(deps, tx, {
      items: [{ productId: body.productId, quantity: 1 }],
      districtName: district?.isActive ? district.name : null,
      knownDistrict: district?.isActive ? district : null,
      couponCode: body.promoCode ?? null,
      customerId,
    });
    if (priced.coupon) {
      const claimable = await couponClaimable(tx, { couponId: priced.coupon.id, customerId });
      if (!claimable.ok) throw cartErrors.couponInvalid(claimable.reason);
    }
    const line = lines[0]!;
    const view = priced.items[0]!;
    const physical = line.product.productKind === 'physical';
    requireDistrict(physical, district);
    return {
      source: 'buy_now',
      lines: [
        {
          productId: line.product.id,
          productKind: line.product.productKind,
          productTitle: line.product.title,
          productSlug: line.product.slug,
          thumbnailUrl: line.product.thumbnailUrl,
          quantity: 1,
          unitMrp: line.unitMrp,
          unitSp: line.unitSp,
          lineDiscount: view.lineDiscount,
          lineTotal: view.lineTotal,
          carePackage: null,
        },
      ],
      totals: priced.totals,
      coupon: priced.coupon,
      location: physical ? (cart?.shippingLocation ?? null) : null,
      cartId: null,
      reserve: async (t, _afterCommit, orderId) => {
        if (!physical) return;
        // The new order holds nothing of the product: setting its hold to one unit reserves one,
        // in two statements under the stock row's lock (the lock, one write), not five.
        const outcome = await setReservedQuantity(t, {
          productId: line.product.id,
          quantity: 1,
          owner: orderOwner(orderId),
          expiresAt: null,
          at: deps.clock.now(),
          reason: `Reserved for buy-now order ${orderId}`,
        });
        if (!outcome.ok) throw cartErrors.insufficientStock(line.product.id, outcome.stock.available);
      },
      giveBack: (t, _afterCommit, orderId) =>
        releaseStock(t, {
          owner: orderOwner(orderId),
          at: deps.clock.now(),
          reason: `Buy-now order ${orderId} not placed`,
        }).then(() => {}),
    };
  });
}
