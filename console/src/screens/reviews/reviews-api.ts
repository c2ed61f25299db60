// The review routes the reviews screens use, typed from the generated client:
//   GET   /api/admin/reviews                       the moderation queue (status, rating, product)
//   PATCH /api/admin/reviews/{id}/status           approve, or reject with an optional reason
//   DELETE /api/admin/reviews/{id}                 remove a review for good
//   GET/POST/PATCH/DELETE /api/admin/reviews/testimonials[/{id}]
import type { components, operations, PasalClient } from '@pasal/client';

export type Review = components['schemas']['AdminProductReview'];
export type ReviewStatus = Review['status'];
export type ReviewSource = Review['reviewSource'];
export type Testimonial = components['schemas']['Testimonial'];
export type ReviewListQuery = NonNullable<operations['adminListReviews']['parameters']['query']>;

export const REVIEW_STATUSES: readonly ReviewStatus[] = ['pending', 'approved', 'rejected'];
export const REVIEW_SOURCES: readonly ReviewSource[] = ['customer', 'admin_seeded'];
export const RATINGS = [5, 4, 3, 2, 1] as const;

/**
 * The name as the storefront shows a customer's review: each word its first letter and `***`
 * ("Sita Shrestha" → "S*** S***"); seeded reviews show the name as typed. Mirrors the API's
 * maskName (docs/decisions.md, "Masked name"), so staff moderate what shoppers will read.
 */
export function shownReviewerName(review: Pick<Review, 'reviewerName' | 'reviewSource'>): string {
  if (review.reviewSource === 'admin_seeded') return review.reviewerName;
  const words = review.reviewerName.trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) return '***';
  return words.map((word) => `${Array.from(word)[0]}***`).join(' ');
}

export function fetchReviews(client: PasalClient, query: ReviewListQuery) {
  return client.list('/api/admin/reviews', { params: { query } });
}

/** The API's limit of a rejection reason (docs/api-notes.md, "Reviews and testimonials"). */
export const REJECTION_REASON_MAX = 500;

export type ReviewDecision = { status: 'approved' } | { status: 'rejected'; reason?: string };

export function setReviewStatus(client: PasalClient, id: number, decision: ReviewDecision) {
  return client.patch('/api/admin/reviews/{id}/status', { params: { path: { id } }, body: decision });
}

export function deleteReview(client: PasalClient, id: number) {
  return client.delete('/api/admin/reviews/{id}', { params: { path: { id } } });
}

/** "★★★★☆": the rating drawn; screen readers get the words from the caller. */
export function stars(rating: number): string {
  const whole = Math.max(0, Math.min(5, Math.round(rating)));
  return '★'.repeat(whole) + '☆'.repeat(5 - whole);
}
