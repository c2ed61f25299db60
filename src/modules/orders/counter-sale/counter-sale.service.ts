// In-store (POS) sales as orders see them: the order a counter creates (`orderSource: pos_sale`,
// `paymentMethod: pos`), the payment-completed event that makes it `paid` with fulfilment
// `received`, the staff's payment-failure note, the pickup at the counter, and the reads the
// POS back office lists, exports, totals and prints. The rules and codes of the POS routes are
// the pos module's; each function here runs in the caller's transaction where it writes.

import type { Db } from '../../../platform/db/database';
import type { AfterCommit } from '../../../platform/db/transaction';
import { publishEvent } from '../../../platform/events/events';
import { recordActivity } from '../../activity';
import { cartErrors } from '../../cart';
import { findProductsForSale, reserveStock } from '../../catalog';
import { insertNote } from '../admin/admin-orders.repository';
import { orderNumber } from '../checkout/checkout.service';
import { insertFulfillmentHistory, moveFulfillment } from '../fulfillment/fulfillment.repository';
import type { FulfillmentStatus, OrderType } from '../fulfillment/fulfillment.rules';
import { forgetOrder } from '../orders.cache';
import { type OrderDeps, orderOwner } from '../orders.commands';
import { orderErrors } from '../orders.errors';
import { historyNote } from '../orders.history-notes';
import * as repo from '../orders.repository';

export {
  listPosOrders,
  type PosOrderRow,
  type PosRevenueRow,
  type PosWindow,
  posOrdersBatch,
  posRevenue,
} from './counter-sale.repository';

import * as counterRepo from './counter-sale.repository';

export type PosOrder = repo.OrderRow;
export type PosOrderItem = repo.OrderItemRow;

export interface PosOrderInput {
  customer: { id: string; name: string; phone: string | null };
  adminId: string;
  /** Each product once (the caller sums repeated lines), quantities at least 1. */
  items: Array<{ productId: number; quantity: number }>;
  couponDiscount: number;
  shippingFee: number;
  receiverName: string | null;
  buyerName: string | null;
  buyerPan: string | null;
  receiverContactNumber: string | null;
  shipping: {
    district: string | null;
    addressLine1: string | null;
    addressLine2: string | null;
    city: string | null;
    state: string | null;
    postalCode: string | null;
    landmark: string | null;
    latitude: number | null;
    longitude: number | null;
  };
}

/**
 * The POS rule (interface, docs/decisions.md "Order type"): all lines physical → `physical`, all digital →
 * `digital`, anything else `mixed` — a care-package-only sale too (checkout would say `care_package`).
 */
export function posOrderType(kinds: readonly string[]): OrderType {
  if (kinds.length && kinds.every((k) => k === 'physical')) return 'physical';
  if (kinds.length && kinds.every((k) => k === 'digital')) return 'digital';
  return 'mixed';
}

/** The interface's POS price math, from each product's `mrp` and effective price. */
export function posTotals(
  lines: Array<{ mrp: number; effectivePrice: number; quantity: number }>,
  couponDiscount: number,
  shippingFee: number,
) {
  const totalMrp = lines.reduce((sum, l) => sum + l.mrp * l.quantity, 0);
  const totalSp = lines.reduce((sum, l) => sum + l.effectivePrice * l.quantity, 0);
  return {
    totalMrp,
    totalSp,
    discount: Math.max(0, totalMrp - totalSp),
    finalPayable: Math.max(0, totalSp - couponDiscount + shippingFee),
  };
}

/**
 * A counter sale becomes an order `payment_pending` / `pending`, priced from today's products;
 * its physical units are reserved for it (no expiry: the order holds them until it is paid or
 * an admin cancels it). Throws 404 ORDER_PRODUCT_NOT_FOUND, 400 ORDER_PRODUCT_NOT_AVAILABLE,
 * 400 CART_INSUFFICIENT_STOCK.
 */
export async function createPosOrder(
  deps: OrderDeps,
  tx: Db,
  afterCommit: AfterCommit,
  input: PosOrderInput,
): Promise<PosOrder> {
  const at = deps.clock.now();
  const products = await findProductsForSale(
    deps,
    tx,
    input.items.map((i) => i.productId),
  );
  const lines = input.items.map((item) => {
    const product = products.get(item.productId);
    if (!product) throw cartErrors.productNotFound(item.productId);
    if (!product.onSale) throw orderErrors.productNotAvailable(item.productId);
    return { product, quantity: item.quantity };
  });
  const totals = posTotals(
    lines.map((l) => ({
      mrp: l.product.mrp,
      effectivePrice: l.product.effectivePrice,
      quantity: l.quantity,
    })),
    input.couponDiscount,
    input.shippingFee,
  );
  const s = input.shipping;
  const contact = input.receiverContactNumber ?? input.customer.phone;
  // The order, its items and its first history entry in one statement, as checkout writes them;
  // built for this sale alone, not prepared (orders.repository.ts says why).
  const order = await repo.insertOrderWithItems(
    tx,
    {
      order: {
        orderNumber: orderNumber(at),
        customerId: input.customer.id,
        orderType: posOrderType(lines.map((l) => l.product.productKind)),
        status: 'payment_pending',
        paymentStatus: 'pending',
        paymentMethod: 'pos',
        // Which counter gateway took the money is known once the payment is recorded.
        gateway: 'pos',
        orderSource: 'pos_sale',
        totalMrp: totals.totalMrp,
        totalSp: totals.totalSp,
        couponDiscount: input.couponDiscount,
        shippingFee: input.shippingFee,
        finalPayable: totals.finalPayable,
        shippingDistrict: s.district,
        shippingAddressLine1: s.addressLine1,
        shippingAddressLine2: s.addressLine2,
        shippingCity: s.city,
        shippingState: s.state,
        shippingPostalCode: s.postalCode,
        shippingLandmark: s.landmark,
        shippingLatitude: s.latitude,
        shippingLongitude: s.longitude,
        shippingMobileNum: contact,
        contactNumber: contact,
        receiver: input.receiverName ?? input.customer.name,
        buyerName: input.buyerName,
        buyerPan: input.buyerPan,
        createdAt: at,
        updatedAt: at,
      },
      items: lines.map(({ product: p, quantity }) => ({
        productId: p.id,
        productKind: p.productKind,
        productTitle: p.title,
        productSlug: p.slug,
        thumbnailUrl: p.thumbnailUrl,
        quantity,
        unitMrp: p.mrp,
        unitSp: p.sp,
        discount: Math.max(0, p.mrp - p.effectivePrice) * quantity,
        finalValue: p.effectivePrice * quantity,
      })),
      status: {
        status: 'payment_pending',
        notes: historyNote('in_store_sale'),
        actorType: 'admin',
        adminId: input.adminId,
        at,
      },
    },
    { prepared: false },
  );
  forgetOrder(deps.cache, afterCommit, order);
  await publishEvent(tx, 'order.created', { orderId: order.id });
  // Ascending product id, like every other reservation, so two sales never wait on each other.
  const physical = lines
    .filter((l) => l.product.productKind === 'physical')
    .sort((a, b) => a.product.id - b.product.id);
  for (const line of physical) {
    const outcome = await reserveStock(tx, {
      productId: line.product.id,
      quantity: line.quantity,
      owner: orderOwner(order.id),
      expiresAt: null,
      at,
      reason: `Reserved for in-store order ${order.orderNumber}`,
    });
    if (!outcome.ok) throw cartErrors.insufficientStock(line.product.id, outcome.stock.available);
  }
  await recordActivity(tx, {
    adminId: input.adminId,
    action: 'pos_create',
    entityType: 'order',
    entityId: order.id,
    summary: `Created in-store order ${order.orderNumber} (${order.finalPayable} NPR)`,
    at,
  });
  return order;
}

/** The order, locked for the rest of the caller's transaction (payment, pickup). */
export const lockPosOrder = (tx: Db, orderId: number): Promise<PosOrder | undefined> =>
  repo.lockOrder(tx, orderId);

export const findPosOrder = (db: Db, orderId: number): Promise<PosOrder | undefined> =>
  repo.findOrder(db, orderId);

export const posOrderItems = (db: Db, orderId: number): Promise<PosOrderItem[]> =>
  repo.itemsOf(db, [orderId]);

/** Names the counter gateway on the order before its payment is recorded (same transaction). */
export const setPosGateway = (tx: Db, orderId: number, gateway: string): Promise<void> =>
  counterRepo.setGateway(tx, orderId, gateway);

/** A back-office note on the order (the admin detail's `adminNotes`), cleared from the caches. */
export async function addPosOrderNote(
  deps: Pick<OrderDeps, 'cache' | 'clock'>,
  tx: Db,
  afterCommit: AfterCommit,
  p: { order: PosOrder; adminId: string; note: string; action: string; summary: string },
): Promise<void> {
  const at = deps.clock.now();
  await insertNote(tx, { orderId: p.order.id, note: p.note, adminId: p.adminId, at });
  forgetOrder(deps.cache, afterCommit, p.order);
  await recordActivity(tx, {
    adminId: p.adminId,
    action: p.action,
    entityType: 'order',
    entityId: p.order.id,
    summary: p.summary,
    at,
  });
}

/**
 * The customer collects a paid POS order at the counter: `received` → `ready` → `picked_up`
 * (two history rows) or `ready` → `picked_up`, each a conditional move under the order's lock
 * the caller holds. Answers the order as it ends, or undefined when a move lost a race.
 */
export async function completePosPickup(
  deps: OrderDeps,
  tx: Db,
  afterCommit: AfterCommit,
  p: { order: PosOrder; adminId: string },
): Promise<PosOrder | undefined> {
  const at = deps.clock.now();
  const steps: Array<[FulfillmentStatus, FulfillmentStatus]> =
    p.order.fulfillmentStatus === 'received'
      ? [
          ['received', 'ready'],
          ['ready', 'picked_up'],
        ]
      : [['ready', 'picked_up']];
  let moved: PosOrder | undefined;
  for (const [from, to] of steps) {
    moved = await moveFulfillment(tx, {
      orderId: p.order.id,
      from,
      to,
      closedStatuses: ['cancelled', 'refund_approved'],
      at,
    });
    if (!moved) return undefined;
    await insertFulfillmentHistory(tx, {
      orderId: p.order.id,
      from,
      to,
      remarks: historyNote('picked_up_in_store'),
      actorType: 'admin',
      actorId: p.adminId,
      at,
    });
    await publishEvent(tx, 'order.fulfillment_changed', {
      orderId: p.order.id,
      previousFulfillmentStatus: from,
    });
  }
  forgetOrder(deps.cache, afterCommit, moved!);
  await recordActivity(tx, {
    adminId: p.adminId,
    action: 'pos_pickup',
    entityType: 'order',
    entityId: p.order.id,
    summary: `In-store order ${p.order.orderNumber} picked up at the counter`,
    at,
  });
  return moved;
}
