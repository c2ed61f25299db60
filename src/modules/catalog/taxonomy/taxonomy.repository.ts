// Queries of categories, brands and tags. Constraint violations become catalog errors here.
import { and, count, eq, getTableName, ilike, inArray, isNull, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn, AnyPgTable } from 'drizzle-orm/pg-core';
import type { Db } from '../../../platform/db/database';
import { isForeignKeyViolation, isUniqueViolation } from '../../../platform/db/errors';
import type { PageWindow } from '../../../platform/http/pagination';
import { catalogErrors } from '../catalog.errors';
import { containsPattern, orderBy, paged, rowsOf, slugFamilyPattern } from '../catalog.repository';
import { products } from '../products/products.table';
import type { BrandListQuery, CategoryListQuery, TagListQuery } from './taxonomy.schemas';
import { brands, categories, tags } from './taxonomy.table';

export type CategoryRow = typeof categories.$inferSelect;
export type NewCategoryRow = typeof categories.$inferInsert;
export type BrandRow = typeof brands.$inferSelect;
export type NewBrandRow = typeof brands.$inferInsert;
export type TagRow = typeof tags.$inferSelect;
export type NewTagRow = typeof tags.$inferInsert;

/** Published and sellable: what the public catalog shows and counts. */
export const sellable = and(eq(products.status, 'published'), eq(products.isSellable, true))!;

/** The slugs among `base`, `base-2`, … already used in `column` of `table`. */
export async function takenSlugs(
  db: Db,
  table: AnyPgTable,
  column: AnyPgColumn,
  base: string,
): Promise<Set<string>> {
  const rows = await rowsOf<{ slug: string }>(
    db,
    sql`select ${column} as slug from ${table} where ${column} ~ ${slugFamilyPattern(base)}`,
  );
  return new Set(rows.map((r) => r.slug));
}

/**
 * Serialises the writes that pick a generated slug in `table` until the transaction ends, so
 * two records named alike never both take `base-2` (the unique constraint would turn the
 * loser's write into an error instead of `base-3`).
 */
export async function lockSlugs(tx: Db, table: AnyPgTable): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`catalog.slugs.${getTableName(table)}`}))`);
}

/** Runs an insert or update that sets a slug; a unique violation on it becomes `taken()`. */
export async function slugWrite<T>(
  write: () => Promise<T>,
  constraint: string,
  taken: () => Error,
): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isUniqueViolation(error, constraint)) throw taken();
    throw error;
  }
}

async function listOf<T>(
  db: Db,
  table: typeof categories | typeof brands | typeof tags,
  where: SQL | undefined,
  order: SQL[],
  page: PageWindow,
): Promise<{ rows: T[]; count: number }> {
  const rows = await paged(
    db
      .select()
      .from(table)
      .where(where)
      .orderBy(...order)
      .$dynamic(),
    page,
  );
  const [total] = await db.select({ n: count() }).from(table).where(where);
  return { rows: rows as T[], count: total?.n ?? 0 };
}

// ---------- categories ----------

export const CATEGORY_SLUG_UNIQUE = 'categories_slug_unique';

export async function findCategory(db: Db, id: number): Promise<CategoryRow | undefined> {
  const [row] = await db.select().from(categories).where(eq(categories.id, id));
  return row;
}

export function listCategories(db: Db, q: CategoryListQuery, page: PageWindow) {
  const where = and(
    q.search ? ilike(categories.name, containsPattern(q.search)) : undefined,
    q.parentId === 'root'
      ? isNull(categories.parentId)
      : q.parentId !== undefined
        ? eq(categories.parentId, q.parentId)
        : undefined,
    q.isActive !== undefined ? eq(categories.isActive, q.isActive) : undefined,
  );
  const column = {
    position: categories.position,
    name: categories.name,
    createdAt: categories.createdAt,
    updatedAt: categories.updatedAt,
  }[q.sort];
  return listOf<CategoryRow>(db, categories, where, orderBy(column, q.order, categories.id), page);
}

export async function insertCategory(db: Db, row: NewCategoryRow): Promise<CategoryRow> {
  const [created] = await db.insert(categories).values(row).returning();
  return created!;
}

export async function updateCategory(
  db: Db,
  id: number,
  patch: Partial<NewCategoryRow>,
): Promise<CategoryRow | undefined> {
  const [row] = await db.update(categories).set(patch).where(eq(categories.id, id)).returning();
  return row;
}

/**
 * Serialises every change of the tree's shape: two concurrent moves (A under B, B under A)
 * would each pass the cycle check on their own.
 */
export async function lockCategoryTree(tx: Db): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext('catalog.category_tree'))`);
}

/** Whether `candidate` is `id` itself or lies below it. */
export async function isInSubtree(db: Db, id: number, candidate: number): Promise<boolean> {
  const [result] = await rowsOf<{ found: boolean }>(
    db,
    sql`
    with recursive subtree(id) as (
      select ${id}::int
      union
      select c.id from ${categories} c join subtree s on c.parent_id = s.id
    )
    select exists(select 1 from subtree where id = ${candidate}) as found`,
  );
  return Boolean(result?.found);
}

/** Whether the category still has sub-categories or products (any status). */
export async function categoryHasContent(db: Db, id: number): Promise<boolean> {
  const [result] = await rowsOf<{ busy: boolean }>(
    db,
    sql`
    select exists(select 1 from ${categories} where parent_id = ${id})
        or exists(select 1 from ${products} where category_id = ${id}) as busy`,
  );
  return Boolean(result?.busy);
}

export async function deleteCategory(db: Db, id: number): Promise<boolean> {
  try {
    const rows = await db.delete(categories).where(eq(categories.id, id)).returning({ id: categories.id });
    return rows.length > 0;
  } catch (error) {
    // A product or child added between the check and the delete.
    if (isForeignKeyViolation(error)) throw catalogErrors.categoryNotEmpty();
    throw error;
  }
}

/** Active categories with their published, sellable products counted over each subtree. */
export async function activeCategoriesWithCounts(
  db: Db,
): Promise<Array<CategoryRow & { productCount: number }>> {
  const rows = await db
    .select()
    .from(categories)
    .where(eq(categories.isActive, true))
    .orderBy(categories.position, categories.name, categories.id);
  const counts = await rowsOf<{ root: number; n: string | number }>(
    db,
    sql`
    with recursive tree(root, id) as (
      select id, id from ${categories}
      union all
      select t.root, c.id from ${categories} c join tree t on c.parent_id = t.id
    )
    select t.root, count(p.id) as n
      from tree t join ${products} p on p.category_id = t.id
     where p.status = 'published' and p.is_sellable
     group by t.root`,
  );
  const byRoot = new Map(counts.map((r) => [Number(r.root), Number(r.n)]));
  return rows.map((r) => ({ ...r, productCount: byRoot.get(r.id) ?? 0 }));
}

// ---------- brands ----------

export const BRAND_SLUG_UNIQUE = 'brands_slug_unique';

export async function findBrand(db: Db, id: number): Promise<BrandRow | undefined> {
  const [row] = await db.select().from(brands).where(eq(brands.id, id));
  return row;
}

export function listBrands(db: Db, q: BrandListQuery, page: PageWindow) {
  const where = and(
    q.search ? ilike(brands.name, containsPattern(q.search)) : undefined,
    q.isActive !== undefined ? eq(brands.isActive, q.isActive) : undefined,
  );
  const column = { name: brands.name, createdAt: brands.createdAt, updatedAt: brands.updatedAt }[q.sort];
  return listOf<BrandRow>(db, brands, where, orderBy(column, q.order, brands.id), page);
}

export async function insertBrand(db: Db, row: NewBrandRow): Promise<BrandRow> {
  const [created] = await db.insert(brands).values(row).returning();
  return created!;
}

export async function updateBrand(
  db: Db,
  id: number,
  patch: Partial<NewBrandRow>,
): Promise<BrandRow | undefined> {
  const [row] = await db.update(brands).set(patch).where(eq(brands.id, id)).returning();
  return row;
}

export async function deleteBrand(db: Db, id: number): Promise<boolean> {
  try {
    const rows = await db.delete(brands).where(eq(brands.id, id)).returning({ id: brands.id });
    return rows.length > 0;
  } catch (error) {
    if (isForeignKeyViolation(error)) throw catalogErrors.brandInUse();
    throw error;
  }
}

export async function activeBrandsWithCounts(db: Db): Promise<Array<BrandRow & { productCount: number }>> {
  const rows = await db
    .select({ brand: brands, productCount: sql<number>`count(${products.id})::int` })
    .from(brands)
    .leftJoin(products, and(eq(products.brandId, brands.id), sellable))
    .where(eq(brands.isActive, true))
    .groupBy(brands.id)
    .orderBy(brands.name, brands.id);
  return rows.map((r) => ({ ...r.brand, productCount: Number(r.productCount) }));
}

// ---------- tags ----------

export const TAG_SLUG_UNIQUE = 'tags_slug_unique';

export async function findTag(db: Db, id: number): Promise<TagRow | undefined> {
  const [row] = await db.select().from(tags).where(eq(tags.id, id));
  return row;
}

export function listTags(db: Db, q: TagListQuery, page: PageWindow) {
  const where = q.search ? ilike(tags.name, containsPattern(q.search)) : undefined;
  const column = { name: tags.name, createdAt: tags.createdAt, updatedAt: tags.updatedAt }[q.sort];
  return listOf<TagRow>(db, tags, where, orderBy(column, q.order, tags.id), page);
}

export async function insertTag(db: Db, row: NewTagRow): Promise<TagRow> {
  const [created] = await db.insert(tags).values(row).returning();
  return created!;
}

export async function updateTag(db: Db, id: number, patch: Partial<NewTagRow>): Promise<TagRow | undefined> {
  const [row] = await db.update(tags).set(patch).where(eq(tags.id, id)).returning();
  return row;
}

/** Deleting a tag takes it off every product (product_tags cascades). */
export async function deleteTag(db: Db, id: number): Promise<boolean> {
  const rows = await db.delete(tags).where(eq(tags.id, id)).returning({ id: tags.id });
  return rows.length > 0;
}

/** A brand as other modules need it (a repair request names the brand of a device). */
export interface BrandRef {
  id: number;
  name: string;
  isActive: boolean;
}

/** Brands by id, active or not; unknown ids are missing from the map. */
export async function findBrands(db: Db, ids: number[]): Promise<Map<number, BrandRef>> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return new Map();
  const rows = await db
    .select({ id: brands.id, name: brands.name, isActive: brands.isActive })
    .from(brands)
    .where(inArray(brands.id, unique));
  return new Map(rows.map((b) => [b.id, b]));
}
