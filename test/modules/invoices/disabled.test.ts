// With TAX_INVOICES_ENABLED left at its default (false) nothing is issued: a store not
// registered for VAT keeps the plain invoice, and the customer route has no tax invoice.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { expectError } from '../cart/calls';
import { type OrdersTestApp, ordersTestApp } from '../orders/calls';

let c: OrdersTestApp;
beforeAll(async () => {
  c = await ordersTestApp();
});
afterAll(() => c?.t.close());

it('a collected COD order gets no tax invoice; the plain invoice download is unchanged', async () => {
  const who = await c.customer();
  const { orderId } = await c.placed(who, 'cod');
  const res = await c.http.call('PUT', `/api/admin/orders/${orderId}/cod-collect`, c.admin.headers, {
    remarks: 'cash',
  });
  expect(res.statusCode, res.body).toBe(200);
  const list = await c.http.call('GET', '/api/admin/invoices', c.admin.headers);
  expect(list.statusCode, list.body).toBe(200);
  expect(list.json()).toMatchObject({ data: [], meta: { count: 0 } });
  expectError(
    await c.http.call('GET', `/api/orders/${orderId}/invoice`, who.headers),
    404,
    'INVOICE_NOT_FOUND',
  );
  const plain = await c.http.call('GET', `/api/admin/orders/${orderId}/invoice-download`, c.admin.headers);
  expect(plain.statusCode).toBe(200);
  expect(plain.headers['content-type']).toBe('application/pdf');
});
