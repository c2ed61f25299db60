// What the reviews module needs of products: the product a review list names (by slug with
// its slug history, or by id), and the review aggregates written together with the clearing
// of the cached public list pages that show them.
import type { Cache } from '../../../platform/cache/cache';
import type { Db } from '../../../platform/db/database';
import type { AfterCommit } from '../../../platform/db/transaction';
import * as repo from './products.repository';
import { forgetCachedProductLists, updateProductReviewAggregates } from './products.service';

/** A product as review routes name it: its id, current slug and whether the storefront shows it. */
export interface ReviewedProduct {
  id: number;
  slug: string;
  isPublished: boolean;
}

const reviewed = (row: repo.ProductRow | undefined): ReviewedProduct | undefined =>
  row && { id: row.id, slug: row.slug, isPublished: row.status === 'published' };

/** The product whose slug is `slug` now, or was before a rename (the answer holds the current slug). */
export async function findProductBySlugOrHistory(db: Db, slug: string): Promise<ReviewedProduct | undefined> {
  return reviewed((await repo.findProductBySlug(db, slug)) ?? (await repo.findProductByOldSlug(db, slug)));
}

export async function findProductForReviews(db: Db, id: number): Promise<ReviewedProduct | undefined> {
  return reviewed(await repo.findProduct(db, id));
}

/**
 * Writes a product's review aggregates inside the review write's transaction and, once it has
 * committed, clears the cached public list pages, so lists show the new figures at once (the
 * product detail is read fresh).
 */
export async function applyProductReviewAggregates(
  deps: { cache?: Cache },
  tx: Db,
  afterCommit: AfterCommit,
  productId: number,
  aggregates: { averageRating: number | null; reviewCount: number },
): Promise<void> {
  await updateProductReviewAggregates(tx, productId, aggregates);
  afterCommit(() => forgetCachedProductLists(deps.cache));
}
