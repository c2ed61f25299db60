// Queries of blog posts: the post row with its slug history, linked products, FAQs and
// videos (each set replaced whole), the conditional status moves and the admin list.
// Constraint violations become blog errors here.
import { and, asc, count, desc, eq, ilike, inArray, ne, or, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../../platform/db/database';
import { isForeignKeyViolation, isUniqueViolation } from '../../../platform/db/errors';
import { containsPattern } from '../../../platform/db/like';
import type { PageWindow } from '../../../platform/http/pagination';
import { blogErrors } from '../blog.errors';
import { slugFamilyPattern } from '../blog.slugs';
import {
  type BlogPostStatus,
  blogCategories,
  blogPostFaqs,
  blogPostProducts,
  blogPostSlugHistory,
  blogPosts,
  blogPostVideos,
} from '../blog.table';

export type PostRow = typeof blogPosts.$inferSelect;
export type NewPostRow = typeof blogPosts.$inferInsert;
export type FaqRow = typeof blogPostFaqs.$inferSelect;
export type VideoRow = typeof blogPostVideos.$inferSelect;
export type NewFaq = Omit<typeof blogPostFaqs.$inferInsert, 'postId' | 'id'>;
export type NewVideo = Omit<typeof blogPostVideos.$inferInsert, 'postId' | 'id'>;

/** The rows of a raw query; both drivers (PGlite, node-postgres) answer `{ rows }`. */
async function rowsOf<T>(db: Db, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

export async function findPost(db: Db, id: number): Promise<PostRow | undefined> {
  const [row] = await db.select().from(blogPosts).where(eq(blogPosts.id, id));
  return row;
}

/** Locks the post row for the rest of the transaction (concurrent edits queue up). */
export async function lockPost(tx: Db, id: number): Promise<PostRow | undefined> {
  const [row] = await tx.select().from(blogPosts).where(eq(blogPosts.id, id)).for('update');
  return row;
}

export async function findPostBySlug(db: Db, slug: string): Promise<PostRow | undefined> {
  const [row] = await db.select().from(blogPosts).where(eq(blogPosts.slug, slug));
  return row;
}

/** The post that had `slug` before it was changed. */
export async function findPostByOldSlug(db: Db, slug: string): Promise<PostRow | undefined> {
  const [row] = await db
    .select({ post: blogPosts })
    .from(blogPostSlugHistory)
    .innerJoin(blogPosts, eq(blogPosts.id, blogPostSlugHistory.postId))
    .where(eq(blogPostSlugHistory.slug, slug));
  return row?.post;
}

/** Serialises slug generation: two posts with one title never pick the same free slug. */
export async function lockPostSlugs(tx: Db): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext('blog.slugs.posts'))`);
}

/**
 * The slugs of the `base` family other posts use now or used before: a generated slug
 * avoids both. The post's own current and old slugs are free to it.
 */
export async function takenPostSlugs(
  db: Db,
  base: string,
  exceptPostId: number | null,
): Promise<Set<string>> {
  const pattern = slugFamilyPattern(base);
  const except = exceptPostId ?? 0;
  const rows = await rowsOf<{ slug: string }>(
    db,
    sql`select slug from ${blogPosts} where slug ~ ${pattern} and id <> ${except}
        union select slug from ${blogPostSlugHistory} where slug ~ ${pattern} and post_id <> ${except}`,
  );
  return new Set(rows.map((r) => r.slug));
}

const POST_FKS = [
  [
    'blog_posts_category_id_blog_categories_id_fk',
    (r: Partial<NewPostRow>) => blogErrors.categoryNotFound(r.categoryId ?? 0),
  ],
  [
    'blog_posts_seo_id_seo_records_id_fk',
    (r: Partial<NewPostRow>) => blogErrors.postSeoNotFound(r.seoId ?? ''),
  ],
] as const;

/** A reference deleted between the service's check and the write still gets its own code. */
async function referenceSafe<T>(row: Partial<NewPostRow>, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    for (const [constraint, toError] of POST_FKS) {
      if (isForeignKeyViolation(error, constraint)) throw toError(row);
    }
    throw error;
  }
}

export function insertPost(tx: Db, row: NewPostRow): Promise<PostRow> {
  return referenceSafe(row, async () => {
    const [created] = await tx.insert(blogPosts).values(row).returning();
    return created!;
  });
}

export function updatePost(tx: Db, id: number, patch: Partial<NewPostRow>): Promise<PostRow | undefined> {
  return referenceSafe(patch, async () => {
    const [row] = await tx.update(blogPosts).set(patch).where(eq(blogPosts.id, id)).returning();
    return row;
  });
}

/**
 * Moves a post between states only from the state the move starts at (`from`): of two
 * concurrent publishes one finds the row already published and changes nothing.
 */
export async function moveStatus(
  tx: Db,
  id: number,
  from: BlogPostStatus,
  patch: { status: BlogPostStatus; publishedAt: Date | null; updatedAt: Date },
): Promise<PostRow | undefined> {
  const [row] = await tx
    .update(blogPosts)
    .set(patch)
    .where(and(eq(blogPosts.id, id), eq(blogPosts.status, from)))
    .returning();
  return row;
}

export async function deletePost(tx: Db, id: number): Promise<PostRow | undefined> {
  const [row] = await tx.delete(blogPosts).where(eq(blogPosts.id, id)).returning();
  return row;
}

/** Drops `slug` from the history of `postId` (a post taking back one of its old slugs). */
export async function freeHistorySlug(tx: Db, slug: string): Promise<void> {
  await tx.delete(blogPostSlugHistory).where(eq(blogPostSlugHistory.slug, slug));
}

/** Keeps `oldSlug` leading to the post, and frees `newSlug` from the history. */
export async function moveSlug(tx: Db, postId: number, oldSlug: string, newSlug: string): Promise<void> {
  await freeHistorySlug(tx, newSlug);
  await tx
    .insert(blogPostSlugHistory)
    .values({ slug: oldSlug, postId })
    .onConflictDoUpdate({ target: blogPostSlugHistory.slug, set: { postId, createdAt: sql`now()` } });
}

export async function previousSlugsOf(db: Db, postId: number): Promise<string[]> {
  const rows = await db
    .select({ slug: blogPostSlugHistory.slug })
    .from(blogPostSlugHistory)
    .where(eq(blogPostSlugHistory.postId, postId))
    .orderBy(desc(blogPostSlugHistory.createdAt), asc(blogPostSlugHistory.slug));
  return rows.map((r) => r.slug);
}

// ---------- linked products, FAQs, videos ----------

export async function replaceProducts(tx: Db, postId: number, productIds: number[]): Promise<void> {
  await tx.delete(blogPostProducts).where(eq(blogPostProducts.postId, postId));
  if (!productIds.length) return;
  await tx
    .insert(blogPostProducts)
    .values(productIds.map((productId, position) => ({ postId, productId, position })));
}

export async function productIdsOf(db: Db, postId: number): Promise<number[]> {
  const rows = await db
    .select({ productId: blogPostProducts.productId })
    .from(blogPostProducts)
    .where(eq(blogPostProducts.postId, postId))
    .orderBy(asc(blogPostProducts.position));
  return rows.map((r) => r.productId);
}

export async function replaceFaqs(tx: Db, postId: number, faqs: NewFaq[]): Promise<void> {
  await tx.delete(blogPostFaqs).where(eq(blogPostFaqs.postId, postId));
  if (faqs.length) await tx.insert(blogPostFaqs).values(faqs.map((f) => ({ ...f, postId })));
}

export async function faqsOf(db: Db, postId: number): Promise<FaqRow[]> {
  return db
    .select()
    .from(blogPostFaqs)
    .where(eq(blogPostFaqs.postId, postId))
    .orderBy(asc(blogPostFaqs.position), asc(blogPostFaqs.id));
}

/** Replaces the videos; an SEO record another post's video took meanwhile is BLOG_VIDEO_SEO_INVALID. */
export async function replaceVideos(tx: Db, postId: number, videos: NewVideo[]): Promise<void> {
  await tx.delete(blogPostVideos).where(eq(blogPostVideos.postId, postId));
  if (!videos.length) return;
  try {
    await tx.insert(blogPostVideos).values(videos.map((v) => ({ ...v, postId })));
  } catch (error) {
    if (isUniqueViolation(error, 'blog_post_videos_seo_id_unique')) {
      throw blogErrors.videoSeoInvalid([
        { path: 'videos', message: 'an seoId is already used by another post’s video' },
      ]);
    }
    if (isForeignKeyViolation(error, 'blog_post_videos_seo_id_seo_records_id_fk')) {
      throw blogErrors.videoSeoInvalid([{ path: 'videos', message: 'an seoId names no SEO record' }]);
    }
    throw error;
  }
}

export async function videosOf(db: Db, postId: number): Promise<VideoRow[]> {
  return db
    .select()
    .from(blogPostVideos)
    .where(eq(blogPostVideos.postId, postId))
    .orderBy(asc(blogPostVideos.position), asc(blogPostVideos.id));
}

/** The SEO ids among `seoIds` that videos of other posts use. */
export async function videoSeoIdsOfOtherPosts(
  db: Db,
  seoIds: string[],
  postId: number | null,
): Promise<Set<string>> {
  if (!seoIds.length) return new Set();
  const rows = await db
    .select({ seoId: blogPostVideos.seoId })
    .from(blogPostVideos)
    .where(
      and(
        inArray(blogPostVideos.seoId, seoIds),
        postId === null ? undefined : ne(blogPostVideos.postId, postId),
      ),
    );
  return new Set(rows.map((r) => r.seoId));
}

// ---------- the admin list ----------

export interface AdminPostFilters {
  search?: string;
  status?: BlogPostStatus;
  categoryId?: number;
}

export type AdminPostSort =
  | 'updatedAt'
  | 'title'
  | 'slug'
  | 'status'
  | 'displayDate'
  | 'publishedAt'
  | 'createdAt';

const sortColumns = {
  updatedAt: blogPosts.updatedAt,
  title: blogPosts.title,
  slug: blogPosts.slug,
  status: blogPosts.status,
  displayDate: blogPosts.displayDate,
  publishedAt: blogPosts.publishedAt,
  createdAt: blogPosts.createdAt,
};

/** ORDER BY a column, empty values last either way, then the id so pages never overlap. */
export function orderOf(
  column: SQL | (typeof sortColumns)[keyof typeof sortColumns],
  order: 'asc' | 'desc',
): SQL[] {
  return order === 'asc'
    ? [sql`${column} asc nulls last`, sql`${blogPosts.id} asc`]
    : [sql`${column} desc nulls last`, sql`${blogPosts.id} desc`];
}

export const categoryColumns = {
  id: blogCategories.id,
  name: blogCategories.name,
  slug: blogCategories.slug,
};

export async function listAdminPosts(
  db: Db,
  f: AdminPostFilters,
  sort: AdminPostSort,
  order: 'asc' | 'desc',
  page: PageWindow,
) {
  const pattern = f.search ? containsPattern(f.search) : undefined;
  const where = and(
    pattern
      ? or(ilike(blogPosts.title, pattern), ilike(blogPosts.slug, pattern), ilike(blogPosts.excerpt, pattern))
      : undefined,
    f.status ? eq(blogPosts.status, f.status) : undefined,
    f.categoryId !== undefined ? eq(blogPosts.categoryId, f.categoryId) : undefined,
  );
  const query = db
    .select({ post: blogPosts, category: categoryColumns })
    .from(blogPosts)
    .leftJoin(blogCategories, eq(blogCategories.id, blogPosts.categoryId))
    .where(where)
    .orderBy(...orderOf(sortColumns[sort], order))
    .offset(page.offset)
    .$dynamic();
  const rows = await (page.limit === undefined ? query : query.limit(page.limit));
  const [total] = await db.select({ n: count() }).from(blogPosts).where(where);
  return { rows, count: total?.n ?? 0 };
}

// ---------- the public list ----------

export interface PublicPostFilters {
  search?: string;
  categoryId?: number;
}

export type PublicPostSort = 'publishedAt' | 'displayDate' | 'createdAt' | 'updatedAt' | 'title';

/** Published posts with their category, for the storefront and the app. */
export async function listPublishedPosts(
  db: Db,
  f: PublicPostFilters,
  sort: PublicPostSort,
  order: 'asc' | 'desc',
  page: PageWindow,
) {
  const pattern = f.search ? containsPattern(f.search) : undefined;
  const where = and(
    eq(blogPosts.status, 'published'),
    pattern
      ? or(
          ilike(blogPosts.title, pattern),
          ilike(blogPosts.excerpt, pattern),
          ilike(blogPosts.heroIntro, pattern),
        )
      : undefined,
    f.categoryId !== undefined ? eq(blogPosts.categoryId, f.categoryId) : undefined,
  );
  const query = db
    .select({
      post: {
        id: blogPosts.id,
        title: blogPosts.title,
        slug: blogPosts.slug,
        excerpt: blogPosts.excerpt,
        featuredImageUrl: blogPosts.featuredImageUrl,
        featuredImageAlt: blogPosts.featuredImageAlt,
        displayDate: blogPosts.displayDate,
        publishedAt: blogPosts.publishedAt,
      },
      category: categoryColumns,
    })
    .from(blogPosts)
    .leftJoin(blogCategories, eq(blogCategories.id, blogPosts.categoryId))
    .where(where)
    .orderBy(...orderOf(sortColumns[sort], order))
    .offset(page.offset)
    .$dynamic();
  const rows = await (page.limit === undefined ? query : query.limit(page.limit));
  const [total] = await db.select({ n: count() }).from(blogPosts).where(where);
  return { rows, count: total?.n ?? 0 };
}
