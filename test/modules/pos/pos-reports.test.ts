// The POS back office's reads: the list, the export (JSON flat array by default, CSV on request:
// quoting, Devanagari, formula guard, the 90-day limit), the analytics (completed payments only,
// every district listed whatever the filter, whole NPR), and the 80 mm receipt PDF.
import { extractText, getDocumentProxy } from 'unpdf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClock } from '../../../src/platform/clock';
import { ligatures } from '../../helpers/pdf';
import { expectError } from '../cart/calls';
import { type PosTestApp, posTestApp } from './calls';

// 06:00 UTC is 11:45 in Kathmandu, the same store-local day.
const clock = new TestClock('2026-06-15T06:00:00.000Z');
let c: PosTestApp;
const ids: Record<'A' | 'B' | 'C' | 'D' | 'F', number> = { A: 0, B: 0, C: 0, D: 0, F: 0 };
let numbers: Record<string, string> = {};
let online = 0;

/** Parses RFC 4180 text (the test's own reader, as a spreadsheet would read it). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let field = '';
  let row: string[] = [];
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      row.push(field);
      field = '';
    } else if (ch === '\r' && text[i + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i++;
    } else field += ch;
  }
  return rows;
}

beforeAll(async () => {
  c = await posTestApp({ clock, env: { STORE_NAME: 'Himal Electronics' } });
  const ram = await c.customer({ name: 'राम शर्मा', email: 'ram.devanagari@example.com' });
  const hari = await c.customer({ name: 'Shrestha, "Hari"', email: 'hari.quotes@example.com' });
  const formula = await c.customer({ name: '=SUM(A1:A9)', email: 'formula@example.com' });
  const order = async (
    who: { userId: string },
    mrp: number,
    district: string | null,
    gateway: string | null,
  ) => {
    const productId = await c.product({ mrp, onHand: 5, title: `Item ${mrp}` });
    const id = await c.posOrder(
      who.userId,
      [{ productId, quantity: 1 }],
      district ? { shippingDistrict: district } : {},
    );
    if (gateway) {
      const res = await c.pay(id, { gateway, amountNpr: mrp });
      expect(res.statusCode, res.body).toBe(200);
    }
    clock.advance(60_000);
    return id;
  };
  ids.D = await order(hari, 1200, null, 'pos_wallet_a');
  ids.A = await order(ram, 1000, 'Kathmandu', 'pos_cash');
  ids.B = await order(hari, 2500, 'Lalitpur', 'pos_card');
  ids.C = await order(formula, 700, 'Kathmandu', null);
  ids.F = await order(ram, 300, 'kathmandu', 'pos_cash');
  // D was sold six weeks ago.
  await c.forceOrder(ids.D, { createdAt: new Date('2026-05-01T06:00:00.000Z') });
  // An online order of the same day is no POS sale.
  online = (await c.placed(await c.customer(), 'cod')).orderId;
  numbers = {};
  for (const [k, id] of Object.entries(ids)) numbers[k] = (await c.detail(id)).orderNumber;
});
afterAll(() => c?.t.close());

describe('GET /api/admin/pos/orders', () => {
  it('lists POS orders newest first with the list item fields and page meta', async () => {
    const res = await c.call('GET', '/orders');
    expect(res.statusCode, res.body).toBe(200);
    const { data, meta } = res.json();
    expect(meta).toEqual({ count: 5, page: 1, size: 20 });
    expect(data.map((o: { id: number }) => o.id)).toEqual([ids.F, ids.C, ids.B, ids.A, ids.D]);
    expect(data.map((o: { id: number }) => o.id)).not.toContain(online);
    expect(Object.keys(data[0]).sort()).toEqual(
      [
        'createdAt',
        'customer',
        'finalPayable',
        'fulfillmentStatus',
        'id',
        'orderNumber',
        'orderStatus',
        'paymentMethod',
        'paymentStatus',
      ].sort(),
    );
    const b = data.find((o: { id: number }) => o.id === ids.B);
    expect(b).toMatchObject({
      orderNumber: numbers.B,
      orderStatus: 'paid',
      paymentStatus: 'completed',
      fulfillmentStatus: 'received',
      finalPayable: 2500,
      paymentMethod: 'pos_card',
      customer: { name: 'Shrestha, "Hari"', email: 'hari.quotes@example.com' },
    });
    expect(b.customer.id).toMatch(/^[0-9a-f-]{36}$/);
    const unpaid = data.find((o: { id: number }) => o.id === ids.C);
    expect(unpaid).toMatchObject({
      paymentMethod: null,
      fulfillmentStatus: null,
      orderStatus: 'payment_pending',
    });
  });

  it('pages with page and limit, filters by store-local dates', async () => {
    const page2 = await c.call('GET', '/orders?page=2&limit=2');
    expect(page2.json().meta).toEqual({ count: 5, page: 2, size: 2 });
    expect(page2.json().data.map((o: { id: number }) => o.id)).toEqual([ids.B, ids.A]);
    const june = await c.call('GET', '/orders?startDate=2026-06-15&endDate=2026-06-15');
    expect(june.json().meta.count).toBe(4);
    const may = await c.call('GET', '/orders?endDate=2026-05-31');
    expect(may.json().data.map((o: { id: number }) => o.id)).toEqual([ids.D]);
    for (const q of [
      'limit=101',
      'limit=0',
      'page=0',
      'startDate=2026-06-16&endDate=2026-06-15',
      'startDate=15-06-2026',
    ]) {
      expectError(await c.call('GET', `/orders?${q}`), 400, 'VALIDATION_ERROR');
    }
  });
});

describe('GET /api/admin/pos/orders/export', () => {
  const range = 'startDate=2026-04-01&endDate=2026-06-15';

  it('answers the flat array of list items, newest first (JSON by default)', async () => {
    const res = await c.call('GET', `/orders/export?${range}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toContain('application/json');
    const { data } = res.json();
    expect(Array.isArray(data)).toBe(true);
    expect(res.json().meta).toBeUndefined();
    expect(data.map((o: { id: number }) => o.id)).toEqual([ids.F, ids.C, ids.B, ids.A, ids.D]);
    const list = await c.call('GET', '/orders');
    expect(data).toEqual(list.json().data);
  });

  it('takes at most 90 days (both ends inclusive) and needs both dates', async () => {
    expect((await c.call('GET', '/orders/export?startDate=2026-03-18&endDate=2026-06-15')).statusCode).toBe(
      200,
    );
    const over = await c.call('GET', '/orders/export?startDate=2026-03-17&endDate=2026-06-15');
    expectError(over, 400, 'ORDER_DATE_RANGE_TOO_LARGE');
    expect(over.json().maxDays).toBe(90);
    expectError(
      await c.call('GET', '/orders/export?startDate=2026-03-17&endDate=2026-06-15&format=csv'),
      400,
      'ORDER_DATE_RANGE_TOO_LARGE',
    );
    expectError(await c.call('GET', '/orders/export?startDate=2026-06-01'), 400, 'VALIDATION_ERROR');
    expectError(
      await c.call('GET', '/orders/export?startDate=2026-06-10&endDate=2026-06-01'),
      400,
      'VALIDATION_ERROR',
    );
    expectError(await c.call('GET', `/orders/export?${range}&format=xlsx`), 400, 'VALIDATION_ERROR');
  });

  it('as CSV: a download with a BOM, CRLF lines, commas, quotes and Devanagari kept, formulas defused', async () => {
    const res = await c.call('GET', `/orders/export?${range}&format=csv`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe(
      'attachment; filename="pos-orders-2026-04-01-to-2026-06-15.csv"',
    );
    const body = res.rawPayload.toString('utf8');
    expect(body.startsWith('\uFEFF')).toBe(true);
    expect(body.endsWith('\r\n')).toBe(true);
    // The quoting on the wire.
    expect(body).toContain(',"Shrestha, ""Hari""",');
    expect(body).toContain(',राम शर्मा,');
    expect(body).toContain(",'=SUM(A1:A9),");
    const rows = parseCsv(body.slice(1));
    expect(rows[0]).toEqual([
      'id',
      'orderNumber',
      'createdAt',
      'orderStatus',
      'paymentStatus',
      'fulfillmentStatus',
      'paymentMethod',
      'finalPayable',
      'customerId',
      'customerName',
      'customerEmail',
    ]);
    expect(rows).toHaveLength(6);
    for (const row of rows) expect(row).toHaveLength(11);
    const byNumber = new Map(rows.slice(1).map((r) => [r[1], r]));
    expect(byNumber.get(numbers.B)!.slice(3, 8)).toEqual([
      'paid',
      'completed',
      'received',
      'pos_card',
      '2500',
    ]);
    expect(byNumber.get(numbers.B)![9]).toBe('Shrestha, "Hari"');
    expect(byNumber.get(numbers.A)![9]).toBe('राम शर्मा');
    expect(byNumber.get(numbers.C)!.slice(5, 7)).toEqual(['', '']);
    expect(rows.slice(1).map((r) => Number(r[0]))).toEqual([ids.F, ids.C, ids.B, ids.A, ids.D]);
  });

  it('`Accept: text/csv` asks for CSV too; format=json wins over it', async () => {
    const res = await c.call('GET', `/orders/export?${range}`, undefined, { accept: 'text/csv' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    const json = await c.call('GET', `/orders/export?${range}&format=json`, undefined, {
      accept: 'text/csv',
    });
    expect(json.headers['content-type']).toContain('application/json');
  });
});

describe('GET /api/admin/pos/analytics', () => {
  it('counts completed POS payments only, per gateway and per district (every district listed)', async () => {
    const res = await c.call('GET', '/analytics');
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json().data;
    // A 1000 + B 2500 + D 1200 + F 300; C is unpaid, the online order is no POS sale.
    expect(data.totalRevenue).toBe(5000);
    expect(data.orderCount).toBe(4);
    expect(data.gatewayBreakdown).toEqual([
      { gateway: 'pos_cash', revenue: 1300, count: 2 },
      { gateway: 'pos_wallet_a', revenue: 1200, count: 1 },
      { gateway: 'pos_wallet_b', revenue: 0, count: 0 },
      { gateway: 'pos_card', revenue: 2500, count: 1 },
    ]);
    expect(data.districtBreakdown).toHaveLength(77);
    expect(data.districtBreakdown.slice(0, 2)).toEqual([
      { districtName: 'Lalitpur', revenue: 2500, orderCount: 1 },
      { districtName: 'Kathmandu', revenue: 1300, orderCount: 2 },
    ]);
    expect(data.districtBreakdown.find((d: { districtName: string }) => d.districtName === 'Jhapa')).toEqual({
      districtName: 'Jhapa',
      revenue: 0,
      orderCount: 0,
    });
    for (const n of [
      data.totalRevenue,
      ...data.districtBreakdown.map((d: { revenue: number }) => d.revenue),
    ]) {
      expect(Number.isInteger(n)).toBe(true);
    }
  });

  it('the district filter narrows the totals and gateways, never the district list; dates narrow all', async () => {
    const res = await c.call('GET', '/analytics?district=KATHMANDU');
    const data = res.json().data;
    expect(data).toMatchObject({ totalRevenue: 1300, orderCount: 2 });
    expect(data.gatewayBreakdown.find((g: { gateway: string }) => g.gateway === 'pos_card').revenue).toBe(0);
    expect(data.districtBreakdown).toHaveLength(77);
    expect(data.districtBreakdown[0]).toEqual({ districtName: 'Lalitpur', revenue: 2500, orderCount: 1 });
    const june = (await c.call('GET', '/analytics?startDate=2026-06-01&endDate=2026-06-30')).json().data;
    expect(june).toMatchObject({ totalRevenue: 3800, orderCount: 3 });
    expectError(
      await c.call('GET', '/analytics?startDate=2026-06-30&endDate=2026-06-01'),
      400,
      'VALIDATION_ERROR',
    );
  });
});

describe('GET /api/admin/pos/orders/:orderId/receipt', () => {
  it('is a PDF one 80 mm page wide, naming the store, the order, the lines and the payment', async () => {
    const res = await c.call('GET', `/orders/${ids.B}/receipt`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toBe(`inline; filename="receipt-${numbers.B}.pdf"`);
    expect(res.headers['cache-control']).toBe('private, no-store');
    expect(res.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    const pdf = await getDocumentProxy(new Uint8Array(res.rawPayload));
    expect(pdf.numPages).toBe(1);
    const page = await pdf.getPage(1);
    const [x0, , x1, y1] = page.view;
    expect(x1! - x0!).toBeCloseTo(226.77, 2);
    const height = y1!;
    const { text } = await extractText(pdf, { mergePages: true });
    for (const expected of [
      'Himal Electronics',
      numbers.B,
      '15 Jun 2026',
      'Item 2500',
      '2,500',
      'Paid by card',
      'Total NPR',
    ]) {
      expect(text).toContain(expected);
    }
    // Tax invoices are off (the default): a paid sale keeps the plain receipt.
    expect(text).toContain('Sales receipt');
    expect(text).not.toContain('Tax Invoice');
    // The page is as long as the sale: four more lines make it taller.
    const who = await c.customer();
    const items = [];
    for (let i = 0; i < 5; i++) items.push({ productId: await c.product({ onHand: 1 }), quantity: 1 });
    const longer = await c.call('GET', `/orders/${await c.posOrder(who.userId, items)}/receipt`);
    const longPage = await (await getDocumentProxy(new Uint8Array(longer.rawPayload))).getPage(1);
    expect(longPage.view[2]).toBeCloseTo(226.77, 2);
    expect(longPage.view[3]! - height).toBeGreaterThan(4 * 15);
  });

  it('prints an unpaid sale as awaiting payment; a Devanagari name prints as written', async () => {
    const res = await c.call('GET', `/orders/${ids.A}/receipt`);
    const { text } = await extractText(await getDocumentProxy(new Uint8Array(res.rawPayload)), {
      mergePages: true,
    });
    // राम शर्मा: a copy-paste reads glyphs in drawing order, so the reph र् (drawn above the end
    // of the syllable, as one shape) comes after मा.
    expect(text).toContain('राम शमार्');
    expect(text).not.toContain('?');
    expect([...ligatures(res.rawPayload)]).toContain('र्');
    const unpaid = await c.call('GET', `/orders/${ids.C}/receipt`);
    const t2 = (
      await extractText(await getDocumentProxy(new Uint8Array(unpaid.rawPayload)), { mergePages: true })
    ).text;
    expect(t2).toContain('Awaiting payment');
    expect(t2).toContain(numbers.C);
  });

  it('refuses unknown and non-POS orders', async () => {
    expectError(await c.call('GET', '/orders/99999999/receipt'), 404, 'ORDER_NOT_FOUND');
    expectError(await c.call('GET', `/orders/${online}/receipt`), 400, 'POS_ORDER_NOT_POS_SALE');
    expectError(await c.call('GET', '/orders/abc/receipt'), 400, 'VALIDATION_ERROR');
  });
});
