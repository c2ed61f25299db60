// Every query of product reviews: writes, the admin and customer lists, the public list of a
// product, and the approved figures its summary and the catalog's aggregates come from.
import {
  and,
  asc,
  count,
  desc,
  eq,
  ilike,
  inArray,
  or,
  type SQL,
  type SQLWrapper,
  type Subquery,
  sql,
} from 'drizzle-orm';
import type { Db } from '../../../platform/db/database';
import { isForeignKeyViolation, isUniqueViolation } from '../../../platform/db/errors';
import { containsPattern as contains } from '../../../platform/db/like';
import { httpErrors } from '../../../platform/http/errors';
import type { PageWindow } from '../../../platform/http/pagination';
import { catalogErrors } from '../../catalog';
import { reviewErrors } from './product-reviews.errors';
import { productReviews, type ReviewSource, type ReviewStatus } from './product-reviews.table';

export type ReviewRow = typeof productReviews.$inferSelect;
export type NewReview = typeof productReviews.$inferInsert;

/**
 * Inserts a review. A second review of the same order item (two submits racing included) is
 * refused by the unique index: REVIEW_ALREADY_EXISTS. A seeded review's unknown product or
 * order is refused by its foreign key.
 */
export async function insertReview(db: Db, values: NewReview): Promise<ReviewRow> {
  try {
    const [row] = await db.insert(productReviews).values(values).returning();
    return row!;
  } catch (error) {
    if (isUniqueViolation(error, 'product_reviews_order_item_key')) throw reviewErrors.alreadyExists();
    if (isForeignKeyViolation(error, 'product_reviews_product_id_products_id_fk')) {
      throw catalogErrors.productNotFound();
    }
    if (isForeignKeyViolation(error, 'product_reviews_order_id_orders_id_fk')) {
      throw httpErrors.validation([{ path: 'orderId', message: `Order ${values.orderId} does not exist` }]);
    }
    throw error;
  }
}

export async function findReview(db: Db, id: number): Promise<ReviewRow | undefined> {
  const [row] = await db.select().from(productReviews).where(eq(productReviews.id, id));
  return row;
}

export async function reviewOfOrderItem(db: Db, orderItemId: number): Promise<ReviewRow | undefined> {
  const [row] = await db.select().from(productReviews).where(eq(productReviews.orderItemId, orderItemId));
  return row;
}

/**
 * Serialises every change of a product's approved reviews until the transaction ends, so the
 * aggregates computed afterwards see all earlier changes (two approvals at once cannot leave
 * a count that misses one of them).
 */
export async function lockProductReviews(tx: Db, productId: number): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext('reviews.product'), ${productId})`);
}

export async function setStatus(
  tx: Db,
  id: number,
  values: { status: ReviewStatus; rejectionReason: string | null; moderatedByAdminId: string; at: Date },
): Promise<ReviewRow> {
  const [row] = await tx
    .update(productReviews)
    .set({
      status: values.status,
      rejectionReason: values.rejectionReason,
      moderatedByAdminId: values.moderatedByAdminId,
      moderatedAt: values.at,
      updatedAt: values.at,
    })
    .where(eq(productReviews.id, id))
    .returning();
  return row!;
}

/** Removes a review for good; answers it, or undefined when there was none. */
export async function deleteReview(tx: Db, id: number): Promise<ReviewRow | undefined> {
  const [row] = await tx.delete(productReviews).where(eq(productReviews.id, id)).returning();
  return row;
}

/** Approved reviews of a product: how many of each star (missing stars have none). */
export async function approvedRatingCounts(db: Db, productId: number): Promise<Map<number, number>> {
  const rows = await db
    .select({ rating: productReviews.rating, n: count() })
    .from(productReviews)
    .where(and(eq(productReviews.productId, productId), eq(productReviews.status, 'approved')))
    .groupBy(productReviews.rating);
  return new Map(rows.map((r) => [r.rating, Number(r.n)]));
}

const approvedOf = (productId: number) =>
  and(eq(productReviews.productId, productId), eq(productReviews.status, 'approved'));

/** One page of a product's approved reviews, newest first, and how many there are. */
export async function listApproved(
  db: Db,
  productId: number,
  page: PageWindow,
): Promise<{ rows: ReviewRow[]; count: number }> {
  return pageOf(db, approvedOf(productId), [desc(productReviews.createdAt), desc(productReviews.id)], page);
}

export async function listOfCustomer(
  db: Db,
  customerId: string,
  page: PageWindow,
): Promise<{ rows: ReviewRow[]; count: number }> {
  return pageOf(
    db,
    eq(productReviews.customerId, customerId),
    [desc(productReviews.createdAt), desc(productReviews.id)],
    page,
  );
}

export interface AdminFilter {
  status?: ReviewStatus;
  reviewSource?: ReviewSource;
  productId?: number;
  rating?: number;
  /** `term` matches seeded names and comments; `matchingCustomers` (identity's subquery) customer reviews. */
  search?: { term: string; matchingCustomers: SQL | Subquery | SQLWrapper };
}

export async function listAdmin(
  db: Db,
  f: AdminFilter,
  sort: { by: 'createdAt' | 'updatedAt' | 'rating'; order: 'asc' | 'desc' },
  page: PageWindow,
): Promise<{ rows: ReviewRow[]; count: number }> {
  const term = f.search ? contains(f.search.term) : undefined;
  const where = and(
    f.status ? eq(productReviews.status, f.status) : undefined,
    f.reviewSource ? eq(productReviews.reviewSource, f.reviewSource) : undefined,
    f.productId ? eq(productReviews.productId, f.productId) : undefined,
    f.rating ? eq(productReviews.rating, f.rating) : undefined,
    term && f.search
      ? or(
          ilike(productReviews.reviewerName, term),
          ilike(productReviews.comment, term),
          inArray(productReviews.customerId, f.search.matchingCustomers as SQLWrapper),
        )
      : undefined,
  );
  const direction = sort.order === 'asc' ? asc : desc;
  return pageOf(db, where, [direction(productReviews[sort.by]), direction(productReviews.id)], page);
}

async function pageOf(
  db: Db,
  where: SQL | undefined,
  orderBy: SQL[],
  page: PageWindow,
): Promise<{ rows: ReviewRow[]; count: number }> {
  const query = db
    .select()
    .from(productReviews)
    .where(where)
    .orderBy(...orderBy)
    .offset(page.offset)
    .$dynamic();
  const rows = await (page.limit === undefined ? query : query.limit(page.limit));
  const [total] = await db.select({ n: count() }).from(productReviews).where(where);
  return { rows, count: Number(total?.n ?? 0) };
}
