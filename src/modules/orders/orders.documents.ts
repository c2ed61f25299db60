// The seam between orders and the tax documents module (invoices). A tax invoice must be issued
// in the same transaction as the event that makes it due (payment verified, COD collected, POS
// payment) and a credit note in the one that returns a paid order (refund approved, paid order
// cancelled). Orders cannot import invoices (invoices reads orders), so invoices registers its
// handlers here at start-up, and orders calls them inside those transactions with the order as
// a document needs it. Handlers are kept per database, i.e. per app: tests build several apps.
import { and, desc, eq, isNotNull } from 'drizzle-orm';
import type { Db } from '../../platform/db/database';
import type { AfterCommit } from '../../platform/db/transaction';
import * as repo from './orders.repository';
import { orderStatusHistory } from './orders.table';

/** One printed line of a paid order, whole NPR. */
export interface DocumentLine {
  title: string;
  quantity: number;
  unitPrice: number;
  amount: number;
}

/** A paid order as a tax document needs it (amounts whole NPR, as the order keeps them). */
export interface DocumentOrder {
  id: number;
  orderNumber: string;
  customerId: string;
  paymentMethod: repo.OrderRow['paymentMethod'];
  gateway: string;
  /** The buyer as asked at checkout, buy-now or POS; else the receiver. */
  buyerName: string | null;
  buyerPan: string | null;
  receiver: string | null;
  address: string | null;
  /** Products, care packages and delivery; they add up to `finalPayable + discount`. */
  lines: DocumentLine[];
  discount: number;
  finalPayable: number;
}

export interface OrderDocumentEvent {
  order: DocumentOrder;
  /** The admin whose action made the document due; null for a verified online payment. */
  adminId: string | null;
  /** Why a return happened (refund remarks, cancel reason). */
  reason?: string | null;
}

export type OrderDocumentHandler = (tx: Db, afterCommit: AfterCommit, e: OrderDocumentEvent) => Promise<void>;

interface Handlers {
  paid: OrderDocumentHandler[];
  returned: OrderDocumentHandler[];
}
const registry = new WeakMap<object, Handlers>();
function handlersOf(db: Db): Handlers {
  let h = registry.get(db);
  if (!h) {
    h = { paid: [], returned: [] };
    registry.set(db, h);
  }
  return h;
}

/** Called once at start-up: `handler` runs inside every transaction in which an order becomes paid. */
export function onOrderPaidInTransaction(db: Db, handler: OrderDocumentHandler): void {
  handlersOf(db).paid.push(handler);
}

/** Called once at start-up: `handler` runs inside every transaction that returns a paid order. */
export function onOrderReturnedInTransaction(db: Db, handler: OrderDocumentHandler): void {
  handlersOf(db).returned.push(handler);
}

async function documentOrder(tx: Db, order: repo.OrderRow): Promise<DocumentOrder> {
  const items = await repo.itemsOf(tx, [order.id]);
  const lines: DocumentLine[] = [];
  for (const i of items) {
    lines.push({
      title: i.productTitle,
      quantity: i.quantity,
      unitPrice: Math.round(i.finalValue / i.quantity),
      amount: i.finalValue,
    });
    if (i.carePackageId !== null) {
      const unit = i.carePackageUnitPrice ?? 0;
      lines.push({
        title: `Care package: ${i.carePackageName ?? 'Care package'}${i.carePackageTierLabel ? ` (${i.carePackageTierLabel})` : ''}`,
        quantity: i.quantity,
        unitPrice: unit,
        amount: unit * i.quantity,
      });
    }
  }
  // Delivery charged with a taxable sale is part of it (taxable too).
  if (order.shippingFee > 0)
    lines.push({
      title: 'Delivery charge',
      quantity: 1,
      unitPrice: order.shippingFee,
      amount: order.shippingFee,
    });
  const address = [order.shippingAddressLine1, order.shippingCity, order.shippingDistrict]
    .filter(Boolean)
    .join(', ');
  return {
    id: order.id,
    orderNumber: order.orderNumber,
    customerId: order.customerId,
    paymentMethod: order.paymentMethod,
    gateway: order.gateway,
    buyerName: order.buyerName,
    buyerPan: order.buyerPan,
    receiver: order.receiver,
    address: address || null,
    lines,
    discount: order.couponDiscount,
    finalPayable: order.finalPayable,
  };
}

/** The admin who rang up a counter sale: its payment event does not name one. */
async function counterAdmin(tx: Db, orderId: number): Promise<string | null> {
  const [row] = await tx
    .select({ adminId: orderStatusHistory.createdByAdminId })
    .from(orderStatusHistory)
    .where(and(eq(orderStatusHistory.orderId, orderId), isNotNull(orderStatusHistory.createdByAdminId)))
    .orderBy(desc(orderStatusHistory.id))
    .limit(1);
  return row?.adminId ?? null;
}

async function emit(
  list: OrderDocumentHandler[],
  tx: Db,
  afterCommit: AfterCommit,
  order: repo.OrderRow,
  e: Omit<OrderDocumentEvent, 'order'>,
) {
  if (list.length === 0) return;
  const view = await documentOrder(tx, order);
  for (const handler of list) await handler(tx, afterCommit, { ...e, order: view });
}

export async function orderPaidInTransaction(
  db: Db,
  tx: Db,
  afterCommit: AfterCommit,
  order: repo.OrderRow,
  adminId: string | null,
): Promise<void> {
  const list = handlersOf(db).paid;
  if (list.length === 0) return;
  const by = adminId ?? (order.paymentMethod === 'pos' ? await counterAdmin(tx, order.id) : null);
  await emit(list, tx, afterCommit, order, { adminId: by });
}

export function orderReturnedInTransaction(
  db: Db,
  tx: Db,
  afterCommit: AfterCommit,
  order: repo.OrderRow,
  adminId: string | null,
  reason: string | null,
): Promise<void> {
  return emit(handlersOf(db).returned, tx, afterCommit, order, { adminId, reason });
}
