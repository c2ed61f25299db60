// Product reviews: customers review items of their delivered orders (pending until an admin
// approves), admins seed reviews (approved at once), approve or reject (with a reason) and
// delete; the storefront lists approved reviews with a summary. Every change of what is
// approved rewrites the product's aggregates in the same transaction (catalog's
// `applyProductReviewAggregates`).
import type { UserPrincipal } from '../../../platform/auth/principal';
import type { Cache } from '../../../platform/cache/cache';
import type { Db } from '../../../platform/db/database';
import { type AfterCommit, inTransaction } from '../../../platform/db/transaction';
import { publishEvent } from '../../../platform/events/events';
import { type PageMeta, pageMeta, pageWindow } from '../../../platform/http/pagination';
import type { ModuleContext } from '../../../platform/module';
import { recordActivity } from '../../activity';
import {
  applyProductReviewAggregates,
  catalogErrors,
  findProductBySlugOrHistory,
  findProductForReviews,
  type ReviewedProduct,
} from '../../catalog';
import { customerIdsMatching, findUserContacts } from '../../identity';
import { findDeliveredOrderItem } from '../../orders';
import { reviewErrors } from './product-reviews.errors';
import * as repo from './product-reviews.repository';
import type {
  AdminReview,
  AdminReviewListQuery,
  OwnReviewListQuery,
  ProductReviewListQuery,
  PublicReview,
  Review,
  ReviewStatusBody,
  ReviewSummary,
  SeedReviewBody,
  SubmitReviewBody,
} from './product-reviews.schemas';
import type { ReviewStatus } from './product-reviews.table';

/** `cache`, when given, is where the catalog's list pages are cleared after an aggregate changes. */
export type ReviewDeps = Pick<ModuleContext, 'db' | 'clock'> & { cache?: Cache };

const REVIEW = 'product_review';

/** Review lists take only page, size and pagination: their order is fixed, newest first. */
const newestFirst = (q: ProductReviewListQuery) => ({ ...q, order: 'desc' as const });

// ---------- views ----------

/** docs/decisions.md, "Masked name": each word becomes its first letter and `***`. */
export function maskName(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  if (!words.length) return '***';
  return words.map((w) => `${Array.from(w)[0]}***`).join(' ');
}

/** Customers' current names by id: customer reviews show the account's name, never a copy. */
type Names = Map<string, string>;

async function namesOf(db: Db, rows: repo.ReviewRow[]): Promise<Names> {
  const ids = rows.flatMap((r) => (r.customerId ? [r.customerId] : []));
  if (!ids.length) return new Map();
  const contacts = await findUserContacts(db, ids);
  return new Map([...contacts].map(([id, c]) => [id, c.name]));
}

const reviewerNameOf = (r: repo.ReviewRow, names: Names) =>
  r.customerId ? (names.get(r.customerId) ?? '') : (r.reviewerName ?? '');

const toReview = (r: repo.ReviewRow, names: Names): Review => ({
  id: r.id,
  orderId: r.orderId,
  orderItemId: r.orderItemId,
  productId: r.productId,
  customerId: r.customerId,
  reviewSource: r.reviewSource,
  reviewerName: reviewerNameOf(r, names),
  reviewerImageUrl: r.reviewerImageUrl,
  rating: r.rating,
  comment: r.comment,
  status: r.status,
  createdAt: r.createdAt.toISOString(),
  updatedAt: r.updatedAt.toISOString(),
});

const toAdminReview = (r: repo.ReviewRow, names: Names): AdminReview => ({
  ...toReview(r, names),
  createdByAdminId: r.createdByAdminId,
  moderatedByAdminId: r.moderatedByAdminId,
  moderatedAt: r.moderatedAt?.toISOString() ?? null,
  rejectionReason: r.rejectionReason,
});

async function adminViews(db: Db, rows: repo.ReviewRow[]): Promise<AdminReview[]> {
  const names = await namesOf(db, rows);
  return rows.map((r) => toAdminReview(r, names));
}

const adminView = async (db: Db, row: repo.ReviewRow) => (await adminViews(db, [row]))[0]!;

const toPublicReview = (r: repo.ReviewRow, names: Names): PublicReview => ({
  id: r.id,
  rating: r.rating,
  comment: r.comment,
  customerDisplayName:
    r.reviewSource === 'admin_seeded' ? reviewerNameOf(r, names) : maskName(reviewerNameOf(r, names)),
  createdAt: r.createdAt.toISOString(),
});

/** Mean with 2 decimals (0 without reviews), total, and the count of each star. */
export function summaryOf(counts: Map<number, number>): ReviewSummary {
  let total = 0;
  let sum = 0;
  for (const [stars, n] of counts) {
    total += n;
    sum += stars * n;
  }
  const per = (stars: number) => counts.get(stars) ?? 0;
  return {
    averageRating: total ? Math.round((sum / total) * 100) / 100 : 0,
    totalReviews: total,
    ratingCounts: { '1': per(1), '2': per(2), '3': per(3), '4': per(4), '5': per(5) },
  };
}

/**
 * Recomputes a product's aggregates from its approved reviews, inside the write's transaction
 * and under the product's review lock (taken by the caller before its change).
 */
async function refreshAggregates(deps: ReviewDeps, tx: Db, afterCommit: AfterCommit, productId: number) {
  const summary = summaryOf(await repo.approvedRatingCounts(tx, productId));
  await applyProductReviewAggregates(deps, tx, afterCommit, productId, {
    averageRating: summary.totalReviews ? summary.averageRating : null,
    reviewCount: summary.totalReviews,
  });
}

// ---------- customers ----------

export async function submitReview(
  deps: ReviewDeps,
  customer: UserPrincipal,
  body: SubmitReviewBody,
): Promise<Review> {
  const item = await findDeliveredOrderItem(deps.db, {
    orderItemId: body.orderItemId,
    customerId: customer.userId,
  });
  if (!item) throw reviewErrors.notAllowed();
  // The usual answer to a second submit; two at once are settled by the unique index (insertReview).
  if (await repo.reviewOfOrderItem(deps.db, item.orderItemId)) throw reviewErrors.alreadyExists();
  const at = deps.clock.now();
  // Pending reviews are not public: the aggregates stay as they are until an admin approves.
  const row = await repo.insertReview(deps.db, {
    productId: item.productId,
    orderItemId: item.orderItemId,
    orderId: item.orderId,
    customerId: customer.userId,
    reviewSource: 'customer',
    rating: body.rating,
    comment: body.comment || null,
    status: 'pending',
    createdAt: at,
    updatedAt: at,
  });
  await publishEvent(deps.db, 'review.submitted', { reviewId: row.id });
  return toReview(row, await namesOf(deps.db, [row]));
}

export async function listOwnReviews(
  deps: ReviewDeps,
  customer: UserPrincipal,
  q: OwnReviewListQuery,
): Promise<{ reviews: Review[]; meta: PageMeta }> {
  const { rows, count } = await repo.listOfCustomer(deps.db, customer.userId, pageWindow(newestFirst(q)));
  const names = await namesOf(deps.db, rows);
  return { reviews: rows.map((r) => toReview(r, names)), meta: pageMeta(newestFirst(q), count) };
}

// ---------- admins ----------

export async function listAdminReviews(
  deps: ReviewDeps,
  q: AdminReviewListQuery,
): Promise<{ reviews: AdminReview[]; meta: PageMeta }> {
  const { rows, count } = await repo.listAdmin(
    deps.db,
    {
      status: q.status,
      reviewSource: q.reviewSource,
      productId: q.productId,
      rating: q.rating,
      search: q.search
        ? { term: q.search, matchingCustomers: customerIdsMatching(deps.db, q.search) }
        : undefined,
    },
    { by: q.sort, order: q.order },
    pageWindow(q),
  );
  return { reviews: await adminViews(deps.db, rows), meta: pageMeta(q, count) };
}

export async function getAdminReview(deps: ReviewDeps, id: number): Promise<AdminReview> {
  const row = await repo.findReview(deps.db, id);
  if (!row) throw reviewErrors.notFound();
  return adminView(deps.db, row);
}

/** A review entered by staff: `admin_seeded`, approved at once, counted in the aggregates. */
export async function seedReview(
  deps: ReviewDeps,
  admin: UserPrincipal,
  body: SeedReviewBody,
): Promise<AdminReview> {
  const at = deps.clock.now();
  return inTransaction(deps.db, async (tx, afterCommit) => {
    if (!(await findProductForReviews(tx, body.productId))) throw catalogErrors.productNotFound();
    await repo.lockProductReviews(tx, body.productId);
    const row = await repo.insertReview(tx, {
      productId: body.productId,
      orderId: body.orderId ?? null,
      reviewSource: 'admin_seeded',
      reviewerName: body.reviewerName,
      reviewerImageUrl: body.reviewerImageUrl ?? null,
      rating: body.rating,
      comment: body.comment || null,
      status: 'approved',
      createdByAdminId: admin.userId,
      createdAt: at,
      updatedAt: at,
    });
    await refreshAggregates(deps, tx, afterCommit, row.productId);
    await recordActivity(tx, {
      adminId: admin.userId,
      action: 'create',
      entityType: REVIEW,
      entityId: row.id,
      summary: `Seeded a ${row.rating}-star review of product #${row.productId} by ${row.reviewerName}`,
      at,
    });
    return adminView(tx, row);
  });
}

/**
 * A change of one review: in a transaction, under its product's review lock, with the review
 * read again under the lock (a concurrent change of it has committed by now; a concurrent
 * delete makes it unknown). Unknown id: REVIEW_NOT_FOUND.
 */
async function changeReview<T>(
  deps: ReviewDeps,
  id: number,
  change: (tx: Db, before: repo.ReviewRow, afterCommit: AfterCommit) => Promise<T>,
): Promise<T> {
  return inTransaction(deps.db, async (tx, afterCommit) => {
    const found = await repo.findReview(tx, id);
    if (!found) throw reviewErrors.notFound();
    await repo.lockProductReviews(tx, found.productId);
    const before = await repo.findReview(tx, id);
    if (!before) throw reviewErrors.notFound();
    return change(tx, before, afterCommit);
  });
}

/** Moderation and deletion alike: the aggregates follow when an approved review came or went. */
async function followApproved(
  deps: ReviewDeps,
  tx: Db,
  afterCommit: AfterCommit,
  before: repo.ReviewRow,
  after: ReviewStatus | null,
) {
  if (before.status === 'approved' || after === 'approved') {
    await refreshAggregates(deps, tx, afterCommit, before.productId);
  }
}

/**
 * Approves or rejects a review (customer or seeded), a rejection with an optional reason. The
 * body is the decision in full: rejecting again with another reason (or none) replaces it,
 * approving clears it. The same status and reason again answers the review unchanged.
 */
export async function setReviewStatus(
  deps: ReviewDeps,
  admin: UserPrincipal,
  id: number,
  body: ReviewStatusBody,
): Promise<AdminReview> {
  const reason = body.status === 'rejected' ? body.reason || null : null;
  return changeReview(deps, id, async (tx, before, afterCommit) => {
    if (before.status === body.status && before.rejectionReason === reason) return adminView(tx, before);
    const at = deps.clock.now();
    const row = await repo.setStatus(tx, id, {
      status: body.status,
      rejectionReason: reason,
      moderatedByAdminId: admin.userId,
      at,
    });
    await followApproved(deps, tx, afterCommit, before, row.status);
    await recordActivity(tx, {
      adminId: admin.userId,
      action: body.status === 'approved' ? 'approve' : 'reject',
      entityType: REVIEW,
      entityId: id,
      summary: `Review #${id} of product #${row.productId}: ${before.status} → ${row.status}${
        reason ? ` (reason: ${reason})` : ''
      }`,
      at,
    });
    return adminView(tx, row);
  });
}

/**
 * Removes a review for good (spam, a customer's request to take their words down); the
 * aggregates follow as for a rejection. Answers the review as it was.
 */
export async function deleteReview(deps: ReviewDeps, admin: UserPrincipal, id: number): Promise<AdminReview> {
  return changeReview(deps, id, async (tx, before, afterCommit) => {
    // Named before the row goes (a customer review's name is read from the account).
    const view = await adminView(tx, before);
    await repo.deleteReview(tx, id);
    await followApproved(deps, tx, afterCommit, before, null);
    await recordActivity(tx, {
      adminId: admin.userId,
      action: 'delete',
      entityType: REVIEW,
      entityId: id,
      summary: `Deleted the ${before.status} ${before.rating}-star review #${id} of product #${before.productId} by ${view.reviewerName}`,
      at: deps.clock.now(),
    });
    return view;
  });
}

// ---------- the storefront ----------

async function publicPage(deps: ReviewDeps, product: ReviewedProduct | undefined, q: ProductReviewListQuery) {
  // Drafts and archived products have no public reviews, as they have no public page.
  if (!product?.isPublished) throw catalogErrors.productNotFound();
  const [{ rows, count }, counts] = await Promise.all([
    repo.listApproved(deps.db, product.id, pageWindow(newestFirst(q))),
    repo.approvedRatingCounts(deps.db, product.id),
  ]);
  const names = await namesOf(deps.db, rows);
  return {
    product,
    items: rows.map((r) => toPublicReview(r, names)),
    summary: summaryOf(counts),
    meta: pageMeta(newestFirst(q), count),
  };
}

/** By slug, or by a slug the product had before (the answer names the current slug). */
export async function productReviewsBySlug(deps: ReviewDeps, slug: string, q: ProductReviewListQuery) {
  const page = await publicPage(deps, await findProductBySlugOrHistory(deps.db, slug), q);
  return {
    data: {
      productId: page.product.id,
      productSlug: page.product.slug,
      summary: page.summary,
      items: page.items,
    },
    meta: page.meta,
  };
}

export async function productReviewsById(deps: ReviewDeps, productId: number, q: ProductReviewListQuery) {
  const page = await publicPage(deps, await findProductForReviews(deps.db, productId), q);
  return { items: page.items, summary: page.summary, meta: page.meta };
}
