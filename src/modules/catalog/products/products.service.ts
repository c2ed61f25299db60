// Products: admin writes (slugs with history, sanitised descriptions, checked references,
// publish and archive), the admin list, and the public catalog with its search. How a row
// is shown is products.views.ts.
import type sanitizeHtml from 'sanitize-html';
import type { UserPrincipal } from '../../../platform/auth/principal';
import { type Cache, cached } from '../../../platform/cache/cache';
import type { Db } from '../../../platform/db/database';
import { inTransaction } from '../../../platform/db/transaction';
import { pageSchema, serializedWith } from '../../../platform/http/envelope';
import { httpErrors } from '../../../platform/http/errors';
import { type PageMeta, pageMeta, pageWindow } from '../../../platform/http/pagination';
import { lazyPackage } from '../../../platform/lazy';
import type { ModuleContext } from '../../../platform/module';
import { recordActivity } from '../../activity';
import { findCarePackageTier } from '../care-packages/care-packages.service';
import { catalogErrors } from '../catalog.errors';
import { firstFreeSlug, slugify } from '../catalog.service';
import { seoIdExists } from '../seo/seo.repository';
import { findBrand, findCategory } from '../taxonomy/taxonomy.repository';
import * as repo from './products.repository';
import type {
  AdminProductListQuery,
  AdminProductView,
  CreateProductBody,
  PublicProductDetail,
  PublicProductListQuery,
  UpdateProductBody,
} from './products.schemas';
import { publicProductDetail, publicProductListItem } from './products.schemas';
import * as searchRepo from './products.search.repository';
import { adminView, adminViews, imageViews, publicListItem, rating, thumbnailUrl } from './products.views';

const publicPageSchema = pageSchema(publicProductListItem);

import type { ProductKind, ProductStatus } from './products.table';

/** `cache`, when given, keeps public list pages for CATALOG_PUBLIC_LIST_CACHE_SECONDS. */
export type ProductDeps = Pick<ModuleContext, 'db' | 'clock' | 'storage' | 'config'> & { cache?: Cache };

const LIST_CACHE_PREFIX = 'catalog:product-list:';

/**
 * Drops every cached public list page. Product, taxonomy and review-moderation writes call it
 * after commit (reviews through `applyProductReviewAggregates`); stock movements do not (their
 * lag is bounded by the cache lifetime).
 */
export async function forgetCachedProductLists(cache: Cache | undefined): Promise<void> {
  await cache?.deleteByPrefix(LIST_CACHE_PREFIX);
}

const PRODUCT = 'product';

// ---------- descriptions ----------

// Loaded by the first description written, not at start-up (platform/lazy.ts).
const sanitizer = lazyPackage<typeof sanitizeHtml>('sanitize-html');
let descriptionRules: sanitizeHtml.IOptions | undefined;
const DESCRIPTION_RULES = (): sanitizeHtml.IOptions => {
  descriptionRules ??= {
    allowedTags: [...sanitizer().defaults.allowedTags, 'img', 'h1', 'h2'],
    allowedAttributes: {
      a: ['href', 'name', 'target', 'rel'],
      img: ['src', 'alt', 'width', 'height'],
      '*': ['class'],
    },
    allowedSchemes: ['http', 'https', 'mailto', 'tel'],
    allowedSchemesByTag: { img: ['http', 'https'] },
    allowProtocolRelative: false,
  };
  return descriptionRules;
};

/** Product descriptions are HTML from the back office: no scripts, handlers or `javascript:` URLs. */
export function sanitizeDescription(html: string): string {
  return sanitizer()(html, DESCRIPTION_RULES()).trim();
}

// Every tag, attribute and URL kept: the same parser and writer as the rules above, so markup
// that loses nothing comes out identical to the sanitised text (quotes, entities, `<br>` alike).
const KEEP_EVERYTHING: sanitizeHtml.IOptions = {
  allowedTags: false,
  allowedAttributes: false,
  allowVulnerableTags: true,
  allowedSchemes: [],
  allowedSchemesAppliedToAttributes: [],
  allowProtocolRelative: true,
  parseStyleAttributes: false,
};

/**
 * What `sanitizeDescription` keeps of `html`, and whether it took anything away (a tag, an
 * attribute, a URL): the back office shows it before a save, so nothing disappears unseen.
 * Differences of spelling alone (`<br/>` for `<br>`, `&#39;` for `'`) are not removals.
 */
export function sanitizeDescriptionReport(html: string): { html: string; removed: boolean } {
  const kept = sanitizeDescription(html);
  return { html: kept, removed: kept !== sanitizer()(html, KEEP_EVERYTHING).trim() };
}

// ---------- writes ----------

/** Where a status change leaves `publishedAt`: set when a product goes live, cleared when it leaves. */
function statusFields(
  before: ProductStatus | undefined,
  after: ProductStatus,
  publishedAt: Date | null,
  now: Date,
) {
  if (after !== 'published') return { status: after, publishedAt: null };
  return { status: after, publishedAt: before === 'published' ? publishedAt : now };
}

interface References {
  productKind: ProductKind;
  mrp: number;
  sp: number;
  categoryId: number | null;
  brandId: number | null;
  tagIds: number[] | undefined;
  seoId: string | null;
  carePackageTierId: number | null;
}

/** Every id a product write names must exist; a care-package product names its tier. */
async function checkReferences(tx: Db, r: References): Promise<void> {
  if (r.sp > r.mrp)
    throw httpErrors.validation([{ path: 'sp', message: 'sp must not be above mrp', code: 'sp_above_mrp' }]);
  if (r.categoryId !== null && !(await findCategory(tx, r.categoryId))) {
    throw catalogErrors.productReferenceInvalid('CATEGORY', `Category ${r.categoryId} does not exist`);
  }
  if (r.brandId !== null && !(await findBrand(tx, r.brandId))) {
    throw catalogErrors.productReferenceInvalid('BRAND', `Brand ${r.brandId} does not exist`);
  }
  if (r.tagIds?.length) {
    const found = await repo.existingTagIds(tx, r.tagIds);
    const missing = r.tagIds.filter((id) => !found.has(id));
    if (missing.length)
      throw catalogErrors.productReferenceInvalid('TAG', `Unknown tag ids: ${missing.join(', ')}`);
  }
  if (r.seoId !== null && !(await seoIdExists(tx, r.seoId))) {
    throw catalogErrors.productReferenceInvalid('SEO', `SEO record ${r.seoId} does not exist`);
  }
  if (r.productKind === 'care_package') {
    if (r.carePackageTierId === null) {
      throw catalogErrors.productReferenceInvalid(
        'CARE_PACKAGE_TIER',
        'A care_package product needs carePackageTierId: the tier it sells',
      );
    }
    if (!(await findCarePackageTier(tx, r.carePackageTierId))) {
      throw catalogErrors.productReferenceInvalid(
        'CARE_PACKAGE_TIER',
        `Care-package tier ${r.carePackageTierId} does not exist`,
      );
    }
  } else if (r.carePackageTierId !== null) {
    throw catalogErrors.productReferenceInvalid(
      'CARE_PACKAGE_TIER',
      'Only a care_package product names a care-package tier',
    );
  }
}

/** A new product's slug: the explicit one, or the first free one made from the title. */
async function newProductSlug(tx: Db, explicit: string | undefined, title: string): Promise<string> {
  if (explicit) {
    if (await repo.findProductBySlug(tx, explicit)) throw catalogErrors.productSlugExists(explicit);
    return explicit;
  }
  await repo.lockProductSlugs(tx);
  const base = slugify(title, 'product');
  return firstFreeSlug(base, await repo.takenProductSlugs(tx, base));
}

export async function createProduct(
  deps: ProductDeps,
  actor: UserPrincipal,
  body: CreateProductBody,
): Promise<AdminProductView> {
  const now = deps.clock.now();
  const refs: References = {
    productKind: body.productKind,
    mrp: body.mrp,
    sp: body.sp ?? 0,
    categoryId: body.categoryId ?? null,
    brandId: body.brandId ?? null,
    tagIds: body.tagIds,
    seoId: body.seoId ?? null,
    carePackageTierId: body.carePackageTierId ?? null,
  };
  return inTransaction(deps.db, async (tx, afterCommit) => {
    afterCommit(() => forgetCachedProductLists(deps.cache));
    await checkReferences(tx, refs);
    const slug = await newProductSlug(tx, body.slug, body.title);
    // An explicit slug may be an old one of another product: the live slug wins from now on.
    if (body.slug) await repo.freeHistorySlug(tx, slug);
    const row = await repo.insertProduct(tx, {
      title: body.title,
      slug,
      description: sanitizeDescription(body.description ?? ''),
      productKind: refs.productKind,
      isSellable: body.isSellable ?? true,
      mrp: refs.mrp,
      sp: refs.sp,
      categoryId: refs.categoryId,
      brandId: refs.brandId,
      seoId: refs.seoId,
      images: body.images ?? [],
      specifications: body.specifications ?? [],
      carePackageTierId: refs.carePackageTierId,
      ...statusFields(undefined, body.status ?? 'draft', null, now),
      createdAt: now,
      updatedAt: now,
    });
    if (refs.tagIds?.length) await repo.replaceProductTags(tx, row.id, refs.tagIds);
    await recordActivity(tx, {
      adminId: actor.userId,
      action: 'create',
      entityType: PRODUCT,
      entityId: row.id,
      summary: `Created ${row.productKind} product ${row.title} (${row.status})`,
      at: now,
    });
    return adminView(deps, tx, row);
  });
}

export async function updateProduct(
  deps: ProductDeps,
  actor: UserPrincipal,
  id: number,
  body: UpdateProductBody,
): Promise<AdminProductView> {
  const now = deps.clock.now();
  return inTransaction(deps.db, async (tx, afterCommit) => {
    afterCommit(() => forgetCachedProductLists(deps.cache));
    const before = await repo.lockProduct(tx, id);
    if (!before) throw catalogErrors.productNotFound();
    await checkReferences(tx, {
      productKind: body.productKind ?? before.productKind,
      mrp: body.mrp ?? before.mrp,
      sp: body.sp ?? before.sp,
      categoryId: body.categoryId !== undefined ? body.categoryId : before.categoryId,
      brandId: body.brandId !== undefined ? body.brandId : before.brandId,
      tagIds: body.tagIds,
      seoId: body.seoId !== undefined ? body.seoId : before.seoId,
      carePackageTierId:
        body.carePackageTierId !== undefined ? body.carePackageTierId : before.carePackageTierId,
    });
    const slugChanged = body.slug !== undefined && body.slug !== before.slug;
    if (slugChanged) {
      const holder = await repo.findProductBySlug(tx, body.slug!);
      if (holder && holder.id !== id) throw catalogErrors.productSlugExists(body.slug!);
    }
    const { tagIds, status, description, ...fields } = body;
    const row = await repo.updateProduct(tx, id, {
      ...fields,
      ...(description !== undefined ? { description: sanitizeDescription(description) } : {}),
      ...(status !== undefined ? statusFields(before.status, status, before.publishedAt, now) : {}),
      updatedAt: now,
    });
    if (slugChanged) await repo.moveSlug(tx, id, before.slug, body.slug!);
    if (tagIds !== undefined) await repo.replaceProductTags(tx, id, tagIds);
    const changed = Object.entries(body)
      .filter(([, v]) => v !== undefined)
      .map(([k]) => k);
    await recordActivity(tx, {
      adminId: actor.userId,
      action: 'update',
      entityType: PRODUCT,
      entityId: id,
      summary: `Updated product ${row!.title}: ${changed.join(', ')}${slugChanged ? ` (slug was ${before.slug})` : ''}`,
      at: now,
    });
    return adminView(deps, tx, row!);
  });
}

/** Publish, unpublish (back to draft) or archive: one status move with its activity entry. */
export async function setProductStatus(
  deps: ProductDeps,
  actor: UserPrincipal,
  id: number,
  status: ProductStatus,
  action: 'publish' | 'unpublish' | 'archive',
): Promise<AdminProductView> {
  const now = deps.clock.now();
  return inTransaction(deps.db, async (tx, afterCommit) => {
    afterCommit(() => forgetCachedProductLists(deps.cache));
    const before = await repo.lockProduct(tx, id);
    if (!before) throw catalogErrors.productNotFound();
    if (before.status === status) return adminView(deps, tx, before);
    const row = await repo.updateProduct(tx, id, {
      ...statusFields(before.status, status, before.publishedAt, now),
      updatedAt: now,
    });
    await recordActivity(tx, {
      adminId: actor.userId,
      action,
      entityType: PRODUCT,
      entityId: id,
      summary: `Product ${before.title}: ${before.status} → ${status}`,
      at: now,
    });
    return adminView(deps, tx, row!);
  });
}

/**
 * The review aggregates of a product, kept by the reviews module whenever approved reviews
 * change (`averageRating` null when there is none). Call it inside the review write's transaction.
 */
export async function updateProductReviewAggregates(
  db: Db,
  productId: number,
  aggregates: { averageRating: number | null; reviewCount: number },
): Promise<void> {
  const average = aggregates.averageRating === null ? null : Math.round(aggregates.averageRating * 100) / 100;
  await repo.setReviewAggregates(db, productId, average, aggregates.reviewCount);
}

/** What another module shows of a linked product (blog posts list theirs). */
export interface PublishedProductCard {
  id: number;
  title: string;
  slug: string;
  mrp: number;
  sp: number;
  thumbnailUrl: string | null;
}

/**
 * The published products among `ids`, by id; drafts, archived and unknown ids are left out.
 * Blog posts check their linked products with it and show them.
 */
export async function publishedProductCards(
  deps: Pick<ProductDeps, 'db' | 'storage'>,
  ids: number[],
): Promise<Map<number, PublishedProductCard>> {
  const rows = await repo.findPublishedProducts(deps.db, [...new Set(ids)]);
  const cards = await Promise.all(
    rows.map(async (p) => {
      return {
        id: p.id,
        title: p.title,
        slug: p.slug,
        mrp: p.mrp,
        sp: p.sp,
        thumbnailUrl: await thumbnailUrl(deps, p.images),
      };
    }),
  );
  return new Map(cards.map((c) => [c.id, c]));
}

// ---------- reads ----------

export async function getAdminProduct(deps: ProductDeps, id: number): Promise<AdminProductView> {
  const row = await repo.findProduct(deps.db, id);
  if (!row) throw catalogErrors.productNotFound();
  return adminView(deps, deps.db, row);
}

/**
 * Runs a list read. With a search, inside a transaction that carries the similarity
 * threshold, and with the category and tag names that match resolved first.
 */
function withSearch<T>(
  deps: Pick<ProductDeps, 'db' | 'config' | 'cache'>,
  term: string | undefined,
  read: (db: Db, search: searchRepo.ProductSearch | undefined) => Promise<T>,
): Promise<T> {
  if (!term) return read(deps.db, undefined);
  return inTransaction(deps.db, async (tx) => {
    await searchRepo.setSimilarityThreshold(tx, deps.config.SEARCH_SIMILARITY_THRESHOLD);
    const shares = await titleTrigramShares(deps, tx);
    return read(
      tx,
      await searchRepo.resolveSearch(tx, term, deps.config.SEARCH_SIMILARITY_THRESHOLD, shares),
    );
  });
}

const TRIGRAM_SHARES_KEY = 'catalog:title-trigram-shares';
/** Statistics change with ANALYZE only; reading them cost ~1.5 ms a search (planning the view). */
const TRIGRAM_SHARES_TTL_MS = 10 * 60_000;

/** The title trigram shares the search orders its keys by, from the cache when there is one. */
function titleTrigramShares(
  deps: Pick<ProductDeps, 'cache'>,
  db: Db,
): Promise<searchRepo.TitleTrigramShares> {
  const load = () => searchRepo.titleTrigramShares(db);
  if (!deps.cache) return load();
  return cached(deps.cache, TRIGRAM_SHARES_KEY, TRIGRAM_SHARES_TTL_MS, load, { local: true });
}

const sortOf = (q: { sort?: repo.ProductSort; search?: string }): repo.ProductSort =>
  q.sort ?? (q.search ? 'relevance' : 'createdAt');

export async function listAdminProducts(
  deps: ProductDeps,
  q: AdminProductListQuery,
): Promise<{ products: AdminProductView[]; meta: PageMeta }> {
  const filters: repo.ProductFilters = {
    publicOnly: false,
    status: q.status,
    isSellable: q.isSellable,
    categoryId: q.categoryId,
    brandId: q.brandId,
    tag: q.tag,
    productKind: q.productKind,
  };
  return withSearch(deps, q.search, async (db, search) => {
    const { rows, count } = await repo.listAdminProducts(
      db,
      { ...filters, search },
      sortOf(q),
      q.order,
      pageWindow(q),
    );
    return { products: await adminViews(deps, db, rows), meta: pageMeta(q, count) };
  });
}

/**
 * A public list page as the JSON text of `{ data, meta }`, cached as text (a hit costs no
 * parsing or serialising).
 */
export async function listPublicProductsJson(deps: ProductDeps, q: PublicProductListQuery): Promise<string> {
  const filters: repo.ProductFilters = {
    publicOnly: true,
    categoryId: q.categoryId,
    brandId: q.brandId,
    tag: q.tag,
    productKind: q.productKind,
    minPrice: q.minPrice,
    maxPrice: q.maxPrice,
    inStock: q.inStock,
  };
  const load = async () => {
    const { rows, count } = await withSearch(deps, q.search, (db, search) =>
      repo.listPublicProducts(db, { ...filters, search }, sortOf(q), q.order, pageWindow(q)),
    );
    const data = await Promise.all(rows.map((r) => publicListItem(deps, r)));
    return serializedWith(publicPageSchema, { data, meta: pageMeta(q, count) });
  };
  const seconds = deps.config.CATALOG_PUBLIC_LIST_CACHE_SECONDS;
  if (!deps.cache || seconds === 0) return load();
  // The parsed query, keys in schema order: equal queries share one entry whatever the URL's order.
  // `page:` keeps entries of the older object form (at most one lifetime old) from being read as text.
  return cached(deps.cache, `${LIST_CACHE_PREFIX}page:${JSON.stringify(q)}`, seconds * 1000, load, {
    local: true,
  });
}

/**
 * The public detail as JSON text, through the list cache: the same lifetime
 * (CATALOG_PUBLIC_LIST_CACHE_SECONDS), cleared by the same writes (product, taxonomy, review
 * moderation), stock changes showing within the lifetime. Cached as text, so a hit costs no
 * queries, parsing or serialising. Unknown slugs are not cached.
 */
export async function getPublicProductJson(deps: ProductDeps, slug: string): Promise<string> {
  const load = async () => serializedWith(publicProductDetail, await getPublicProduct(deps, slug));
  const seconds = deps.config.CATALOG_PUBLIC_LIST_CACHE_SECONDS;
  if (!deps.cache || seconds === 0) return load();
  return cached(deps.cache, `${LIST_CACHE_PREFIX}detail:${slug}`, seconds * 1000, load, { local: true });
}

/**
 * A published product by its slug, or by a slug it had before (the answer then carries the
 * current slug, so a client can redirect). Drafts, archived and unknown: PRODUCT_NOT_FOUND.
 */
export async function getPublicProduct(deps: ProductDeps, slug: string): Promise<PublicProductDetail> {
  const product =
    (await repo.findProductBySlug(deps.db, slug)) ?? (await repo.findProductByOldSlug(deps.db, slug));
  if (product?.status !== 'published') throw catalogErrors.productNotFound();
  const row = await repo.findPublicProduct(deps.db, product.id);
  if (!row) throw catalogErrors.productNotFound();
  const item = await publicListItem(deps, row);
  const full = row.full;
  return {
    ...item,
    description: full.description,
    images: await imageViews(deps, full.images),
    specifications: full.specifications,
    tags: await repo.tagsOf(deps.db, full.id),
    seoId: full.seoId,
    carePackageTierId: full.carePackageTierId,
    averageRating: full.reviewCount > 0 ? (rating(full.averageRating) ?? 0) : 0,
    totalReviews: full.reviewCount,
    reviewStatus: full.reviewCount > 0 ? 'Reviews available' : 'No reviews yet',
    updatedAt: full.updatedAt.toISOString(),
  };
}

/**
 * The plan of the product list query with a search (the benchmark prints it). `withoutSeqScan`
 * asks the planner to avoid sequential scans, which shows on a small table whether the search
 * can use the trigram indexes at all; `admin` leaves out the public visibility filter.
 */
export async function explainProductSearch(
  deps: Pick<ProductDeps, 'db' | 'config'>,
  term: string,
  opts: { withoutSeqScan?: boolean; admin?: boolean; analyze?: boolean } = {},
): Promise<string[]> {
  return inTransaction(deps.db, async (tx) => {
    await searchRepo.setSimilarityThreshold(tx, deps.config.SEARCH_SIMILARITY_THRESHOLD);
    if (opts.withoutSeqScan) await repo.disableSeqScan(tx);
    return repo.explainSearch(tx, term, deps.config.SEARCH_SIMILARITY_THRESHOLD, !opts.admin, opts.analyze);
  });
}

/**
 * For the benchmark: the first public page of a search (ids and total) as the list finds it,
 * and as the former query shape finds it (the typo branch as `title % term` on the trigram
 * index), so a change of the search can be shown to keep the same answers.
 */
export async function comparePublicSearch(
  deps: Pick<ProductDeps, 'db' | 'config'>,
  term: string,
): Promise<Record<'current' | 'former', { ids: number[]; count: number }>> {
  const page = (former: boolean) =>
    withSearch(deps, term, async (db, search) => {
      const { rows, count } = await repo.listPublicProducts(
        db,
        { publicOnly: true, search: former ? { ...search!, titleKeys: null, exactRanking: true } : search },
        'relevance',
        'desc',
        { offset: 0, limit: 20 },
      );
      return { ids: rows.map((r) => r.product.id), count };
    });
  return { current: await page(false), former: await page(true) };
}

// ---------- bulk loading ----------

export type { BulkProduct } from './products.repository';

/**
 * Loads a batch of synthetic products in one transaction, for benchmarks and load tests.
 * It skips the per-product rules on purpose (the generator makes valid rows: plain-text
 * descriptions, existing references) and records no activity: nobody did this in the back office.
 */
export function insertProductBatch(db: Db, batch: repo.BulkProduct[]): Promise<number> {
  return inTransaction(db, (tx) => repo.insertProductBatch(tx, batch));
}

export const vacuumCatalog = (db: Db) => repo.vacuumCatalog(db);
export const countProducts = (db: Db) => repo.countProducts(db);

// ---------- products as the cart and orders price them ----------

/** What the cart and orders need of a product they price or sell. */
export interface ProductForSale {
  id: number;
  title: string;
  slug: string;
  productKind: ProductKind;
  /** Published and sellable: only such a product may be added to a cart or ordered. */
  onSale: boolean;
  mrp: number;
  sp: number;
  effectivePrice: number;
  categoryId: number | null;
  /** The category and every ancestor of it (coupon and care-package rules cover sub-categories). */
  categoryPath: number[];
  brandId: number | null;
  /** The first image's URL, or null. */
  thumbnailUrl: string | null;
  /** A `care_package` product's tier (the cover it sells); null for other kinds. */
  carePackageTierId: number | null;
}

/** Products by id (any status; `onSale` says whether they may be sold); unknown ids are missing. */
export async function findProductsForSale(
  deps: Pick<ProductDeps, 'storage'>,
  db: Db,
  ids: number[],
): Promise<Map<number, ProductForSale>> {
  const rows = await repo.productsWithCategoryPaths(db, [...new Set(ids)]);
  const views = await Promise.all(
    rows.map(async ({ product: p, categoryPath }): Promise<ProductForSale> => {
      return {
        id: p.id,
        title: p.title,
        slug: p.slug,
        productKind: p.productKind,
        onSale: p.status === 'published' && p.isSellable,
        mrp: p.mrp,
        sp: p.sp,
        effectivePrice: p.effectivePrice,
        categoryId: p.categoryId,
        categoryPath,
        brandId: p.brandId,
        thumbnailUrl: await thumbnailUrl(deps, p.images),
        carePackageTierId: p.carePackageTierId,
      };
    }),
  );
  return new Map(views.map((v) => [v.id, v]));
}
