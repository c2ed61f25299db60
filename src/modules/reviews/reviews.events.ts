// Reviews' domain events.
export {};

declare module '../../platform/events/events' {
  interface DomainEvents {
    /** A customer's review, pending moderation. */
    'review.submitted': { reviewId: number };
  }
}
