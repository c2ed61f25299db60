// The plain public list reads its total from `product_listing_count`, kept by triggers on
// `products`: after every kind of product write the total equals a count of the visible rows.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedBulk } from '../../../scripts/seed-bulk';
import { rowsOf } from '../../../src/modules/catalog/catalog.repository';
import { productListingCount, products } from '../../../src/modules/catalog/products/products.table';
import { createTestApp, type TestApp } from '../../helpers/app';
import { type SignedIn, signedInAdmin } from '../../helpers/factories';
import { caller } from './calls';

describe('public list total', () => {
  let t: TestApp;
  let admin: SignedIn;
  let http: ReturnType<typeof caller>;

  beforeAll(async () => {
    t = await createTestApp({ env: { CATALOG_PUBLIC_LIST_CACHE_SECONDS: '0' } });
    http = caller(t);
    admin = await signedInAdmin(t, { superadmin: true });
  });
  afterAll(() => t.close());

  const visible = async () => {
    const [row] = await rowsOf<{ n: number }>(
      t.platform.database.db,
      sql`select count(*)::int as n from ${products} where status = 'published' and is_sellable`,
    );
    return Number(row!.n);
  };
  /**
   * The plain list's total, checked against a count of the rows, and returned. The kept row is
   * checked too: without it the list counts the rows itself, and would agree anyway.
   */
  const total = async () => {
    const res = await http.call('GET', '/api/products?size=1');
    expect(res.statusCode, res.body).toBe(200);
    const count = res.json().meta.count as number;
    const expected = await visible();
    expect(count).toBe(expected);
    const kept = await t.platform.database.db.select().from(productListingCount);
    expect(kept.map((r) => r.products)).toEqual([expected]);
    return count;
  };
  const create = async (body: object) => {
    const res = await http.call('POST', '/api/admin/products', admin.headers, {
      productKind: 'physical',
      mrp: 100,
      ...body,
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().data.id as number;
  };
  const call = async (method: 'PATCH' | 'POST' | 'DELETE', url: string, body?: object) => {
    const res = await http.call(method, url, admin.headers, body);
    expect(res.statusCode, res.body).toBeLessThan(300);
  };

  it('follows creates, publishing, sellability, archiving and edits', async () => {
    expect(await total()).toBe(0);
    const a = await create({ title: 'Brass bowl', status: 'published' });
    const b = await create({ title: 'Copper bowl' });
    await create({ title: 'Hidden bowl', status: 'published', isSellable: false });
    expect(await total()).toBe(1);
    await call('POST', `/api/admin/products/${b}/publish`);
    expect(await total()).toBe(2);
    await call('PATCH', `/api/admin/products/${a}`, { title: 'Brass bowl, large', mrp: 200 });
    expect(await total()).toBe(2);
    await call('PATCH', `/api/admin/products/${a}`, { isSellable: false });
    expect(await total()).toBe(1);
    await call('POST', `/api/admin/products/${b}/unpublish`);
    expect(await total()).toBe(0);
    await call('POST', `/api/admin/products/${b}/publish`);
    await call('DELETE', `/api/admin/products/${b}`);
    expect(await total()).toBe(0);
  });

  it('follows bulk inserts, multi-row updates and deletes, and truncation', async () => {
    const db = t.platform.database.db;
    await seedBulk(db, { products: 120, batchSize: 50, progress: false });
    const seeded = await total();
    expect(seeded).toBeGreaterThan(80);
    await db.execute(sql`update ${products} set status = 'draft' where id % 3 = 0`);
    expect(await total()).toBeLessThan(seeded);
    await db.execute(sql`update ${products} set status = 'published', is_sellable = true`);
    expect(await total()).toBe(
      await rowsOf<{ n: number }>(db, sql`select count(*)::int as n from ${products}`).then((r) => r[0]!.n),
    );
    await db.execute(sql`delete from ${products} where id % 2 = 0`);
    expect(await total()).toBeLessThan(seeded);
    await db.execute(sql`truncate ${products} cascade`);
    expect(await total()).toBe(0);
    await create({ title: 'After truncation', status: 'published' });
    expect(await total()).toBe(1);
  });
});
