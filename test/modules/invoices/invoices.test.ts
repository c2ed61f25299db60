// Nepali tax invoices through the API: issued in the transaction that makes an order paid (COD
// collected, online payment verified), credit notes on refund approval and on cancelling a paid
// order, the figures and their rounding, buyer fields, numbering under concurrency and across
// the fiscal-year boundary, rows locked by the database, the admin routes with their
// permissions and activity log, PDFs read back with the original/copy rule, the customer's
// route and the registers.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REGISTER_BATCH, registerCsv } from '../../../src/modules/invoices/invoices.registers';
import { issueCreditNote, issueInvoice } from '../../../src/modules/invoices/invoices.service';
import type { OrderDocumentEvent } from '../../../src/modules/orders';
import { TestClock } from '../../../src/platform/clock';
import { inTransaction } from '../../../src/platform/db/transaction';
import { type SignedIn, signedInAdmin, signedInCustomer } from '../../helpers/factories';
import { ligatures, pdfText } from '../../helpers/pdf';
import { expectError } from '../cart/calls';
import { fakeInitiator, type OrdersTestApp, ordersTestApp } from '../orders/calls';
import { collectedOrder, documentOf } from './calls';

// 10:00 UTC on 1 March 2026 is 17 Falgun 2082 in Nepal: fiscal year 2082/83.
const clock = new TestClock('2026-03-01T10:00:00.000Z');
let c: OrdersTestApp;
let reader: SignedIn;
let printer: SignedIn;

const ENV = {
  TAX_INVOICES_ENABLED: 'true',
  STORE_NAME: 'Himal Electronics',
  SELLER_NAME: 'Himal Electronics Pvt. Ltd.',
  SELLER_ADDRESS: 'New Road, Kathmandu',
  SELLER_PAN: '601234567',
  INVOICE_NUMBER_PREFIX: 'HE-',
  CREDIT_NOTE_NUMBER_PREFIX: 'HECN-',
};

/** Rows of a raw query (both drivers answer `{ rows }`). */
async function rowsOf<T>(query: ReturnType<typeof sql>): Promise<T[]> {
  return ((await c.db.execute(query)) as unknown as { rows: T[] }).rows;
}

/** What the database said: drizzle wraps the driver's error as `cause`. */
const databaseMessage = (error: unknown) => {
  const e = error as { message?: string; cause?: { message?: string } };
  return `${e.message ?? ''} ${e.cause?.message ?? ''}`;
};

beforeAll(async () => {
  c = await ordersTestApp({ initiator: fakeInitiator(), clock, env: ENV });
  reader = await signedInAdmin(c.t, { permissions: ['Invoices_READ'] });
  printer = await signedInAdmin(c.t, { permissions: ['Invoices_READ', 'Invoices_PRINT'] });
});
afterAll(() => c?.t.close());

const collected = (price: number, who?: SignedIn, buyer: Record<string, string> = {}) =>
  collectedOrder(c, price, buyer, who);
const invoiceOf = (orderId: number) => documentOf(c, reader, 'invoices', orderId);
const creditNoteOf = (orderId: number) => documentOf(c, reader, 'credit-notes', orderId);

describe('issuing', () => {
  it('COD cash collected: a tax invoice in paisa, VAT-inclusive total split exactly, issued by the collector', async () => {
    const { orderId } = await collected(1030);
    const doc = await invoiceOf(orderId);
    expect(doc).toMatchObject({
      documentType: 'tax_invoice',
      number: expect.stringMatching(/^HE-\d+$/),
      fiscalYear: '2082/83',
      dateBs: '2082-11-17',
      seller: { name: 'Himal Electronics Pvt. Ltd.', address: 'New Road, Kathmandu', pan: '601234567' },
      buyerPan: null,
      vatRatePercent: 13,
      totalAmount: 113_000,
      taxableAmount: 100_000,
      vatAmount: 13_000,
      exemptAmount: 0,
      discountAmount: 0,
      paymentMethod: 'Cash on delivery',
      issuedBy: { adminId: c.admin.userId, name: 'Test Admin' },
      printCount: 0,
      syncStatus: 'not_required',
      isActive: true,
    });
    expect(doc.lines).toEqual([
      expect.objectContaining({ quantity: 1, rate: 103_000, amount: 103_000 }),
      { title: 'Delivery charge', quantity: 1, rate: 10_000, amount: 10_000 },
    ]);
    const detail = await c.http.call('GET', `/api/admin/invoices/${doc.id}`, reader.headers);
    expect(detail.statusCode, detail.body).toBe(200);
    expect(detail.json().data).toEqual(doc);
    // The issue is in the activity log, by the admin whose action made it due.
    const log = await c.http.call(
      'GET',
      `/api/admin/activity?entityType=invoice&entityId=${doc.id}`,
      c.admin.headers,
    );
    expect(log.json().data).toMatchObject([
      { adminId: c.admin.userId, action: 'issue', summary: expect.stringContaining(doc.number) },
    ]);
  });

  it('rounding: taxable = total × 100 / 113 rounded half up to the paisa, VAT the rest; every figure adds up', async () => {
    const { orderId } = await collected(901); // 1001 NPR: 100100 paisa
    const doc = await invoiceOf(orderId);
    // 100100 × 100 / 113 = 88584.07… → 88584; VAT 100100 − 88584 = 11516.
    expect(doc).toMatchObject({ totalAmount: 100_100, taxableAmount: 88_584, vatAmount: 11_516 });
    expect(doc.taxableAmount + doc.vatAmount + doc.exemptAmount).toBe(doc.totalAmount);
  });

  it('a verified online payment issues the invoice as the system, with the buyer name and PAN given at checkout', async () => {
    const who = await c.customer();
    const productId = await c.product({ mrp: 2000, onHand: 3 });
    await c.cartWith(who, [{ productId }]);
    const placed = await c.http.call('POST', '/api/orders/checkout', who.headers, {
      gateway: 'gateway_card',
      returnUrl: 'http://localhost:3001/checkout/result',
      buyerName: 'Everest Traders',
      buyerPan: '301234567',
    });
    expect(placed.statusCode, placed.body).toBe(200);
    const orderId = placed.json().data.orderId;
    expect(await invoiceOf(orderId)).toBeUndefined(); // not paid yet: nothing issued
    expect((await c.markPaid(orderId)).changed).toBe(true);
    expect(await invoiceOf(orderId)).toMatchObject({
      buyerName: 'Everest Traders',
      buyerPan: '301234567',
      issuedBy: { adminId: null, name: 'System' },
      paymentMethod: 'Online payment (gateway_card)',
      totalAmount: 210_000,
    });
    // No admin acted: the issue is in the activity log as the system's.
    const { id } = await invoiceOf(orderId);
    const log = await c.http.call(
      'GET',
      `/api/admin/activity?entityType=invoice&entityId=${id}`,
      c.admin.headers,
    );
    expect(log.json().data).toMatchObject([
      {
        adminId: null,
        action: 'issue',
        summary: expect.stringContaining('by the system: payment verified'),
        createdAt: '2026-03-01T10:00:00.000Z',
      },
    ]);
    // Paid again (a replayed job): still one invoice.
    expect((await c.markPaid(orderId)).changed).toBe(false);
    const all = await c.http.call('GET', '/api/admin/invoices?search=Everest', reader.headers);
    expect(all.json().meta.count).toBe(1);
  });

  it('a buyer PAN that is not exactly 9 digits: 400 VALIDATION_ERROR on checkout and buy-now, and no order', async () => {
    const who = await c.customer();
    const productId = await c.product({ mrp: 500, onHand: 3 });
    await c.cartWith(who, [{ productId }]);
    for (const buyerPan of ['12345678', '1234567890', '12345678A']) {
      const res = await c.http.call('POST', '/api/orders/checkout', who.headers, {
        gateway: 'cod',
        returnUrl: 'http://localhost:3001/checkout/result',
        buyerPan,
      });
      expectError(res, 400, 'VALIDATION_ERROR');
      const now = await c.http.call('POST', '/api/mobile/orders/buy-now', who.headers, {
        productId,
        gateway: 'cod',
        returnUrl: 'http://localhost:3001/checkout/result',
        buyerPan,
      });
      expectError(now, 400, 'VALIDATION_ERROR');
    }
    const mine = await c.http.call('GET', '/api/orders', who.headers);
    expect(mine.json().meta.count).toBe(0);
  });

  it('credit note when a refund is approved: the invoice reversed in positive figures, with the reason', async () => {
    const { orderId, who } = await collected(1500);
    const asked = await c.http.call('POST', `/api/orders/${orderId}/request-refund`, who.headers, {
      reason: 'Wrong colour',
    });
    expect(asked.statusCode, asked.body).toBe(200);
    const res = await c.http.call('POST', `/api/admin/orders/${orderId}/process-refund`, c.admin.headers, {
      action: 'approve',
      remarks: 'Returned unopened',
    });
    expect(res.statusCode, res.body).toBe(202);
    await c.adminSettled(res.json().data.requestId);
    const invoice = await invoiceOf(orderId);
    const note = await creditNoteOf(orderId);
    expect(note).toMatchObject({
      documentType: 'credit_note',
      number: expect.stringMatching(/^HECN-\d+$/),
      fiscalYear: '2082/83',
      referenceInvoiceId: invoice.id,
      referenceInvoiceNumber: invoice.number,
      reason: 'Returned unopened',
      totalAmount: invoice.totalAmount,
      taxableAmount: invoice.taxableAmount,
      vatAmount: invoice.vatAmount,
      issuedBy: { adminId: c.admin.userId },
    });
    expect(note.totalAmount).toBeGreaterThan(0);
  });

  it('credit note when an admin cancels a paid order; none for an unpaid one', async () => {
    const { orderId } = await collected(800);
    const res = await c.http.call('POST', `/api/admin/orders/${orderId}/cancel`, c.admin.headers, {
      reason: 'Out of stock at the warehouse',
    });
    expect(res.statusCode, res.body).toBe(202);
    await c.adminSettled(res.json().data.requestId);
    expect(await creditNoteOf(orderId)).toMatchObject({
      reason: 'Out of stock at the warehouse',
      totalAmount: 90_000,
    });

    const unpaid = await c.placed(await c.customer(), 'cod');
    const cancel = await c.http.call(
      'POST',
      `/api/admin/orders/${unpaid.orderId}/cancel`,
      c.admin.headers,
      {},
    );
    await c.adminSettled(cancel.json().data.requestId);
    expect(await creditNoteOf(unpaid.orderId)).toBeUndefined();
  });
});

describe('numbering', () => {
  const event = (orderId: number): OrderDocumentEvent => ({
    order: {
      id: orderId,
      orderNumber: `T-${orderId}`,
      customerId: c.admin.userId,
      paymentMethod: 'pos',
      gateway: 'cash',
      buyerName: 'Walk-in',
      buyerPan: null,
      receiver: null,
      address: null,
      lines: [{ title: 'Item', quantity: 1, unitPrice: 113, amount: 113 }],
      discount: 0,
      finalPayable: 113,
    },
    adminId: null,
  });
  const deps = () => ({
    db: c.db,
    clock,
    config: c.t.platform.config,
    queueSync: () => {},
  });

  it('100 concurrent issuances, some rolled back: one unbroken series, no gaps, no repeats', async () => {
    const fy = '2082/83';
    const before = await rowsOf<{ n: number }>(
      sql`SELECT count(*)::int AS n FROM tax_documents WHERE kind = 'invoice' AND fiscal_year = ${fy}`,
    );
    const start = Number(before[0]!.n);
    const results = await Promise.allSettled(
      Array.from({ length: 100 }, (_, i) =>
        inTransaction(c.db, async (tx, afterCommit) => {
          const doc = await issueInvoice(deps(), tx, afterCommit, event(900_000 + i));
          // Every tenth sale fails after its invoice was drafted: its number must come back.
          if (i % 10 === 3) throw new Error('sale failed');
          return doc;
        }),
      ),
    );
    expect(results.filter((r) => r.status === 'rejected')).toHaveLength(10);
    const rows = await rowsOf<{ sequence: number; number: string }>(
      sql`SELECT sequence, number FROM tax_documents WHERE kind = 'invoice' AND fiscal_year = ${fy} ORDER BY sequence`,
    );
    const sequences = rows.map((r) => Number(r.sequence));
    expect(sequences).toEqual(Array.from({ length: start + 90 }, (_, i) => i + 1));
    expect(new Set(rows.map((r) => r.number)).size).toBe(sequences.length);
  });

  it('the fiscal year turns on 1 Shrawan in Nepal: a new series from 1, named 2083/84', async () => {
    // 2026-07-16T18:15Z is 00:00 on 1 Shrawan 2083 in Kathmandu.
    clock.set('2026-07-16T18:14:59.000Z');
    const last = await inTransaction(c.db, (tx, a) => issueInvoice(deps(), tx, a, event(950_001)));
    expect(last).toMatchObject({ fiscalYear: '2082/83', bsDate: '2083-03-32' });
    clock.set('2026-07-16T18:15:00.000Z');
    const first = await inTransaction(c.db, (tx, a) => issueInvoice(deps(), tx, a, event(950_002)));
    expect(first).toMatchObject({ fiscalYear: '2083/84', sequence: 1, number: 'HE-1', bsDate: '2083-04-01' });
    const note = await inTransaction(c.db, (tx, a) =>
      issueCreditNote(deps(), tx, a, { ...event(950_002), reason: 'Return' }),
    );
    expect(note).toMatchObject({
      fiscalYear: '2083/84',
      sequence: 1,
      number: 'HECN-1',
      referenceNumber: 'HE-1',
    });
    clock.set('2026-03-01T10:00:00.000Z');
    // (Read back on the suite's clock: the admins' tokens are not valid in July.)
    const noteLog = await c.http.call(
      'GET',
      `/api/admin/activity?entityType=credit_note&entityId=${note!.id}`,
      c.admin.headers,
    );
    expect(noteLog.json().data).toMatchObject([
      {
        adminId: null,
        action: 'issue',
        summary: 'Issued credit note HECN-1 (2083/84) for order T-950002 (by the system)',
      },
    ]);
    const list = await c.http.call('GET', '/api/admin/invoices?fiscalYear=2083/84', reader.headers);
    expect(list.json().data.map((d: { number: string }) => d.number)).toEqual(['HE-1']);
  });
});

describe('locking', () => {
  it('the database refuses UPDATE of figures or identity and any DELETE; print and sync bookkeeping may change', async () => {
    const { orderId } = await collected(300);
    const { id } = await invoiceOf(orderId);
    for (const statement of [
      sql`UPDATE tax_documents SET total_amount = 1, taxable_amount = 1, vat_amount = 0 WHERE id = ${id}`,
      sql`UPDATE tax_documents SET buyer_name = 'Someone else' WHERE id = ${id}`,
      sql`UPDATE tax_documents SET number = 'HE-0' WHERE id = ${id}`,
      sql`DELETE FROM tax_documents WHERE id = ${id}`,
      sql`TRUNCATE tax_documents`,
    ]) {
      const refused = await c.db.execute(statement).then(
        () => null,
        (error: unknown) => error,
      );
      expect(databaseMessage(refused)).toMatch(/tax documents? .*is locked|tax documents are locked/);
    }
    await c.db.execute(
      sql`UPDATE tax_documents SET print_count = print_count + 0, sync_attempts = 0 WHERE id = ${id}`,
    );
    const detail = await c.http.call('GET', `/api/admin/invoices/${id}`, reader.headers);
    expect(detail.json().data).toMatchObject({ id, totalAmount: 40_000 });
  });
});

describe('PDFs', () => {
  it('the first rendering is the original; later prints say "Copy of Original – N", the buyer\'s downloads "Copy of Original"', async () => {
    const sita = await signedInCustomer(c.t, { name: 'Sita Sharma' });
    const { orderId } = await collected(1234467, sita, {
      buyerName: 'Sita Sharma',
      buyerPan: '123456789',
    });
    const doc = await invoiceOf(orderId);
    // 12,34,567 NPR in all (delivery 100 included).
    expect(doc.totalAmount).toBe(123_456_700);

    const first = await c.http.call('GET', `/api/admin/invoices/${doc.id}/pdf`, printer.headers);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.headers['content-type']).toBe('application/pdf');
    expect(first.headers['content-disposition']).toBe(
      `attachment; filename="invoice-2082-83-${doc.number}.pdf"`,
    );
    const original = await pdfText(first.rawPayload);
    for (const expected of [
      'Himal Electronics Pvt. Ltd.',
      'New Road, Kathmandu',
      'PAN: 601234567',
      'Tax Invoice',
      doc.number,
      '2082/83',
      'Date (BS)',
      '2082-11-17',
      'Date (AD)',
      '2026-03-01',
      'Buyer: Sita Sharma',
      'Buyer PAN: 123456789',
      'Delivery charge',
      '1 x 12,34,467.00',
      'Taxable amount',
      '10,92,537.17',
      'VAT 13 %',
      '1,42,029.83',
      '12,34,567.00',
      'Twelve Lakh Thirty-Four Thousand Five Hundred Sixty-Seven Rupees only',
      'Payment method: Cash on delivery',
      'Issued by: Test Admin',
    ]) {
      expect(original).toContain(expected);
    }
    expect(original).not.toContain('Copy of Original');

    const second = await c.http.call(
      'GET',
      `/api/admin/invoices/${doc.id}/pdf?format=receipt80`,
      printer.headers,
    );
    expect(second.statusCode, second.body).toBe(200);
    const copy = await pdfText(second.rawPayload);
    expect(copy).toContain('Copy of Original – 1');
    expect(copy).toContain('Tax Invoice');
    expect(copy).toContain('12,34,567.00');

    // The buyer's downloads are electronic copies of the original they have: marked, logged
    // with the customer, not counted as prints (docs/api-notes.md, "Tax invoice prints").
    for (const prefix of ['/api/orders', '/api/mobile/orders']) {
      const mine = await c.http.call('GET', `${prefix}/${orderId}/invoice`, sita.headers);
      expect(mine.statusCode, mine.body).toBe(200);
      const text = await pdfText(mine.rawPayload);
      expect(text).toContain('Copy of Original');
      expect(text).not.toContain('Copy of Original –');
    }
    const detail = await c.http.call('GET', `/api/admin/invoices/${doc.id}`, reader.headers);
    expect(detail.json().data).toMatchObject({ printCount: 2, lastPrintedAt: expect.any(String) });

    // Every rendering is in the activity log: the admin's original and reprint with the admin,
    // the customer's downloads with the customer.
    const log = await c.http.call(
      'GET',
      `/api/admin/activity?entityType=invoice&entityId=${doc.id}&order=asc`,
      c.admin.headers,
    );
    expect(log.json().data).toMatchObject([
      { adminId: c.admin.userId, action: 'issue' },
      {
        adminId: printer.userId,
        action: 'print',
        summary: `Printed tax invoice ${doc.number} (a4, original)`,
      },
      {
        adminId: printer.userId,
        action: 'reprint',
        summary: `Printed tax invoice ${doc.number} (receipt80, copy of original 1)`,
      },
      {
        adminId: null,
        action: 'download_copy',
        summary: `Customer ${sita.userId} downloaded tax invoice ${doc.number} (a4, electronic copy, not a print)`,
      },
      {
        adminId: null,
        action: 'download_copy',
        summary: `Customer ${sita.userId} downloaded tax invoice ${doc.number} (a4, electronic copy, not a print)`,
      },
    ]);
  });

  it("prints a Nepali buyer's name as written, its conjunct drawn as one shape, on A4 and on the receipt", async () => {
    const { orderId } = await collected(900, undefined, { buyerName: 'सीता श्रेष्ठ' });
    const doc = await invoiceOf(orderId);
    for (const format of ['a4', 'receipt80']) {
      const res = await c.http.call(
        'GET',
        `/api/admin/invoices/${doc.id}/pdf?format=${format}`,
        printer.headers,
      );
      expect(res.statusCode, res.body).toBe(200);
      const text = await pdfText(res.rawPayload);
      expect(text).toContain('Buyer: सीता श्रेष्ठ');
      expect(text).not.toContain('?');
      expect([...ligatures(res.rawPayload)]).toEqual(expect.arrayContaining(['श्र', 'ष्ठ']));
    }
  });

  it('a credit note prints as "Credit Note" with its invoice and the reason', async () => {
    const { orderId } = await collected(700);
    const cancel = await c.http.call('POST', `/api/admin/orders/${orderId}/cancel`, c.admin.headers, {
      reason: 'Damaged in store',
    });
    await c.adminSettled(cancel.json().data.requestId);
    const note = await creditNoteOf(orderId);
    const res = await c.http.call('GET', `/api/admin/credit-notes/${note.id}/pdf`, printer.headers);
    expect(res.statusCode, res.body).toBe(200);
    const text = await pdfText(res.rawPayload);
    for (const expected of [
      'Credit Note',
      note.number,
      'Against invoice',
      note.referenceInvoiceNumber,
      'Damaged in store',
    ]) {
      expect(text).toContain(expected);
    }
    expect(text).toContain('Eight Hundred Rupees only');
  });

  it("the buyer's first download is the original when the store printed none; downloads are limited to 20 an hour per order", async () => {
    const buyer = await c.customer();
    const { orderId } = await collected(5000, buyer);
    const doc = await invoiceOf(orderId);
    const download = () => c.http.call('GET', `/api/mobile/orders/${orderId}/invoice`, buyer.headers);
    const first = await download();
    expect(first.statusCode, first.body).toBe(200);
    expect(await pdfText(first.rawPayload)).not.toContain('Copy of Original');
    for (let i = 1; i < 20; i++) expect((await download()).statusCode).toBe(200);
    const over = await download();
    expectError(over, 429, 'RATE_LIMITED');
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
    const detail = await c.http.call('GET', `/api/admin/invoices/${doc.id}`, reader.headers);
    expect(detail.json().data.printCount).toBe(1);
    // The store's own print after that is the first numbered copy.
    const printed = await c.http.call('GET', `/api/admin/invoices/${doc.id}/pdf`, printer.headers);
    expect(await pdfText(printed.rawPayload)).toContain('Copy of Original – 1');
  });

  it('customer route: 404 INVOICE_NOT_FOUND before the invoice, 403 for another customer, 404 for an unknown order', async () => {
    const who = await c.customer();
    const { orderId } = await c.placed(who, 'cod');
    expectError(
      await c.http.call('GET', `/api/orders/${orderId}/invoice`, who.headers),
      404,
      'INVOICE_NOT_FOUND',
    );
    const other = await c.customer();
    expectError(
      await c.http.call('GET', `/api/orders/${orderId}/invoice`, other.headers),
      403,
      'ORDER_ACCESS_DENIED',
    );
    expectError(
      await c.http.call('GET', '/api/mobile/orders/99999999/invoice', who.headers),
      404,
      'ORDER_NOT_FOUND',
    );
  });
});

describe('admin routes', () => {
  it('need Invoices_READ, Invoices_PRINT and Invoices_SYNC; unknown ids answer 404', async () => {
    const { orderId } = await collected(200);
    const { id } = await invoiceOf(orderId);
    const nobody = await signedInAdmin(c.t, { permissions: ['Orders_READ'] });
    for (const path of ['/api/admin/invoices', `/api/admin/invoices/${id}`, '/api/admin/credit-notes']) {
      expectError(await c.http.call('GET', path, nobody.headers), 403, 'AUTH_PERMISSION_DENIED');
    }
    expectError(
      await c.http.call('GET', `/api/admin/invoices/${id}/pdf`, reader.headers),
      403,
      'AUTH_PERMISSION_DENIED',
    );
    expectError(
      await c.http.call('POST', `/api/admin/invoices/${id}/resync`, printer.headers),
      403,
      'AUTH_PERMISSION_DENIED',
    );
    expectError(
      await c.http.call('GET', '/api/admin/tax-reports/sales-register?fiscalYear=2082/83', nobody.headers),
      403,
      'AUTH_PERMISSION_DENIED',
    );
    expectError(
      await c.http.call('GET', '/api/admin/invoices/99999999', reader.headers),
      404,
      'INVOICE_NOT_FOUND',
    );
    expectError(
      await c.http.call('GET', `/api/admin/credit-notes/${id}`, reader.headers),
      404,
      'CREDIT_NOTE_NOT_FOUND',
    );
    // CBMS is off in this app: a resync has nothing to send to.
    expectError(
      await c.http.call('POST', `/api/admin/invoices/${id}/resync`, c.admin.headers),
      409,
      'INVOICE_SYNC_NOT_CONFIGURED',
    );
    expectError(
      await c.http.call('GET', '/api/admin/invoices?fiscalYear=2082-83', reader.headers),
      400,
      'VALIDATION_ERROR',
    );
  });

  it('lists filter by fiscal year, dates, sync status, order and search (number or buyer), paginated', async () => {
    const { orderId } = await collected(400, undefined, { buyerName: 'Annapurna Books' });
    const doc = await invoiceOf(orderId);
    const page = await c.http.call('GET', '/api/admin/invoices?size=2&page=1', reader.headers);
    expect(page.json().data).toHaveLength(2);
    expect(page.json().meta).toMatchObject({ page: 1, size: 2, count: expect.any(Number) });
    const byBuyer = await c.http.call('GET', '/api/admin/invoices?search=annapurna', reader.headers);
    expect(byBuyer.json().data.map((d: { id: number }) => d.id)).toEqual([doc.id]);
    const byNumber = await c.http.call('GET', `/api/admin/invoices?search=${doc.number}`, reader.headers);
    expect(byNumber.json().data.map((d: { id: number }) => d.id)).toContain(doc.id);
    const synced = await c.http.call('GET', '/api/admin/invoices?syncStatus=synced', reader.headers);
    expect(synced.json().meta.count).toBe(0);
    const window = await c.http.call(
      'GET',
      `/api/admin/invoices?from=${encodeURIComponent(doc.issuedAt)}&to=${encodeURIComponent(doc.issuedAt)}`,
      reader.headers,
    );
    expect(window.json().data.map((d: { id: number }) => d.id)).toContain(doc.id);
    // The order page's link: the order's invoice, and no credit note while it is not returned.
    const byOrder = await c.http.call('GET', `/api/admin/invoices?orderId=${orderId}`, reader.headers);
    expect(byOrder.json().data.map((d: { id: number }) => d.id)).toEqual([doc.id]);
    const noReturn = await c.http.call('GET', `/api/admin/credit-notes?orderId=${orderId}`, reader.headers);
    expect(noReturn.json().data).toEqual([]);
    expectError(
      await c.http.call('GET', '/api/admin/invoices?orderId=abc', reader.headers),
      400,
      'VALIDATION_ERROR',
    );
  });
});

describe('registers', () => {
  it('the sales register and the sales return register as CSV, in rupees with two decimals; an export is logged', async () => {
    const { orderId } = await collected(1030, undefined, {
      buyerName: 'Register Buyer',
      buyerPan: '999888777',
    });
    const doc = await invoiceOf(orderId);
    const res = await c.http.call(
      'GET',
      '/api/admin/tax-reports/sales-register?fiscalYear=2082/83',
      reader.headers,
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe('attachment; filename="sales-register-2082-83.csv"');
    const lines = res.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toBe(
      'Fiscal year,Number,Reference invoice,Buyer name,Buyer PAN,Date (BS),Total,Discount,Taxable amount,VAT,Exempt amount,Payment method,Printed,Print count,Active,Synced,Issued by',
    );
    expect(lines).toContain(
      `2082/83,${doc.number},,Register Buyer,999888777,2082-11-17,1130.00,0.00,1000.00,130.00,0.00,Cash on delivery,no,0,yes,not required,Test Admin`,
    );
    // Falgun is BS month 11; Chaitra (12) has none of these.
    const falgun = await c.http.call(
      'GET',
      '/api/admin/tax-reports/sales-register?fiscalYear=2082/83&month=11',
      reader.headers,
    );
    expect(falgun.body).toContain(doc.number);
    const chaitra = await c.http.call(
      'GET',
      '/api/admin/tax-reports/sales-register?fiscalYear=2082/83&month=12',
      reader.headers,
    );
    expect(chaitra.body.trim().split('\r\n')).toHaveLength(1);
    const returns = await c.http.call(
      'GET',
      '/api/admin/tax-reports/sales-return-register?fiscalYear=2082/83',
      reader.headers,
    );
    expect(returns.statusCode).toBe(200);
    expect(returns.body).toMatch(/HECN-\d+,HE-\d+,/);
    // Each export is logged with the admin and what it held (newest first).
    const log = await c.http.call('GET', `/api/admin/activity?adminId=${reader.userId}`, c.admin.headers);
    const registerCount = lines.length - 1;
    expect(log.json().data.slice(0, 4)).toMatchObject([
      {
        adminId: reader.userId,
        action: 'export',
        entityType: 'credit_note',
        summary: expect.stringMatching(/^Exported the sales return register of 2082\/83 \(\d+ documents\)$/),
      },
      {
        action: 'export',
        entityType: 'invoice',
        summary: 'Exported the sales register of 2082/83, BS month 12 (0 documents)',
      },
      { action: 'export', summary: expect.stringContaining('BS month 11') },
      {
        action: 'export',
        entityType: 'invoice',
        summary: `Exported the sales register of 2082/83 (${registerCount} documents)`,
      },
    ]);
    expectError(
      await c.http.call(
        'GET',
        '/api/admin/tax-reports/sales-register?fiscalYear=2082/83&month=13',
        reader.headers,
      ),
      400,
      'VALIDATION_ERROR',
    );
  });

  it('is streamed in keyset pages: a fiscal year of more documents than one page comes whole, in series order, once each', async () => {
    // A fiscal year of its own (2084/85) with REGISTER_BATCH + 20 invoices.
    clock.set('2027-09-01T06:00:00.000Z');
    const total = REGISTER_BATCH + 20;
    const deps = { db: c.db, clock, config: c.t.platform.config, queueSync: () => {} };
    try {
      for (let i = 0; i < total; i++) {
        await inTransaction(c.db, (tx, a) =>
          issueInvoice(deps, tx, a, {
            order: {
              id: 700_000 + i,
              orderNumber: `R-${i}`,
              customerId: c.admin.userId,
              paymentMethod: 'pos',
              gateway: 'cash',
              buyerName: `Buyer ${i}`,
              buyerPan: null,
              receiver: null,
              address: null,
              lines: [{ title: 'Item', quantity: 1, unitPrice: 113, amount: 113 }],
              discount: 0,
              finalPayable: 113,
            },
            adminId: null,
          }),
        );
      }
    } finally {
      clock.set('2026-03-01T10:00:00.000Z');
    }
    const res = await c.http.call(
      'GET',
      '/api/admin/tax-reports/sales-register?fiscalYear=2084/85',
      reader.headers,
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    // Written as it is read: no length known up front.
    expect(res.headers['content-length']).toBeUndefined();
    const rows = res.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n')
      .slice(1);
    expect(rows).toHaveLength(total);
    expect(rows.map((r) => r.split(',')[1])).toEqual(Array.from({ length: total }, (_, i) => `HE-${i + 1}`));
    expect(rows[REGISTER_BATCH]).toBe(
      `2084/85,HE-${REGISTER_BATCH + 1},,Buyer ${REGISTER_BATCH},,${rows[REGISTER_BATCH]!.split(',')[5]},113.00,0.00,100.00,13.00,0.00,In store (cash),no,0,yes,not required,System`,
    );
    const log = await c.http.call(
      'GET',
      `/api/admin/activity?adminId=${reader.userId}&size=1`,
      c.admin.headers,
    );
    expect(log.json().data[0]).toMatchObject({
      action: 'export',
      summary: `Exported the sales register of 2084/85 (${total} documents)`,
    });
  });

  it('a download that breaks off is logged with how far it got', async () => {
    const { stream } = registerCsv(
      { db: c.db, clock, log: { error: () => {} } },
      { kind: 'invoice', fiscalYear: '2084/85', adminId: reader.userId },
      10,
    );
    const chunks = stream[Symbol.asyncIterator]();
    await chunks.next(); // the header
    expect(String((await chunks.next()).value).split('\r\n')).toHaveLength(11); // ten rows
    await chunks.return?.();
    let entry: { summary: string } | undefined;
    // Written after the stream closes: asked until it is there (by time, not by tries, so a
    // loaded machine does not fail it).
    const deadline = Date.now() + 10_000;
    while (!entry && Date.now() < deadline) {
      const log = await c.http.call(
        'GET',
        `/api/admin/activity?adminId=${reader.userId}&size=1`,
        c.admin.headers,
      );
      entry = log.json().data.find((e: { summary: string }) => e.summary.includes('broke off'));
      if (!entry) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(entry).toMatchObject({
      action: 'export',
      summary: 'Started an export of the sales register of 2084/85; it broke off after 10 documents',
    });
  });
});
