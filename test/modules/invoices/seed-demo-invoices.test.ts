// seed:demo's tax documents: a business customer's COD order with a buyer PAN, collected (a tax
// invoice) and cancelled by the back office (a credit note against it).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemoInvoices } from '../../../scripts/seed-demo-invoices';
import { signedInAdmin, signedInCustomer, TEST_PASSWORD } from '../../helpers/factories';
import { type OrdersTestApp, ordersTestApp, RETURN_URL } from '../orders/calls';

let c: OrdersTestApp;
beforeAll(async () => {
  c = await ordersTestApp({
    env: { TAX_INVOICES_ENABLED: 'true', SELLER_PAN: '600000001', PAYMENT_RETURN_URL_ALLOWLIST: RETURN_URL },
  });
});
afterAll(() => c?.t.close());

describe('seed:demo tax documents', () => {
  it('issues an invoice with the buyer PAN and a credit note against it', async () => {
    const admin = await signedInAdmin(c.t, { superadmin: true, email: 'seed.tax@example.com' });
    const customer = await signedInCustomer(c.t, { email: 'seed.tax.customer@example.com' });
    await c.cartWith(customer, []); // the customer's delivery address, as the demo orders leave it
    const productId = await c.product({ onHand: 3 });
    const docs = await seedDemoInvoices(
      c.t.app,
      {
        admin: { email: admin.email, password: TEST_PASSWORD },
        customer: { email: customer.email, password: TEST_PASSWORD },
      },
      productId,
      RETURN_URL,
    );
    expect(docs).toEqual({ invoices: ['INV-1'], creditNotes: ['CN-1'] });
    const list = await c.http.call('GET', '/api/admin/credit-notes', admin.headers);
    expect(list.json().data).toMatchObject([
      {
        number: 'CN-1',
        referenceInvoiceNumber: 'INV-1',
        reason: 'Damaged in transit',
        buyerName: 'Himalayan Handicrafts Pvt. Ltd.',
        buyerPan: '609876543',
      },
    ]);
  });
});
