import { z } from 'zod';
import { listQuery, paginationQuery } from '../../../platform/http/pagination';
import { decimalInt, intId, MAX_INT_ID } from '../../../platform/http/params';
import { bodyRating, plainTextField, queryRating, requiredPlainText } from '../reviews.fields';
import { REVIEW_SOURCES, REVIEW_STATUSES } from './product-reviews.table';

const iso = z.string().describe('ISO-8601 instant');

// ---------- requests ----------

/** docs/decisions.md, "Review submission". */
export const submitReviewBody = z
  .object({
    orderItemId: intId,
    rating: bodyRating,
    comment: plainTextField(1000).optional().describe('Plain text; markup is stripped'),
  })
  .strict();
export type SubmitReviewBody = z.output<typeof submitReviewBody>;

/** The interface's seeded review body; `customerId` is not accepted (strict). */
export const seedReviewBody = z
  .object({
    productId: intId,
    reviewerName: requiredPlainText(120),
    reviewerImageUrl: z.url().max(500).optional(),
    rating: bodyRating,
    comment: plainTextField(1000).optional(),
    orderId: intId.optional(),
  })
  .strict();
export type SeedReviewBody = z.output<typeof seedReviewBody>;

/** A rejection reason: plain text, at most this many characters once markup is stripped and trimmed. */
export const REJECTION_REASON_MAX = 500;

/**
 * The decision in full: `reason` only with `rejected` (with `approved` it is 400
 * VALIDATION_ERROR, so a client cannot believe an approval kept a note); a blank one is none.
 */
export const reviewStatusBody = z
  .object({
    status: z.enum(['approved', 'rejected']),
    reason: plainTextField(REJECTION_REASON_MAX)
      .optional()
      .describe('Why it is rejected (plain text, at most 500); only with `rejected`'),
  })
  .strict()
  .refine((b) => b.status === 'rejected' || b.reason === undefined, {
    path: ['reason'],
    message: 'only a rejection takes a reason',
  });
export type ReviewStatusBody = z.output<typeof reviewStatusBody>;

export const adminReviewListQuery = listQuery(['createdAt', 'updatedAt', 'rating'] as const).extend({
  status: z.enum(REVIEW_STATUSES).optional(),
  reviewSource: z.enum(REVIEW_SOURCES).optional(),
  productId: intId.optional(),
  rating: queryRating.optional(),
  search: z.string().trim().min(1).max(200).optional().describe('reviewer name and comment'),
});
export type AdminReviewListQuery = z.output<typeof adminReviewListQuery>;

/** Product review lists: only pagination (newest first, always). */
export const productReviewListQuery = paginationQuery.pick({ page: true, size: true, pagination: true });
export type ProductReviewListQuery = z.output<typeof productReviewListQuery>;

export const ownReviewListQuery = productReviewListQuery;
export type OwnReviewListQuery = ProductReviewListQuery;

export const slugParams = z.object({ slug: z.string().trim().min(1).max(200) });
export const productIdParams = z.object({
  productId: decimalInt(1, MAX_INT_ID, 'must be a positive integer'),
});

// ---------- responses ----------

export const review = z
  .object({
    id: z.number().int(),
    orderId: z.number().int().nullable(),
    orderItemId: z.number().int().nullable(),
    productId: z.number().int(),
    customerId: z.uuid().nullable().describe('null when seeded'),
    reviewSource: z.enum(REVIEW_SOURCES),
    reviewerName: z.string(),
    reviewerImageUrl: z.string().nullable(),
    rating: z.number().int(),
    comment: z.string().nullable(),
    status: z.enum(REVIEW_STATUSES),
    createdAt: iso,
    updatedAt: iso,
  })
  .meta({ id: 'ProductReview' });
export type Review = z.output<typeof review>;

export const adminReview = review
  .extend({
    createdByAdminId: z.uuid().nullable(),
    moderatedByAdminId: z.uuid().nullable(),
    moderatedAt: iso.nullable(),
    rejectionReason: z
      .string()
      .nullable()
      .describe('why staff rejected it; null unless rejected with a reason'),
  })
  .meta({ id: 'AdminProductReview' });
export type AdminReview = z.output<typeof adminReview>;

export const publicReview = z
  .object({
    id: z.number().int(),
    rating: z.number().int(),
    comment: z.string().nullable(),
    customerDisplayName: z.string().describe('masked for customer reviews, exact for seeded ones'),
    createdAt: iso,
  })
  .meta({ id: 'PublicProductReview' });
export type PublicReview = z.output<typeof publicReview>;

export const reviewSummary = z
  .object({
    averageRating: z.number().describe('mean of approved reviews, 2 decimals; 0 without reviews'),
    totalReviews: z.number().int(),
    ratingCounts: z
      .object({
        '1': z.number().int(),
        '2': z.number().int(),
        '3': z.number().int(),
        '4': z.number().int(),
        '5': z.number().int(),
      })
      .describe('approved reviews per star'),
  })
  .meta({ id: 'ProductReviewSummary' });
export type ReviewSummary = z.output<typeof reviewSummary>;

export const pageMeta = z.object({
  count: z.number().int(),
  page: z.number().int().optional(),
  size: z.number().int().optional(),
});

export const slugReviewsEnvelope = z.object({
  message: z.string(),
  data: z.object({
    productId: z.number().int(),
    productSlug: z.string().describe('the current slug, also when an old one was asked for'),
    summary: reviewSummary,
    items: z.array(publicReview),
  }),
  meta: pageMeta,
});

export const idReviewsEnvelope = z.object({
  message: z.string(),
  data: z.array(publicReview),
  meta: pageMeta,
  totalReviews: z.number().int(),
  summary: reviewSummary,
});
