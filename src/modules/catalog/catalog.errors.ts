import { AppError } from '../../platform/http/errors';

// Codes of the catalog's records (docs/api-notes.md, "Catalog"). The interface fixes
// PRODUCT_NOT_FOUND, PRODUCT_SLUG_EXISTS and CATEGORY_NOT_EMPTY; the others are ours.
export const catalogErrors = {
  seoNotFound: (id: string) => new AppError(404, 'SEO_RECORD_NOT_FOUND', `SEO record ${id} does not exist`),
  seoInUse: () =>
    new AppError(409, 'SEO_RECORD_IN_USE', 'The SEO record is still used by a category or product'),

  categoryNotFound: (id: number) => new AppError(404, 'CATEGORY_NOT_FOUND', `Category ${id} does not exist`),
  categoryNotEmpty: () =>
    new AppError(409, 'CATEGORY_NOT_EMPTY', 'The category still has products or sub-categories'),
  categoryParentInvalid: (why: string) => new AppError(400, 'CATEGORY_PARENT_INVALID', why),
  categorySlugExists: (slug: string) =>
    new AppError(409, 'CATEGORY_SLUG_EXISTS', `Another category already has the slug ${slug}`),

  brandNotFound: (id: number) => new AppError(404, 'BRAND_NOT_FOUND', `Brand ${id} does not exist`),
  brandInUse: () => new AppError(409, 'BRAND_IN_USE', 'The brand still has products'),
  brandSlugExists: (slug: string) =>
    new AppError(409, 'BRAND_SLUG_EXISTS', `Another brand already has the slug ${slug}`),

  tagNotFound: (id: number) => new AppError(404, 'TAG_NOT_FOUND', `Tag ${id} does not exist`),
  tagSlugExists: (slug: string) =>
    new AppError(409, 'TAG_SLUG_EXISTS', `Another tag already has the slug ${slug}`),

  /** An unknown or unpublished product read by id or slug (docs/decisions.md "Product details"): 404. */
  productNotFound: () => new AppError(404, 'PRODUCT_NOT_FOUND', 'Product not found'),
  /**
   * Product ids that another record links to (a blog post's) and that are unknown or not
   * published: the interface fixes 400 there, as for any bad reference in a body
   * (docs/api-notes.md, "Error codes: one owner each").
   */
  linkedProductsNotFound: (ids: readonly number[]) =>
    new AppError(400, 'PRODUCT_NOT_FOUND', `Products not found or not published: ${ids.join(', ')}`),
  productSlugExists: (slug: string) =>
    new AppError(409, 'PRODUCT_SLUG_EXISTS', `Another product already has the slug ${slug}`),
  /** A reference in a product write names nothing: `CATEGORY`, `BRAND`, `TAG`, `SEO`, `CARE_PACKAGE_TIER`. */
  productReferenceInvalid: (
    what: 'CATEGORY' | 'BRAND' | 'TAG' | 'SEO' | 'CARE_PACKAGE_TIER',
    message: string,
  ) => new AppError(400, `PRODUCT_${what}_INVALID`, message),
  /** A reference in a category write names nothing. */
  categorySeoInvalid: (id: string) =>
    new AppError(400, 'CATEGORY_SEO_INVALID', `SEO record ${id} does not exist`),
};
