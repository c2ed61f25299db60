// Which commands make sense for an order as it is now, so the screen offers only those. The
// API decides in the end (and its refusal is shown); these follow its rules as documented in
// docs/api-notes.md ("Orders, back office", "Fulfilment") so staff are not offered a button
// that can only fail. Fulfilment moves come from the API itself (`eligibleFulfillmentActions`).
import type { FulfillmentStatus, OrderDetail } from './orders-api';

type Order = Pick<
  OrderDetail,
  | 'orderStatus'
  | 'paymentStatus'
  | 'paymentMethod'
  | 'fulfillmentStatus'
  | 'fulfillmentTimeline'
  | 'eligibleFulfillmentActions'
  | 'items'
>;

/**
 * Cancel: before payment while fulfilment has not gone past `received`, or paid while the goods
 * have not left (`received`, `ready`; a refund record is then owed).
 */
export function canBeCancelled(order: Order): boolean {
  const fulfilment = order.fulfillmentStatus;
  if (order.orderStatus === 'created' || order.orderStatus === 'payment_pending') {
    return fulfilment === null || fulfilment === 'received';
  }
  if (order.orderStatus === 'paid') return fulfilment === 'received' || fulfilment === 'ready';
  return false;
}

/** The one step forward a physical or mixed order may take now, or null. */
export function nextFulfilmentStep(order: Order): FulfillmentStatus | null {
  if (!order.eligibleFulfillmentActions.includes('advance')) return null;
  const steps = order.fulfillmentTimeline;
  const at = steps.findIndex((step) => step.status === order.fulfillmentStatus);
  return at >= 0 ? (steps[at + 1]?.status ?? null) : null;
}

/** A cash-on-delivery order whose cash has not been recorded yet. */
export function awaitsCodCash(order: Order): boolean {
  return (
    order.paymentMethod === 'cod' &&
    order.paymentStatus === 'cod_pending' &&
    order.orderStatus !== 'cancelled'
  );
}

/** A customer's refund request waiting for the shop's decision. */
export function awaitsRefundDecision(order: Order): boolean {
  return order.orderStatus === 'refund_requested';
}

export function hasDigitalLines(order: Order): boolean {
  return order.items.some((item) => item.productKind === 'digital');
}

/**
 * Sending digital keys: a digital order's step (`send-digital-delivery`), or, for a paid order
 * with digital lines, sending them (again): a mixed order whose keys ran short at payment, or
 * a customer who lost the email. The API mails the same keys again rather than new ones.
 */
export function digitalDelivery(order: Order): 'send' | 'resend' | null {
  if (order.eligibleFulfillmentActions.includes('send-digital-delivery')) return 'send';
  if (hasDigitalLines(order) && order.orderStatus === 'paid') return 'resend';
  return null;
}

export function canActivateCarePackage(order: Order): boolean {
  return order.eligibleFulfillmentActions.includes('activate-care-package');
}

/** Serial numbers are kept for physical items only. */
export function takesSerialNumber(item: OrderDetail['items'][number]): boolean {
  return item.productKind === 'physical';
}
