// The routes the counter uses, typed from the generated client:
//   GET  /api/admin/products                       find products (title search) with their stock
//   GET  /api/admin/products/{id}                  a scanned code (the product number)
//   GET  /api/admin/pos/customers/lookup           the customer by email
//   POST /api/admin/pos/customers                  a new counter customer (10 an hour per admin)
//   POST /api/admin/pos/orders                     the sale (Idempotency-Key)
//   POST /api/admin/pos/orders/{orderId}/payment   its payment (its own Idempotency-Key)
//   POST /api/admin/pos/orders/{orderId}/pickup-confirm
//   GET  /api/admin/pos/orders/{orderId}/receipt   the 80 mm receipt (PDF)
//   GET  /api/admin/pos/orders, …/export, …/analytics   the counter's sales
//   POST /api/admin/pos/emi-inquiry                an instalment inquiry for a walk-in customer
import type { operations, PasalClient, paths } from '@pasal/client';
import { PasalError } from '../../lib/api-errors';

type Data<Answer> = Answer extends { content: { 'application/json': { data: infer D } } } ? D : never;

export type Product = Data<paths['/api/admin/products/{id}']['get']['responses'][200]>;
export type PosCustomer = NonNullable<
  Data<paths['/api/admin/pos/customers/lookup']['get']['responses'][200]>
>;
export type CreateSaleBody = operations['adminCreatePosOrder']['requestBody']['content']['application/json'];
export type SaleListItem = Data<paths['/api/admin/pos/orders']['get']['responses'][200]>[number];
export type SalesAnalytics = Data<paths['/api/admin/pos/analytics']['get']['responses'][200]>;
export type EmiInquiryBody =
  operations['adminCreatePosEmiInquiry']['requestBody']['content']['application/json'];
export type District = Data<paths['/api/cart/location/districts']['get']['responses'][200]>[number];
export type EmiBank = Data<paths['/api/mobile/emi/banks']['get']['responses'][200]>[number];

/** The counter's gateways, in the order the till offers them (cash first: most sales). */
export const GATEWAYS = ['pos_cash', 'pos_wallet_a', 'pos_wallet_b', 'pos_card'] as const;
export type Gateway = (typeof GATEWAYS)[number];

export const isGateway = (value: string | null | undefined): value is Gateway =>
  (GATEWAYS as readonly (string | null | undefined)[]).includes(value);

/** Published, sellable products whose title (or category, tag) matches, with their stock. */
export function searchProducts(client: PasalClient, search: string, size = 8) {
  return client.get('/api/admin/products', {
    params: { query: { search, status: 'published', isSellable: 'true', size } },
  });
}

export function fetchProduct(client: PasalClient, id: number): Promise<Product> {
  return client.get('/api/admin/products/{id}', { params: { path: { id } } });
}

export function lookupCustomer(client: PasalClient, email: string) {
  return client.get('/api/admin/pos/customers/lookup', { params: { query: { email } } });
}

export function createCustomer(
  client: PasalClient,
  key: string,
  body: { name: string; email: string; phone?: string },
): Promise<PosCustomer> {
  return client.post('/api/admin/pos/customers', { params: { header: { 'idempotency-key': key } }, body });
}

export function createSale(client: PasalClient, key: string, body: CreateSaleBody) {
  return client.post('/api/admin/pos/orders', { params: { header: { 'idempotency-key': key } }, body });
}

export function recordPayment(
  client: PasalClient,
  key: string,
  orderId: number,
  body: { gateway: Gateway; amountNpr: number; transactionReference?: string },
) {
  return client.post('/api/admin/pos/orders/{orderId}/payment', {
    params: { path: { orderId }, header: { 'idempotency-key': key } },
    body,
  });
}

export function confirmPickup(client: PasalClient, key: string, orderId: number) {
  return client.post('/api/admin/pos/orders/{orderId}/pickup-confirm', {
    params: { path: { orderId }, header: { 'idempotency-key': key } },
  });
}

export function sendEmiInquiry(client: PasalClient, key: string, body: EmiInquiryBody) {
  return client.post('/api/admin/pos/emi-inquiry', { params: { header: { 'idempotency-key': key } }, body });
}

export function fetchDistricts(client: PasalClient): Promise<District[]> {
  return client.get('/api/cart/location/districts');
}

export function fetchEmiBanks(client: PasalClient): Promise<EmiBank[]> {
  return client.get('/api/mobile/emi/banks');
}

export function fetchEmiConfig(client: PasalClient) {
  return client.get('/api/mobile/emi/config');
}

export function fetchSales(
  client: PasalClient,
  query: { page: number; limit: number; startDate?: string; endDate?: string },
) {
  return client.list('/api/admin/pos/orders', { params: { query } });
}

export function fetchAnalytics(
  client: PasalClient,
  query: { startDate?: string; endDate?: string; district?: string },
): Promise<SalesAnalytics> {
  return client.get('/api/admin/pos/analytics', { params: { query } });
}

/** A file the API answered (a PDF, a CSV), or its error envelope thrown as a PasalError. */
async function fileOf(
  answer: { data?: unknown; error?: unknown; response: Response },
  fallbackName: string,
): Promise<{ blob: Blob; fileName: string }> {
  const { data, error, response } = answer;
  if (error !== undefined || !response.ok || !(data instanceof Blob)) {
    throw new PasalError(
      response.status,
      typeof error === 'object' && error !== null
        ? (error as PasalError['body'])
        : {
            statusCode: response.status,
            message: response.statusText,
            errorCode: 'UNKNOWN',
            timestamp: new Date().toISOString(),
            path: new URL(response.url).pathname,
          },
    );
  }
  const named = /filename="?([^";]+)"?/.exec(response.headers.get('content-disposition') ?? '');
  return { blob: data, fileName: named?.[1] ?? fallbackName };
}

/** The sale's 80 mm receipt (PDF), through the session (a plain link would carry no token). */
export async function fetchReceipt(client: PasalClient, orderId: number) {
  return fileOf(
    await client.raw.GET('/api/admin/pos/orders/{orderId}/receipt', {
      params: { path: { orderId } },
      parseAs: 'blob',
    }),
    `receipt-${orderId}.pdf`,
  );
}

/** The counter's sales of a range of at most 90 days as the API's CSV file. */
export async function fetchSalesCsv(client: PasalClient, startDate: string, endDate: string) {
  return fileOf(
    await client.raw.GET('/api/admin/pos/orders/export', {
      params: { query: { startDate, endDate, format: 'csv' } },
      parseAs: 'blob',
    }),
    `pos-orders-${startDate}-to-${endDate}.csv`,
  );
}
