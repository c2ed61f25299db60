// A counter sale's tax invoice: issued in the transaction that records the POS payment, naming
// the buyer and PAN given with the sale and the admin who rang it up; a PAN that is not 9 digits
// makes no sale. The POS receipt of a paid sale is its tax invoice on 80 mm paper, original
// first, then numbered copies, each print in the activity log.
import { extractText, getDocumentProxy } from 'unpdf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '../cart/calls';
import { type PosTestApp, posTestApp } from '../pos/calls';

let c: PosTestApp;
beforeAll(async () => {
  c = await posTestApp({ env: { TAX_INVOICES_ENABLED: 'true', SELLER_PAN: '601234567' } });
});
afterAll(() => c?.t.close());

async function pdfOf(body: Buffer) {
  const pdf = await getDocumentProxy(new Uint8Array(body));
  const page = await pdf.getPage(1);
  const { text } = await extractText(pdf, { mergePages: true });
  return { text: text as string, pages: pdf.numPages, width: page.view[2]! - page.view[0]! };
}

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

  it('the POS receipt of a paid sale is its tax invoice on 80 mm: the original, then "Copy of Original – N", each print logged', async () => {
    const who = await c.customer();
    const productId = await c.product({ mrp: 1130, onHand: 3 });
    const orderId = await c.posOrder(who.userId, [{ productId, quantity: 1 }], {
      buyerName: 'Lalitpur Traders',
      buyerPan: '304567891',
    });
    // Not paid yet: no invoice, the plain receipt.
    const unpaid = await c.call('GET', `/orders/${orderId}/receipt`);
    expect(unpaid.statusCode, unpaid.body).toBe(200);
    const plain = await pdfOf(unpaid.rawPayload);
    expect(plain.text).toContain('Sales receipt');
    expect(plain.text).toContain('Awaiting payment');
    expect(plain.text).not.toContain('Tax Invoice');

    expect((await c.pay(orderId, { gateway: 'pos_card', amountNpr: 1130 })).statusCode).toBe(200);
    const list = await c.http.call('GET', '/api/admin/invoices', c.admin.headers);
    const doc = list.json().data.find((d: { orderId: number }) => d.orderId === orderId);
    expect(doc).toMatchObject({ printCount: 0, totalAmount: 113_000 });

    const first = await c.call('GET', `/orders/${orderId}/receipt`);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.headers['content-type']).toBe('application/pdf');
    expect(first.headers['content-disposition']).toBe(
      `inline; filename="invoice-${doc.fiscalYear.replace('/', '-')}-${doc.number}.pdf"`,
    );
    expect(first.headers['cache-control']).toBe('private, no-store');
    const original = await pdfOf(first.rawPayload);
    expect(original.pages).toBe(1);
    expect(original.width).toBeCloseTo(226.77, 2);
    for (const expected of [
      'PAN: 601234567',
      'Tax Invoice',
      doc.number,
      doc.fiscalYear,
      'Date (BS)',
      doc.dateBs,
      'Date (AD)',
      'Buyer: Lalitpur Traders',
      'Buyer PAN: 304567891',
      'Taxable amount',
      '1,000.00',
      'VAT 13 %',
      '130.00',
      '1,130.00',
      'One Thousand One Hundred Thirty Rupees only',
      'Payment method: In store (pos_card)',
      'Issued by: Test Admin',
    ]) {
      // Lines of the 80 mm receipt wrap where the Devanagari-capable font runs wider: compare
      // the words, not where a line breaks.
      expect(original.text.replace(/\s+/g, ' ')).toContain(expected);
    }
    expect(original.text).not.toContain('Copy of Original');
    expect(original.text).not.toContain('Sales receipt');

    const again = await pdfOf((await c.call('GET', `/orders/${orderId}/receipt`)).rawPayload);
    expect(again.text).toContain('Copy of Original – 1');
    // The back office's print continues the same count.
    const office = await c.http.call('GET', `/api/admin/invoices/${doc.id}/pdf`, c.admin.headers);
    expect((await pdfOf(office.rawPayload)).text).toContain('Copy of Original – 2');
    const detail = await c.http.call('GET', `/api/admin/invoices/${doc.id}`, c.admin.headers);
    expect(detail.json().data).toMatchObject({ printCount: 3, lastPrintedAt: expect.any(String) });

    const log = await c.http.call(
      'GET',
      `/api/admin/activity?entityType=invoice&entityId=${doc.id}&order=asc`,
      c.admin.headers,
    );
    expect(log.statusCode, log.body).toBe(200);
    expect(log.json().data).toMatchObject([
      { adminId: c.clerk.userId, action: 'issue' },
      {
        adminId: c.clerk.userId,
        action: 'print',
        summary: `Printed tax invoice ${doc.number} (receipt80, original) as the POS receipt`,
      },
      {
        adminId: c.clerk.userId,
        action: 'reprint',
        summary: `Printed tax invoice ${doc.number} (receipt80, copy of original 1) as the POS receipt`,
      },
      { adminId: c.admin.userId, action: 'reprint', summary: expect.stringContaining('copy of original 2') },
    ]);
  });
});
