// Testimonials: admin create, read, update and delete with their rules and codes; the admin
// list (search, isVisible, every sort, order, pagination); the public lists of both surfaces
// (visible only, rating, public sorts, TESTIMONIAL_INVALID_SORT); who may call what.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testimonials } from '../../../src/modules/reviews/testimonials/testimonials.table';
import { TestClock } from '../../../src/platform/clock';
import type { TestApp } from '../../helpers/app';
import { createTestApp } from '../../helpers/app';
import { type SignedIn, signedInAdmin, signedInCustomer } from '../../helpers/factories';
import { expectError } from '../cart/calls';
import { caller } from '../catalog/calls';

const clock = new TestClock('2026-06-01T08:00:00.000Z');
const BASE = '/api/admin/reviews/testimonials';
const PUBLIC = ['/api/reviews/testimonials', '/api/mobile/reviews/testimonials'];

let t: TestApp;
let http: ReturnType<typeof caller>;
let admin: SignedIn;
let customer: SignedIn;

beforeAll(async () => {
  t = await createTestApp({ clock });
  http = caller(t);
  admin = await signedInAdmin(t, { superadmin: true });
  customer = await signedInCustomer(t);
});
afterAll(() => t?.close());

interface Testimonial {
  id: number;
  name: string;
  rating: number;
  comment: string;
  imageUrl: string | null;
  isVisible: boolean;
  order: number;
  createdAt: string;
  updatedAt: string;
}

const create = (body: Record<string, unknown>, who: SignedIn = admin) =>
  http.call('POST', BASE, who.headers, body);

async function created(body: Record<string, unknown>): Promise<Testimonial> {
  clock.advance(60_000);
  const res = await create({ name: 'Someone', rating: 5, comment: 'Good shop', ...body });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data;
}

describe('testimonial lists', () => {
  let a: Testimonial;
  let b: Testimonial;
  let hidden: Testimonial;
  let d: Testimonial;

  beforeAll(async () => {
    await t.platform.database.db.delete(testimonials);
    a = await created({ name: 'Asha Karki', rating: 4, comment: 'Quick delivery', order: 2 });
    b = await created({ name: 'Bikash Thapa', rating: 5, comment: 'Genuine laptop, 100% happy', order: 1 });
    hidden = await created({
      name: 'Chandra Hidden',
      rating: 5,
      comment: 'Not shown',
      order: 0,
      isVisible: false,
    });
    d = await created({ name: 'Deepa Lama', rating: 3, comment: 'Good packaging', order: 3 });
    // b is edited last: updatedAt differs from createdAt order.
    clock.advance(60_000);
    const res = await http.call('PATCH', `${BASE}/${a.id}`, admin.headers, {
      comment: 'Very quick delivery',
    });
    expect(res.statusCode, res.body).toBe(200);
  });

  const adminIds = async (query: string) => {
    const res = await http.call('GET', `${BASE}?${query}`, admin.headers);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { data: Testimonial[]; meta: Record<string, number> };
  };
  const ids = (body: { data: Array<{ id: number }> }) => body.data.map((x) => x.id);

  it('admin list: every testimonial, by order ascending unless told otherwise', async () => {
    const all = await adminIds('');
    expect(ids(all)).toEqual([hidden.id, b.id, a.id, d.id]);
    expect(all.meta).toEqual({ count: 4, page: 1, size: 20 });
    expect(all.data.find((x) => x.id === hidden.id)).toMatchObject({
      isVisible: false,
      name: 'Chandra Hidden',
    });
    expect(ids(await adminIds('order=desc'))).toEqual([d.id, a.id, b.id, hidden.id]);
  });

  it('admin list: each sort key in both directions (ties by id)', async () => {
    expect(ids(await adminIds('sort=createdAt'))).toEqual([a.id, b.id, hidden.id, d.id]);
    expect(ids(await adminIds('sort=createdAt&order=desc'))).toEqual([d.id, hidden.id, b.id, a.id]);
    expect(ids(await adminIds('sort=updatedAt'))).toEqual([b.id, hidden.id, d.id, a.id]);
    expect(ids(await adminIds('sort=updatedAt&order=desc'))).toEqual([a.id, d.id, hidden.id, b.id]);
    expect(ids(await adminIds('sort=rating'))).toEqual([d.id, a.id, b.id, hidden.id]);
    expect(ids(await adminIds('sort=rating&order=desc'))).toEqual([hidden.id, b.id, a.id, d.id]);
    expect(ids(await adminIds('sort=order'))).toEqual([hidden.id, b.id, a.id, d.id]);
  });

  it('admin list: search in name and comment (wildcards literal), isVisible, pagination', async () => {
    expect(ids(await adminIds('search=karki'))).toEqual([a.id]);
    expect(ids(await adminIds('search=PACKAGING'))).toEqual([d.id]);
    expect(ids(await adminIds('search=100%25'))).toEqual([b.id]);
    expect(ids(await adminIds('search=%25'))).toEqual([b.id]);
    expect(ids(await adminIds('search=nothing-matches'))).toEqual([]);
    expect(ids(await adminIds('isVisible=false'))).toEqual([hidden.id]);
    expect(ids(await adminIds('isVisible=true'))).toEqual([b.id, a.id, d.id]);
    expect(ids(await adminIds('isVisible=true&search=delivery'))).toEqual([a.id]);
    const page = await adminIds('page=2&size=3');
    expect(ids(page)).toEqual([d.id]);
    expect(page.meta).toEqual({ count: 4, page: 2, size: 3 });
    const whole = await adminIds('pagination=false');
    expect(whole.meta).toEqual({ count: 4 });
    expect(whole.data).toHaveLength(4);
    expect((await adminIds('size=100')).meta.size).toBe(100);
    for (const bad of [
      'size=101',
      'size=0',
      'page=0',
      'sort=name',
      'order=up',
      'isVisible=yes',
      'pagination=no',
    ]) {
      expectError(await http.call('GET', `${BASE}?${bad}`, admin.headers), 400, 'VALIDATION_ERROR');
    }
  });

  it('public lists: visible only, without isVisible and updatedAt, by order ascending', async () => {
    for (const path of PUBLIC) {
      const res = await http.call('GET', path);
      expect(res.statusCode, res.body).toBe(200);
      expect(ids(res.json())).toEqual([b.id, a.id, d.id]);
      expect(res.json().meta).toEqual({ count: 3, page: 1, size: 20 });
      expect(Object.keys(res.json().data[0]).sort()).toEqual(
        ['comment', 'createdAt', 'id', 'imageUrl', 'name', 'order', 'rating'].sort(),
      );
      expect(res.json().data[1]).toEqual({
        id: a.id,
        name: 'Asha Karki',
        rating: 4,
        comment: 'Very quick delivery',
        imageUrl: null,
        order: 2,
        createdAt: a.createdAt,
      });
    }
  });

  it('public lists: rating (exact), sorts order, createdAt and rating in both directions, pagination', async () => {
    const pub = async (query: string, path = PUBLIC[0]) => {
      const res = await http.call('GET', `${path}?${query}`);
      expect(res.statusCode, res.body).toBe(200);
      return res.json();
    };
    for (const path of PUBLIC) {
      expect(ids(await pub('rating=5', path))).toEqual([b.id]);
      expect(ids(await pub('rating=3', path))).toEqual([d.id]);
      expect(ids(await pub('rating=1', path))).toEqual([]);
      expect(ids(await pub('order=desc', path))).toEqual([d.id, a.id, b.id]);
      expect(ids(await pub('sort=createdAt', path))).toEqual([a.id, b.id, d.id]);
      expect(ids(await pub('sort=createdAt&order=desc', path))).toEqual([d.id, b.id, a.id]);
      expect(ids(await pub('sort=rating', path))).toEqual([d.id, a.id, b.id]);
      expect(ids(await pub('sort=rating&order=desc', path))).toEqual([b.id, a.id, d.id]);
      const page = await pub('page=2&size=2', path);
      expect(ids(page)).toEqual([d.id]);
      expect(page.meta).toEqual({ count: 3, page: 2, size: 2 });
      expect((await pub('pagination=false', path)).meta).toEqual({ count: 3 });
    }
  });

  it('public lists: an unsupported sort is 400 TESTIMONIAL_INVALID_SORT; other bad values 400 VALIDATION_ERROR', async () => {
    for (const path of PUBLIC) {
      for (const sort of ['updatedAt', 'isVisible', 'name', 'ORDER']) {
        expectError(await http.call('GET', `${path}?sort=${sort}`), 400, 'TESTIMONIAL_INVALID_SORT');
      }
      for (const bad of ['rating=0', 'rating=6', 'rating=x', 'size=101', 'order=sideways', 'page=-1']) {
        expectError(await http.call('GET', `${path}?${bad}`), 400, 'VALIDATION_ERROR');
      }
    }
  });
});

describe('testimonial writes', () => {
  it('creates with defaults (visible, order 0), trimmed plain text', async () => {
    const res = await create({
      name: '  Nabin <b>Joshi</b>  ',
      rating: 5,
      comment: '<p>Best <script>steal()</script>service</p>',
      imageUrl: 'https://cdn.example.com/nabin.jpg',
    });
    expect(res.statusCode, res.body).toBe(201);
    const data = res.json().data;
    expect(data).toMatchObject({
      name: 'Nabin Joshi',
      rating: 5,
      comment: 'Best service',
      imageUrl: 'https://cdn.example.com/nabin.jpg',
      isVisible: true,
      order: 0,
    });
    expect(data.createdAt).toBe(data.updatedAt);
    const read = await http.call('GET', `${BASE}/${data.id}`, admin.headers);
    expect(read.statusCode).toBe(200);
    expect(read.json().data).toEqual(data);
    const trail = await http.activityOf(admin, 'testimonial', data.id);
    expect(trail[0]).toMatchObject({ action: 'create', adminId: admin.userId });
  });

  it('refuses bad fields with 400 VALIDATION_ERROR; 120 characters is the longest name', async () => {
    for (const body of [
      { name: undefined },
      { name: '   ' },
      { name: '<b></b>' },
      { name: 'n'.repeat(121) },
      { rating: 0 },
      { rating: 6 },
      { rating: 3.5 },
      { rating: undefined },
      { comment: '' },
      { comment: '  ' },
      { comment: undefined },
      { imageUrl: 'not-a-url' },
      { isVisible: 'yes' },
      { order: 1.5 },
      { order: 'first' },
      { unknownField: 1 },
    ]) {
      expectError(
        await create({ name: 'Valid', rating: 4, comment: 'Fine', ...body }),
        400,
        'VALIDATION_ERROR',
      );
    }
    const longest = await create({
      name: `  ${'n'.repeat(120)}  `,
      rating: 1,
      comment: 'ok',
      isVisible: false,
      order: -5,
    });
    expect(longest.statusCode, longest.body).toBe(201);
    expect(longest.json().data).toMatchObject({ name: 'n'.repeat(120), isVisible: false, order: -5 });
  });

  it('an unexpected insert failure answers 400 TESTIMONIAL_CREATE_FAILED and stores nothing', async () => {
    const db = t.platform.database.db;
    // A rule the API does not know of makes the insert fail the way a broken database would.
    await db.execute(
      sql`alter table testimonials add constraint test_block_name check (name <> 'Blocked Name')`,
    );
    try {
      expectError(
        await create({ name: 'Blocked Name', rating: 4, comment: 'x' }),
        400,
        'TESTIMONIAL_CREATE_FAILED',
      );
      const res = await http.call('GET', `${BASE}?search=Blocked`, admin.headers);
      expect(res.json().meta.count).toBe(0);
    } finally {
      await db.execute(sql`alter table testimonials drop constraint test_block_name`);
    }
  });

  it('updates the fields given, keeps the others, clears the image with null', async () => {
    const before = await created({
      name: 'Old Name',
      rating: 2,
      comment: 'Meh',
      imageUrl: 'https://cdn.example.com/x.png',
    });
    clock.advance(60_000);
    const res = await http.call('PATCH', `${BASE}/${before.id}`, admin.headers, {
      name: ' New <i>Name</i> ',
      rating: 4,
      isVisible: false,
      order: 7,
      imageUrl: null,
    });
    expect(res.statusCode, res.body).toBe(200);
    const after = res.json().data;
    expect(after).toMatchObject({
      id: before.id,
      name: 'New Name',
      rating: 4,
      comment: 'Meh',
      imageUrl: null,
      isVisible: false,
      order: 7,
      createdAt: before.createdAt,
    });
    expect(after.updatedAt > before.updatedAt).toBe(true);
    // Hidden now: gone from the storefront.
    const pub = await http.call('GET', `${PUBLIC[0]}?pagination=false`);
    expect(pub.json().data.map((x: { id: number }) => x.id)).not.toContain(before.id);
    for (const body of [
      {},
      { rating: 9 },
      { name: '' },
      { comment: '   ' },
      { imageUrl: 'nope' },
      { extra: true },
    ]) {
      expectError(
        await http.call('PATCH', `${BASE}/${before.id}`, admin.headers, body),
        400,
        'VALIDATION_ERROR',
      );
    }
    const trail = await http.activityOf(admin, 'testimonial', before.id);
    expect(trail[0]).toMatchObject({ action: 'update' });
    expect(trail[0]!.summary).toContain('isVisible');
  });

  it('deletes, answering the deleted record; afterwards 404 TESTIMONIAL_NOT_FOUND everywhere', async () => {
    const record = await created({ name: 'To Delete' });
    const res = await http.call('DELETE', `${BASE}/${record.id}`, admin.headers);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toEqual(record);
    expectError(await http.call('GET', `${BASE}/${record.id}`, admin.headers), 404, 'TESTIMONIAL_NOT_FOUND');
    expectError(
      await http.call('DELETE', `${BASE}/${record.id}`, admin.headers),
      404,
      'TESTIMONIAL_NOT_FOUND',
    );
    expectError(
      await http.call('PATCH', `${BASE}/${record.id}`, admin.headers, { rating: 3 }),
      404,
      'TESTIMONIAL_NOT_FOUND',
    );
    const pub = await http.call('GET', `${PUBLIC[1]}?pagination=false`);
    expect(pub.json().data.map((x: { id: number }) => x.id)).not.toContain(record.id);
    expect((await http.activityOf(admin, 'testimonial', record.id))[0]).toMatchObject({ action: 'delete' });
  });

  it('bad ids are 400 VALIDATION_ERROR', async () => {
    for (const [method, id] of [
      ['GET', '0'],
      ['GET', 'abc'],
      ['PATCH', '01'],
      ['DELETE', '-1'],
    ] as const) {
      expectError(
        await http.call(
          method,
          `${BASE}/${id}`,
          admin.headers,
          method === 'PATCH' ? { rating: 3 } : undefined,
        ),
        400,
        'VALIDATION_ERROR',
      );
    }
  });

  it('every admin route: 401 without a token, 403 for a customer, 403 AUTH_PERMISSION_DENIED without its permission', async () => {
    const record = await created({ name: 'Guarded' });
    const routes: Array<['GET' | 'POST' | 'PATCH' | 'DELETE', string, string, unknown?]> = [
      ['GET', BASE, 'Reviews_READ'],
      ['GET', `${BASE}/${record.id}`, 'Reviews_READ'],
      ['POST', BASE, 'Reviews_CREATE', { name: 'X', rating: 3, comment: 'y' }],
      ['PATCH', `${BASE}/${record.id}`, 'Reviews_UPDATE', { rating: 3 }],
      ['DELETE', `${BASE}/${record.id}`, 'Reviews_DELETE'],
    ];
    for (const [method, url, permission, payload] of routes) {
      await http.expectGuarded(method, url, permission, customer, payload);
    }
    // Each write needs its own permission.
    const reader = await signedInAdmin(t, { permissions: ['Reviews_READ', 'Reviews_UPDATE'] });
    expectError(await create({ name: 'X', rating: 3, comment: 'y' }, reader), 403, 'AUTH_PERMISSION_DENIED');
    expectError(
      await http.call('DELETE', `${BASE}/${record.id}`, reader.headers),
      403,
      'AUTH_PERMISSION_DENIED',
    );
    const writer = await signedInAdmin(t, { permissions: ['Reviews_CREATE', 'Reviews_DELETE'] });
    expect((await create({ name: 'By writer', rating: 3, comment: 'y' }, writer)).statusCode).toBe(201);
    expect((await http.call('DELETE', `${BASE}/${record.id}`, writer.headers)).statusCode).toBe(200);
    // The public lists need nothing, and a token changes nothing.
    for (const path of PUBLIC) {
      expect((await http.call('GET', path, customer.headers)).statusCode).toBe(200);
      expect((await http.call('GET', path)).statusCode).toBe(200);
    }
  });
});
