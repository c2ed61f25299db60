// Queries of products: writes with their tags and slug history, and the one list query the
// admin and public lists share (filters, sorts; the search's own SQL is in
// products.search.repository.ts). Constraint violations become catalog errors here.
import { and, asc, count, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../../platform/db/database';
import { isForeignKeyViolation, isUniqueViolation } from '../../../platform/db/errors';
import { preparedPerDb } from '../../../platform/db/prepared';
import type { PageWindow } from '../../../platform/http/pagination';
import { catalogErrors } from '../catalog.errors';
import { intArray, paged, rowsOf, slugFamilyPattern } from '../catalog.repository';
import { digitalKeys } from '../digital-keys/digital-keys.table';
import { productStock } from '../stock/stock.table';
import { brands, categories, tags } from '../taxonomy/taxonomy.table';
import {
  type ProductSearch,
  plainBranches,
  resolveSearch,
  searchSql,
  textArray,
} from './products.search.repository';
import {
  type ProductKind,
  type ProductStatus,
  productListingCount,
  productSlugHistory,
  products,
  productTags,
} from './products.table';

export type ProductRow = typeof products.$inferSelect;
export type NewProductRow = typeof products.$inferInsert;

const PRODUCT_SLUG_UNIQUE = 'products_slug_unique';

export async function findProduct(db: Db, id: number): Promise<ProductRow | undefined> {
  const [row] = await db.select().from(products).where(eq(products.id, id));
  return row;
}

/** Locks the product row for the rest of the transaction (concurrent edits queue up). */
export async function lockProduct(tx: Db, id: number): Promise<ProductRow | undefined> {
  const [row] = await tx.select().from(products).where(eq(products.id, id)).for('update');
  return row;
}

export async function findProductBySlug(db: Db, slug: string): Promise<ProductRow | undefined> {
  const [row] = await db.select().from(products).where(eq(products.slug, slug));
  return row;
}

/** The product that had `slug` before it was changed. */
export async function findProductByOldSlug(db: Db, slug: string): Promise<ProductRow | undefined> {
  const [row] = await db
    .select({ product: products })
    .from(productSlugHistory)
    .innerJoin(products, eq(products.id, productSlugHistory.productId))
    .where(eq(productSlugHistory.slug, slug));
  return row?.product;
}

/** The slugs of the `base` family in use now or earlier: a generated slug avoids both. */
export async function takenProductSlugs(db: Db, base: string): Promise<Set<string>> {
  const pattern = slugFamilyPattern(base);
  const rows = await rowsOf<{ slug: string }>(
    db,
    sql`select slug from ${products} where slug ~ ${pattern}
        union select slug from ${productSlugHistory} where slug ~ ${pattern}`,
  );
  return new Set(rows.map((r) => r.slug));
}

export async function lockProductSlugs(tx: Db): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext('catalog.slugs.products'))`);
}

/** A reference deleted between the service's check and the write still gets its own code. */
const REFERENCE_FKS = [
  ['products_category_id_categories_id_fk', 'CATEGORY', 'The category does not exist'],
  ['products_brand_id_brands_id_fk', 'BRAND', 'The brand does not exist'],
  ['products_seo_id_seo_records_id_fk', 'SEO', 'The SEO record does not exist'],
  ['product_tags_tag_id_tags_id_fk', 'TAG', 'A tag does not exist'],
] as const;

async function slugSafe<T>(slug: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isUniqueViolation(error, PRODUCT_SLUG_UNIQUE)) throw catalogErrors.productSlugExists(slug);
    for (const [constraint, what, message] of REFERENCE_FKS) {
      if (isForeignKeyViolation(error, constraint))
        throw catalogErrors.productReferenceInvalid(what, message);
    }
    throw error;
  }
}

export function insertProduct(tx: Db, row: NewProductRow): Promise<ProductRow> {
  return slugSafe(row.slug, async () => {
    const [created] = await tx.insert(products).values(row).returning();
    return created!;
  });
}

export function updateProduct(
  tx: Db,
  id: number,
  patch: Partial<NewProductRow>,
): Promise<ProductRow | undefined> {
  return slugSafe(patch.slug ?? '', async () => {
    const [row] = await tx.update(products).set(patch).where(eq(products.id, id)).returning();
    return row;
  });
}

/** Drops `slug` from the history: a slug in use now always wins over an old one. */
export async function freeHistorySlug(tx: Db, slug: string): Promise<void> {
  await tx.delete(productSlugHistory).where(eq(productSlugHistory.slug, slug));
}

/** Keeps `oldSlug` pointing at the product, and frees `newSlug` from any history row. */
export async function moveSlug(tx: Db, productId: number, oldSlug: string, newSlug: string): Promise<void> {
  await freeHistorySlug(tx, newSlug);
  await tx
    .insert(productSlugHistory)
    .values({ slug: oldSlug, productId })
    .onConflictDoUpdate({ target: productSlugHistory.slug, set: { productId, createdAt: sql`now()` } });
}

/** The published products among `ids`, for records of other modules that link products. */
export async function findPublishedProducts(db: Db, ids: number[]): Promise<ProductRow[]> {
  if (!ids.length) return [];
  return db
    .select()
    .from(products)
    .where(and(inArray(products.id, ids), eq(products.status, 'published')));
}

export async function tagIdsOf(db: Db, productIds: number[]): Promise<Map<number, number[]>> {
  const out = new Map<number, number[]>(productIds.map((id) => [id, []]));
  if (!productIds.length) return out;
  const rows = await db
    .select({ productId: productTags.productId, tagId: productTags.tagId })
    .from(productTags)
    .where(inArray(productTags.productId, productIds))
    .orderBy(asc(productTags.position));
  for (const r of rows) out.get(r.productId)?.push(r.tagId);
  return out;
}

export async function tagsOf(db: Db, productId: number) {
  return db
    .select({ id: tags.id, name: tags.name, slug: tags.slug })
    .from(productTags)
    .innerJoin(tags, eq(tags.id, productTags.tagId))
    .where(eq(productTags.productId, productId))
    .orderBy(asc(productTags.position));
}

export async function replaceProductTags(tx: Db, productId: number, tagIds: number[]): Promise<void> {
  await tx.delete(productTags).where(eq(productTags.productId, productId));
  if (tagIds.length) {
    await slugSafe('', () =>
      tx.insert(productTags).values(tagIds.map((tagId, position) => ({ productId, tagId, position }))),
    );
  }
}

export async function existingTagIds(db: Db, ids: number[]): Promise<Set<number>> {
  if (!ids.length) return new Set();
  const rows = await db.select({ id: tags.id }).from(tags).where(inArray(tags.id, ids));
  return new Set(rows.map((r) => r.id));
}

export async function setReviewAggregates(
  db: Db,
  productId: number,
  averageRating: number | null,
  reviewCount: number,
): Promise<void> {
  await db.update(products).set({ averageRating, reviewCount }).where(eq(products.id, productId));
}

// ---------- the list query ----------

export interface ProductFilters {
  /** Published and sellable only (the public catalog). */
  publicOnly: boolean;
  status?: ProductStatus;
  isSellable?: boolean;
  categoryId?: number;
  brandId?: number;
  tag?: string;
  productKind?: ProductKind;
  minPrice?: number;
  maxPrice?: number;
  inStock?: boolean;
  search?: ProductSearch;
}

export type ProductSort = 'relevance' | 'createdAt' | 'updatedAt' | 'price' | 'title' | 'rating';

/**
 * Whether a customer can get the product now: physical ones with units not reserved, digital
 * ones with a key left; a care package is a service and never runs out.
 */
export const inStockSql = sql<boolean>`(case ${products.productKind}
  when 'physical' then exists(select 1 from ${productStock} s where s.product_id = ${products.id} and s.on_hand > s.reserved)
  when 'digital' then exists(select 1 from ${digitalKeys} k where k.product_id = ${products.id} and k.status = 'available')
  else true end)`;

/**
 * A search's page in relevance order (most similar title first, then the newest id), as the
 * subquery `r(id, s, total)`: the page's ids with their similarity and the number of matches.
 * It finds the same page as ordering every match by similarity(), computing that for far
 * fewer of them. A title of n trigrams can reach at most min(n, m) / max(n, m) against a term
 * of m (`title_trigram_count`, migration 0027; float4 as pg_trgm computes it, so the bound is
 * never below the real value). The first `probe` matches by that bound give, with their real
 * similarity, a floor: at least `need` matches reach it, so every match of the page does, and
 * only matches whose bound reaches the floor are ranked by their real similarity. The typo
 * branch computes similarity() anyway to decide a match; the page reuses it.
 *
 * Undefined where the bound cannot help: another order, the whole list, a term without
 * trigrams, or the exact reference (`exactRanking`).
 */
function rankedSearchSql(
  f: ProductFilters,
  sort: ProductSort,
  order: 'asc' | 'desc',
  page: PageWindow,
): SQL | undefined {
  const search = f.search;
  if (!search || search.exactRanking || search.trigramCount === 0) return undefined;
  if (sort !== 'relevance' || order !== 'desc' || page.limit === undefined) return undefined;
  const base = whereOf({ ...f, search: undefined }) ?? sql`true`;
  const m = search.trigramCount;
  const need = page.offset + page.limit;
  // Twice the page: among the shortest titles a few are category, tag or description matches
  // far below their bound; more of them raise the floor, and each costs one similarity().
  const probe = need * 2;
  const term = search.term;
  const bound = sql`(least(n, ${m}::int)::float4 / (n + ${m}::int - least(n, ${m}::int))::float4)`;
  const similarity = sql`coalesce(s, similarity(title, ${term}))`;
  // Each `offset 0` keeps a subquery apart from the query around it. In the typo branch the
  // candidates come from the title keys alone (next to the visibility filter the planner ANDed
  // in the listing index, reading 87,000 entries), the filter then applies to them under the
  // table's own name, and similarity() runs once for each row it lets through. The keys are a
  // subquery's value, which the planner cannot see: it estimated a long term's few hundred keys
  // to find most titles and chose a sequential scan, evaluating the keys condition (~300 µs a
  // title: the plpgsql function, then the overlap) on every row, 30 s for a three-word term;
  // unseen, they get the default estimate of an overlap, and the index.
  const candidates = search.titleKeys
    ? sql`product_title_keys(title) && (select ${textArray(search.titleKeys)}::text[])`
    : sql`title % ${term}`;
  return sql`(
    with other as (
      select ${products.id} as id, ${products.title} as title, ${products.titleTrigramCount} as n
        from ${products} where ${base} and (${sql.join(plainBranches(search), sql` or `)})
    ), typo as (
      select id, title, n, s from (
        select ${products.id} as id, ${products.title} as title, ${products.titleTrigramCount} as n,
               similarity(${products.title}, ${term}) as s
          from (select * from ${products} where ${candidates} offset 0) ${products}
         where ${base} offset 0) t
       where s >= ${search.threshold}::float8
    ), matches as (
      select coalesce(o.id, t.id) as id, coalesce(o.title, t.title) as title, coalesce(o.n, t.n) as n, t.s
        from other o full join typo t on t.id = o.id
    ), probe as (
      select ${similarity} as s
        from (select title, s from matches order by coalesce(s, ${bound}) desc, id desc limit ${probe} offset 0) p
    ), floor as (
      select s from probe order by s desc offset ${need - 1} limit 1
    )
    select id, s, (select count(*) from matches) as total
      from (select id, ${similarity} as s from matches
             where coalesce(s, ${bound}) >= coalesce((select s from floor), 0) offset 0) c
     order by s desc, id desc
     offset ${page.offset} limit ${page.limit}
  ) r`;
}

function whereOf(f: ProductFilters): SQL | undefined {
  return and(
    f.publicOnly ? and(eq(products.status, 'published'), eq(products.isSellable, true)) : undefined,
    f.status ? eq(products.status, f.status) : undefined,
    f.isSellable !== undefined ? eq(products.isSellable, f.isSellable) : undefined,
    f.categoryId !== undefined
      ? sql`${products.categoryId} = any(array(
          with recursive sub(id) as (
            select ${f.categoryId}::int
            union select c.id from ${categories} c join sub on c.parent_id = sub.id)
          select id from sub))`
      : undefined,
    f.brandId !== undefined ? eq(products.brandId, f.brandId) : undefined,
    f.tag
      ? sql`${products.id} in (select pt.product_id from ${productTags} pt join ${tags} t on t.id = pt.tag_id where t.slug = ${f.tag})`
      : undefined,
    f.productKind ? eq(products.productKind, f.productKind) : undefined,
    f.minPrice !== undefined ? sql`${products.effectivePrice} >= ${f.minPrice}` : undefined,
    f.maxPrice !== undefined ? sql`${products.effectivePrice} <= ${f.maxPrice}` : undefined,
    f.inStock !== undefined ? (f.inStock ? inStockSql : sql`not ${inStockSql}`) : undefined,
    f.search ? searchSql(f.search) : undefined,
  );
}

function orderOf(sort: ProductSort, order: 'asc' | 'desc', search: ProductSearch | undefined): SQL[] {
  const dir = order === 'asc' ? sql`asc` : sql`desc`;
  const key = {
    relevance: search ? sql`similarity(${products.title}, ${search.term})` : sql`${products.createdAt}`,
    createdAt: sql`${products.createdAt}`,
    updatedAt: sql`${products.updatedAt}`,
    price: sql`${products.effectivePrice}`,
    title: sql`${products.title}`,
    rating: sql`${products.averageRating}`,
  }[sort];
  // Only the rating can be empty; `nulls last` on a NOT NULL column would keep the planner
  // from reading the listing indexes backwards (it cannot know no null is there).
  if (sort === 'rating') {
    return [sql`${key} ${dir} nulls last`, sql`${products.reviewCount} ${dir}`, sql`${products.id} ${dir}`];
  }
  return [sql`${key} ${dir}`, sql`${products.id} ${dir}`];
}

/**
 * With a search, the page carries the total (`count(*) over ()`): the search visits every
 * match anyway (to rank them), and a second query would run the whole search again. The whole
 * public catalog's page carries the kept count (`product_listing_count`, one row). Otherwise a
 * separate count keeps the page an index-ordered top-N read.
 */
const totalSql = (f: ProductFilters) =>
  f.search
    ? sql<number>`count(*) over ()`
    : isWholeCatalog(f)
      ? sql<number | null>`(select ${productListingCount.products} from ${productListingCount})`
      : sql<null>`null`;

async function countOf(
  db: Db,
  f: ProductFilters,
  where: SQL | undefined,
  page: Array<{ total: number | null }>,
) {
  if (page[0] && page[0].total !== null) return Number(page[0].total);
  if (isWholeCatalog(f)) {
    const kept = await listingCount(db);
    if (kept !== undefined) return kept;
  }
  const [total] = await db.select({ n: count() }).from(products).where(where);
  return total?.n ?? 0;
}

export async function listAdminProducts(
  db: Db,
  f: ProductFilters,
  sort: ProductSort,
  order: 'asc' | 'desc',
  page: PageWindow,
): Promise<{ rows: ProductRow[]; count: number }> {
  const where = whereOf(f);
  const ranked = rankedSearchSql(f, sort, order, page);
  const rows = ranked
    ? await db
        .select({ product: products, total: sql<number>`r.total` })
        .from(products)
        .innerJoin(ranked, sql`r.id = ${products.id}`)
        .orderBy(...RANKED_ORDER)
    : await paged(
        db
          .select({ product: products, total: totalSql(f) })
          .from(products)
          .where(where)
          .orderBy(...orderOf(sort, order, f.search))
          .$dynamic(),
        page,
      );
  return { rows: rows.map((r) => r.product), count: await countOf(db, f, where, rows) };
}

/** The order of `rankedSearchSql`'s page: most similar first, then the newest id. */
const RANKED_ORDER = [sql`r.s desc`, sql`r.id desc`];

export interface PublicListRow {
  product: Omit<ProductRow, 'description' | 'specifications' | 'titleTrigramCount'>;
  category: { id: number; name: string; slug: string } | null;
  brand: { id: number; name: string; slug: string } | null;
  inStock: boolean;
}

// What a cart or an order reads of a product: the columns it prices and shows, not the
// description, specifications or search columns (a cart priced on every change reads these).
const forSaleColumns = {
  id: products.id,
  title: products.title,
  slug: products.slug,
  productKind: products.productKind,
  status: products.status,
  isSellable: products.isSellable,
  mrp: products.mrp,
  sp: products.sp,
  effectivePrice: products.effectivePrice,
  categoryId: products.categoryId,
  brandId: products.brandId,
  images: products.images,
  carePackageTierId: products.carePackageTierId,
};
const publicColumns = {
  product: {
    ...forSaleColumns,
    seoId: products.seoId,
    averageRating: products.averageRating,
    reviewCount: products.reviewCount,
    publishedAt: products.publishedAt,
    createdAt: products.createdAt,
    updatedAt: products.updatedAt,
  },
  category: { id: categories.id, name: categories.name, slug: categories.slug },
  brand: { id: brands.id, name: brands.name, slug: brands.slug },
  inStock: inStockSql,
};

export async function listPublicProducts(
  db: Db,
  f: ProductFilters,
  sort: ProductSort,
  order: 'asc' | 'desc',
  page: PageWindow,
): Promise<{ rows: PublicListRow[]; count: number }> {
  const rows = await publicPageQuery(db, f, sort, order, page);
  return { rows: rows as PublicListRow[], count: await countOf(db, f, whereOf(f), rows) };
}

/** The public list with no filter and no search: every published and sellable product. */
function isWholeCatalog(f: ProductFilters): boolean {
  return (
    f.publicOnly === true &&
    Object.entries(f).every(([key, value]) => key === 'publicOnly' || value === undefined)
  );
}

/**
 * The number of published and sellable products, kept by the `products` triggers of migration
 * 0026 (`product_listing_count`); undefined if its row is missing, and the caller counts.
 */
async function listingCount(db: Db): Promise<number | undefined> {
  const [row] = await db.select({ n: productListingCount.products }).from(productListingCount);
  return row?.n;
}

/** A page of the public list; `explainSearch` shows the plan of this very query. */
function publicPageQuery(
  db: Db,
  f: ProductFilters,
  sort: ProductSort,
  order: 'asc' | 'desc',
  page: PageWindow,
) {
  const ranked = rankedSearchSql(f, sort, order, page);
  if (ranked) {
    return db
      .select({ ...publicColumns, total: sql<number>`r.total` })
      .from(products)
      .innerJoin(ranked, sql`r.id = ${products.id}`)
      .leftJoin(categories, eq(categories.id, products.categoryId))
      .leftJoin(brands, eq(brands.id, products.brandId))
      .orderBy(...RANKED_ORDER)
      .$dynamic();
  }
  return paged(
    db
      .select({ ...publicColumns, total: totalSql(f) })
      .from(products)
      .leftJoin(categories, eq(categories.id, products.categoryId))
      .leftJoin(brands, eq(brands.id, products.brandId))
      .where(whereOf(f))
      .orderBy(...orderOf(sort, order, f.search))
      .$dynamic(),
    page,
  );
}

/** One product with its category, brand and availability, as the public detail shows it. */
export async function findPublicProduct(
  db: Db,
  id: number,
): Promise<(PublicListRow & { full: ProductRow }) | undefined> {
  const [row] = await db
    .select({ ...publicColumns, full: products })
    .from(products)
    .leftJoin(categories, eq(categories.id, products.categoryId))
    .leftJoin(brands, eq(brands.id, products.brandId))
    .where(eq(products.id, id));
  return row as (PublicListRow & { full: ProductRow }) | undefined;
}

/**
 * EXPLAIN of the first page of the public list query with a search (total included, as the
 * list sends it), for the benchmark and the plan test; `publicOnly` false leaves out the
 * published-and-sellable filter, as the admin list does.
 */
export async function explainSearch(
  db: Db,
  term: string,
  threshold: number,
  publicOnly: boolean,
  analyze = false,
): Promise<string[]> {
  const search = await resolveSearch(db, term, threshold);
  const query = publicPageQuery(db, { publicOnly, search }, 'relevance', 'desc', {
    offset: 0,
    limit: 20,
  }).toSQL();
  const rows = await rowsOf<{ 'QUERY PLAN': string }>(
    db,
    sql.raw(`explain ${analyze ? '(analyze, buffers) ' : ''}${inlineParams(query.sql, query.params)}`),
  );
  return rows.map((r) => r['QUERY PLAN']);
}

/** The query with its `$n` parameters written in as literals (EXPLAIN takes no parameters). */
function inlineParams(text: string, params: unknown[]): string {
  return text.replace(/\$(\d+)/g, (_, n: string) => {
    const value = params[Number(n) - 1];
    if (typeof value === 'number' || typeof value === 'boolean') return String(value);
    return `'${String(value).replace(/'/g, "''")}'`;
  });
}

/** For plan inspection only: sequential scans off for the rest of the transaction. */
export async function disableSeqScan(tx: Db): Promise<void> {
  await tx.execute(sql`select set_config('enable_seqscan', 'off', true)`);
}

// ---------- bulk loading (synthetic catalogs for benchmarks) ----------

export interface BulkProduct {
  title: string;
  slug: string;
  description: string;
  productKind: ProductKind;
  status: ProductStatus;
  isSellable: boolean;
  mrp: number;
  sp: number;
  categoryId: number | null;
  brandId: number | null;
  tagIds: number[];
}

/**
 * Inserts a batch of products and their tags with two statements (`unnest` of array
 * parameters), skipping slugs that exist. Returns how many products were inserted.
 */
export async function insertProductBatch(tx: Db, batch: BulkProduct[]): Promise<number> {
  if (!batch.length) return 0;
  const col = <K extends keyof BulkProduct>(key: K) => batch.map((p) => p[key]);
  const inserted = await rowsOf<{ id: number; slug: string }>(
    tx,
    sql`insert into ${products}
          (title, slug, description, product_kind, status, is_sellable, mrp, sp, category_id, brand_id, published_at)
        select t.title, t.slug, t.description, t.kind, t.status, t.sellable, t.mrp, t.sp, t.category_id, t.brand_id,
               case when t.status = 'published' then now() end
          from unnest(
            ${textArray(col('title'))}::text[], ${textArray(col('slug'))}::text[],
            ${textArray(col('description'))}::text[], ${textArray(col('productKind'))}::text[],
            ${textArray(col('status'))}::text[], ${`{${col('isSellable').join(',')}}`}::boolean[],
            ${intArray(col('mrp'))}::bigint[], ${intArray(col('sp'))}::bigint[],
            ${intArray(col('categoryId'))}::int[], ${intArray(col('brandId'))}::int[]
          ) as t(title, slug, description, kind, status, sellable, mrp, sp, category_id, brand_id)
        on conflict (slug) do nothing
        returning id, slug`,
  );
  const idBySlug = new Map(inserted.map((r) => [r.slug, Number(r.id)]));
  const links = batch.flatMap((p) => {
    const id = idBySlug.get(p.slug);
    return id === undefined ? [] : p.tagIds.map((tagId, position) => ({ id, tagId, position }));
  });
  if (links.length) {
    await tx.execute(sql`insert into ${productTags} (product_id, tag_id, position)
      select * from unnest(${intArray(links.map((l) => l.id))}::int[], ${intArray(links.map((l) => l.tagId))}::int[],
                           ${intArray(links.map((l) => l.position))}::int[])
      on conflict do nothing`);
  }
  return inserted.length;
}

/**
 * Refreshes the planner's statistics and merges the trigram indexes' pending lists after a
 * bulk load: until then the planner prices those indexes as if it had to scan the pending rows.
 */
export async function vacuumCatalog(db: Db): Promise<void> {
  await db.execute(sql`vacuum analyze ${products}`);
  await db.execute(sql`vacuum analyze ${productTags}`);
}

export async function countProducts(db: Db): Promise<number> {
  const [row] = await db.select({ n: count() }).from(products);
  return row?.n ?? 0;
}

// ---------- products as the cart and orders price them ----------

type ProductForSaleRow = Pick<ProductRow, keyof typeof forSaleColumns>;

/**
 * The product's category and every ancestor of it, read in the product's own row (null without a
 * category): the pricing of a cart, a quote or a checkout reads its products in one statement
 * instead of two. `union`, so even a cycle would end; the order of the ids means nothing (rules
 * ask whether a path holds a category).
 */
const categoryPathOfRow = sql<Array<number | string> | null>`(
  with recursive path(id, parent_id) as (
    select c.id, c.parent_id from categories c where c.id = ${products.categoryId}
    union
    select c.id, c.parent_id from categories c join path p on c.id = p.parent_id
  )
  select array_agg(path.id) from path)`;

// Read by every cart change, cart read and checkout, inside their transactions: prepared
// (platform/db/prepared.ts); its SQL was the widest of a checkout's to build.
const withCategoryPathsQuery = preparedPerDb((db) =>
  db
    .select({ ...forSaleColumns, categoryPath: categoryPathOfRow })
    .from(products)
    .where(sql`${products.id} = any(${sql.placeholder('ids')}::int[])`)
    .prepare('catalog_products_with_category_paths'),
);

/** Products by id with the path of their category (the category and every ancestor of it). */
export async function productsWithCategoryPaths(
  db: Db,
  ids: number[],
): Promise<Array<{ product: ProductForSaleRow; categoryPath: number[] }>> {
  if (!ids.length) return [];
  const rows = await withCategoryPathsQuery(db).execute({ ids });
  return rows.map(({ categoryPath, ...product }) => ({
    product,
    categoryPath: (categoryPath ?? []).map(Number),
  }));
}
