// Categories (a tree without cycles), brands and tags: admin writes with their activity
// entries, and the public lists with product counts.
import type { UserPrincipal } from '../../../platform/auth/principal';
import type { Cache } from '../../../platform/cache/cache';
import type { Db } from '../../../platform/db/database';
import { inTransaction } from '../../../platform/db/transaction';
import { type PageMeta, pageMeta, pageWindow } from '../../../platform/http/pagination';
import type { ModuleContext } from '../../../platform/module';
import { recordActivity } from '../../activity';
import { catalogErrors } from '../catalog.errors';
import { firstFreeSlug, slugify } from '../catalog.service';
import { forgetCachedProductLists } from '../products/products.service';
import { seoIdExists } from '../seo/seo.repository';
import * as repo from './taxonomy.repository';
import type {
  BrandListQuery,
  BrandView,
  CategoryListQuery,
  CategoryView,
  CreateBrandBody,
  CreateCategoryBody,
  CreateTagBody,
  PublicBrandView,
  PublicCategoryView,
  TagListQuery,
  TagView,
  UpdateBrandBody,
  UpdateCategoryBody,
  UpdateTagBody,
} from './taxonomy.schemas';
import { brands, categories, tags } from './taxonomy.table';

/** `cache`: the public product lists to forget when names or the tree change. */
export type TaxonomyDeps = Pick<ModuleContext, 'db' | 'clock'> & { cache?: Cache };

const stamps = (r: { createdAt: Date; updatedAt: Date }) => ({
  createdAt: r.createdAt.toISOString(),
  updatedAt: r.updatedAt.toISOString(),
});

/** The slug of a new record: the explicit one, or the first free one made from the name. */
async function newSlug(
  tx: Db,
  table: typeof categories | typeof brands | typeof tags,
  explicit: string | undefined,
  name: string,
  fallback: string,
): Promise<string> {
  if (explicit) return explicit;
  await repo.lockSlugs(tx, table);
  const base = slugify(name, fallback);
  return firstFreeSlug(base, await repo.takenSlugs(tx, table, table.slug, base));
}

const changedFields = (body: object) =>
  Object.entries(body)
    .filter(([, v]) => v !== undefined)
    .map(([k]) => k)
    .join(', ');

const PAST = { create: 'Created', update: 'Updated', delete: 'Deleted' } as const;

/**
 * One admin write of a taxonomy record: its transaction, its activity entry, and (after
 * commit) the cached public product lists, which show category and brand names.
 */
async function taxonomyWrite<R extends { id: number; name: string }>(
  deps: TaxonomyDeps,
  actor: UserPrincipal,
  entityType: 'category' | 'brand' | 'tag',
  action: keyof typeof PAST,
  work: (tx: Db, now: Date) => Promise<R>,
  detail = '',
): Promise<R> {
  const now = deps.clock.now();
  return inTransaction(deps.db, async (tx, afterCommit) => {
    afterCommit(() => forgetCachedProductLists(deps.cache));
    const row = await work(tx, now);
    await recordActivity(tx, {
      adminId: actor.userId,
      action,
      entityType,
      entityId: row.id,
      summary: `${PAST[action]} ${entityType} ${row.name}${detail}`,
      at: now,
    });
    return row;
  });
}

/** A PATCH of a brand or tag: the slug stays unique, an unknown id is `notFound`. */
function updateRecord<R extends { id: number; name: string }>(
  deps: TaxonomyDeps,
  actor: UserPrincipal,
  r: {
    entityType: 'brand' | 'tag';
    body: { slug?: string };
    slugConstraint: string;
    slugTaken: (slug: string) => Error;
    notFound: () => Error;
    update: (tx: Db, now: Date) => Promise<R | undefined>;
  },
): Promise<R> {
  return taxonomyWrite(
    deps,
    actor,
    r.entityType,
    'update',
    async (tx, now) => {
      const row = await repo.slugWrite(
        () => r.update(tx, now),
        r.slugConstraint,
        () => r.slugTaken(r.body.slug ?? ''),
      );
      if (!row) throw r.notFound();
      return row;
    },
    `: ${changedFields(r.body)}`,
  );
}

/** A DELETE of a brand or tag. */
async function deleteRecord(
  deps: TaxonomyDeps,
  actor: UserPrincipal,
  entityType: 'brand' | 'tag',
  find: (tx: Db) => Promise<{ id: number; name: string } | undefined>,
  remove: (tx: Db) => Promise<boolean>,
  notFound: () => Error,
): Promise<void> {
  await taxonomyWrite(deps, actor, entityType, 'delete', async (tx) => {
    const row = await find(tx);
    if (!row || !(await remove(tx))) throw notFound();
    return row;
  });
}

// ---------- categories ----------

const toCategoryView = (r: repo.CategoryRow): CategoryView => ({
  id: r.id,
  name: r.name,
  slug: r.slug,
  parentId: r.parentId,
  description: r.description,
  imageUrl: r.imageUrl,
  isActive: r.isActive,
  position: r.position,
  seoId: r.seoId,
  ...stamps(r),
});

export async function listCategories(
  deps: TaxonomyDeps,
  query: CategoryListQuery,
): Promise<{ categories: CategoryView[]; meta: PageMeta }> {
  const { rows, count } = await repo.listCategories(deps.db, query, pageWindow(query));
  return { categories: rows.map(toCategoryView), meta: pageMeta(query, count) };
}

export async function getCategory(deps: TaxonomyDeps, id: number): Promise<CategoryView> {
  const row = await repo.findCategory(deps.db, id);
  if (!row) throw catalogErrors.categoryNotFound(id);
  return toCategoryView(row);
}

async function checkCategorySeo(tx: Db, seoId: string | null | undefined): Promise<void> {
  if (seoId && !(await seoIdExists(tx, seoId))) throw catalogErrors.categorySeoInvalid(seoId);
}

export async function createCategory(
  deps: TaxonomyDeps,
  actor: UserPrincipal,
  body: CreateCategoryBody,
): Promise<CategoryView> {
  const row = await taxonomyWrite(deps, actor, 'category', 'create', async (tx, now) => {
    if (body.parentId != null) {
      // Queued behind a delete of the parent, which would otherwise pass its not-empty check.
      await repo.lockCategoryTree(tx);
      if (!(await repo.findCategory(tx, body.parentId))) {
        throw catalogErrors.categoryParentInvalid(`Parent category ${body.parentId} does not exist`);
      }
    }
    await checkCategorySeo(tx, body.seoId);
    const slug = await newSlug(tx, categories, body.slug, body.name, 'category');
    return repo.slugWrite(
      () =>
        repo.insertCategory(tx, {
          name: body.name,
          slug,
          parentId: body.parentId ?? null,
          description: body.description ?? null,
          imageUrl: body.imageUrl ?? null,
          isActive: body.isActive ?? true,
          position: body.position ?? 0,
          seoId: body.seoId ?? null,
          createdAt: now,
          updatedAt: now,
        }),
      repo.CATEGORY_SLUG_UNIQUE,
      () => catalogErrors.categorySlugExists(slug),
    );
  });
  return toCategoryView(row);
}

export async function updateCategory(
  deps: TaxonomyDeps,
  actor: UserPrincipal,
  id: number,
  body: UpdateCategoryBody,
): Promise<CategoryView> {
  const row = await taxonomyWrite(
    deps,
    actor,
    'category',
    'update',
    async (tx, now) => {
      if (body.parentId != null) {
        await repo.lockCategoryTree(tx);
        if (!(await repo.findCategory(tx, id))) throw catalogErrors.categoryNotFound(id);
        if (!(await repo.findCategory(tx, body.parentId))) {
          throw catalogErrors.categoryParentInvalid(`Parent category ${body.parentId} does not exist`);
        }
        if (await repo.isInSubtree(tx, id, body.parentId)) {
          throw catalogErrors.categoryParentInvalid(
            'A category cannot sit under itself or one of its sub-categories',
          );
        }
      }
      await checkCategorySeo(tx, body.seoId);
      const updated = await repo.slugWrite(
        () => repo.updateCategory(tx, id, { ...body, updatedAt: now }),
        repo.CATEGORY_SLUG_UNIQUE,
        () => catalogErrors.categorySlugExists(body.slug ?? ''),
      );
      if (!updated) throw catalogErrors.categoryNotFound(id);
      return updated;
    },
    `: ${changedFields(body)}`,
  );
  return toCategoryView(row);
}

export async function deleteCategory(deps: TaxonomyDeps, actor: UserPrincipal, id: number): Promise<void> {
  await taxonomyWrite(deps, actor, 'category', 'delete', async (tx) => {
    await repo.lockCategoryTree(tx);
    const row = await repo.findCategory(tx, id);
    if (!row) throw catalogErrors.categoryNotFound(id);
    if (await repo.categoryHasContent(tx, id)) throw catalogErrors.categoryNotEmpty();
    await repo.deleteCategory(tx, id);
    return row;
  });
}

export async function publicCategories(deps: Pick<TaxonomyDeps, 'db'>): Promise<PublicCategoryView[]> {
  const rows = await repo.activeCategoriesWithCounts(deps.db);
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    slug: r.slug,
    parentId: r.parentId,
    description: r.description,
    imageUrl: r.imageUrl,
    position: r.position,
    seoId: r.seoId,
    productCount: r.productCount,
  }));
}

// ---------- brands ----------

const toBrandView = (r: repo.BrandRow): BrandView => ({
  id: r.id,
  name: r.name,
  slug: r.slug,
  logoUrl: r.logoUrl,
  isActive: r.isActive,
  ...stamps(r),
});

export async function listBrands(
  deps: TaxonomyDeps,
  query: BrandListQuery,
): Promise<{ brands: BrandView[]; meta: PageMeta }> {
  const { rows, count } = await repo.listBrands(deps.db, query, pageWindow(query));
  return { brands: rows.map(toBrandView), meta: pageMeta(query, count) };
}

export async function getBrand(deps: TaxonomyDeps, id: number): Promise<BrandView> {
  const row = await repo.findBrand(deps.db, id);
  if (!row) throw catalogErrors.brandNotFound(id);
  return toBrandView(row);
}

export async function createBrand(
  deps: TaxonomyDeps,
  actor: UserPrincipal,
  body: CreateBrandBody,
): Promise<BrandView> {
  const row = await taxonomyWrite(deps, actor, 'brand', 'create', async (tx, now) => {
    const slug = await newSlug(tx, brands, body.slug, body.name, 'brand');
    return repo.slugWrite(
      () =>
        repo.insertBrand(tx, {
          name: body.name,
          slug,
          logoUrl: body.logoUrl ?? null,
          isActive: body.isActive ?? true,
          createdAt: now,
          updatedAt: now,
        }),
      repo.BRAND_SLUG_UNIQUE,
      () => catalogErrors.brandSlugExists(slug),
    );
  });
  return toBrandView(row);
}

export async function updateBrand(
  deps: TaxonomyDeps,
  actor: UserPrincipal,
  id: number,
  body: UpdateBrandBody,
): Promise<BrandView> {
  const row = await updateRecord(deps, actor, {
    entityType: 'brand',
    body,
    slugConstraint: repo.BRAND_SLUG_UNIQUE,
    slugTaken: catalogErrors.brandSlugExists,
    notFound: () => catalogErrors.brandNotFound(id),
    update: (tx, now) => repo.updateBrand(tx, id, { ...body, updatedAt: now }),
  });
  return toBrandView(row);
}

export function deleteBrand(deps: TaxonomyDeps, actor: UserPrincipal, id: number): Promise<void> {
  return deleteRecord(
    deps,
    actor,
    'brand',
    (tx) => repo.findBrand(tx, id),
    (tx) => repo.deleteBrand(tx, id),
    () => catalogErrors.brandNotFound(id),
  );
}

export async function publicBrands(deps: Pick<TaxonomyDeps, 'db'>): Promise<PublicBrandView[]> {
  const rows = await repo.activeBrandsWithCounts(deps.db);
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    slug: r.slug,
    logoUrl: r.logoUrl,
    productCount: r.productCount,
  }));
}

// ---------- tags ----------

const toTagView = (r: repo.TagRow): TagView => ({ id: r.id, name: r.name, slug: r.slug, ...stamps(r) });

export async function listTags(
  deps: TaxonomyDeps,
  query: TagListQuery,
): Promise<{ tags: TagView[]; meta: PageMeta }> {
  const { rows, count } = await repo.listTags(deps.db, query, pageWindow(query));
  return { tags: rows.map(toTagView), meta: pageMeta(query, count) };
}

export async function getTag(deps: TaxonomyDeps, id: number): Promise<TagView> {
  const row = await repo.findTag(deps.db, id);
  if (!row) throw catalogErrors.tagNotFound(id);
  return toTagView(row);
}

export async function createTag(
  deps: TaxonomyDeps,
  actor: UserPrincipal,
  body: CreateTagBody,
): Promise<TagView> {
  const row = await taxonomyWrite(deps, actor, 'tag', 'create', async (tx, now) => {
    const slug = await newSlug(tx, tags, body.slug, body.name, 'tag');
    return repo.slugWrite(
      () => repo.insertTag(tx, { name: body.name, slug, createdAt: now, updatedAt: now }),
      repo.TAG_SLUG_UNIQUE,
      () => catalogErrors.tagSlugExists(slug),
    );
  });
  return toTagView(row);
}

export async function updateTag(
  deps: TaxonomyDeps,
  actor: UserPrincipal,
  id: number,
  body: UpdateTagBody,
): Promise<TagView> {
  const row = await updateRecord(deps, actor, {
    entityType: 'tag',
    body,
    slugConstraint: repo.TAG_SLUG_UNIQUE,
    slugTaken: catalogErrors.tagSlugExists,
    notFound: () => catalogErrors.tagNotFound(id),
    update: (tx, now) => repo.updateTag(tx, id, { ...body, updatedAt: now }),
  });
  return toTagView(row);
}

/** Deleting a tag takes it off every product. */
export function deleteTag(deps: TaxonomyDeps, actor: UserPrincipal, id: number): Promise<void> {
  return deleteRecord(
    deps,
    actor,
    'tag',
    (tx) => repo.findTag(tx, id),
    (tx) => repo.deleteTag(tx, id),
    () => catalogErrors.tagNotFound(id),
  );
}
