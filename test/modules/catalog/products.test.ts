// Admin products: writes (slugs and their history, sanitised descriptions, checked
// references, care-package tiers), publish/unpublish/archive, the admin list, activity.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { updateProductReviewAggregates } from '../../../src/modules/catalog';
import { productSlugHistory, products } from '../../../src/modules/catalog/products/products.table';
import { createTestApp, type TestApp } from '../../helpers/app';
import { type SignedIn, signedInAdmin, signedInCustomer } from '../../helpers/factories';
import { caller } from './calls';

interface Product {
  id: number;
  title: string;
  slug: string;
  description: string;
  productKind: string;
  status: string;
  isSellable: boolean;
  mrp: number;
  sp: number;
  effectivePrice: number;
  categoryId: number | null;
  brandId: number | null;
  tagIds: number[];
  images: Array<{ relativePath: string; alt: string; url: string }>;
  specifications: Array<{ key: string; value: string }>;
  seoId: string | null;
  carePackageTierId: number | null;
  averageRating: number | null;
  reviewCount: number;
  stock: { onHand: number; reserved: number; available: number } | null;
  publishedAt: string | null;
}

describe('admin products', () => {
  let t: TestApp;
  let admin: SignedIn;
  let customer: SignedIn;
  let http: ReturnType<typeof caller>;
  let categoryId: number;
  let brandId: number;
  let tagIds: number[];
  let seoId: string;
  beforeAll(async () => {
    t = await createTestApp();
    http = caller(t);
    admin = await signedInAdmin(t, { superadmin: true });
    customer = await signedInCustomer(t);
    const post = async (url: string, body: object) => {
      const res = await http.call('POST', url, admin.headers, body);
      expect(res.statusCode, res.body).toBe(201);
      return res.json().data;
    };
    categoryId = (await post('/api/admin/categories', { name: 'Laptops' })).id;
    brandId = (await post('/api/admin/brands', { name: 'Lenovo' })).id;
    tagIds = [
      (await post('/api/admin/tags', { name: 'New' })).id,
      (await post('/api/admin/tags', { name: 'Sale' })).id,
    ];
    seoId = (await post('/api/admin/seo', { metaTitle: 'Laptops' })).id;
  });
  afterAll(() => t.close());

  const create = async (body: object) => {
    const res = await http.call('POST', '/api/admin/products', admin.headers, body);
    expect(res.statusCode, res.body).toBe(201);
    return res.json().data as Product;
  };
  const errorOf = async (method: 'POST' | 'PATCH', url: string, body: object) => {
    const res = await http.call(method, url, admin.headers, body);
    return { status: res.statusCode, code: res.json().errorCode as string };
  };

  it('creates a product with every field; draft by default; answers 201 with resolved image URLs', async () => {
    const product = await create({
      title: 'ThinkPad X1 Carbon (Gen 12)',
      productKind: 'physical',
      mrp: 250000,
      sp: 235000,
      description:
        '<p>Light <b>and</b> fast<script>alert(1)</script><img src="javascript:x" onerror="y"></p><a href="javascript:evil()">x</a>',
      categoryId,
      brandId,
      tagIds: [tagIds[1], tagIds[0], tagIds[1]],
      images: [
        { relativePath: 'public/products/x1.webp', alt: 'Front' },
        { relativePath: 'uploads/image/x1-back.webp' },
      ],
      specifications: [
        { key: 'CPU', value: 'Core Ultra 7' },
        { key: 'RAM', value: '32 GB' },
      ],
      seoId,
    });
    expect(product).toMatchObject({
      title: 'ThinkPad X1 Carbon (Gen 12)',
      slug: 'thinkpad-x1-carbon-gen-12',
      productKind: 'physical',
      status: 'draft',
      isSellable: true,
      mrp: 250000,
      sp: 235000,
      effectivePrice: 235000,
      categoryId,
      brandId,
      tagIds: [tagIds[1], tagIds[0]],
      specifications: [
        { key: 'CPU', value: 'Core Ultra 7' },
        { key: 'RAM', value: '32 GB' },
      ],
      seoId,
      carePackageTierId: null,
      averageRating: null,
      reviewCount: 0,
      stock: { onHand: 0, reserved: 0, available: 0 },
      publishedAt: null,
    });
    expect(product.description).not.toMatch(/script|onerror|javascript/);
    expect(product.description).toContain('<b>and</b>');
    expect(product.images[0]).toMatchObject({ relativePath: 'public/products/x1.webp', alt: 'Front' });
    expect(product.images[0]!.url).toMatch(/\/files\/public\/products\/x1\.webp$/);
    expect(product.images[1]!.alt).toBe('');
    expect(product.images[1]!.url).toMatch(/uploads\/image\/x1-back\.webp\?.*signature=/);
    const [row] = await t.platform.database.db.select().from(products).where(eq(products.id, product.id));
    expect(row?.images).toEqual([
      { relativePath: 'public/products/x1.webp', alt: 'Front' },
      { relativePath: 'uploads/image/x1-back.webp', alt: '' },
    ]);
    const activity = await http.activityOf(admin, 'product', product.id);
    expect(activity[0]).toMatchObject({ action: 'create', adminId: admin.userId });
  });

  it('sells at mrp when sp is 0; digital products have no stock summary', async () => {
    const product = await create({ title: 'Office licence', productKind: 'digital', mrp: 15000 });
    expect(product).toMatchObject({ sp: 0, effectivePrice: 15000, stock: null, status: 'draft' });
  });

  it('generates unique slugs, avoiding old slugs too', async () => {
    const a = await create({ title: 'Singing bowl', productKind: 'physical', mrp: 100 });
    const b = await create({ title: 'Singing Bowl!', productKind: 'physical', mrp: 100 });
    expect([a.slug, b.slug]).toEqual(['singing-bowl', 'singing-bowl-2']);
    const moved = await http.call('PATCH', `/api/admin/products/${a.id}`, admin.headers, {
      slug: 'bronze-singing-bowl',
    });
    expect(moved.statusCode).toBe(200);
    const c = await create({ title: 'Singing bowl', productKind: 'physical', mrp: 100 });
    expect(c.slug).toBe('singing-bowl-3');
  });

  it('gives a Devanagari title a readable Latin slug, unique, by which the storefront finds the product', async () => {
    const topi = () =>
      create({ title: 'हिमालयन ढाका टोपी', productKind: 'physical', mrp: 1200, status: 'published' });
    const [first, again] = [await topi(), await topi()];
    expect([first.slug, again.slug]).toEqual(['himalayan-dhaka-topi', 'himalayan-dhaka-topi-2']);
    // Latin words in the title stay as they are; Devanagari digits read as digits.
    const mixed = await create({ title: 'Pashmina शल २०८३', productKind: 'physical', mrp: 100 });
    expect(mixed.slug).toBe('pashmina-shal-2083');
    for (const [slug, id] of [
      [first.slug, first.id],
      [again.slug, again.id],
    ] as const) {
      for (const base of ['/api/products', '/api/mobile/products']) {
        const res = await http.call('GET', `${base}/${slug}`);
        expect(res.statusCode, res.body).toBe(200);
        expect(res.json().data).toMatchObject({ id, slug, title: 'हिमालयन ढाका टोपी' });
      }
    }
  });

  it('gives concurrent products of the same title distinct slugs', async () => {
    const results = await Promise.all(
      Array.from({ length: 12 }, () =>
        http.call('POST', '/api/admin/products', admin.headers, {
          title: 'Prayer wheel',
          productKind: 'physical',
          mrp: 500,
        }),
      ),
    );
    expect(results.map((r) => r.statusCode)).toEqual(Array(12).fill(201));
    const slugs = results.map((r) => r.json().data.slug as string);
    expect(new Set(slugs).size).toBe(12);
    expect(slugs).toContain('prayer-wheel');
    expect(slugs).toContain('prayer-wheel-12');
  });

  it('changes slugs explicitly: validated, never renamed silently, old ones kept (409 PRODUCT_SLUG_EXISTS)', async () => {
    const a = await create({ title: 'Green Tara thangka', productKind: 'physical', mrp: 5000 });
    const b = await create({ title: 'White Tara thangka', productKind: 'physical', mrp: 5000 });
    expect(await errorOf('PATCH', `/api/admin/products/${b.id}`, { slug: a.slug })).toEqual({
      status: 409,
      code: 'PRODUCT_SLUG_EXISTS',
    });
    expect(
      await errorOf('POST', '/api/admin/products', {
        title: 'x',
        productKind: 'physical',
        mrp: 1,
        slug: a.slug,
      }),
    ).toEqual({
      status: 409,
      code: 'PRODUCT_SLUG_EXISTS',
    });
    expect(await errorOf('PATCH', `/api/admin/products/${b.id}`, { slug: 'Bad Slug' })).toEqual({
      status: 400,
      code: 'VALIDATION_ERROR',
    });
    const renamed = await http.call('PATCH', `/api/admin/products/${a.id}`, admin.headers, {
      slug: 'tara-green',
    });
    expect(renamed.json().data.slug).toBe('tara-green');
    const history = await t.platform.database.db
      .select()
      .from(productSlugHistory)
      .where(eq(productSlugHistory.productId, a.id));
    expect(history.map((h) => h.slug)).toEqual(['green-tara-thangka']);
    // A title change keeps the slug (links stay stable).
    const retitled = await http.call('PATCH', `/api/admin/products/${a.id}`, admin.headers, {
      title: 'Tara (green)',
    });
    expect(retitled.json().data.slug).toBe('tara-green');
    // Another product may take an old slug explicitly: the live slug wins from then on.
    const took = await http.call('PATCH', `/api/admin/products/${b.id}`, admin.headers, {
      slug: 'green-tara-thangka',
    });
    expect(took.statusCode).toBe(200);
    const left = await t.platform.database.db
      .select()
      .from(productSlugHistory)
      .where(eq(productSlugHistory.slug, 'green-tara-thangka'));
    expect(left).toEqual([]);
  });

  it('rejects unknown references with their own codes', async () => {
    const base = { title: 'Ref test', productKind: 'physical', mrp: 100 };
    const cases: Array<[object, string]> = [
      [{ categoryId: 999999 }, 'PRODUCT_CATEGORY_INVALID'],
      [{ brandId: 999999 }, 'PRODUCT_BRAND_INVALID'],
      [{ tagIds: [tagIds[0], 999999] }, 'PRODUCT_TAG_INVALID'],
      [{ seoId: '01890000-0000-7000-8000-000000000000' }, 'PRODUCT_SEO_INVALID'],
      [{ carePackageTierId: 1 }, 'PRODUCT_CARE_PACKAGE_TIER_INVALID'],
    ];
    for (const [extra, code] of cases) {
      expect(await errorOf('POST', '/api/admin/products', { ...base, ...extra }), code).toEqual({
        status: 400,
        code,
      });
    }
    const product = await create(base);
    expect(await errorOf('PATCH', `/api/admin/products/${product.id}`, { categoryId: 999999 })).toEqual({
      status: 400,
      code: 'PRODUCT_CATEGORY_INVALID',
    });
  });

  it('rejects invalid bodies with VALIDATION_ERROR', async () => {
    const base = { title: 'Valid', productKind: 'physical', mrp: 100 };
    for (const body of [
      {},
      { ...base, title: '   ' },
      { ...base, productKind: 'service' },
      { ...base, mrp: -1 },
      { ...base, mrp: 10.5 },
      { ...base, sp: 101 },
      { ...base, status: 'deleted' },
      { ...base, images: [{ relativePath: '../etc/passwd', alt: 'x' }] },
      { ...base, specifications: [{ key: '', value: 'x' }] },
      { ...base, tagIds: ['x'] },
    ]) {
      const res = await http.call('POST', '/api/admin/products', admin.headers, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().errorCode).toBe('VALIDATION_ERROR');
    }
    const product = await create(base);
    expect(await errorOf('PATCH', `/api/admin/products/${product.id}`, {})).toEqual({
      status: 400,
      code: 'VALIDATION_ERROR',
    });
    // sp above the stored mrp is caught against the merged record.
    expect(await errorOf('PATCH', `/api/admin/products/${product.id}`, { sp: 500 })).toEqual({
      status: 400,
      code: 'VALIDATION_ERROR',
    });
  });

  it('names each invalid field with a stable code the console words (issue 27)', async () => {
    const res = await http.call('POST', '/api/admin/products', admin.headers, {
      title: '',
      productKind: 'physical',
      mrp: 100,
      sp: 150,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().details).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ path: 'title', code: 'too_small', minimum: 1, location: 'body' }),
        expect.objectContaining({ path: 'sp', code: 'sp_above_mrp', message: 'sp must not be above mrp' }),
      ]),
    );
    const missing = await http.call('POST', '/api/admin/products', admin.headers, { title: 'Bowl' });
    expect(missing.json().details).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ path: 'mrp', code: 'required' }),
        expect.objectContaining({ path: 'productKind', code: 'required' }),
      ]),
    );
    // The merged-record check of a change has the same code.
    const product = await create({ title: 'Coded bowl', productKind: 'physical', mrp: 100 });
    const patched = await http.call('PATCH', `/api/admin/products/${product.id}`, admin.headers, { sp: 500 });
    expect(patched.json().details).toEqual([
      expect.objectContaining({ path: 'sp', code: 'sp_above_mrp', message: 'sp must not be above mrp' }),
    ]);
  });

  it('care_package products must name an existing tier', async () => {
    const pkg = await http.call('POST', '/api/admin/care-packages', admin.headers, {
      name: 'Laptop care',
      rules: {},
      tiers: [{ label: '1 year', durationMonths: 12, price: 4000 }],
    });
    expect(pkg.statusCode, pkg.body).toBe(201);
    const tierId = pkg.json().data.tiers[0].id as number;
    expect(
      await errorOf('POST', '/api/admin/products', { title: 'Care', productKind: 'care_package', mrp: 4000 }),
    ).toEqual({
      status: 400,
      code: 'PRODUCT_CARE_PACKAGE_TIER_INVALID',
    });
    expect(
      await errorOf('POST', '/api/admin/products', {
        title: 'Care',
        productKind: 'care_package',
        mrp: 4000,
        carePackageTierId: tierId + 1000,
      }),
    ).toEqual({ status: 400, code: 'PRODUCT_CARE_PACKAGE_TIER_INVALID' });
    const care = await create({
      title: 'Laptop care 1 year',
      productKind: 'care_package',
      mrp: 4000,
      carePackageTierId: tierId,
    });
    expect(care).toMatchObject({ carePackageTierId: tierId, stock: null });
    // Changing the kind away from care_package while the tier stays named is refused.
    expect(await errorOf('PATCH', `/api/admin/products/${care.id}`, { productKind: 'physical' })).toEqual({
      status: 400,
      code: 'PRODUCT_CARE_PACKAGE_TIER_INVALID',
    });
    const switched = await http.call('PATCH', `/api/admin/products/${care.id}`, admin.headers, {
      productKind: 'physical',
      carePackageTierId: null,
    });
    expect(switched.json().data).toMatchObject({ productKind: 'physical', carePackageTierId: null });
  });

  it('publishes, unpublishes to draft and archives, with publishedAt and activity', async () => {
    const product = await create({ title: 'Ganesh statue', productKind: 'physical', mrp: 9000 });
    const published = await http.call('POST', `/api/admin/products/${product.id}/publish`, admin.headers);
    expect(published.statusCode).toBe(200);
    expect(published.json().data.status).toBe('published');
    expect(published.json().data.publishedAt).not.toBeNull();
    const again = await http.call('POST', `/api/admin/products/${product.id}/publish`, admin.headers);
    expect(again.json().data.publishedAt).toBe(published.json().data.publishedAt);
    const draft = await http.call('POST', `/api/admin/products/${product.id}/unpublish`, admin.headers);
    expect(draft.json().data).toMatchObject({ status: 'draft', publishedAt: null });
    const archived = await http.call('DELETE', `/api/admin/products/${product.id}`, admin.headers);
    expect(archived.statusCode).toBe(200);
    expect(archived.json().data.status).toBe('archived');
    const [row] = await t.platform.database.db.select().from(products).where(eq(products.id, product.id));
    expect(row?.status).toBe('archived');
    const actions = (await http.activityOf(admin, 'product', product.id)).map((a) => a.action);
    expect(actions).toEqual(['archive', 'unpublish', 'publish', 'create']);
    const direct = await create({
      title: 'Live at once',
      productKind: 'physical',
      mrp: 1,
      status: 'published',
    });
    expect(direct.publishedAt).not.toBeNull();
  });

  it('answers PRODUCT_NOT_FOUND for unknown ids on every admin route', async () => {
    for (const [method, url, payload] of [
      ['GET', '/api/admin/products/999999'],
      ['PATCH', '/api/admin/products/999999', { title: 'x' }],
      ['DELETE', '/api/admin/products/999999'],
      ['POST', '/api/admin/products/999999/publish'],
      ['POST', '/api/admin/products/999999/unpublish'],
    ] as const) {
      const res = await http.call(method, url, admin.headers, payload);
      expect(res.statusCode, url).toBe(404);
      expect(res.json().errorCode).toBe('PRODUCT_NOT_FOUND');
    }
    const bad = await http.call('GET', '/api/admin/products/0', admin.headers);
    expect(bad.json().errorCode).toBe('VALIDATION_ERROR');
  });

  it('lists with admin filters, sorts and pagination', async () => {
    const sub = await http.call('POST', '/api/admin/categories', admin.headers, {
      name: 'Gaming laptops',
      parentId: categoryId,
    });
    const subId = sub.json().data.id as number;
    const a = await create({
      title: 'Legion 7',
      productKind: 'physical',
      mrp: 300000,
      categoryId: subId,
      status: 'published',
    });
    const b = await create({
      title: 'IdeaPad 3',
      productKind: 'physical',
      mrp: 80000,
      categoryId,
      isSellable: false,
    });
    const list = async (query: string) => {
      const res = await http.call('GET', `/api/admin/products?${query}`, admin.headers);
      expect(res.statusCode, res.body).toBe(200);
      return res.json() as { data: Product[]; meta: { count: number; page?: number; size?: number } };
    };
    const inCategory = await list(`categoryId=${categoryId}&pagination=false&sort=price&order=asc`);
    expect(inCategory.data.map((p) => p.id)).toEqual(expect.arrayContaining([a.id, b.id]));
    const prices = inCategory.data.map((p) => p.effectivePrice);
    expect(prices).toEqual([...prices].sort((x, y) => x - y));
    expect(
      (await list('status=published&pagination=false')).data.every((p) => p.status === 'published'),
    ).toBe(true);
    expect((await list('isSellable=false&pagination=false')).data.map((p) => p.id)).toContain(b.id);
    expect((await list(`brandId=${brandId}&pagination=false`)).data.every((p) => p.brandId === brandId)).toBe(
      true,
    );
    expect(
      (await list('productKind=digital&pagination=false')).data.every((p) => p.productKind === 'digital'),
    ).toBe(true);
    const page = await list('size=2&page=1');
    expect(page.data).toHaveLength(2);
    expect(page.meta).toMatchObject({ page: 1, size: 2 });
    expect(page.meta.count).toBeGreaterThan(2);
    for (const query of [
      'status=deleted',
      'productKind=x',
      'sort=popularity',
      'isSellable=maybe',
      'order=up',
    ]) {
      const res = await http.call('GET', `/api/admin/products?${query}`, admin.headers);
      expect(res.statusCode, query).toBe(400);
      expect(res.json().errorCode).toBe('VALIDATION_ERROR');
    }
  });

  it('shows review aggregates kept by updateProductReviewAggregates', async () => {
    const product = await create({ title: 'Reviewed bowl', productKind: 'physical', mrp: 100 });
    await updateProductReviewAggregates(t.platform.database.db, product.id, {
      averageRating: 4.333,
      reviewCount: 3,
    });
    const res = await http.call('GET', `/api/admin/products/${product.id}`, admin.headers);
    expect(res.json().data).toMatchObject({ averageRating: 4.33, reviewCount: 3 });
  });

  it('guards every admin route with the Products permissions', async () => {
    const product = await create({ title: 'Guarded', productKind: 'physical', mrp: 1 });
    const id = product.id;
    await http.expectGuarded('GET', '/api/admin/products', 'Products_READ', customer);
    await http.expectGuarded('GET', `/api/admin/products/${id}`, 'Products_READ', customer);
    await http.expectGuarded('POST', '/api/admin/products', 'Products_CREATE', customer, {
      title: 'x',
      productKind: 'physical',
      mrp: 1,
    });
    await http.expectGuarded('PATCH', `/api/admin/products/${id}`, 'Products_UPDATE', customer, {
      title: 'y',
    });
    await http.expectGuarded('POST', `/api/admin/products/${id}/publish`, 'Products_UPDATE', customer);
    await http.expectGuarded('POST', `/api/admin/products/${id}/unpublish`, 'Products_UPDATE', customer);
    await http.expectGuarded('DELETE', `/api/admin/products/${id}`, 'Products_DELETE', customer);
  });
});
