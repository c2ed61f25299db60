// The public catalog: visibility, filters, sorts, the product search of the commerce
// interface (substring and typo-tolerant), detail by slug with old slugs, the search rate
// limits (and a failing limiter store), and the trigram index in the search plan.
import rateLimit from '@fastify/rate-limit';
import { sql } from 'drizzle-orm';
import Fastify from 'fastify';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { updateProductReviewAggregates } from '../../../src/modules/catalog';
import {
  listAdminProducts,
  listPublicProducts,
  type ProductFilters,
} from '../../../src/modules/catalog/products/products.repository';
import { productSearchLimits } from '../../../src/modules/catalog/products/products.routes';
import {
  resolveSearch,
  setSimilarityThreshold,
  titleSearchKeys,
  titleTrigramShares,
} from '../../../src/modules/catalog/products/products.search.repository';
import {
  comparePublicSearch,
  explainProductSearch,
} from '../../../src/modules/catalog/products/products.service';
import { inTransaction } from '../../../src/platform/db/transaction';
import type { PageWindow } from '../../../src/platform/http/pagination';
import { createTestApp, type TestApp } from '../../helpers/app';
import { type SignedIn, signedInAdmin } from '../../helpers/factories';
import { caller } from './calls';

interface Item {
  id: number;
  title: string;
  slug: string;
  productKind: string;
  effectivePrice: number;
  averageRating: number | null;
  reviewCount: number;
  inStock: boolean;
  thumbnailUrl: string | null;
  category: { id: number; name: string; slug: string } | null;
  brand: { id: number; name: string; slug: string } | null;
}

describe('public catalog and product search', () => {
  let t: TestApp;
  let admin: SignedIn;
  let http: ReturnType<typeof caller>;
  const ids: Record<string, number> = {};
  let art: number;
  let thangkas: number;
  let brand: number;

  const post = async (url: string, body: object) => {
    const res = await http.call('POST', url, admin.headers, body);
    expect(res.statusCode, res.body).toBeLessThan(300);
    return res.json().data;
  };

  beforeAll(async () => {
    t = await createTestApp();
    http = caller(t);
    admin = await signedInAdmin(t, { superadmin: true });
    art = (await post('/api/admin/categories', { name: 'Himalayan art' })).id;
    thangkas = (await post('/api/admin/categories', { name: 'Thangka paintings', parentId: art })).id;
    const bowls = (await post('/api/admin/categories', { name: 'Sound healing' })).id;
    brand = (await post('/api/admin/brands', { name: 'Patan Metalworks' })).id;
    const meditation = (await post('/api/admin/tags', { name: 'Meditation' })).id;
    const pkg = await post('/api/admin/care-packages', {
      name: 'Care',
      rules: {},
      tiers: [{ label: '1 year', durationMonths: 12, price: 2000 }],
    });
    const make = async (key: string, body: object) => {
      ids[key] = (await post('/api/admin/products', { status: 'published', ...body })).id;
    };
    await make('bowl', {
      title: 'Tibetan singing bowl',
      productKind: 'physical',
      mrp: 8000,
      sp: 6500,
      categoryId: bowls,
      brandId: brand,
      tagIds: [meditation],
      images: [{ relativePath: 'public/products/bowl.webp', alt: 'Bowl' }],
    });
    await make('tara', {
      title: 'Green Tara',
      description: '<p>Hand painted with mineral pigments</p>',
      productKind: 'physical',
      mrp: 45000,
      categoryId: thangkas,
    });
    await make('mandala', {
      title: 'Kalachakra mandala',
      productKind: 'physical',
      mrp: 30000,
      sp: 0,
      categoryId: art,
    });
    await make('licence', { title: 'Antivirus licence', productKind: 'digital', mrp: 3000 });
    await make('care', {
      title: 'Laptop care plan',
      productKind: 'care_package',
      mrp: 2000,
      carePackageTierId: pkg.tiers[0].id,
    });
    await make('draft', { title: 'Draft singing bowl', productKind: 'physical', mrp: 100, status: 'draft' });
    await make('hidden', {
      title: 'Unsellable singing bowl',
      productKind: 'physical',
      mrp: 100,
      isSellable: false,
    });
    await make('archived', {
      title: 'Old singing bowl',
      productKind: 'physical',
      mrp: 100,
      status: 'archived',
    });

    // Stock for the bowl only; a key for the licence.
    const stock = await http.call('PATCH', `/api/admin/products/${ids.bowl}/stock`, admin.headers, {
      delta: 5,
      reason: 'opening stock',
    });
    expect(stock.statusCode, stock.body).toBe(200);
    const key = await http.call('POST', `/api/admin/products/${ids.licence}/digital-keys`, admin.headers, {
      keys: ['AAAA-BBBB-CCCC-DDDD'],
    });
    expect(key.statusCode, key.body).toBe(201);
    await updateProductReviewAggregates(t.platform.database.db, ids.tara!, {
      averageRating: 4.5,
      reviewCount: 2,
    });
  });
  afterAll(() => t.close());

  const list = async (query = '', prefix = '/api/mobile') => {
    const res = await http.call('GET', `${prefix}/products?pagination=false&${query}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data as Item[];
  };
  const idsOf = (items: Item[]) => items.map((i) => i.id);
  const keysOf = (items: Item[]) =>
    items.map((i) => Object.entries(ids).find(([, id]) => id === i.id)?.[0]).sort();

  describe('lists', () => {
    it('shows only published, sellable products on both surfaces, with the list item shape', async () => {
      for (const prefix of ['/api', '/api/mobile']) {
        expect(keysOf(await list('', prefix))).toEqual(['bowl', 'care', 'licence', 'mandala', 'tara']);
      }
      const bowl = (await list()).find((i) => i.id === ids.bowl)!;
      expect(bowl).toMatchObject({
        slug: 'tibetan-singing-bowl',
        effectivePrice: 6500,
        averageRating: null,
        reviewCount: 0,
        inStock: true,
        brand: { id: brand, name: 'Patan Metalworks', slug: 'patan-metalworks' },
        category: { name: 'Sound healing' },
      });
      expect(bowl.thumbnailUrl).toMatch(/\/files\/public\/products\/bowl\.webp$/);
      const tara = (await list()).find((i) => i.id === ids.tara)!;
      expect(tara).toMatchObject({ averageRating: 4.5, reviewCount: 2, inStock: false, thumbnailUrl: null });
      const res = await http.call('GET', '/api/products?size=2&page=2');
      expect(res.json().meta).toEqual({ count: 5, page: 2, size: 2 });
      expect(res.json().data).toHaveLength(2);
    });

    it('filters by category (with descendants), brand, tag slug, kind, effective price and stock', async () => {
      expect(keysOf(await list(`categoryId=${art}`))).toEqual(['mandala', 'tara']);
      expect(keysOf(await list(`categoryId=${thangkas}`))).toEqual(['tara']);
      expect(keysOf(await list(`brandId=${brand}`))).toEqual(['bowl']);
      expect(keysOf(await list('tag=meditation'))).toEqual(['bowl']);
      expect(keysOf(await list('tag=unknown'))).toEqual([]);
      expect(keysOf(await list('productKind=digital'))).toEqual(['licence']);
      // Effective price: the bowl sells at 6500 (sp), the mandala at its mrp 30000.
      expect(keysOf(await list('minPrice=6000&maxPrice=30000'))).toEqual(['bowl', 'mandala']);
      expect(keysOf(await list('maxPrice=6499'))).toEqual(['care', 'licence']);
      expect(keysOf(await list('inStock=true'))).toEqual(['bowl', 'care', 'licence']);
      expect(keysOf(await list('inStock=false'))).toEqual(['mandala', 'tara']);
    });

    it('sorts by price, title, rating and creation time', async () => {
      const byPrice = (await list('sort=price&order=asc')).map((i) => i.effectivePrice);
      expect(byPrice).toEqual([2000, 3000, 6500, 30000, 45000]);
      expect((await list('sort=title&order=asc')).map((i) => i.title)).toEqual([
        'Antivirus licence',
        'Green Tara',
        'Kalachakra mandala',
        'Laptop care plan',
        'Tibetan singing bowl',
      ]);
      expect((await list('sort=rating'))[0]?.id).toBe(ids.tara);
      expect(idsOf(await list('sort=createdAt&order=desc'))).toEqual(idsOf(await list()));
      expect(idsOf(await list('sort=createdAt&order=asc'))).toEqual(idsOf(await list()).reverse());
    });

    it('answers VALIDATION_ERROR for invalid filters', async () => {
      for (const query of [
        'productKind=service',
        'sort=popularity',
        'order=sideways',
        'inStock=yes',
        'minPrice=-1',
        'minPrice=10&maxPrice=5',
        'categoryId=abc',
        'size=1000',
      ]) {
        const res = await http.call('GET', `/api/mobile/products?${query}`);
        expect(res.statusCode, query).toBe(400);
        expect(res.json().errorCode).toBe('VALIDATION_ERROR');
      }
    });
  });

  describe('search', () => {
    it('matches substrings of title, description, category and tag names, case-insensitively', async () => {
      expect(keysOf(await list('search=SINGING'))).toEqual(['bowl']);
      expect(keysOf(await list('search=mineral%20pigments'))).toEqual(['tara']);
      expect(keysOf(await list('search=thangka'))).toEqual(['tara']);
      expect(keysOf(await list('search=meditat'))).toEqual(['bowl']);
      // Pattern characters are taken literally.
      expect(keysOf(await list('search=%25'))).toEqual([]);
    });

    it('tolerates typos through title similarity, and skips a blank search', async () => {
      expect(keysOf(await list('search=tibetan%20singng%20bowl'))).toEqual(['bowl']);
      expect(keysOf(await list('search=kalachkra%20mandla'))).toEqual(['mandala']);
      expect(keysOf(await list('search=%20%20'))).toHaveLength(5);
      expect(keysOf(await list('search=zzzzqqq'))).toEqual([]);
    });

    it('orders by similarity with sort=relevance (the default with a search)', async () => {
      const tara2 = await post('/api/admin/products', {
        title: 'Green Tara thangka, large',
        productKind: 'physical',
        mrp: 1,
        status: 'published',
      });
      const relevance = await list('search=green%20tara&sort=relevance');
      expect(idsOf(relevance)).toEqual([ids.tara, tara2.id]);
      expect(idsOf(await list('search=green%20tara'))).toEqual([ids.tara, tara2.id]);
      expect(idsOf(await list('search=green%20tara&sort=relevance&order=asc'))).toEqual([tara2.id, ids.tara]);
      await http.call('DELETE', `/api/admin/products/${tara2.id}`, admin.headers);
    });

    it('searches the admin list the same way, with admin filters', async () => {
      const res = await http.call(
        'GET',
        '/api/admin/products?search=singng%20bowl&pagination=false',
        admin.headers,
      );
      expect(res.statusCode).toBe(200);
      const found = (res.json().data as Item[]).map((i) => i.id);
      // The admin list shows every status: the draft, unsellable and archived bowls too.
      expect(found).toEqual(expect.arrayContaining([ids.bowl, ids.draft, ids.hidden, ids.archived]));
      const drafts = await http.call('GET', '/api/admin/products?search=singing&status=draft', admin.headers);
      expect(drafts.json().data.map((i: Item) => i.id)).toEqual([ids.draft]);
    });

    it('can use the trigram index for the search; similarity() > x cannot', async () => {
      // A catalog big enough that the planner weighs its options (on a handful of rows any
      // plan is as good as another).
      await t.platform.database.db.execute(sql`
        insert into products (title, slug, description, product_kind, status, mrp)
        select 'Catalog item ' || n || ' ' || md5(n::text), 'bulk-item-' || n, md5((n * 7)::text), 'physical', 'published', 100 + n
          from generate_series(1, 3000) n`);
      // VACUUM also merges the GIN pending lists, whose rows the planner would price as a scan.
      await t.platform.database.db.execute(sql`vacuum analyze products`);
      const deps = { db: t.platform.database.db, config: t.platform.config };
      const plan = (
        await explainProductSearch(deps, 'singng bowl', { withoutSeqScan: true, admin: true })
      ).join('\n');
      expect(plan, plan).toContain('products_title_trgm_idx');
      expect(plan).toContain('products_description_trgm_idx');
      // The typo branch asks the title keys index, not `%` on the trigram index; for a long term
      // too, whose few hundred keys the planner would have taken to find most titles.
      expect(plan).toContain('products_title_keys_idx');
      const long = (await explainProductSearch(deps, 'tibetan singng bowl for the altar', {})).join('\n');
      expect(long, long).toContain('products_title_keys_idx');
      // The plan is the list query's own: the page and the total of its matches in one statement.
      expect(plan).toContain('CTE matches');
      // The same question asked with the function: no index can answer it.
      const naive = await t.platform.database.db.transaction(async (tx) => {
        await tx.execute(sql`select set_config('enable_seqscan', 'off', true)`);
        const result = (await tx.execute(
          sql`explain select id from products where similarity(title, 'singng bowl') > 0.3`,
        )) as unknown as { rows: Array<{ 'QUERY PLAN': string }> };
        return result.rows.map((r) => r['QUERY PLAN']).join('\n');
      });
      expect(naive).not.toContain('trgm_idx');
      expect(naive).toContain('Seq Scan');
    });
  });

  describe('typo branch', () => {
    it('finds the same page and total as `title % term`, at several thresholds', async () => {
      // Short titles of a few common words and a number of 1 to 4 digits: many lengths, many
      // shared trigrams (the plan test's 3,000 long catalog items are there too).
      const db = t.platform.database.db;
      await db.execute(sql`
        insert into products (title, slug, product_kind, status, mrp)
        select (array['Brass','Copper','Singing','Green','Tibetan','Small'])[n % 6 + 1] || ' ' ||
               (array['bowl','Tara','mandala','thangka','bowl set'])[(n / 6) % 5 + 1] || ' ' || n,
               'typo-' || n, 'physical', 'published', 100
          from generate_series(1, 1500) n`);
      await db.execute(sql`analyze products`);
      const terms = [
        'singng bowl',
        'gren tara',
        'mandla thanka',
        'brass bowl 12',
        'catalog itme 12',
        'zzzzqqq',
        '!!',
      ];
      try {
        for (const threshold of [0.3, 0.1, 0.55]) {
          const deps = { db, config: { ...t.platform.config, SEARCH_SIMILARITY_THRESHOLD: threshold } };
          for (const term of terms) {
            const { current, former } = await comparePublicSearch(deps, term);
            expect(current, `${term} at ${threshold}`).toEqual(former);
          }
        }
        const { current } = await comparePublicSearch({ db, config: t.platform.config }, 'gren tara');
        expect(current.count).toBeGreaterThan(20);
      } finally {
        await db.execute(sql`delete from products where slug like 'typo-%'`);
      }
    });

    it('ranks by the similarity bound exactly as by similarity() of every match, on any page', {
      timeout: 60_000,
    }, async () => {
      // Ties (same words, numbers of the same width), typos, drafts, description-only matches,
      // and short titles matched by their category (a high bound, a similarity near 0) that fill
      // the probe with matches far below their bound.
      const db = t.platform.database.db;
      await db.execute(sql`
        insert into products (title, slug, description, product_kind, status, mrp, category_id)
        select (array['Singing bowl','Singng bowl','Singing bowl set','Bowl','Sining bol','Cup','Tea cup'])[n % 7 + 1]
                 || ' ' || (n % 40 + 10),
               'rank-' || n,
               case when n % 11 = 0 then 'A singing bowl for the altar' else '' end,
               'physical',
               case when n % 9 = 0 then 'draft' else 'published' end,
               100,
               case when n % 5 = 0 then ${art}::int end
          from generate_series(1, 600) n`);
      await db.execute(sql`analyze products`);
      const windows: PageWindow[] = [
        { offset: 0, limit: 20 },
        { offset: 0, limit: 1 },
        { offset: 18, limit: 4 },
        { offset: 40, limit: 20 },
        { offset: 900, limit: 20 },
      ];
      const read = (
        admin: boolean,
        term: string,
        threshold: number,
        page: PageWindow,
        exactRanking: boolean,
        filters: Partial<ProductFilters> = {},
      ) =>
        inTransaction(db, async (tx) => {
          await setSimilarityThreshold(tx, threshold);
          const search = { ...(await resolveSearch(tx, term, threshold)), exactRanking };
          if (admin) {
            const f: ProductFilters = { publicOnly: false, status: 'published', ...filters, search };
            const { rows, count } = await listAdminProducts(tx, f, 'relevance', 'desc', page);
            return { ids: rows.map((r) => r.id), count };
          }
          const { rows, count } = await listPublicProducts(
            tx,
            { publicOnly: true, ...filters, search },
            'relevance',
            'desc',
            page,
          );
          return { ids: rows.map((r) => r.product.id), count };
        });
      const cases = [
        ...['singing bowl', 'singng bowl', 'himalayan', 'cup 12', 'altar'].flatMap((term) => [
          ...windows.map((page) => ({ term, threshold: 0.3, page, admin: false })),
          { term, threshold: 0.3, page: windows[0]!, admin: true },
        ]),
        ...['singng bowl', 'bowl'].map((term) => ({ term, threshold: 0.1, page: windows[0]!, admin: false })),
        // Filters beside the search apply to both branches (the typo one reads its candidates first).
        ...[{ inStock: false, maxPrice: 1000 }, { categoryId: art }].flatMap((filters) =>
          [false, true].map((admin) => ({
            term: 'singng bowl',
            threshold: 0.3,
            page: windows[0]!,
            admin,
            filters,
          })),
        ),
      ];
      try {
        for (const { term, threshold, page, admin, filters } of cases as Array<
          (typeof cases)[number] & { filters?: Partial<ProductFilters> }
        >) {
          const exact = await read(admin, term, threshold, page, true, filters);
          const label = `${term} at ${threshold}, ${JSON.stringify(page)}${admin ? ', admin' : ''} ${JSON.stringify(filters ?? {})}`;
          expect(await read(admin, term, threshold, page, false, filters), label).toEqual(exact);
        }
        // The fixture does what it is for: ties, and pages past the probe.
        const all = await read(false, 'singing bowl', 0.3, { offset: 0, limit: 500 }, true);
        expect(all.count).toBeGreaterThan(100);
      } finally {
        await db.execute(sql`delete from products where slug like 'rank-%'`);
      }
    });

    it('keeps the title trigram shares in the cache; they steer the keys, never the answer', async () => {
      const db = t.platform.database.db;
      await db.execute(sql`analyze products`);
      const shares = await titleTrigramShares(db);
      expect(shares.length).toBeGreaterThan(0);
      await t.platform.cache.delete('catalog:title-trigram-shares');
      const first = await list('search=singng%20bowl');
      expect(await t.platform.cache.get('catalog:title-trigram-shares')).toEqual(shares);
      // Any shares, even none or the wrong way round, find the same page and total.
      const read = (given: typeof shares) =>
        inTransaction(db, async (tx) => {
          await setSimilarityThreshold(tx, 0.3);
          const search = await resolveSearch(tx, 'singng bowl', 0.3, given);
          const { rows, count } = await listPublicProducts(
            tx,
            { publicOnly: true, search },
            'relevance',
            'desc',
            {
              offset: 0,
              limit: 20,
            },
          );
          return { ids: rows.map((r) => r.product.id), count };
        });
      const expected = await read(shares);
      expect(expected.ids).toEqual(idsOf(first).slice(0, 20));
      const inverted = shares.map(([trigram, share]): [string, number] => [trigram, 1 - share]);
      for (const given of [[], inverted]) expect(await read(given)).toEqual(expected);
    });

    it('asks for the rarest trigrams at each title length, and falls back without a threshold', () => {
      const trigrams = ['  b', ' bo', 'bow', 'owl', 'wl '].map((trigram) => ({
        trigram,
        share: trigram === 'owl' ? 0.01 : 0.2,
      }));
      const keys = titleSearchKeys(trigrams, 0.3)!;
      // 5 trigrams at 0.3: titles of up to 16 trigrams can match; one of 16 needs all 5.
      expect(keys).toContain('owl|16');
      expect(keys.filter((k) => k.endsWith('|16'))).toEqual(['owl|16']);
      expect(keys.some((k) => k.endsWith('|17'))).toBe(false);
      // A title of 5 trigrams needs 3 of them: any 3 of the 5 hold one of the 3 rarest.
      expect(keys.filter((k) => k.endsWith('|5'))).toEqual(['owl|5', 'bow|5', ' bo|5']);
      expect(titleSearchKeys([], 0.3)).toEqual([]);
      expect(titleSearchKeys(trigrams, 0)).toBeNull();
      // Near 0 nearly every title length could match: too many keys, the plain branch instead.
      expect(titleSearchKeys(trigrams, 0.0005)).toBeNull();
    });
  });

  describe('list cache', () => {
    it('serves a list page from the cache until a product or taxonomy write clears it', async () => {
      const first = await list('search=mandala');
      expect(keysOf(first)).toEqual(['mandala']);
      // A change that bypasses the services (as stock and review movements do) shows only later…
      await t.platform.database.db.execute(
        sql`update products set title = 'Kalachakra mandala (gilded)' where id = ${ids.mandala}`,
      );
      expect((await list('search=mandala'))[0]?.title).toBe('Kalachakra mandala');
      // …while a product write clears the cached pages at once.
      const patch = await http.call('PATCH', `/api/admin/products/${ids.mandala}`, admin.headers, {
        isSellable: true,
      });
      expect(patch.statusCode).toBe(200);
      expect((await list('search=mandala'))[0]?.title).toBe('Kalachakra mandala (gilded)');
      // A taxonomy write clears them too.
      await t.platform.database.db.execute(
        sql`update products set title = 'Kalachakra mandala' where id = ${ids.mandala}`,
      );
      const tag = await http.call('POST', '/api/admin/tags', admin.headers, { name: 'Cache buster' });
      expect(tag.statusCode).toBe(201);
      expect((await list('search=mandala'))[0]?.title).toBe('Kalachakra mandala');
    });
  });

  describe('detail cache', () => {
    it('serves the public detail from the cache until a product write clears it; old slugs and unknown ones are not mixed up', async () => {
      const detail = async (slug: string) => (await http.call('GET', `/api/products/${slug}`)).json();
      const before = await detail('tibetan-singing-bowl');
      const id = before.data.id as number;
      await t.platform.database.db.execute(
        sql`update products set title = 'Bowl behind the cache' where id = ${id}`,
      );
      // Behind the services (as stock movements are): the cached answer stands for its lifetime…
      expect((await detail('tibetan-singing-bowl')).data.title).toBe(before.data.title);
      // …a product write clears it at once.
      const patch = await http.call('PATCH', `/api/admin/products/${id}`, admin.headers, {
        isSellable: true,
      });
      expect(patch.statusCode).toBe(200);
      expect((await detail('tibetan-singing-bowl')).data.title).toBe('Bowl behind the cache');
      // The cached text is the same envelope the schema makes.
      expect(await detail('tibetan-singing-bowl')).toEqual({ message: 'Product', data: expect.any(Object) });
      const missing = await http.call('GET', '/api/products/no-such-bowl');
      expect(missing.statusCode).toBe(404);
      await t.platform.database.db.execute(
        sql`update products set title = ${before.data.title as string} where id = ${id}`,
      );
      await http.call('PATCH', `/api/admin/products/${id}`, admin.headers, { isSellable: true });
    });
  });

  describe('detail', () => {
    it('shows a published product by slug with review fields', async () => {
      for (const prefix of ['/api', '/api/mobile']) {
        const res = await http.call('GET', `${prefix}/products/tibetan-singing-bowl`);
        expect(res.statusCode).toBe(200);
        expect(res.json().data).toMatchObject({
          id: ids.bowl,
          slug: 'tibetan-singing-bowl',
          averageRating: 0,
          totalReviews: 0,
          reviewStatus: 'No reviews yet',
          tags: [{ name: 'Meditation', slug: 'meditation' }],
          images: [{ relativePath: 'public/products/bowl.webp', alt: 'Bowl' }],
          inStock: true,
        });
      }
      const tara = await http.call('GET', '/api/mobile/products/green-tara');
      expect(tara.json().data).toMatchObject({
        averageRating: 4.5,
        totalReviews: 2,
        reviewStatus: 'Reviews available',
        description: '<p>Hand painted with mineral pigments</p>',
      });
    });

    it('resolves an old slug to the product with its current slug', async () => {
      const renamed = await http.call('PATCH', `/api/admin/products/${ids.mandala}`, admin.headers, {
        slug: 'kalachakra-mandala-thangka',
      });
      expect(renamed.statusCode).toBe(200);
      const old = await http.call('GET', '/api/mobile/products/kalachakra-mandala');
      expect(old.statusCode).toBe(200);
      expect(old.json().data).toMatchObject({ id: ids.mandala, slug: 'kalachakra-mandala-thangka' });
    });

    it('answers PRODUCT_NOT_FOUND for unknown, draft and archived products', async () => {
      for (const slug of ['no-such-product', 'draft-singing-bowl', 'old-singing-bowl']) {
        const res = await http.call('GET', `/api/products/${slug}`);
        expect(res.statusCode, slug).toBe(404);
        expect(res.json().errorCode).toBe('PRODUCT_NOT_FOUND');
      }
    });
  });
});

describe('product search rate limits', () => {
  let t: TestApp;
  let http: ReturnType<typeof caller>;
  beforeAll(async () => {
    t = await createTestApp({
      env: {
        CATALOG_CUSTOMER_PRODUCT_SEARCH_RATE_LIMIT: '2',
        CATALOG_ADMIN_PRODUCT_SEARCH_RATE_LIMIT: '2',
        CATALOG_ADMIN_PRODUCT_SEARCH_RATE_WINDOW_SECONDS: '120',
      },
    });
    http = caller(t);
  });
  afterAll(() => t.close());

  it('limits public searches per IP across both surfaces, and never plain lists', async () => {
    for (let i = 0; i < 4; i++) expect((await http.call('GET', '/api/products')).statusCode).toBe(200);
    expect((await http.call('GET', '/api/products?search=bowl')).statusCode).toBe(200);
    expect((await http.call('GET', '/api/mobile/products?search=bowl')).statusCode).toBe(200);
    const limited = await http.call('GET', '/api/products?search=tara');
    expect(limited.statusCode).toBe(429);
    expect(limited.json().errorCode).toBe('RATE_LIMITED');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect((await http.call('GET', '/api/mobile/products')).statusCode).toBe(200);
  });

  it('limits admin searches per admin', async () => {
    const one = await signedInAdmin(t, { permissions: ['Products_READ'] });
    const two = await signedInAdmin(t, { permissions: ['Products_READ'] });
    for (let i = 0; i < 2; i++) {
      expect((await http.call('GET', '/api/admin/products?search=x', one.headers)).statusCode).toBe(200);
    }
    const limited = await http.call('GET', '/api/admin/products?search=x', one.headers);
    expect(limited.statusCode).toBe(429);
    expect(limited.json().errorCode).toBe('RATE_LIMITED');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(60);
    expect((await http.call('GET', '/api/admin/products?search=x', two.headers)).statusCode).toBe(200);
    expect((await http.call('GET', '/api/admin/products', one.headers)).statusCode).toBe(200);
  });

  it('lets searches through when the limiter store fails', async () => {
    // A Redis that refuses every command at once: nothing listens on port 1.
    const broken = new Redis({
      port: 1,
      lazyConnect: true,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
    });
    broken.on('error', () => {});
    const app = Fastify();
    await app.register(rateLimit, { global: false, redis: broken });
    const limits = { ...t.platform.config, CATALOG_CUSTOMER_PRODUCT_SEARCH_RATE_LIMIT: 1 };
    app.get('/search', { preHandler: app.rateLimit(productSearchLimits(limits, 'public')) }, async () => ({
      ok: true,
    }));
    try {
      for (let i = 0; i < 3; i++) {
        const res = await app.inject({ method: 'GET', url: '/search?search=bowl' });
        expect(res.statusCode).toBe(200);
      }
    } finally {
      await app.close();
      broken.disconnect();
    }
  });
});
