// `npm run seed:bulk`: the synthetic catalog loads in batches, adds to what is there, and the
// public API serves it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedBulk } from '../../../scripts/seed-bulk';
import { countProducts } from '../../../src/modules/catalog/products/products.service';
import { createTestApp, type TestApp } from '../../helpers/app';

describe('bulk catalog seed', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { CATALOG_PUBLIC_LIST_CACHE_SECONDS: '0' } });
  });
  afterAll(() => t.close());

  it('inserts the requested number of products in batches, and again on a second run', async () => {
    const db = t.platform.database.db;
    expect(await seedBulk(db, { products: 450, batchSize: 200, progress: false })).toBe(450);
    expect(await countProducts(db)).toBe(450);
    expect(await seedBulk(db, { products: 50, batchSize: 200, progress: false })).toBe(50);
    expect(await countProducts(db)).toBe(500);

    const list = await t.app.inject({ method: 'GET', url: '/api/products?size=5' });
    expect(list.statusCode).toBe(200);
    const body = list.json();
    // Roughly 9 in 10 synthetic products are published and sellable.
    expect(body.meta.count).toBeGreaterThan(350);
    expect(body.meta.count).toBeLessThan(500);
    expect(body.data).toHaveLength(5);
    expect(body.data[0].category).not.toBeNull();

    const search = await t.app.inject({ method: 'GET', url: '/api/products?search=singng%20bowl&size=3' });
    expect(search.statusCode).toBe(200);
    expect(search.json().data.every((p: { title: string }) => /bowl/i.test(p.title))).toBe(true);

    const categories = await t.app.inject({ method: 'GET', url: '/api/categories' });
    const roots = categories.json().data.filter((c: { parentId: number | null }) => c.parentId === null);
    expect(roots.map((c: { name: string }) => c.name)).toContain('Singing bowls');
    const total = roots.reduce((sum: number, c: { productCount: number }) => sum + c.productCount, 0);
    expect(total).toBe(body.meta.count);
  });
});
