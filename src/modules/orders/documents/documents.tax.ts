// A paid order as a tax document needs it. Invoices subscribes, in the transaction, to
// `order.paid` (a tax invoice is due) and to `order.cancelled` / `refund.processed` (a paid
// order returned: a credit note), and reads the order through `documentOrderOf` there.
import type { Db } from '../../../platform/db/database';
import * as repo from '../orders.repository';

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

async function documentOrderOfRow(tx: Db, order: repo.OrderRow): Promise<DocumentOrder> {
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

/** The order `orderId` as a tax document needs it, read in the caller's transaction. */
export async function documentOrderOf(tx: Db, orderId: number): Promise<DocumentOrder> {
  const order = await repo.findOrder(tx, orderId);
  if (!order) throw new Error(`order ${orderId} not found for its tax document`);
  return documentOrderOfRow(tx, order);
}
