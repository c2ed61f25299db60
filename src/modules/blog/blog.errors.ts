import { AppError, type ValidationIssue } from '../../platform/http/errors';

// The blog's codes (docs/api-notes.md, "Blog"). The interface fixes all but
// BLOG_VIDEO_SEO_INVALID (docs/decisions.md "Blog video errors") and BLOG_POST_SEO_NOT_FOUND (ours).
// A linked product that is unknown or unpublished is the catalog's PRODUCT_NOT_FOUND
// (catalogErrors.linkedProductsNotFound).
export const blogErrors = {
  postNotFound: () => new AppError(404, 'BLOG_POST_NOT_FOUND', 'Blog post not found'),
  categoryNotFound: (id: number) =>
    new AppError(404, 'BLOG_CATEGORY_NOT_FOUND', `Blog category ${id} does not exist`),
  categoryNotEmpty: () => new AppError(409, 'BLOG_CATEGORY_NOT_EMPTY', 'The blog category still has posts'),
  categorySlugExists: (slug: string) =>
    new AppError(
      409,
      'BLOG_CATEGORY_SLUG_ALREADY_EXISTS',
      `Another blog category already has the slug ${slug}`,
    ),
  invalidTransition: (from: string, action: 'publish' | 'unpublish') =>
    new AppError(
      400,
      'BLOG_POST_INVALID_STATUS_TRANSITION',
      `A ${from} post cannot be ${action === 'publish' ? 'published' : 'unpublished'}`,
    ),
  postSeoNotFound: (id: string) =>
    new AppError(400, 'BLOG_POST_SEO_NOT_FOUND', `SEO record ${id} does not exist`),
  /** A video's seoId is missing, not a uuid, unknown, repeated in the payload or another post's. */
  videoSeoInvalid: (details: ValidationIssue[]) =>
    new AppError(
      400,
      'BLOG_VIDEO_SEO_INVALID',
      details.map((d) => `${d.path}: ${d.message}`).join('; ') || 'A video seoId is not valid',
      { details },
    ),
};
