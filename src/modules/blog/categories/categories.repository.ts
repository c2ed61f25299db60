// Queries of blog categories with their post counts. A taken slug and a category that still
// has posts are turned into the blog's codes here, so concurrent writes get them too.
import { count, eq, ilike, or, sql } from 'drizzle-orm';
import type { Db } from '../../../platform/db/database';
import { isForeignKeyViolation, isUniqueViolation } from '../../../platform/db/errors';
import { containsPattern } from '../../../platform/db/like';
import type { PageWindow } from '../../../platform/http/pagination';
import { blogErrors } from '../blog.errors';
import { blogCategories, blogPosts } from '../blog.table';

export type CategoryRow = typeof blogCategories.$inferSelect;
export type NewCategoryRow = typeof blogCategories.$inferInsert;

const SLUG_UNIQUE = 'blog_categories_slug_unique';

export async function findCategory(db: Db, id: number): Promise<CategoryRow | undefined> {
  const [row] = await db.select().from(blogCategories).where(eq(blogCategories.id, id));
  return row;
}

export async function findCategoryBySlug(db: Db, slug: string): Promise<CategoryRow | undefined> {
  const [row] = await db.select().from(blogCategories).where(eq(blogCategories.slug, slug));
  return row;
}

async function slugSafe<T>(slug: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isUniqueViolation(error, SLUG_UNIQUE)) throw blogErrors.categorySlugExists(slug);
    throw error;
  }
}

export function insertCategory(tx: Db, row: NewCategoryRow): Promise<CategoryRow> {
  return slugSafe(row.slug, async () => {
    const [created] = await tx.insert(blogCategories).values(row).returning();
    return created!;
  });
}

export function updateCategory(
  tx: Db,
  id: number,
  patch: Partial<NewCategoryRow>,
): Promise<CategoryRow | undefined> {
  return slugSafe(patch.slug ?? '', async () => {
    const [row] = await tx.update(blogCategories).set(patch).where(eq(blogCategories.id, id)).returning();
    return row;
  });
}

/** Deletes an empty category; a post written meanwhile makes it BLOG_CATEGORY_NOT_EMPTY. */
export async function deleteCategory(tx: Db, id: number): Promise<CategoryRow | undefined> {
  try {
    const [row] = await tx.delete(blogCategories).where(eq(blogCategories.id, id)).returning();
    return row;
  } catch (error) {
    if (isForeignKeyViolation(error)) throw blogErrors.categoryNotEmpty();
    throw error;
  }
}

export async function countPostsIn(db: Db, categoryId: number): Promise<number> {
  const [row] = await db.select({ n: count() }).from(blogPosts).where(eq(blogPosts.categoryId, categoryId));
  return row?.n ?? 0;
}

// Correlated counts: the outer table is named in full, since inside the subquery a bare
// column name would resolve to the posts table.
const postCount = sql<number>`(select count(*)::int from blog_posts p where p.category_id = "blog_categories"."id")`;
const publishedPostCount = sql<number>`(select count(*)::int from blog_posts p
  where p.category_id = "blog_categories"."id" and p.status = 'published')`;

export type CategorySort = 'name' | 'createdAt' | 'updatedAt';

export async function listAdminCategories(
  db: Db,
  q: { search?: string; sort: CategorySort; order: 'asc' | 'desc' },
  page: PageWindow,
) {
  const pattern = q.search ? containsPattern(q.search) : undefined;
  const where = pattern
    ? or(ilike(blogCategories.name, pattern), ilike(blogCategories.slug, pattern))
    : undefined;
  const column = {
    name: blogCategories.name,
    createdAt: blogCategories.createdAt,
    updatedAt: blogCategories.updatedAt,
  }[q.sort];
  const dir = q.order === 'asc' ? sql`asc` : sql`desc`;
  const query = db
    .select({ category: blogCategories, postCount, publishedPostCount })
    .from(blogCategories)
    .where(where)
    .orderBy(sql`${column} ${dir}`, sql`${blogCategories.id} ${dir}`)
    .offset(page.offset)
    .$dynamic();
  const rows = await (page.limit === undefined ? query : query.limit(page.limit));
  const [total] = await db.select({ n: count() }).from(blogCategories).where(where);
  return { rows, count: total?.n ?? 0 };
}

export async function categoryWithCounts(db: Db, id: number) {
  const [row] = await db
    .select({ category: blogCategories, postCount, publishedPostCount })
    .from(blogCategories)
    .where(eq(blogCategories.id, id));
  return row;
}

/** Every category with its published post count, by name (the public list). */
export async function listPublicCategories(db: Db) {
  return db
    .select({ category: blogCategories, postCount: publishedPostCount })
    .from(blogCategories)
    .orderBy(sql`${blogCategories.name} asc`, sql`${blogCategories.id} asc`);
}
