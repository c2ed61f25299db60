// The storefront's and the app's blog: published posts only, cached until the next admin
// blog write. A post is found by its slug, or by an old slug (answered with the current one).
import { findSeoRecord, publishedProductCards } from '../../catalog';
import { readThrough } from '../blog.cache';
import { blogErrors } from '../blog.errors';
import { type BlogDeps, cacheDeps, iso } from '../blog.service';
import { blogStructuredData } from '../blog.structured-data';
import { findCategory } from '../categories/categories.repository';
import * as repo from '../posts/posts.repository';
import { findAuthorName } from '../posts/posts.service';
import type { PublicPostDetail, PublicPostListItem, PublicPostListQuery } from './public.schemas';

export interface PublicPostPage {
  posts: PublicPostListItem[];
  count: number;
  currentPage: number;
  totalPage: number;
}

export function listPublicPosts(deps: BlogDeps, q: PublicPostListQuery): Promise<PublicPostPage> {
  // The parsed query, keys in schema order: equal queries share one entry whatever the URL's order.
  return readThrough(cacheDeps(deps), `list:${JSON.stringify(q)}`, async () => {
    const { rows, count } = await repo.listPublishedPosts(
      deps.db,
      { search: q.search, categoryId: q.categoryId },
      q.sort,
      q.order,
      q.pagination ? { offset: (q.page - 1) * q.size, limit: q.size } : { offset: 0, limit: undefined },
    );
    return {
      posts: rows.map((r) => ({
        id: r.post.id,
        title: r.post.title,
        slug: r.post.slug,
        excerpt: r.post.excerpt,
        featuredImageUrl: r.post.featuredImageUrl,
        featuredImageAlt: r.post.featuredImageAlt,
        displayDate: iso(r.post.displayDate),
        publishedAt: iso(r.post.publishedAt),
        categoryName: r.category?.name ?? null,
        categorySlug: r.category?.slug ?? null,
      })),
      count,
      currentPage: q.pagination ? q.page : 1,
      totalPage: q.pagination ? Math.ceil(count / q.size) : count > 0 ? 1 : 0,
    };
  });
}

/** A published post by its slug, else by an old slug of a published post; else BLOG_POST_NOT_FOUND. */
async function findPublishedPost(deps: BlogDeps, slug: string): Promise<repo.PostRow> {
  const direct = await repo.findPostBySlug(deps.db, slug);
  if (direct?.status === 'published') return direct;
  const previous = await repo.findPostByOldSlug(deps.db, slug);
  if (previous?.status === 'published') return previous;
  throw blogErrors.postNotFound();
}

export async function getPublicPost(deps: BlogDeps, slug: string): Promise<PublicPostDetail> {
  return readThrough(cacheDeps(deps), `post:${slug}`, async () => {
    const post = await findPublishedPost(deps, slug);
    const { db } = deps;
    const [category, productIds, faqs, videos, authorName, seo] = await Promise.all([
      post.categoryId === null ? undefined : findCategory(db, post.categoryId),
      repo.productIdsOf(db, post.id),
      repo.faqsOf(db, post.id),
      repo.videosOf(db, post.id),
      findAuthorName(db, post.authorId),
      post.seoId ? findSeoRecord(db, post.seoId) : null,
    ]);
    // Linked products that are no longer published drop out; the rest keep their order.
    const cards = await publishedProductCards(deps, productIds);
    const linkedProducts = productIds.flatMap((id, position) => {
      const card = cards.get(id);
      return card ? [{ ...card, position }] : [];
    });
    const base = {
      id: post.id,
      title: post.title,
      slug: post.slug,
      excerpt: post.excerpt,
      featuredImageUrl: post.featuredImageUrl,
      featuredImageAlt: post.featuredImageAlt,
      displayDate: iso(post.displayDate),
      publishedAt: iso(post.publishedAt),
      categoryName: category?.name ?? null,
      categorySlug: category?.slug ?? null,
      updatedAt: post.updatedAt.toISOString(),
    };
    const faqViews = faqs.map((f) => ({ question: f.question, answer: f.answer, position: f.position }));
    const videoViews = videos.map((v) => ({
      id: v.id,
      title: v.title,
      videoUrl: v.videoUrl,
      description: v.description,
      thumbnailUrl: v.thumbnailUrl,
      position: v.position,
    }));
    return {
      ...base,
      heroIntro: post.heroIntro,
      body: post.body,
      authorName,
      linkedProducts,
      faqs: faqViews,
      cta: post.cta ?? null,
      videos: videoViews,
      seo: seo as Record<string, unknown> | null,
      structuredData: blogStructuredData(
        { ...base, authorName, faqs: faqViews, videos: videoViews },
        deps.config.PUBLIC_WEB_URL,
      ),
    };
  });
}
