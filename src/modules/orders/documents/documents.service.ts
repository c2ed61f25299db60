// The invoice of an order as a PDF for the back office: the order's own snapshots (lines,
// prices, coupon, shipping) as they were at checkout, dated on the store's calendar.
import type { Config } from '../../../config';
import type { Clock } from '../../../platform/clock';
import type { Db } from '../../../platform/db/database';
import { effectivePrice } from '../../cart';
import { findUserCard } from '../../identity';
import { orderErrors } from '../orders.errors';
import type { OrderRow } from '../orders.repository';
import * as repo from '../orders.repository';
import { type Invoice, renderInvoice } from './documents.pdf';

/** When an order was placed, as invoices and counter receipts print it: store time, `26 Nov 2026, 05:33`. */
export function printedOrderDate(timeZone: string, at: Date): string {
  return new Intl.DateTimeFormat('en-GB', {
    timeZone,
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).format(at);
}

export interface InvoiceDeps {
  db: Db;
  clock: Clock;
  config: Pick<Config, 'STORE_NAME' | 'STORE_TIMEZONE'>;
}

const PAYMENT_WORDS: Record<OrderRow['paymentStatus'], string> = {
  pending: 'awaiting payment',
  completed: 'paid',
  failed: 'failed',
  cod_pending: 'to be collected',
  cod_collected: 'collected',
};
const METHOD_WORDS: Record<OrderRow['paymentMethod'], string> = {
  online: 'Online',
  cod: 'Cash on delivery',
  pos: 'In store',
};

function shipTo(order: OrderRow): string[] {
  if (!order.shippingDistrict && !order.shippingAddressLine1) return [];
  const cityLine = [order.shippingCity, order.shippingPostalCode].filter(Boolean).join(' ');
  // Kathmandu the city lies in Kathmandu the district: the district is named when it adds something.
  const sameAsCity = order.shippingDistrict?.toLowerCase() === order.shippingCity?.toLowerCase();
  const district = order.shippingDistrict && !sameAsCity ? `${order.shippingDistrict} District` : null;
  return [
    order.receiver,
    order.shippingAddressLine1,
    order.shippingAddressLine2,
    order.shippingLandmark && `Near ${order.shippingLandmark}`,
    cityLine,
    [district, order.shippingState].filter(Boolean).join(', '),
    order.shippingMobileNum && `Phone ${order.shippingMobileNum}`,
  ].filter((line): line is string => !!line);
}

export async function orderInvoice(
  deps: InvoiceDeps,
  orderId: number,
): Promise<{ fileName: string; pdf: Buffer }> {
  const order = await repo.findOrder(deps.db, orderId);
  if (!order) throw orderErrors.notFound();
  const items = await repo.itemsOf(deps.db, [order.id]);
  const customer = await findUserCard(deps.db, order.customerId);
  const orderDate = printedOrderDate(deps.config.STORE_TIMEZONE, order.createdAt);
  const invoice: Invoice = {
    storeName: deps.config.STORE_NAME,
    orderNumber: order.orderNumber,
    orderDate,
    payment: `${METHOD_WORDS[order.paymentMethod]}, ${PAYMENT_WORDS[order.paymentStatus]}`,
    customer: {
      name: order.receiver ?? customer?.name ?? null,
      phone: order.contactNumber ?? order.shippingMobileNum,
    },
    shipTo: shipTo(order),
    lines: items.map((i) => ({
      title: i.productTitle,
      quantity: i.quantity,
      unitPrice: effectivePrice(i.unitMrp, i.unitSp),
      lineTotal: i.finalValue,
      carePackage:
        i.carePackageId !== null
          ? {
              name: i.carePackageName ?? 'Care package',
              tierLabel: i.carePackageTierLabel ?? '',
              unitPrice: i.carePackageUnitPrice ?? 0,
            }
          : null,
    })),
    subtotal: order.totalSp,
    carePackageTotal: order.carePackageTotal,
    coupon: order.couponDiscount > 0 ? { code: order.couponCode, discount: order.couponDiscount } : null,
    shippingFee: order.shippingFee,
    finalPayable: order.finalPayable,
    createdAt: deps.clock.now(),
  };
  return { fileName: `invoice-${order.orderNumber}.pdf`, pdf: await renderInvoice(invoice) };
}
