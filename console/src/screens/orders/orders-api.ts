// The admin order routes the orders screens use, with their types taken from the generated
// client (so a change of the API's contract breaks the console's compilation, not its users):
//   GET  /api/admin/orders                         adminListOrders (list, filters, search)
//   GET  /api/admin/orders/{id}                    adminGetOrder (detail)
//   GET  /api/admin/orders/requests/{requestId}    an async command's progress
//   GET  /api/admin/orders/{id}/invoice-download   the invoice PDF
//   GET  /api/admin/orders/{id}/digital-keys       keys sold with the digital lines
// and the commands (cancel, process-refund, fulfillment-status: async, answered 202; notes,
// items/{orderItemId}/serial, cod-collect, send-digital-delivery, activate-care-package).
import type { operations, PasalClient, paths } from '@pasal/client';
import { downloadOf } from '../../lib/downloads';

type Data<Answer> = Answer extends { content: { 'application/json': { data: infer D } } } ? D : never;

export type OrderListQuery = NonNullable<operations['adminListOrders']['parameters']['query']>;
export type OrderListItem = Data<paths['/api/admin/orders']['get']['responses'][200]>[number];
export type OrderDetail = Data<paths['/api/admin/orders/{id}']['get']['responses'][200]>;
export type OrderItem = OrderDetail['items'][number];
export type OrderRequest = Data<paths['/api/admin/orders/requests/{requestId}']['get']['responses'][200]>;
export type DigitalKeys = Data<paths['/api/admin/orders/{id}/digital-keys']['get']['responses'][200]>;
export type DigitalKeyLine = DigitalKeys[number];

export type OrderStatus = OrderListItem['orderStatus'];
export type PaymentStatus = OrderListItem['paymentStatus'];
export type PaymentMethod = OrderListItem['paymentMethod'];
export type OrderType = OrderListItem['orderType'];
export type FulfillmentStatus = NonNullable<OrderListItem['fulfillmentStatus']>;
export type FulfillmentAction = OrderDetail['eligibleFulfillmentActions'][number];

// Every value of each enumeration, in the order staff meet them. `Exhaustive` makes the
// compiler refuse a list that misses a value the API gained.
type Exhaustive<All, Listed extends readonly All[]> = [Exclude<All, Listed[number]>] extends [never]
  ? Listed
  : never;

const orderStatuses = [
  'created',
  'payment_pending',
  'paid',
  'payment_failed',
  'cancelled',
  'refund_requested',
  'refund_pending',
  'refund_approved',
  'refund_rejected',
] as const;
export const ORDER_STATUSES: Exhaustive<OrderStatus, typeof orderStatuses> = orderStatuses;

const paymentStatuses = ['pending', 'cod_pending', 'cod_collected', 'completed', 'failed'] as const;
export const PAYMENT_STATUSES: Exhaustive<PaymentStatus, typeof paymentStatuses> = paymentStatuses;

const paymentMethods = ['online', 'cod', 'pos'] as const;
export const PAYMENT_METHODS: Exhaustive<PaymentMethod, typeof paymentMethods> = paymentMethods;

const orderTypes = ['physical', 'digital', 'care_package', 'mixed'] as const;
export const ORDER_TYPES: Exhaustive<OrderType, typeof orderTypes> = orderTypes;

const fulfillmentStatuses = [
  'received',
  'ready',
  'picked_up',
  'in_transit',
  'delivered',
  'key_sent',
  'activated',
  'cancelled',
] as const;
export const FULFILLMENT_STATUSES: Exhaustive<FulfillmentStatus, typeof fulfillmentStatuses> =
  fulfillmentStatuses;

export function fetchOrders(client: PasalClient, query: OrderListQuery) {
  return client.list('/api/admin/orders', { params: { query } });
}

export function fetchOrder(client: PasalClient, id: number): Promise<OrderDetail> {
  return client.get('/api/admin/orders/{id}', { params: { path: { id } } });
}

export function fetchOrderRequest(client: PasalClient, requestId: string): Promise<OrderRequest> {
  return client.get('/api/admin/orders/requests/{requestId}', { params: { path: { requestId } } });
}

export function fetchDigitalKeys(client: PasalClient, id: number): Promise<DigitalKeys> {
  return client.get('/api/admin/orders/{id}/digital-keys', { params: { path: { id } } });
}

/**
 * The invoice PDF, fetched with the session's token (a plain link would carry none) and handed
 * back as a Blob with the file name the API gave it.
 */
export async function fetchInvoice(
  client: PasalClient,
  id: number,
): Promise<{ blob: Blob; fileName: string }> {
  return downloadOf(
    client.raw.GET('/api/admin/orders/{id}/invoice-download', { params: { path: { id } }, parseAs: 'blob' }),
    `invoice-${id}.pdf`,
  );
}
