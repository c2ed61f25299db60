// Orders' rules for customers: checkout and buy-now (one transaction: the order, its items and
// history, the stock handed over or reserved, the COD confirmation or the online payment's
// start), the customer's list and detail, the async cancel, and the refund request.

import type { Db } from '../../platform/db/database';
import { type AfterCommit, inTransaction } from '../../platform/db/transaction';
import { publishEvent } from '../../platform/events/events';
import { AppError } from '../../platform/http/errors';
import { pageMeta } from '../../platform/http/pagination';
import { crockfordCode, newUuid } from '../../platform/ids';
import {
  cartErrors,
  cartForCheckout,
  handOverCartToOrder,
  quoteItems,
  recordCouponRedemption,
} from '../cart';
import { reserveStock } from '../catalog';
import { findUserForOrder } from '../identity';
import { openSubscriptions, subscriptionInfoOf } from './fulfillment/fulfillment.commands';
import type { OrderType } from './fulfillment/fulfillment.rules';
import { forgetOrder, orderCache } from './orders.cache';
import { notifyOrder, type OrderDeps, orderOwner } from './orders.commands';
import { orderErrors } from './orders.errors';
import { cancelJob } from './orders.jobs';
import type { PaymentInitiator } from './orders.payments';
import * as repo from './orders.repository';
import type {
  AsyncRequestView,
  BuyNowBody,
  CheckoutBody,
  Gateway,
  OnlineGateway,
  OrderDetail,
  OrderListQuery,
  PaymentInitView,
  RefundBody,
} from './orders.schemas';
import type { OrderSource } from './orders.table';
import { toDetail, toListItem, toRequestView } from './orders.views';

export interface OrdersServiceDeps extends OrderDeps {
  payments: { initiator: PaymentInitiator | null };
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

function checkReturnUrl(deps: OrderDeps, url: string) {
  if (!deps.config.PAYMENT_RETURN_URL_ALLOWLIST.some((prefix) => url.startsWith(prefix))) {
    throw orderErrors.returnUrlNotAllowed();
  }
}

function requireDistrict(hasPhysical: boolean, district: { name: string; isActive: boolean } | null): void {
  if (!hasPhysical) return;
  if (!district) throw orderErrors.shippingDistrictRequired();
  if (!district.isActive) throw cartErrors.districtInvalid(district.name);
}

async function placeOrder(
  deps: OrdersServiceDeps,
  customerId: string,
  p: { gateway: Gateway; returnUrl: string; buyerName?: string; buyerPan?: string },
  build: (tx: Db, afterCommit: AfterCommit) => Promise<Draft>,
): Promise<PaymentInitView> {
  checkReturnUrl(deps, p.returnUrl);
  const cod = p.gateway === 'cod';
  const customer = await findUserForOrder(deps.db, customerId);
  if (cod && deps.config.COD_REQUIRES_VERIFIED_PHONE && !customer?.phoneVerified) {
    throw orderErrors.phoneVerificationRequired();
  }
  const initiator = deps.payments.initiator;
  if (!cod && !initiator) throw orderErrors.gatewayUnavailable();

  return inTransaction(deps.db, async (tx, afterCommit) => {
    const at = deps.clock.now();
    const draft = await build(tx, afterCommit);
    const order = await repo.insertOrder(tx, {
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
    });
    forgetOrder(deps.cache, afterCommit, order);
    await repo.insertItems(
      tx,
      draft.lines.map((l) => ({
        orderId: order.id,
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
    );
    await repo.insertStatus(tx, {
      orderId: order.id,
      status: 'payment_pending',
      notes: cod ? 'Cash on delivery' : `Payment by ${p.gateway}`,
      actorType: 'customer',
      customerId,
      at,
    });
    await notifyOrder(
      deps,
      tx,
      afterCommit,
      order,
      draft.source === 'buy_now' ? 'ORDER_PLACED_BUYNOW' : 'ORDER_PLACED_CHECKOUT',
      customer?.email ?? null,
    );
    await publishEvent(tx, 'order.created', { orderId: order.id });
    // The stock rows are locked from here to the commit, where concurrent checkouts of the same
    // products queue: the writes that need no stock come first.
    await draft.reserve(tx, afterCommit, order.id, cod);

    let init: PaymentInitView;
    if (cod) {
      // COD is confirmed at once: the coupon use counts now and the cart ends now.
      if (draft.coupon) {
        const outcome = await recordCouponRedemption(tx, {
          couponId: draft.coupon.id,
          customerId,
          orderId: order.id,
          at,
        });
        if (!outcome.ok) throw cartErrors.couponInvalid('usage_limit_reached');
      }
      // The cart ended with the hand-over above. A confirmed COD order's covers open now
      // (decisions.md, "Subscriptions").
      if (draft.lines.some((l) => l.carePackage || l.productKind === 'care_package')) {
        await openSubscriptions(deps, tx, order, at);
      }
      init = {
        orderId: order.id,
        status: 'payment_pending',
        paymentId: order.codPaymentId!,
        gatewayTransactionId: null,
        initiationType: 'none',
        redirectUrl: null,
        gatewayPayload: {},
      };
    } else {
      let started: Awaited<ReturnType<PaymentInitiator['initiate']>>;
      try {
        started = await initiator!.initiate(tx, {
          orderId: order.id,
          orderNumber: order.orderNumber,
          amount: order.finalPayable,
          gateway: p.gateway as OnlineGateway,
          returnUrl: p.returnUrl,
          customer: { name: customer?.name, email: customer?.email, phone: customer?.phone },
        });
      } catch (error) {
        if (error instanceof AppError) throw error;
        deps.log.warn({ err: error, orderId: order.id, gateway: p.gateway }, 'payment initiation failed');
        throw orderErrors.gatewayUnavailable();
      }
      init = { orderId: order.id, status: 'payment_pending', ...started };
    }
    return init;
  });
}

/** `POST /orders/checkout`: the active cart becomes an order. */
export function checkout(deps: OrdersServiceDeps, customerId: string, body: CheckoutBody) {
  return placeOrder(deps, customerId, body, async (tx) => {
    const cart = await cartForCheckout(deps, tx, customerId);
    if (!cart || cart.lines.length === 0) throw orderErrors.cartEmpty();
    for (const line of cart.lines) if (!line.onSale) throw orderErrors.productNotAvailable(line.productId);
    requireDistrict(cart.hasPhysical, cart.district);
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
    };
  });
}

/** `POST /orders/buy-now`: one unit of one product, shipped to the cart's location; the cart is untouched. */
export function buyNow(deps: OrdersServiceDeps, customerId: string, body: BuyNowBody) {
  return placeOrder(deps, customerId, body, async (tx) => {
    const cart = await cartForCheckout(deps, tx, customerId);
    const district = cart?.district ?? null;
    const { lines, priced } = await quoteItems(deps, tx, {
      items: [{ productId: body.productId, quantity: 1 }],
      districtName: district?.isActive ? district.name : null,
      couponCode: body.promoCode ?? null,
      customerId,
    });
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
        const outcome = await reserveStock(t, {
          productId: line.product.id,
          quantity: 1,
          owner: orderOwner(orderId),
          expiresAt: null,
          at: deps.clock.now(),
          reason: `Reserved for buy-now order ${orderId}`,
        });
        if (!outcome.ok) throw cartErrors.insufficientStock(line.product.id, outcome.stock.available);
      },
    };
  });
}

// ---------- reads ----------

async function ownOrder(db: Db, customerId: string, orderId: number) {
  const order = await repo.findOrder(db, orderId);
  if (!order) throw orderErrors.notFound();
  if (order.customerId !== customerId) throw orderErrors.accessDenied();
  return order;
}

export function listOrders(
  deps: Pick<OrderDeps, 'db' | 'cache' | 'config'>,
  customerId: string,
  q: OrderListQuery,
) {
  const ttl = deps.config.ORDER_HISTORY_CACHE_TTL_SECONDS;
  return orderCache.customerList(deps.cache, ttl, customerId, q, () => loadOrderList(deps, customerId, q));
}

async function loadOrderList(deps: Pick<OrderDeps, 'db'>, customerId: string, q: OrderListQuery) {
  const { rows, count } = await repo.listCustomerOrders(deps.db, customerId, q);
  const items = await repo.itemsOf(
    deps.db,
    rows.map((r) => r.id),
  );
  return {
    data: rows.map((r) =>
      toListItem(
        r,
        items.filter((i) => i.orderId === r.id),
      ),
    ),
    meta: pageMeta(q, count),
  };
}

export async function getOrder(
  deps: Pick<OrderDeps, 'db' | 'cache' | 'config'>,
  customerId: string,
  orderId: number,
): Promise<OrderDetail> {
  // Cached with its owner, so the access check holds for a cached copy too; an unknown id is
  // not cached (the next order may take it).
  const { owner, detail } = await orderCache.detail(
    deps.cache,
    deps.config.ORDER_HISTORY_CACHE_TTL_SECONDS,
    orderId,
    async () => {
      const order = await repo.findOrder(deps.db, orderId);
      if (!order) throw orderErrors.notFound();
      const items = await repo.itemsOf(deps.db, [order.id]);
      return {
        owner: order.customerId,
        detail: toDetail(order, items, await subscriptionInfoOf(deps.db, items)),
      };
    },
  );
  if (owner !== customerId) throw orderErrors.accessDenied();
  return detail;
}

// ---------- async cancel ----------

/** `POST /orders/:id/cancel`: records the request and queues `order.cancel`; the job decides. */
export async function requestCancel(
  deps: OrderDeps,
  customerId: string,
  orderId: number,
  reason: string | undefined,
): Promise<AsyncRequestView> {
  await ownOrder(deps.db, customerId, orderId);
  const row = await repo.insertRequest(deps.db, {
    requestId: newUuid(),
    orderId,
    command: 'cancel',
    customerId,
    status: 'pending',
    createdAt: deps.clock.now(),
  });
  await deps.jobs.enqueue(cancelJob(deps), {
    orderId,
    reason: reason ?? null,
    cancelledBy: customerId,
    cancelledByActorType: 'customer',
    requestId: row.requestId,
  });
  return toRequestView(row);
}

export async function getRequest(deps: Pick<OrderDeps, 'db'>, customerId: string, requestId: string) {
  const row = await repo.findRequest(deps.db, requestId);
  if (!row || row.customerId !== customerId) throw orderErrors.requestNotFound();
  return toRequestView(row);
}

// ---------- refund request ----------

const DAY_MS = 86_400_000;

/**
 * `POST /orders/:id/request-refund`: a `paid` order (payment completed or COD collected),
 * before dispatch (fulfilment `received` or `ready`) or within REFUND_WINDOW_DAYS of delivery.
 */
export async function requestRefund(
  deps: OrderDeps,
  customerId: string,
  orderId: number,
  body: RefundBody,
): Promise<OrderDetail> {
  return inTransaction(deps.db, async (tx, afterCommit) => {
    const at = deps.clock.now();
    await ownOrder(tx, customerId, orderId);
    const current = (await repo.lockOrder(tx, orderId))!;
    const beforeDispatch = current.fulfillmentStatus === 'received' || current.fulfillmentStatus === 'ready';
    const inWindow =
      current.fulfillmentStatus === 'delivered' &&
      current.deliveredAt !== null &&
      at.getTime() - current.deliveredAt.getTime() <= deps.config.REFUND_WINDOW_DAYS * DAY_MS;
    const paid =
      current.status === 'paid' &&
      (current.paymentStatus === 'completed' || current.paymentStatus === 'cod_collected');
    if (!paid || !(beforeDispatch || inWindow)) throw orderErrors.refundNotAllowed();
    const order = (await repo.updateOrderIf(
      tx,
      orderId,
      { from: ['paid'] },
      {
        status: 'refund_requested',
        refundReason: body.reason,
        refundRemarks: body.remarks ?? null,
        refundRequestedAt: at,
        updatedAt: at,
      },
    ))!;
    forgetOrder(deps.cache, afterCommit, order);
    await repo.insertRefund(tx, {
      orderId,
      amount: order.finalPayable,
      status: 'requested',
      reason: body.reason,
      remarks: body.remarks ?? null,
      at,
    });
    await repo.insertStatus(tx, {
      orderId,
      status: 'refund_requested',
      notes: body.reason,
      actorType: 'customer',
      customerId,
      at,
    });
    await notifyOrder(deps, tx, afterCommit, order, 'ORDER_REFUND_REQUESTED');
    await publishEvent(tx, 'order.refund_requested', { orderId });
    const items = await repo.itemsOf(tx, [orderId]);
    return toDetail(order, items, await subscriptionInfoOf(tx, items));
  });
}
