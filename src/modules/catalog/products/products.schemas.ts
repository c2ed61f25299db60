import { z } from 'zod';
import { paginationQuery } from '../../../platform/http/pagination';
import { decimalInt, intId } from '../../../platform/http/params';
import { isStoredPath } from '../../../platform/storage/files';
import { booleanQuery, searchTerm, slug } from '../catalog.schemas';
import { PRODUCT_KINDS, PRODUCT_STATUSES } from './products.table';

/** Integer NPR; far below 2^53, and the columns are bigint. */
const MAX_MONEY = 1_000_000_000_000;
const money = z.number().int().min(0).max(MAX_MONEY);

export const productKind = z.enum(PRODUCT_KINDS);
export const productStatus = z.enum(PRODUCT_STATUSES);

const imageInput = z.object({
  relativePath: z
    .string()
    .trim()
    .refine(
      isStoredPath,
      'must be a stored file key (uploads/… or public/…), as the upload routes return it',
    ),
  alt: z.string().trim().max(255).default(''),
});
const specification = z.object({
  key: z.string().trim().min(1).max(100),
  value: z.string().trim().max(1000),
});

const writable = {
  title: z.string().trim().min(1).max(255),
  slug: slug.describe('Explicit slug; taken by another product: 409 PRODUCT_SLUG_EXISTS'),
  description: z.string().max(100_000).describe('HTML; sanitised on write'),
  productKind,
  status: productStatus,
  isSellable: z.boolean(),
  mrp: money,
  sp: money.describe('0 means "sell at mrp"'),
  categoryId: intId.nullable(),
  brandId: intId.nullable(),
  tagIds: z
    .array(intId)
    .max(50)
    .transform((ids) => [...new Set(ids)]),
  images: z.array(imageInput).max(20),
  specifications: z.array(specification).max(100),
  seoId: z.uuid().nullable(),
  carePackageTierId: intId.nullable().describe('Required for kind care_package: the tier the product sells'),
};

export const createProductBody = z
  .object(writable)
  .partial()
  .required({ title: true, productKind: true, mrp: true })
  .refine((b) => (b.sp ?? 0) <= b.mrp, {
    message: 'sp must not be above mrp',
    path: ['sp'],
    params: { code: 'sp_above_mrp' },
  });
export type CreateProductBody = z.output<typeof createProductBody>;

export const updateProductBody = z
  .object(writable)
  .partial()
  .refine((b) => Object.values(b).some((v) => v !== undefined), {
    message: 'give at least one field to change',
  });
export type UpdateProductBody = z.output<typeof updateProductBody>;

// ---------- responses ----------

export const productImage = z.object({
  relativePath: z.string(),
  alt: z.string(),
  url: z.string().describe('Resolved for this response; private keys get a URL that expires'),
});
export type ProductImageView = z.infer<typeof productImage>;

const stockLevel = z
  .object({ onHand: z.number().int(), reserved: z.number().int(), available: z.number().int() })
  .describe('Physical products only');

const common = {
  id: z.number().int(),
  title: z.string(),
  slug: z.string(),
  productKind,
  mrp: z.number().int(),
  sp: z.number().int(),
  effectivePrice: z.number().int().describe('sp when above 0, else mrp'),
  categoryId: z.number().int().nullable(),
  brandId: z.number().int().nullable(),
  publishedAt: z.iso.datetime().nullable(),
  createdAt: z.iso.datetime(),
};

export const adminProduct = z
  .object({
    ...common,
    description: z.string(),
    status: productStatus,
    isSellable: z.boolean(),
    tagIds: z.array(z.number().int()),
    images: z.array(productImage),
    specifications: z.array(specification),
    seoId: z.uuid().nullable(),
    carePackageTierId: z.number().int().nullable(),
    averageRating: z.number().nullable().describe('null without reviews'),
    reviewCount: z.number().int(),
    stock: stockLevel.nullable(),
    updatedAt: z.iso.datetime(),
  })
  .meta({ id: 'AdminProduct' });
export type AdminProductView = z.infer<typeof adminProduct>;

const ref = z.object({ id: z.number().int(), name: z.string(), slug: z.string() });

export const publicProductListItem = z
  .object({
    ...common,
    isSellable: z.boolean(),
    thumbnailUrl: z.string().nullable(),
    category: ref.nullable(),
    brand: ref.nullable(),
    averageRating: z.number().nullable().describe('null without reviews'),
    reviewCount: z.number().int(),
    inStock: z.boolean(),
  })
  .meta({ id: 'ProductListItem' });
export type PublicProductListItem = z.infer<typeof publicProductListItem>;

export const publicProductDetail = publicProductListItem
  .omit({ averageRating: true, reviewCount: true })
  .extend({
    description: z.string(),
    images: z.array(productImage),
    specifications: z.array(specification),
    tags: z.array(ref),
    seoId: z.uuid().nullable(),
    carePackageTierId: z.number().int().nullable(),
    averageRating: z.number().describe('0 without reviews'),
    totalReviews: z.number().int(),
    reviewStatus: z.enum(['Reviews available', 'No reviews yet']),
    updatedAt: z.iso.datetime(),
  })
  .meta({ id: 'ProductDetail' });
export type PublicProductDetail = z.infer<typeof publicProductDetail>;

// ---------- list queries ----------

const PUBLIC_SORTS = ['relevance', 'createdAt', 'price', 'title', 'rating'] as const;
const ADMIN_SORTS = [...PUBLIC_SORTS, 'updatedAt'] as const;

const sharedFilters = {
  search: searchTerm.describe(
    'Substring of title, description, category or tag name, or a title like it (typos allowed)',
  ),
  categoryId: intId.optional().describe('This category and every sub-category'),
  brandId: intId.optional(),
  tag: z.string().trim().min(1).max(160).optional().describe('Tag slug'),
  productKind: productKind.optional(),
};

export const adminProductListQuery = paginationQuery.extend({
  ...sharedFilters,
  status: productStatus.optional(),
  isSellable: booleanQuery.optional(),
  sort: z.enum(ADMIN_SORTS).optional().describe('Default: relevance with a search, else createdAt'),
});
export type AdminProductListQuery = z.output<typeof adminProductListQuery>;

export const publicProductListQuery = paginationQuery
  .extend({
    ...sharedFilters,
    minPrice: decimalInt(0, MAX_MONEY).optional().describe('On the effective price'),
    maxPrice: decimalInt(0, MAX_MONEY).optional(),
    inStock: booleanQuery.optional(),
    sort: z.enum(PUBLIC_SORTS).optional().describe('Default: relevance with a search, else createdAt'),
  })
  .refine((q) => q.minPrice === undefined || q.maxPrice === undefined || q.minPrice <= q.maxPrice, {
    message: 'minPrice must not be above maxPrice',
    path: ['maxPrice'],
    params: { code: 'min_above_max' },
  });
export type PublicProductListQuery = z.output<typeof publicProductListQuery>;

export const productSlugParams = z.object({ slug: z.string().trim().min(1).max(200) });
