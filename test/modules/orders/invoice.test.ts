// The invoice download: a real PDF read back (store, order number, date, customer, address,
// lines, coupon, shipping, total), its headers, a long order over two pages, errors, access and
// the OpenAPI description of the PDF response.
import { Validator } from '@seriousme/openapi-schema-validator';
import { getDocumentProxy } from 'unpdf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClock } from '../../../src/platform/clock';
import { printable } from '../../../src/platform/pdf';
import { type SignedIn, signedInAdmin, signedInCustomer } from '../../helpers/factories';
import { ligatures, pdfText as readText } from '../../helpers/pdf';
import { expectError } from '../cart/calls';
import { type OrdersTestApp, ordersTestApp } from './calls';

// 18:30 UTC on 10 March is 00:15 on 11 March in Kathmandu: the invoice shows the store's date.
const clock = new TestClock('2026-03-10T18:30:00.000Z');
let c: OrdersTestApp;
let reader: SignedIn;

const invoiceUrl = (orderId: number | string) => `/api/admin/orders/${orderId}/invoice-download`;

async function pdfText(body: Buffer) {
  const pdf = await getDocumentProxy(new Uint8Array(body));
  return { pages: pdf.numPages, text: await readText(body) };
}

async function download(orderId: number) {
  const res = await c.http.call('GET', invoiceUrl(orderId), reader.headers);
  expect(res.statusCode, res.body).toBe(200);
  return res;
}

beforeAll(async () => {
  c = await ordersTestApp({ clock, env: { STORE_NAME: 'Himal Electronics' } });
  reader = await signedInAdmin(c.t, { permissions: ['Orders_READ'] });
});
afterAll(() => c?.t.close());

describe('GET /api/admin/orders/:id/invoice-download', () => {
  it('is the order as a PDF download: store, order, customer, address, lines, coupon, shipping, total', async () => {
    const backpack = await c.product({ title: 'Trekking Backpack 45L', mrp: 5000, sp: 4500, onHand: 5 });
    const notebook = await c.product({ title: 'Lokta Paper Notebook', mrp: 350, onHand: 5 });
    const cover = await c.carePackage();
    const coupon = await c.coupon({ code: 'DASHAIN10', value: 10 });
    const sita = await signedInCustomer(c.t, { name: 'Sita Sharma' });
    await c.cartCall(sita, 'POST', '/items', {
      productId: backpack,
      quantity: 2,
      carePackage: { carePackageId: cover.id, pricingTierId: cover.tiers[0]!.id },
    });
    await c.cartCall(sita, 'POST', '/items', { productId: notebook, quantity: 1 });
    await c.cartWith(sita, []); // the Kathmandu location, fee 100
    await c.cartCall(sita, 'POST', '/coupon', { code: coupon.code });
    const placed = await c.checkout(sita, 'cod');
    expect(placed.statusCode, placed.body).toBe(200);
    const order = await c.order(sita, placed.json().data.orderId);
    // 2 × 4500 + 350 = 9350; 10% off: 935; shipping 100; cover 2 × 500.
    expect(order).toMatchObject({ totalSp: 9350, couponDiscount: 935, shippingFee: 100, finalPayable: 9515 });

    const res = await download(order.id);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="invoice-${order.orderNumber}.pdf"`,
    );
    expect(res.headers['cache-control']).toBe('private, no-store');
    expect(res.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');

    const { pages, text } = await pdfText(res.rawPayload);
    expect(pages).toBe(1);
    for (const expected of [
      'Himal Electronics',
      'INVOICE',
      order.orderNumber,
      '11 Mar 2026, 00:15',
      'Payment Cash on delivery, to be collected',
      'Sita Sharma',
      'Ward 1',
      'Kathmandu 44600',
      'Trekking Backpack 45L',
      'Lokta Paper Notebook',
      'Care package: Cover (1 year)',
      '9,000', // the backpack line
      'Subtotal 9,350',
      'Coupon discount (DASHAIN10) -935',
      'Shipping fee 100',
      'Care packages 1,000',
      'Total payable NPR 9,515',
    ]) {
      expect(text).toContain(expected);
    }
  });

  it('a long order continues on a second page with the table header again', async () => {
    const who = await signedInCustomer(c.t, { name: 'Ram Thapa' });
    const titles: string[] = [];
    for (let i = 1; i <= 36; i++) {
      const title = `Spare part number ${String(i).padStart(2, '0')}`;
      titles.push(title);
      const productId = await c.product({ title, mrp: 100 * i, onHand: 3 });
      await c.cartCall(who, 'POST', '/items', { productId, quantity: 1 });
    }
    await c.cartWith(who, []);
    const placed = await c.checkout(who, 'cod');
    expect(placed.statusCode, placed.body).toBe(200);
    const order = await c.order(who, placed.json().data.orderId);
    const { pages, text } = await pdfText((await download(order.id)).rawPayload);
    expect(pages).toBe(2);
    for (const title of titles) expect(text).toContain(title);
    expect(text.match(/ITEM QTY UNIT PRICE AMOUNT/g)).toHaveLength(2);
    expect(text).toContain(`Invoice ${order.orderNumber} (continued)`);
    expect(text).toContain('Page 1 of 2');
    expect(text).toContain('Page 2 of 2');
    // 100 × (1 + … + 36) = 66,600 plus the fee; Nepal's grouping past a lakh would show as 1,00,000.
    expect(text).toContain(`Total payable NPR ${new Intl.NumberFormat('en-IN').format(order.finalPayable)}`);
  });

  it('prints a Nepali name and product title as written, shaped (conjuncts, vowel signs)', async () => {
    const topi = await c.product({ title: 'हिमालयन ढाका टोपी', mrp: 1200, onHand: 5 });
    const who = await signedInCustomer(c.t, { name: 'सीता श्रेष्ठ' });
    await c.cartCall(who, 'POST', '/items', { productId: topi, quantity: 1 });
    await c.cartWith(who, []);
    const placed = await c.checkout(who, 'cod');
    expect(placed.statusCode, placed.body).toBe(200);
    const order = await c.order(who, placed.json().data.orderId);
    const body = (await download(order.id)).rawPayload;
    const { text } = await pdfText(body);
    expect(text).not.toContain('?');
    expect(text).toContain('सीता श्रेष्ठ');
    // A copy-paste reads glyphs in drawing order: the vowel sign ि before ह shows it was drawn
    // where it belongs, left of its consonant (हि).
    expect(text).toContain('िहमालयन ढाका टोपी');
    // The conjuncts श्र and ष्ठ are each drawn as the font's one shape, not as letters and a virama.
    expect([...ligatures(body)]).toEqual(expect.arrayContaining(['श्र', 'ष्ठ']));
  });

  it('a character the font cannot draw becomes ?; Latin and Devanagari stay', () => {
    expect(printable('Café “Momo” – राम 😀 漢')).toBe('Café “Momo” – राम ? ?');
  });

  it('unknown order 404 ORDER_NOT_FOUND; a bad id 400; Orders_READ required', async () => {
    expectError(await c.http.call('GET', invoiceUrl(99999999), reader.headers), 404, 'ORDER_NOT_FOUND');
    expectError(await c.http.call('GET', invoiceUrl('abc'), reader.headers), 400, 'VALIDATION_ERROR');
    await c.http.expectGuarded('GET', invoiceUrl(1), 'Orders_READ', await c.customer());
  });

  it('the OpenAPI document describes the PDF response and stays valid', async () => {
    const res = await c.http.call('GET', '/docs/openapi.json');
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    const result = await new Validator().validate(doc);
    expect(result.errors ?? []).toEqual([]);
    const route = doc.paths['/api/admin/orders/{id}/invoice-download'].get;
    expect(route.responses['200'].content).toEqual({
      'application/pdf': { schema: expect.objectContaining({ type: 'string', format: 'binary' }) },
    });
    expect(route.description).toContain('Orders_READ');
  });
});
