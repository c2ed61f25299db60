// docs/decisions.md, "Ids in paths": integers in paths and query values are plain decimal digits
// (`^[1-9][0-9]*$` for ids). `0x1`, `1e3`, `+1`, `01` and the like were read as other numbers
// (`/api/admin/feedback/0x1` answered feedback 1, `page=0x10` was page 16); now they are 400
// VALIDATION_ERROR, on every route that uses the shared id and pagination schemas.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decimalInt, intId } from '../../src/platform/http/params';
import { createTestApp, type TestApp } from '../helpers/app';
import { type SignedIn, signedInAdmin, signedInCustomer } from '../helpers/factories';

// Each of these, as a path id or a query integer, is refused.
const BAD_INTEGERS = [
  '0x1',
  '0X1',
  '1e3',
  '1E3',
  '+1',
  '-1',
  '01',
  '001',
  '0',
  '1.0',
  '1.',
  '.5',
  ' 1',
  '1 ',
  '1_000',
  '0b1',
  '0o7',
  'Infinity',
  'NaN',
  'abc',
  '١',
  '99999999999999999999',
  '2147483648',
];

describe('integers in paths and query values', () => {
  let t: TestApp;
  let admin: SignedIn;
  let feedbackId: number;
  beforeAll(async () => {
    t = await createTestApp({ env: { RATE_LIMIT_ENABLED: 'false' } });
    admin = await signedInAdmin(t, { superadmin: true });
    const customer = await signedInCustomer(t);
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/mobile/feedback',
      headers: customer.headers,
      payload: { category: 'bug_report', subject: 'Crash', message: 'The cart crashes' },
    });
    expect(created.statusCode).toBe(201);
    feedbackId = created.json().data.id;
  });
  afterAll(() => t.close());

  const get = (url: string, auth = true) =>
    t.app.inject({ method: 'GET', url, headers: auth ? admin.headers : {} });

  function expectInvalid(res: Awaited<ReturnType<typeof get>>, field: string, url: string) {
    expect(res.statusCode, url).toBe(400);
    const body = res.json();
    expect(body.errorCode, url).toBe('VALIDATION_ERROR');
    expect(
      body.details.map((d: { path: string }) => d.path),
      url,
    ).toContain(field);
  }

  // Routes that use the shared schemas: a path id, a catalog id, pagination, integer filters.
  const targets: { name: string; url: (v: string) => string; field: string; auth?: boolean }[] = [
    { name: 'admin feedback id', url: (v) => `/api/admin/feedback/${v}`, field: 'id' },
    { name: 'admin product id', url: (v) => `/api/admin/products/${v}`, field: 'id' },
    { name: 'product stock ledger id', url: (v) => `/api/admin/products/${v}/stock/ledger`, field: 'id' },
    { name: 'page of a list', url: (v) => `/api/admin/feedback?page=${v}`, field: 'page' },
    { name: 'size of a list', url: (v) => `/api/admin/feedback?size=${v}`, field: 'size' },
    { name: 'public page', url: (v) => `/api/products?page=${v}`, field: 'page', auth: false },
    {
      name: 'categoryId filter',
      url: (v) => `/api/products?categoryId=${v}`,
      field: 'categoryId',
      auth: false,
    },
    {
      name: 'brandId filter',
      url: (v) => `/api/mobile/products?brandId=${v}`,
      field: 'brandId',
      auth: false,
    },
    { name: 'parentId filter', url: (v) => `/api/admin/categories?parentId=${v}`, field: 'parentId' },
  ];

  for (const target of targets) {
    it(`${target.name}: every non-decimal form is 400 VALIDATION_ERROR`, async () => {
      for (const value of BAD_INTEGERS) {
        const url = target.url(encodeURIComponent(value));
        expectInvalid(await get(url, target.auth !== false), target.field, url);
      }
    });
  }

  it('minPrice and maxPrice take 0 and plain digits only', async () => {
    for (const value of ['0x10', '1e3', '+5', '05', '-1', '1.5', '1000000000001']) {
      const url = `/api/products?minPrice=${encodeURIComponent(value)}`;
      expectInvalid(await get(url, false), 'minPrice', url);
    }
    const ok = await get('/api/products?minPrice=0&maxPrice=500', false);
    expect(ok.statusCode).toBe(200);
  });

  it('a uuid that is not a uuid is 400 VALIDATION_ERROR', async () => {
    for (const value of ['1', 'not-a-uuid', '01930000-0000-7000-8000-00000000000', `{${'0'.repeat(32)}}`]) {
      const url = `/api/admin/seo/${encodeURIComponent(value)}`;
      expectInvalid(await get(url), 'id', url);
    }
  });

  it('the plain forms still work: ids, pages, sizes and filters', async () => {
    // `0x1` used to answer this very record.
    expect((await get(`/api/admin/feedback/0x${feedbackId.toString(16)}`)).statusCode).toBe(400);
    const one = await get(`/api/admin/feedback/${feedbackId}`);
    expect(one.statusCode).toBe(200);
    expect(one.json().data.id).toBe(feedbackId);

    const missing = await get('/api/admin/feedback/2147483647');
    expect(missing.statusCode).toBe(404);
    expect(missing.json().errorCode).toBe('FEEDBACK_NOT_FOUND');
    expect((await get('/api/admin/products/42')).json().errorCode).toBe('PRODUCT_NOT_FOUND');

    const page = await get('/api/admin/feedback?page=1&size=100');
    expect(page.statusCode).toBe(200);
    expect(page.json().meta).toMatchObject({ page: 1, size: 100, count: 1 });
    const later = await get('/api/admin/feedback?page=16&size=1');
    expect(later.statusCode).toBe(200);
    expect(later.json().meta).toMatchObject({ page: 16, size: 1 });
    expect(later.json().data).toEqual([]);

    const filtered = await get('/api/products?categoryId=10&brandId=7&page=2&size=5', false);
    expect(filtered.statusCode).toBe(200);
    expect(filtered.json().meta).toMatchObject({ page: 2, size: 5 });
    expect((await get('/api/admin/categories?parentId=root')).statusCode).toBe(200);
    expect((await get('/api/admin/categories?parentId=3')).statusCode).toBe(200);
  });
});

describe('decimalInt and intId', () => {
  it.each([
    ['1', 1],
    ['42', 42],
    ['2147483647', 2_147_483_647],
    [7, 7],
  ])('intId takes %j as %j', (input, expected) => {
    expect(intId.parse(input)).toBe(expected);
  });

  it.each(BAD_INTEGERS.map((v) => [v]))('intId refuses %j', (input) => {
    expect(intId.safeParse(input).success).toBe(false);
  });

  it('a JSON body may send the number itself, never a fraction or a number out of range', () => {
    for (const input of [0, -1, 1.5, 2_147_483_648, Number.NaN, true, null, [1], {}]) {
      expect(intId.safeParse(input).success, JSON.stringify(input)).toBe(false);
    }
  });

  it('with min 0, takes "0" but not "00"', () => {
    const n = decimalInt(0, 10);
    expect(n.parse('0')).toBe(0);
    expect(n.parse('10')).toBe(10);
    expect(n.safeParse('00').success).toBe(false);
    expect(n.safeParse('11').success).toBe(false);
  });
});
