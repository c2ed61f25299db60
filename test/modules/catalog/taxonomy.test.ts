// Categories (tree, cycles, not-empty rule), brands and tags: admin CRUD, slugs, activity,
// and the public lists with product counts on both surfaces.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/app';
import { type SignedIn, signedInAdmin, signedInCustomer } from '../../helpers/factories';
import { caller, insertProduct } from './calls';

interface Category {
  id: number;
  name: string;
  slug: string;
  parentId: number | null;
  isActive: boolean;
  position: number;
}

describe('taxonomy', () => {
  let t: TestApp;
  let admin: SignedIn;
  let customer: SignedIn;
  let http: ReturnType<typeof caller>;
  beforeAll(async () => {
    t = await createTestApp();
    http = caller(t);
    admin = await signedInAdmin(t, { superadmin: true });
    customer = await signedInCustomer(t);
  });
  afterAll(() => t.close());

  const create = async <T = Category>(kind: 'categories' | 'brands' | 'tags', body: object) => {
    const res = await http.call('POST', `/api/admin/${kind}`, admin.headers, body);
    expect(res.statusCode, res.body).toBe(201);
    return res.json().data as T;
  };

  describe('categories', () => {
    it('creates with a generated unique slug, and keeps explicit slugs unique (409 CATEGORY_SLUG_EXISTS)', async () => {
      const a = await create('categories', {
        name: 'Singing Bowls & Gongs',
        description: 'Bronze',
        position: 3,
      });
      expect(a).toMatchObject({
        slug: 'singing-bowls-and-gongs',
        parentId: null,
        isActive: true,
        position: 3,
      });
      const b = await create('categories', { name: 'Singing bowls & gongs' });
      expect(b.slug).toBe('singing-bowls-and-gongs-2');
      // A Devanagari name reads as Latin letters (docs/api-notes.md, "Slugs from Devanagari").
      const devanagari = await create('categories', { name: 'थाङ्का' });
      expect(devanagari.slug).toBe('thangka');
      const taken = await http.call('POST', '/api/admin/categories', admin.headers, {
        name: 'X',
        slug: a.slug,
      });
      expect(taken.statusCode).toBe(409);
      expect(taken.json().errorCode).toBe('CATEGORY_SLUG_EXISTS');
      const renamed = await http.call('PATCH', `/api/admin/categories/${b.id}`, admin.headers, {
        slug: a.slug,
      });
      expect(renamed.statusCode).toBe(409);
      expect(renamed.json().errorCode).toBe('CATEGORY_SLUG_EXISTS');
      const activity = await http.activityOf(admin, 'category', a.id);
      expect(activity[0]).toMatchObject({ action: 'create', adminId: admin.userId });
    });

    it('rejects invalid bodies with VALIDATION_ERROR', async () => {
      for (const body of [
        {},
        { name: '  ' },
        { name: 'x', slug: 'Not A Slug' },
        { name: 'x', position: -1 },
        { name: 'x', imageUrl: 'ftp://x' },
      ]) {
        const res = await http.call('POST', '/api/admin/categories', admin.headers, body);
        expect(res.statusCode, JSON.stringify(body)).toBe(400);
        expect(res.json().errorCode).toBe('VALIDATION_ERROR');
      }
    });

    it('builds a tree and refuses cycles, unknown parents and unknown SEO records', async () => {
      const root = await create('categories', { name: 'Art' });
      const child = await create('categories', { name: 'Thangkas', parentId: root.id });
      const grandchild = await create('categories', { name: 'Mandala thangkas', parentId: child.id });
      for (const parentId of [root.id, grandchild.id]) {
        const res = await http.call('PATCH', `/api/admin/categories/${root.id}`, admin.headers, { parentId });
        expect(res.statusCode).toBe(400);
        expect(res.json().errorCode).toBe('CATEGORY_PARENT_INVALID');
      }
      const unknown = await http.call('POST', '/api/admin/categories', admin.headers, {
        name: 'x',
        parentId: 999999,
      });
      expect(unknown.statusCode).toBe(400);
      expect(unknown.json().errorCode).toBe('CATEGORY_PARENT_INVALID');
      const seo = await http.call('POST', '/api/admin/categories', admin.headers, {
        name: 'x',
        seoId: '01890000-0000-7000-8000-000000000000',
      });
      expect(seo.statusCode).toBe(400);
      expect(seo.json().errorCode).toBe('CATEGORY_SEO_INVALID');

      const moved = await http.call('PATCH', `/api/admin/categories/${grandchild.id}`, admin.headers, {
        parentId: root.id,
      });
      expect(moved.statusCode).toBe(200);
      expect(moved.json().data.parentId).toBe(root.id);
      const toRoot = await http.call('PATCH', `/api/admin/categories/${grandchild.id}`, admin.headers, {
        parentId: null,
      });
      expect(toRoot.json().data.parentId).toBeNull();

      const children = await http.call(
        'GET',
        `/api/admin/categories?parentId=${root.id}&pagination=false`,
        admin.headers,
      );
      expect(children.json().data.map((c: Category) => c.id)).toEqual([child.id]);
      expect(children.json().meta).toEqual({ count: 1 });
    });

    it('never lets two concurrent moves close a cycle', async () => {
      const a = await create('categories', { name: 'Cycle A' });
      const b = await create('categories', { name: 'Cycle B' });
      const [ab, ba] = await Promise.all([
        http.call('PATCH', `/api/admin/categories/${a.id}`, admin.headers, { parentId: b.id }),
        http.call('PATCH', `/api/admin/categories/${b.id}`, admin.headers, { parentId: a.id }),
      ]);
      expect([ab.statusCode, ba.statusCode].sort()).toEqual([200, 400]);
      expect([ab, ba].find((r) => r.statusCode === 400)?.json().errorCode).toBe('CATEGORY_PARENT_INVALID');
    });

    it('deletes only empty categories (409 CATEGORY_NOT_EMPTY otherwise)', async () => {
      const parent = await create('categories', { name: 'Statues' });
      const child = await create('categories', { name: 'Buddha statues', parentId: parent.id });
      const withChild = await http.call('DELETE', `/api/admin/categories/${parent.id}`, admin.headers);
      expect(withChild.statusCode).toBe(409);
      expect(withChild.json().errorCode).toBe('CATEGORY_NOT_EMPTY');
      const productId = await insertProduct(t, {
        productKind: 'physical',
        categoryId: child.id,
        status: 'archived',
      });
      const withProduct = await http.call('DELETE', `/api/admin/categories/${child.id}`, admin.headers);
      expect(withProduct.statusCode).toBe(409);
      expect(withProduct.json().errorCode).toBe('CATEGORY_NOT_EMPTY');
      expect(productId).toBeGreaterThan(0);

      const empty = await create('categories', { name: 'Empty' });
      const ok = await http.call('DELETE', `/api/admin/categories/${empty.id}`, admin.headers);
      expect(ok.statusCode).toBe(200);
      const gone = await http.call('GET', `/api/admin/categories/${empty.id}`, admin.headers);
      expect(gone.statusCode).toBe(404);
      expect(gone.json().errorCode).toBe('CATEGORY_NOT_FOUND');
      expect((await http.activityOf(admin, 'category', empty.id))[0]?.action).toBe('delete');
    });

    it('answers CATEGORY_NOT_FOUND for unknown ids and VALIDATION_ERROR for bad ones', async () => {
      for (const [method, payload] of [['GET'], ['PATCH', { name: 'x' }], ['DELETE']] as const) {
        const res = await http.call(method, '/api/admin/categories/999999', admin.headers, payload);
        expect(res.statusCode).toBe(404);
        expect(res.json().errorCode).toBe('CATEGORY_NOT_FOUND');
      }
      const bad = await http.call('GET', '/api/admin/categories/abc', admin.headers);
      expect(bad.statusCode).toBe(400);
    });

    it('guards the admin routes', async () => {
      const c = await create('categories', { name: 'Guarded' });
      await http.expectGuarded('GET', '/api/admin/categories', 'Categories_READ', customer);
      await http.expectGuarded('GET', `/api/admin/categories/${c.id}`, 'Categories_READ', customer);
      await http.expectGuarded('POST', '/api/admin/categories', 'Categories_CREATE', customer, { name: 'x' });
      await http.expectGuarded('PATCH', `/api/admin/categories/${c.id}`, 'Categories_UPDATE', customer, {
        name: 'y',
      });
      await http.expectGuarded('DELETE', `/api/admin/categories/${c.id}`, 'Categories_DELETE', customer);
    });
  });

  describe('brands and tags', () => {
    it('brands: CRUD, search, slug rules, in-use delete (409 BRAND_IN_USE)', async () => {
      const brand = await create<{ id: number; slug: string; logoUrl: string | null }>('brands', {
        name: 'Himalayan Bronze',
        logoUrl: 'https://cdn.example.com/logo.png',
      });
      expect(brand.slug).toBe('himalayan-bronze');
      const list = await http.call('GET', '/api/admin/brands?search=bronze', admin.headers);
      expect(list.json().data.map((b: { id: number }) => b.id)).toEqual([brand.id]);
      const patched = await http.call('PATCH', `/api/admin/brands/${brand.id}`, admin.headers, {
        isActive: false,
        logoUrl: null,
      });
      expect(patched.json().data).toMatchObject({ isActive: false, logoUrl: null });
      const dup = await http.call('POST', '/api/admin/brands', admin.headers, {
        name: 'x',
        slug: 'himalayan-bronze',
      });
      expect(dup.statusCode).toBe(409);
      expect(dup.json().errorCode).toBe('BRAND_SLUG_EXISTS');

      await insertProduct(t, { productKind: 'physical', brandId: brand.id });
      const inUse = await http.call('DELETE', `/api/admin/brands/${brand.id}`, admin.headers);
      expect(inUse.statusCode).toBe(409);
      expect(inUse.json().errorCode).toBe('BRAND_IN_USE');
      const unknown = await http.call('GET', '/api/admin/brands/999999', admin.headers);
      expect(unknown.json().errorCode).toBe('BRAND_NOT_FOUND');
      expect((await http.activityOf(admin, 'brand', brand.id)).map((a) => a.action)).toEqual([
        'update',
        'create',
      ]);
      await http.expectGuarded('GET', '/api/admin/brands', 'Brands_READ', customer);
      await http.expectGuarded('POST', '/api/admin/brands', 'Brands_CREATE', customer, { name: 'x' });
      await http.expectGuarded('PATCH', `/api/admin/brands/${brand.id}`, 'Brands_UPDATE', customer, {
        name: 'x',
      });
      await http.expectGuarded('DELETE', `/api/admin/brands/${brand.id}`, 'Brands_DELETE', customer);
    });

    it('tags: CRUD, slug rules, delete takes the tag off products', async () => {
      const tag = await create<{ id: number; slug: string; name: string }>('tags', { name: 'Hand Made' });
      expect(tag.slug).toBe('hand-made');
      const second = await create<{ id: number; slug: string }>('tags', { name: 'Hand-made' });
      expect(second.slug).toBe('hand-made-2');
      const dup = await http.call('PATCH', `/api/admin/tags/${second.id}`, admin.headers, {
        slug: 'hand-made',
      });
      expect(dup.statusCode).toBe(409);
      expect(dup.json().errorCode).toBe('TAG_SLUG_EXISTS');
      const renamed = await http.call('PATCH', `/api/admin/tags/${tag.id}`, admin.headers, {
        name: 'Handmade',
      });
      expect(renamed.json().data).toMatchObject({ name: 'Handmade', slug: 'hand-made' });
      const del = await http.call('DELETE', `/api/admin/tags/${tag.id}`, admin.headers);
      expect(del.statusCode).toBe(200);
      const again = await http.call('DELETE', `/api/admin/tags/${tag.id}`, admin.headers);
      expect(again.statusCode).toBe(404);
      expect(again.json().errorCode).toBe('TAG_NOT_FOUND');
      const invalid = await http.call('POST', '/api/admin/tags', admin.headers, { name: '' });
      expect(invalid.json().errorCode).toBe('VALIDATION_ERROR');
      await http.expectGuarded('GET', '/api/admin/tags', 'Tags_READ', customer);
      await http.expectGuarded('GET', `/api/admin/tags/${second.id}`, 'Tags_READ', customer);
      await http.expectGuarded('POST', '/api/admin/tags', 'Tags_CREATE', customer, { name: 'x' });
      await http.expectGuarded('PATCH', `/api/admin/tags/${second.id}`, 'Tags_UPDATE', customer, {
        name: 'x',
      });
      await http.expectGuarded('DELETE', `/api/admin/tags/${second.id}`, 'Tags_DELETE', customer);
    });
  });

  describe('public lists', () => {
    it('list active categories and brands with counts of published, sellable products (categories count descendants)', async () => {
      const top = await create('categories', { name: 'Jewellery' });
      const sub = await create('categories', { name: 'Rings', parentId: top.id });
      const hidden = await create('categories', { name: 'Hidden', isActive: false });
      const brand = await create<{ id: number }>('brands', { name: 'Newari Silver' });
      const inactiveBrand = await create<{ id: number }>('brands', { name: 'Old brand', isActive: false });
      await insertProduct(t, { productKind: 'physical', categoryId: top.id, brandId: brand.id });
      await insertProduct(t, { productKind: 'physical', categoryId: sub.id, brandId: brand.id });
      await insertProduct(t, {
        productKind: 'physical',
        categoryId: sub.id,
        status: 'draft',
        brandId: brand.id,
      });
      await insertProduct(t, { productKind: 'physical', categoryId: sub.id, isSellable: false });
      await insertProduct(t, { productKind: 'physical', categoryId: hidden.id });

      for (const prefix of ['/api', '/api/mobile']) {
        const cats = await http.call('GET', `${prefix}/categories`);
        expect(cats.statusCode).toBe(200);
        const byId = new Map(cats.json().data.map((c: { id: number }) => [c.id, c]));
        expect(byId.get(top.id)).toMatchObject({ productCount: 2, parentId: null, slug: 'jewellery' });
        expect(byId.get(sub.id)).toMatchObject({ productCount: 1, parentId: top.id });
        expect(byId.has(hidden.id)).toBe(false);
        expect(cats.json().meta.count).toBe(cats.json().data.length);

        const brands = await http.call('GET', `${prefix}/brands`);
        expect(brands.statusCode).toBe(200);
        const b = brands.json().data.find((x: { id: number }) => x.id === brand.id);
        expect(b).toEqual({
          id: brand.id,
          name: 'Newari Silver',
          slug: 'newari-silver',
          logoUrl: null,
          productCount: 2,
        });
        expect(brands.json().data.some((x: { id: number }) => x.id === inactiveBrand.id)).toBe(false);
      }
    });
  });
});
