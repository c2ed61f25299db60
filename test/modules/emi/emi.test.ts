// EMI: admin config and banks, the cached public reads (cleared by every admin write), the
// public inquiry with its snapshot and rules, and the admin inquiry routes. Every route is
// tried without a token, as a customer and without its permission; every error code appears.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { products } from '../../../src/modules/catalog/products/products.table';
import { emiInquiryBody, emiInquiryView, submitEmiInquiry } from '../../../src/modules/emi';
import { emiBanks, emiConfig, emiInquiries, emiInquiryBanks } from '../../../src/modules/emi/emi.table';
import { createTestApp, type TestApp } from '../../helpers/app';
import { type SignedIn, signedInAdmin, signedInCustomer } from '../../helpers/factories';
import { caller, insertProduct } from '../catalog/calls';

describe('EMI', () => {
  let t: TestApp;
  let http: ReturnType<typeof caller>;
  let admin: SignedIn;
  let customer: SignedIn;

  beforeAll(async () => {
    t = await createTestApp();
    http = caller(t);
    admin = await signedInAdmin(t, { superadmin: true });
    customer = await signedInCustomer(t);
  });
  afterAll(() => t?.close());

  beforeEach(async () => {
    const db = t.platform.database.db;
    await db.delete(emiInquiryBanks);
    await db.delete(emiInquiries);
    await db.delete(emiBanks);
    await db.delete(emiConfig);
    await t.platform.cache.delete('emi:generation:public');
  });

  const call = (
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    url: string,
    payload?: unknown,
    who = admin,
  ) => http.call(method, url, who.headers, payload);

  async function bank(body: Record<string, unknown> = {}) {
    const res = await call('POST', '/api/admin/emi/banks', { name: 'Nabil Bank', displayOrder: 1, ...body });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().data as { id: number; name: string; isActive: boolean };
  }
  async function enable(periods = [3, 6, 12]) {
    const res = await call('PUT', '/api/admin/emi/config', { isEnabled: true, periods });
    expect(res.statusCode, res.body).toBe(200);
  }
  let ipSeq = 0;
  const nextIp = () => {
    ipSeq += 1;
    return `10.9.${ipSeq >> 8}.${ipSeq & 255}`;
  };
  /** Each inquiry from its own address, so the per-IP limit is met only where a test means it. */
  const inquiry = (body: Record<string, unknown>, remoteAddress = nextIp()) =>
    t.app.inject({
      method: 'POST',
      url: '/api/mobile/emi/inquiries',
      remoteAddress,
      payload: {
        customerName: 'Sita Sharma',
        customerEmail: ' Sita@Example.com ',
        customerMobile: '+977 9801234567',
        hasCreditCard: true,
        downPaymentAmount: 10_000,
        message: 'Call after 5 pm',
        ...body,
      },
    });

  describe('permissions', () => {
    it.each([
      ['GET', '/api/admin/emi/config', 'EmiConfig_READ', undefined],
      ['PUT', '/api/admin/emi/config', 'EmiConfig_UPDATE', { isEnabled: false, periods: [] }],
      ['POST', '/api/admin/emi/banks', 'EmiBanks_CREATE', { name: 'X' }],
      ['GET', '/api/admin/emi/banks', 'EmiBanks_READ', undefined],
      ['GET', '/api/admin/emi/banks/1', 'EmiBanks_READ', undefined],
      ['PATCH', '/api/admin/emi/banks/1', 'EmiBanks_UPDATE', { name: 'Y' }],
      ['DELETE', '/api/admin/emi/banks/1', 'EmiBanks_DELETE', undefined],
      ['GET', '/api/admin/emi/inquiries', 'EmiInquiries_READ', undefined],
      ['GET', '/api/admin/emi/inquiries/1', 'EmiInquiries_READ', undefined],
      ['PATCH', '/api/admin/emi/inquiries/1/status', 'EmiInquiries_UPDATE', { status: 'contacted' }],
    ] as const)('%s %s needs %s', async (method, url, permission, payload) => {
      await http.expectGuarded(method, url, permission, customer, payload);
    });

    it('each permission alone opens its route', async () => {
      const reader = await signedInAdmin(t, { permissions: ['EmiBanks_READ'] });
      expect((await call('GET', '/api/admin/emi/banks', undefined, reader)).statusCode).toBe(200);
      expect((await call('POST', '/api/admin/emi/banks', { name: 'Z' }, reader)).statusCode).toBe(403);
    });
  });

  describe('config', () => {
    it('admin read before any save: 404 EMI_CONFIG_NOT_FOUND; public read says disabled', async () => {
      const res = await call('GET', '/api/admin/emi/config');
      expect(res.statusCode).toBe(404);
      expect(res.json().errorCode).toBe('EMI_CONFIG_NOT_FOUND');
      const pub = await http.call('GET', '/api/mobile/emi/config');
      expect(pub.statusCode).toBe(200);
      expect(pub.json().data).toEqual({ isEnabled: false, periods: [], updatedAt: null });
    });

    it('PUT saves; periods deduplicated and sorted; admin and public read it', async () => {
      const res = await call('PUT', '/api/admin/emi/config', { isEnabled: true, periods: [12, 3, 6, 3] });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().data).toMatchObject({ isEnabled: true, periods: [3, 6, 12] });
      expect((await call('GET', '/api/admin/emi/config')).json().data.periods).toEqual([3, 6, 12]);
      expect((await http.call('GET', '/api/mobile/emi/config')).json().data).toMatchObject({
        isEnabled: true,
        periods: [3, 6, 12],
      });
    });

    it.each([
      [{ isEnabled: true, periods: [0] }, 'periods.0'],
      [{ isEnabled: true, periods: [61] }, 'periods.0'],
      [{ isEnabled: true, periods: [1.5] }, 'periods.0'],
      [{ isEnabled: true, periods: [] }, 'periods'],
      [{ periods: [3] }, 'isEnabled'],
      [{ isEnabled: 'yes', periods: [3] }, 'isEnabled'],
    ])('bad body %j: 400 VALIDATION_ERROR at %s', async (body, path) => {
      const res = await call('PUT', '/api/admin/emi/config', body);
      expect(res.statusCode).toBe(400);
      expect(res.json().errorCode).toBe('VALIDATION_ERROR');
      expect(res.json().details.map((d: { path: string }) => d.path)).toContain(path);
    });

    it('disabling with no periods is allowed', async () => {
      const res = await call('PUT', '/api/admin/emi/config', { isEnabled: false, periods: [] });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().data).toMatchObject({ isEnabled: false, periods: [] });
    });
  });

  describe('banks', () => {
    it('create, read, list (all, in display order), patch, delete deactivates', async () => {
      const b = await bank({
        name: '  Global IME  ',
        logoUrl: 'https://cdn.example.com/gi.png',
        displayOrder: 2,
      });
      expect(b).toMatchObject({ name: 'Global IME', isActive: true });
      const a = await bank({ name: 'Nabil', displayOrder: 1 });
      expect((await call('GET', `/api/admin/emi/banks/${b.id}`)).json().data.logoUrl).toBe(
        'https://cdn.example.com/gi.png',
      );
      const patched = await call('PATCH', `/api/admin/emi/banks/${a.id}`, {
        name: 'Nabil Bank',
        logoUrl: null,
      });
      expect(patched.statusCode, patched.body).toBe(200);
      expect(patched.json().data).toMatchObject({ name: 'Nabil Bank', logoUrl: null, displayOrder: 1 });
      const del = await call('DELETE', `/api/admin/emi/banks/${a.id}`);
      expect(del.statusCode, del.body).toBe(200);
      expect(del.json().data.isActive).toBe(false);
      const list = await call('GET', '/api/admin/emi/banks');
      expect(list.json().meta).toEqual({ count: 2, page: 1, size: 20 });
      expect(list.json().data.map((x: { id: number }) => x.id)).toEqual([a.id, b.id]);
      const active = await call('GET', '/api/admin/emi/banks?isActive=true');
      expect(active.json().data.map((x: { id: number }) => x.id)).toEqual([b.id]);
      // Reactivation through PATCH.
      const back = await call('PATCH', `/api/admin/emi/banks/${a.id}`, { isActive: true });
      expect(back.json().data.isActive).toBe(true);
    });

    it('unknown bank: 404 EMI_BANK_NOT_FOUND on read, patch and delete', async () => {
      for (const [method, payload] of [['GET'], ['PATCH', { name: 'x' }], ['DELETE']] as const) {
        const res = await call(method, '/api/admin/emi/banks/999999', payload);
        expect(res.statusCode).toBe(404);
        expect(res.json().errorCode).toBe('EMI_BANK_NOT_FOUND');
      }
    });

    it.each([
      ['POST', { name: '  ' }],
      ['POST', { name: 'A', logoUrl: 'ftp://x/y.png' }],
      ['POST', { name: 'A', displayOrder: -1 }],
      ['PATCH', {}],
    ] as const)('%s bad body %j: 400 VALIDATION_ERROR', async (method, body) => {
      const b = method === 'PATCH' ? await bank() : undefined;
      const res = await call(method, b ? `/api/admin/emi/banks/${b.id}` : '/api/admin/emi/banks', body);
      expect(res.statusCode).toBe(400);
      expect(res.json().errorCode).toBe('VALIDATION_ERROR');
    });

    it('bad id in the path: 400 VALIDATION_ERROR', async () => {
      const res = await call('GET', '/api/admin/emi/banks/01');
      expect(res.statusCode).toBe(400);
      expect(res.json().errorCode).toBe('VALIDATION_ERROR');
    });

    it('public list: active banks only, display order, public fields', async () => {
      const b = await bank({ name: 'B', displayOrder: 5 });
      const a = await bank({ name: 'A', displayOrder: 1 });
      const off = await bank({ name: 'Off', displayOrder: 0 });
      await call('DELETE', `/api/admin/emi/banks/${off.id}`);
      const res = await http.call('GET', '/api/mobile/emi/banks');
      expect(res.statusCode).toBe(200);
      expect(res.json().data).toEqual([
        { id: a.id, name: 'A', logoUrl: null, displayOrder: 1 },
        { id: b.id, name: 'B', logoUrl: null, displayOrder: 5 },
      ]);
    });
  });

  describe('public cache', () => {
    it('every admin write is seen by the next public read', async () => {
      // Warm both caches, then change through each admin write in turn.
      expect((await http.call('GET', '/api/mobile/emi/config')).json().data.isEnabled).toBe(false);
      expect((await http.call('GET', '/api/mobile/emi/banks')).json().data).toEqual([]);

      await enable([6]);
      expect((await http.call('GET', '/api/mobile/emi/config')).json().data.periods).toEqual([6]);

      const b = await bank({ name: 'First' });
      const names = async () =>
        (await http.call('GET', '/api/mobile/emi/banks')).json().data.map((x: { name: string }) => x.name);
      expect(await names()).toEqual(['First']);

      await call('PATCH', `/api/admin/emi/banks/${b.id}`, { name: 'Renamed' });
      expect(await names()).toEqual(['Renamed']);

      await call('DELETE', `/api/admin/emi/banks/${b.id}`);
      expect(await names()).toEqual([]);

      await call('PATCH', `/api/admin/emi/banks/${b.id}`, { isActive: true });
      expect(await names()).toEqual(['Renamed']);

      await call('PUT', '/api/admin/emi/config', { isEnabled: false, periods: [] });
      expect((await http.call('GET', '/api/mobile/emi/config')).json().data.isEnabled).toBe(false);
    });

    it('public reads are served from the cache (a write behind the app is not seen)', async () => {
      await enable([3]);
      expect((await http.call('GET', '/api/mobile/emi/config')).json().data.periods).toEqual([3]);
      await t.platform.database.db.update(emiConfig).set({ periods: [24] });
      expect((await http.call('GET', '/api/mobile/emi/config')).json().data.periods).toEqual([3]);
    });
  });

  describe('inquiries', () => {
    it('stores the product title and sp as a snapshot; 201 with the submitted fields', async () => {
      await enable();
      const b1 = await bank({ name: 'A' });
      const b2 = await bank({ name: 'B' });
      const productId = await insertProduct(t, {
        productKind: 'physical',
        title: 'ThinkPad X1',
        mrp: 200_000,
        sp: 180_000,
      });
      const res = await inquiry({ productId, bankIds: [b1.id, b2.id, b1.id] });
      expect(res.statusCode, res.body).toBe(201);
      const data = res.json().data;
      expect(data).toMatchObject({
        productId,
        productTitle: 'ThinkPad X1',
        productSp: 180_000,
        customerName: 'Sita Sharma',
        customerEmail: 'sita@example.com',
        customerMobile: '+977 9801234567',
        bankIds: [b1.id, b2.id],
        hasCreditCard: true,
        downPaymentAmount: 10_000,
        message: 'Call after 5 pm',
        status: 'new',
      });
      // The snapshot does not follow later product changes.
      await t.platform.database.db
        .update(products)
        .set({ title: 'New title', sp: 1 })
        .where(eq(products.id, productId));
      const detail = await call('GET', `/api/admin/emi/inquiries/${data.id}`);
      expect(detail.json().data).toMatchObject({ productTitle: 'ThinkPad X1', productSp: 180_000 });
      // The function the POS module calls takes the same body and answers the same shape.
      const p = t.platform;
      const direct = await submitEmiInquiry(
        {
          db: p.database.db,
          clock: p.clock,
          cache: p.cache,
          config: p.config,
          storage: p.storage,
          push: p.outgoing.push,
          realtime: p.realtime,
        },
        emiInquiryBody.parse({
          productId,
          bankIds: [b2.id],
          customerName: 'Walk-in',
          customerEmail: 'w@example.com',
          customerMobile: '9800000000',
          hasCreditCard: false,
          downPaymentAmount: 0,
          message: null,
        }),
      );
      expect(emiInquiryView.parse(direct)).toMatchObject({
        productTitle: 'New title',
        productSp: 1,
        bankIds: [b2.id],
      });
    });

    it('tells the staff who follow inquiries up (EmiInquiries_UPDATE), not those who only read', async () => {
      await enable();
      const b1 = await bank({ name: 'Nabil' });
      const b2 = await bank({ name: 'NIC Asia' });
      const productId = await insertProduct(t, {
        productKind: 'physical',
        title: 'MacBook Air',
        sp: 150_000,
      });
      const follower = await signedInAdmin(t, { permissions: ['EmiInquiries_UPDATE'] });
      const reader = await signedInAdmin(t, { permissions: ['EmiInquiries_READ'] });
      const res = await inquiry({ productId, bankIds: [b1.id, b2.id] });
      expect(res.statusCode, res.body).toBe(201);
      const feedOf = async (who: SignedIn) =>
        (await call('GET', '/api/admin/notifications?pagination=false', undefined, who))
          .json()
          .data.filter((n: { type: string }) => n.type === 'emi.inquiry_received');
      expect(await feedOf(follower)).toEqual([
        expect.objectContaining({
          title: 'New EMI inquiry',
          body: 'Sita Sharma asks about instalments for MacBook Air (Nabil, NIC Asia).',
          data: { inquiryId: res.json().data.id, productId },
        }),
      ]);
      expect(await feedOf(reader)).toEqual([]);
    });

    it('allows 10 inquiries per hour per IP, then 429 RATE_LIMITED with Retry-After', async () => {
      await enable();
      const b = await bank();
      const productId = await insertProduct(t, { productKind: 'physical', sp: 90_000 });
      for (let i = 0; i < 10; i++) {
        expect((await inquiry({ productId, bankIds: [b.id] }, '10.8.0.1')).statusCode).toBe(201);
      }
      const limited = await inquiry({ productId, bankIds: [b.id] }, '10.8.0.1');
      expect(limited.statusCode).toBe(429);
      expect(limited.json().errorCode).toBe('RATE_LIMITED');
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
      expect((await inquiry({ productId, bankIds: [b.id] }, '10.8.0.2')).statusCode).toBe(201);
    });

    it('EMI disabled or never configured: 422 EMI_DISABLED', async () => {
      const productId = await insertProduct(t, { productKind: 'physical' });
      const b = await bank();
      let res = await inquiry({ productId, bankIds: [b.id] });
      expect(res.statusCode).toBe(422);
      expect(res.json().errorCode).toBe('EMI_DISABLED');
      await call('PUT', '/api/admin/emi/config', { isEnabled: false, periods: [3] });
      res = await inquiry({ productId, bankIds: [b.id] });
      expect(res.json().errorCode).toBe('EMI_DISABLED');
    });

    it('product unknown, unpublished or not sellable: 404 EMI_PRODUCT_NOT_FOUND', async () => {
      await enable();
      const b = await bank();
      const draft = await insertProduct(t, { productKind: 'physical', status: 'draft' });
      const unsellable = await insertProduct(t, { productKind: 'physical', isSellable: false });
      for (const productId of [999_999, draft, unsellable]) {
        const res = await inquiry({ productId, bankIds: [b.id] });
        expect(res.statusCode).toBe(404);
        expect(res.json().errorCode).toBe('EMI_PRODUCT_NOT_FOUND');
      }
    });

    it('a bank missing or inactive: 404 EMI_BANK_NOT_FOUND naming it; nothing stored', async () => {
      await enable();
      const productId = await insertProduct(t, { productKind: 'physical' });
      const ok = await bank();
      const off = await bank({ name: 'Off' });
      await call('DELETE', `/api/admin/emi/banks/${off.id}`);
      for (const ids of [
        [ok.id, 999_999],
        [ok.id, off.id],
      ]) {
        const res = await inquiry({ productId, bankIds: ids });
        expect(res.statusCode).toBe(404);
        expect(res.json().errorCode).toBe('EMI_BANK_NOT_FOUND');
        expect(res.json().bankIds).toEqual([ids[1]]);
      }
      expect(await t.platform.database.db.select().from(emiInquiries)).toHaveLength(0);
    });

    it('down payment must be below the effective price (sp, or mrp when sp is 0)', async () => {
      await enable();
      const b = await bank();
      const onSale = await insertProduct(t, { productKind: 'physical', mrp: 50_000, sp: 40_000 });
      const noSale = await insertProduct(t, { productKind: 'physical', mrp: 50_000, sp: 0 });
      let res = await inquiry({ productId: onSale, bankIds: [b.id], downPaymentAmount: 40_000 });
      expect(res.statusCode).toBe(400);
      expect(res.json().errorCode).toBe('VALIDATION_ERROR');
      expect(res.json().details[0].path).toBe('downPaymentAmount');
      res = await inquiry({ productId: onSale, bankIds: [b.id], downPaymentAmount: 39_999 });
      expect(res.statusCode, res.body).toBe(201);
      res = await inquiry({ productId: noSale, bankIds: [b.id], downPaymentAmount: 45_000 });
      expect(res.statusCode, res.body).toBe(201);
      res = await inquiry({ productId: noSale, bankIds: [b.id], downPaymentAmount: 0, message: undefined });
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json().data.message).toBeNull();
    });

    it.each([
      [{ downPaymentAmount: -1 }, 'downPaymentAmount'],
      [{ downPaymentAmount: 1.5 }, 'downPaymentAmount'],
      [{ bankIds: [] }, 'bankIds'],
      [{ customerEmail: 'not-an-email' }, 'customerEmail'],
      [{ customerMobile: 'abc' }, 'customerMobile'],
      [{ customerName: ' ' }, 'customerName'],
      [{ hasCreditCard: undefined }, 'hasCreditCard'],
      [{ productId: 0 }, 'productId'],
    ])('bad body %j: 400 VALIDATION_ERROR at %s', async (patch, path) => {
      await enable();
      const b = await bank();
      const productId = await insertProduct(t, { productKind: 'physical' });
      const res = await inquiry({ productId, bankIds: [b.id], ...patch });
      expect(res.statusCode).toBe(400);
      expect(res.json().errorCode).toBe('VALIDATION_ERROR');
      expect(res.json().details.map((d: { path: string }) => d.path.split('.')[0])).toContain(path);
    });

    it('admin list, filters, detail with banks, status with note; deactivated banks keep their links', async () => {
      await enable();
      const a = await bank({ name: 'A' });
      const b = await bank({ name: 'B' });
      const p1 = await insertProduct(t, { productKind: 'physical', mrp: 90_000 });
      const p2 = await insertProduct(t, { productKind: 'physical', mrp: 90_000 });
      const first = (await inquiry({ productId: p1, bankIds: [a.id], customerName: 'Ram Thapa' })).json()
        .data;
      const second = (
        await inquiry({ productId: p2, bankIds: [b.id], customerEmail: 'hari@example.com' })
      ).json().data;
      await call('DELETE', `/api/admin/emi/banks/${a.id}`);

      const list = await call('GET', '/api/admin/emi/inquiries');
      expect(list.statusCode).toBe(200);
      expect(list.json().meta).toEqual({ count: 2, page: 1, size: 20 });
      expect(list.json().data.map((x: { id: number }) => x.id)).toEqual([second.id, first.id]);
      const ids = async (q: string) =>
        (await call('GET', `/api/admin/emi/inquiries?${q}`)).json().data.map((x: { id: number }) => x.id);
      expect(await ids(`productId=${p1}`)).toEqual([first.id]);
      expect(await ids(`bankId=${b.id}`)).toEqual([second.id]);
      expect(await ids('search=thapa')).toEqual([first.id]);
      expect(await ids('search=HARI@')).toEqual([second.id]);
      expect(await ids('status=new&order=asc')).toEqual([first.id, second.id]);

      const detail = await call('GET', `/api/admin/emi/inquiries/${first.id}`);
      expect(detail.json().data.banks).toEqual([
        { id: a.id, name: 'A', logoUrl: null, displayOrder: 1, isActive: false },
      ]);
      expect(detail.json().data.bankIds).toEqual([a.id]);

      for (const status of ['contacted', 'approved', 'new', 'rejected', 'closed', 'closed']) {
        const res = await call('PATCH', `/api/admin/emi/inquiries/${first.id}/status`, {
          status,
          note: `now ${status}`,
        });
        expect(res.statusCode, res.body).toBe(200);
        expect(res.json().data).toMatchObject({ status, statusNote: `now ${status}` });
      }
      // Without a note the last note stays.
      const keep = await call('PATCH', `/api/admin/emi/inquiries/${first.id}/status`, {
        status: 'contacted',
      });
      expect(keep.json().data).toMatchObject({ status: 'contacted', statusNote: 'now closed' });
      expect(await ids('status=contacted')).toEqual([first.id]);
    });

    it('unknown inquiry: 404 EMI_INQUIRY_NOT_FOUND; bad status: 400', async () => {
      for (const [method, url, payload] of [
        ['GET', '/api/admin/emi/inquiries/999999', undefined],
        ['PATCH', '/api/admin/emi/inquiries/999999/status', { status: 'contacted' }],
      ] as const) {
        const res = await call(method, url, payload);
        expect(res.statusCode).toBe(404);
        expect(res.json().errorCode).toBe('EMI_INQUIRY_NOT_FOUND');
      }
      const bad = await call('PATCH', '/api/admin/emi/inquiries/1/status', { status: 'pending' });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().errorCode).toBe('VALIDATION_ERROR');
      const badQuery = await call('GET', '/api/admin/emi/inquiries?status=open');
      expect(badQuery.statusCode).toBe(400);
    });
  });
});
