import { AppError } from '../../../platform/http/errors';

// REVIEW_NOT_FOUND is the interface's; REVIEW_NOT_ALLOWED and REVIEW_ALREADY_EXISTS come from
// docs/decisions.md "Review submission".
// An unknown or unpublished product (public reads, a seeded review) is the catalog's PRODUCT_NOT_FOUND.
export const reviewErrors = {
  notFound: () => new AppError(404, 'REVIEW_NOT_FOUND', 'Review not found'),
  notAllowed: () =>
    new AppError(400, 'REVIEW_NOT_ALLOWED', 'Only an item of your own delivered order can be reviewed'),
  alreadyExists: () =>
    new AppError(409, 'REVIEW_ALREADY_EXISTS', 'This order item has been reviewed already'),
};
