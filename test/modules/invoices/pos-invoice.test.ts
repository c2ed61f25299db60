// A counter sale's tax invoice: issued in the transaction that records the POS payment, naming
// the buyer and PAN given with the sale and the admin who rang it up; a PAN that is not 9 digits
// makes no sale.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '../cart/calls';
import { type PosTestApp, posTestApp } from '../pos/calls';

let c: PosTestApp;
beforeAll(async () => {
  c = await posTestApp({ env: { TAX_INVOICES_ENABLED: 'true', SELLER_PAN: '601234567' } });
});
afterAll(() => c?.t.close());

describe('POS sale', () => {
  it('recording the payment issues the tax invoice with the buyer fields, issued by the counter admin', async () => {
    const who = await c.customer();
    const productId = await c.product({ mrp: 2260, onHand: 3 });
    const orderId = await c.posOrder(who.userId, [{ productId, quantity: 1 }], {
      buyerName: 'Kathmandu Cafe',
      buyerPan: '302345678',
    });
    const before = await c.http.call('GET', '/api/admin/invoices', c.admin.headers);
    expect(before.json().data.some((d: { orderId: number }) => d.orderId === orderId)).toBe(false);
    const paid = await c.pay(orderId, { gateway: 'pos_cash', amountNpr: 2260 });
    expect(paid.statusCode, paid.body).toBe(200);
    const list = await c.http.call('GET', '/api/admin/invoices', c.admin.headers);
    expect(list.json().data.find((d: { orderId: number }) => d.orderId === orderId)).toMatchObject({
      documentType: 'tax_invoice',
      buyerName: 'Kathmandu Cafe',
      buyerPan: '302345678',
      paymentMethod: 'In store (pos_cash)',
      totalAmount: 226_000,
      taxableAmount: 200_000,
      vatAmount: 26_000,
      issuedBy: { adminId: c.clerk.userId },
    });
  });

  it('a buyer PAN of other than 9 digits: 400 VALIDATION_ERROR and no sale', async () => {
    const who = await c.customer();
    const productId = await c.product({ mrp: 500, onHand: 3 });
    const res = await c.createOrder({
      customerId: who.userId,
      items: [{ productId, quantity: 1 }],
      buyerPan: '9841',
    });
    expectError(res, 400, 'VALIDATION_ERROR');
    const sales = await c.call('GET', '/orders');
    expect(
      sales.json().data.filter((o: { customer: { id: string } }) => o.customer?.id === who.userId),
    ).toEqual([]);
  });
});
