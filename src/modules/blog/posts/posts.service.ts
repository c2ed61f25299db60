// Blog posts in the back office: partial writes (sets of products, FAQs and videos replaced
// whole, the call-to-action replaced or removed), slugs unique against current and old
// slugs, sanitised HTML, checked references, publish and unpublish, the admin list.
import { z } from 'zod';
import type { UserPrincipal } from '../../../platform/auth/principal';
import type { Db } from '../../../platform/db/database';
import { readTogether } from '../../../platform/db/transaction';
import type { ValidationIssue } from '../../../platform/http/errors';
import { type PageMeta, pageMeta, pageWindow } from '../../../platform/http/pagination';
import {
  catalogErrors,
  publishedProductCards,
  sanitizeDescription,
  sanitizeDescriptionReport,
  seoExists,
  slugify,
} from '../../catalog';
import { findUserCard } from '../../identity';
import { blogErrors } from '../blog.errors';
import { type BlogDeps, blogWrite, iso } from '../blog.service';
import { uniqueSlug } from '../blog.slugs';
import type { BlogPostStatus } from '../blog.table';
import { findCategory } from '../categories/categories.repository';
import * as repo from './posts.repository';
import type {
  AdminPostListItem,
  AdminPostListQuery,
  AdminPostView,
  CreatePostBody,
  UpdatePostBody,
  VideoInput,
} from './posts.schemas';

const POST = 'blog_post' as const;
const RESERVED_SLUGS = ['categories'];
const isUuid = (v: unknown): v is string => typeof v === 'string' && z.uuid().safeParse(v).success;

// ---------- references ----------

/**
 * The video SEO rules (docs/decisions.md, "Blog video errors"): every video names an existing SEO
 * record, no two videos of the payload the same one, and none another post's video uses.
 * Every broken rule is listed in `details` of one 400 BLOG_VIDEO_SEO_INVALID.
 */
export async function checkVideoSeoIds(tx: Db, videos: VideoInput[], postId: number | null): Promise<void> {
  const issues: ValidationIssue[] = [];
  const candidates: Array<{ path: string; id: string }> = [];
  const seen = new Set<string>();
  videos.forEach((v, i) => {
    const path = `videos.${i}.seoId`;
    if (v.seoId === undefined || v.seoId === null || v.seoId === '')
      issues.push({ path, message: 'is required' });
    else if (!isUuid(v.seoId)) issues.push({ path, message: 'must be a uuid' });
    else if (seen.has(v.seoId.toLowerCase())) issues.push({ path, message: 'is repeated in the payload' });
    else {
      seen.add(v.seoId.toLowerCase());
      candidates.push({ path, id: v.seoId.toLowerCase() });
    }
  });
  const taken = await repo.videoSeoIdsOfOtherPosts(
    tx,
    candidates.map((c) => c.id),
    postId,
  );
  for (const c of candidates) {
    if (!(await seoExists(tx, c.id))) issues.push({ path: c.path, message: 'names no SEO record' });
    else if (taken.has(c.id)) issues.push({ path: c.path, message: 'is used by another post’s video' });
  }
  if (issues.length) {
    issues.sort((a, b) => a.path.localeCompare(b.path, 'en', { numeric: true }));
    throw blogErrors.videoSeoInvalid(issues);
  }
}

interface References {
  categoryId?: number | null;
  seoId?: string | null;
  productIds?: number[];
  videos?: VideoInput[];
}

/** Every id a post write names must exist; linked products must be published. */
async function checkReferences(deps: BlogDeps, tx: Db, r: References, postId: number | null): Promise<void> {
  if (r.categoryId != null && !(await findCategory(tx, r.categoryId))) {
    throw blogErrors.categoryNotFound(r.categoryId);
  }
  if (r.seoId != null && !(await seoExists(tx, r.seoId))) throw blogErrors.postSeoNotFound(r.seoId);
  if (r.productIds?.length) {
    const found = await publishedProductCards({ db: tx, storage: deps.storage }, r.productIds);
    const missing = r.productIds.filter((id) => !found.has(id));
    if (missing.length) throw catalogErrors.linkedProductsNotFound(missing);
  }
  if (r.videos?.length) await checkVideoSeoIds(tx, r.videos, postId);
}

// ---------- children ----------

const faqRows = (faqs: NonNullable<CreatePostBody['faqs']>): repo.NewFaq[] =>
  faqs.map((f, i) => ({ question: f.question, answer: f.answer, position: f.position ?? i }));

const videoRows = (videos: VideoInput[]): repo.NewVideo[] =>
  videos.map((v, i) => ({
    title: v.title,
    videoUrl: v.videoUrl,
    seoId: (v.seoId as string).toLowerCase(),
    description: v.description ?? null,
    thumbnailUrl: v.thumbnailUrl ?? null,
    position: v.position ?? i,
  }));

async function replaceChildren(tx: Db, postId: number, body: UpdatePostBody): Promise<void> {
  if (body.productIds !== undefined) await repo.replaceProducts(tx, postId, body.productIds);
  if (body.faqs !== undefined) await repo.replaceFaqs(tx, postId, faqRows(body.faqs));
  if (body.videos !== undefined) await repo.replaceVideos(tx, postId, videoRows(body.videos));
}

// ---------- views ----------

async function authorName(db: Db, authorId: string | null): Promise<string | null> {
  if (!authorId) return null;
  return (await findUserCard(db, authorId))?.name || null;
}

export { authorName as findAuthorName };

function listItem(
  row: repo.PostRow,
  category: { id: number; name: string; slug: string } | null,
): AdminPostListItem {
  return {
    id: row.id,
    title: row.title,
    slug: row.slug,
    excerpt: row.excerpt,
    featuredImageUrl: row.featuredImageUrl,
    featuredImageAlt: row.featuredImageAlt,
    displayDate: iso(row.displayDate),
    categoryId: row.categoryId,
    category,
    seoId: row.seoId,
    status: row.status,
    publishedAt: iso(row.publishedAt),
    authorId: row.authorId,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

async function adminView(db: Db, row: repo.PostRow): Promise<AdminPostView> {
  // db may be the transaction of the write that answers this view.
  const [category, productIds, faqs, videos, previousSlugs, author] = await readTogether(db, [
    async () => (row.categoryId === null ? undefined : findCategory(db, row.categoryId)),
    () => repo.productIdsOf(db, row.id),
    () => repo.faqsOf(db, row.id),
    () => repo.videosOf(db, row.id),
    () => repo.previousSlugsOf(db, row.id),
    () => authorName(db, row.authorId),
  ]);
  return {
    ...listItem(row, category ? { id: category.id, name: category.name, slug: category.slug } : null),
    heroIntro: row.heroIntro,
    body: row.body,
    authorName: author,
    productIds,
    faqs: faqs.map((f) => ({ id: f.id, question: f.question, answer: f.answer, position: f.position })),
    cta: row.cta ?? null,
    videos: videos.map((v) => ({
      id: v.id,
      title: v.title,
      videoUrl: v.videoUrl,
      seoId: v.seoId,
      description: v.description,
      thumbnailUrl: v.thumbnailUrl,
      position: v.position,
    })),
    previousSlugs,
  };
}

// ---------- writes ----------

/** The slug a post gets from `source` (its title or an explicit slug), free of every other post's. */
async function freeSlug(tx: Db, source: string, postId: number | null, now: Date): Promise<string> {
  await repo.lockPostSlugs(tx);
  const base = slugify(source, 'post');
  const taken = await repo.takenPostSlugs(tx, base, postId);
  // `/api/blogs/categories` is the category list: no post may hide behind that path.
  for (const reserved of RESERVED_SLUGS) taken.add(reserved);
  return uniqueSlug(base, taken, now);
}

/** Where a status change leaves `publishedAt`: set when a post goes live, cleared when it leaves. */
const statusFields = (status: BlogPostStatus, now: Date) => ({
  status,
  publishedAt: status === 'published' ? now : null,
});

export async function createPost(
  deps: BlogDeps,
  actor: UserPrincipal,
  body: CreatePostBody,
): Promise<AdminPostView> {
  const row = await blogWrite(
    deps,
    actor,
    { action: 'create', entityType: POST },
    async (tx, now) => {
      await checkReferences(deps, tx, body, null);
      const slug = await freeSlug(tx, body.slug ?? body.title, null, now);
      const row = await repo.insertPost(tx, {
        title: body.title,
        slug,
        excerpt: body.excerpt ?? null,
        heroIntro: body.heroIntro ?? null,
        body: sanitizeDescription(body.body ?? ''),
        featuredImageUrl: body.featuredImageUrl ?? null,
        featuredImageAlt: body.featuredImageAlt ?? null,
        displayDate: body.displayDate ?? null,
        categoryId: body.categoryId ?? null,
        seoId: body.seoId ?? null,
        ...statusFields(body.status ?? 'draft', now),
        authorId: actor.userId,
        cta: body.cta ?? null,
        createdAt: now,
        updatedAt: now,
      });
      await replaceChildren(tx, row.id, body);
      return row;
    },
    (r) => ({ entityId: r.id, summary: `Created blog post ${r.title} (${r.slug}, ${r.status})` }),
  );
  return adminView(deps.db, row);
}

export async function updatePost(
  deps: BlogDeps,
  actor: UserPrincipal,
  id: number,
  body: UpdatePostBody,
): Promise<AdminPostView> {
  const { row } = await blogWrite(
    deps,
    actor,
    { action: 'update', entityType: POST },
    async (tx, now) => {
      const before = await repo.lockPost(tx, id);
      if (!before) throw blogErrors.postNotFound();
      await checkReferences(deps, tx, body, id);
      const titleChanged = body.title !== undefined && body.title !== before.title;
      const slug =
        body.slug !== undefined || titleChanged
          ? await freeSlug(tx, body.slug ?? body.title!, id, now)
          : before.slug;
      const { productIds, faqs, videos, status, body: html, slug: _explicit, ...fields } = body;
      const row = await repo.updatePost(tx, id, {
        ...fields,
        ...(html !== undefined ? { body: sanitizeDescription(html) } : {}),
        ...(status !== undefined && status !== before.status ? statusFields(status, now) : {}),
        ...(slug !== before.slug ? { slug } : {}),
        updatedAt: now,
      });
      if (slug !== before.slug) await repo.moveSlug(tx, id, before.slug, slug);
      await replaceChildren(tx, id, { productIds, faqs, videos });
      return { row: row!, before };
    },
    ({ row, before }) => ({
      entityId: id,
      summary: `Updated blog post ${row.title}: ${Object.entries(body)
        .filter(([, v]) => v !== undefined)
        .map(([k]) => k)
        .join(', ')}${row.slug !== before.slug ? ` (slug was ${before.slug})` : ''}`,
    }),
  );
  return adminView(deps.db, row);
}

/** Publish (draft → published) or unpublish (published → draft); any other move is a 400. */
export async function movePostStatus(
  deps: BlogDeps,
  actor: UserPrincipal,
  id: number,
  action: 'publish' | 'unpublish',
): Promise<AdminPostView> {
  const [from, to] =
    action === 'publish' ? (['draft', 'published'] as const) : (['published', 'draft'] as const);
  const row = await blogWrite(
    deps,
    actor,
    { action, entityType: POST },
    async (tx, now) => {
      const moved = await repo.moveStatus(tx, id, from, { ...statusFields(to, now), updatedAt: now });
      if (moved) return moved;
      const current = await repo.findPost(tx, id);
      if (!current) throw blogErrors.postNotFound();
      throw blogErrors.invalidTransition(current.status, action);
    },
    (r) => ({ entityId: id, summary: `Blog post ${r.title}: ${from} → ${to}` }),
  );
  return adminView(deps.db, row);
}

export async function deletePost(deps: BlogDeps, actor: UserPrincipal, id: number): Promise<void> {
  await blogWrite(
    deps,
    actor,
    { action: 'delete', entityType: POST },
    async (tx) => {
      const row = await repo.deletePost(tx, id);
      if (!row) throw blogErrors.postNotFound();
      return row;
    },
    (r) => ({ entityId: id, summary: `Deleted blog post ${r.title} (${r.slug})` }),
  );
}

// ---------- reads ----------

/** What a save would keep of `html` as a post's body (the same sanitiser), and whether it drops anything. */
export function previewPostBody(html: string): { body: string; removed: boolean } {
  const { html: body, removed } = sanitizeDescriptionReport(html);
  return { body, removed };
}

export async function getAdminPost(deps: BlogDeps, id: number): Promise<AdminPostView> {
  const row = await repo.findPost(deps.db, id);
  if (!row) throw blogErrors.postNotFound();
  return adminView(deps.db, row);
}

export async function listAdminPosts(
  deps: BlogDeps,
  q: AdminPostListQuery,
): Promise<{ posts: AdminPostListItem[]; meta: PageMeta }> {
  const { rows, count } = await repo.listAdminPosts(
    deps.db,
    { search: q.search, status: q.status, categoryId: q.categoryId },
    q.sort,
    q.order,
    pageWindow(q),
  );
  return { posts: rows.map((r) => listItem(r.post, r.category)), meta: pageMeta(q, count) };
}
