import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  serial,
  smallint,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import { seoRecords } from '../seo/seo.table';
import { brands, categories, tags } from '../taxonomy/taxonomy.table';

export const PRODUCT_KINDS = ['physical', 'digital', 'care_package'] as const;
export type ProductKind = (typeof PRODUCT_KINDS)[number];
export const PRODUCT_STATUSES = ['draft', 'published', 'archived'] as const;
export type ProductStatus = (typeof PRODUCT_STATUSES)[number];

/** An image of a product, stored as a storage key; responses add the resolved URL. */
export interface ProductImage {
  relativePath: string;
  alt: string;
}

export interface ProductSpecification {
  key: string;
  value: string;
}

export const products = pgTable(
  'products',
  {
    id: serial('id').primaryKey(),
    title: text('title').notNull(),
    /**
     * How many distinct trigrams pg_trgm finds in the title (`show_trgm`), kept by the database.
     * The search's relevance order uses it to bound each match's similarity without computing it
     * (see `rankedSearchSql`); nothing else uses it.
     */
    titleTrigramCount: smallint('title_trigram_count')
      .notNull()
      .generatedAlwaysAs(sql`cardinality(show_trgm(title))`),
    slug: text('slug').notNull().unique(),
    /** Sanitised HTML. */
    description: text('description').notNull().default(''),
    productKind: text('product_kind').$type<ProductKind>().notNull(),
    status: text('status').$type<ProductStatus>().notNull().default('draft'),
    isSellable: boolean('is_sellable').notNull().default(true),
    /** Integer NPR; bigint so that sums over many rows never overflow. */
    mrp: bigint('mrp', { mode: 'number' }).notNull(),
    /** 0 means "sell at mrp". */
    sp: bigint('sp', { mode: 'number' }).notNull().default(0),
    /** What the customer pays: kept by the database so price filters and sorts use an index. */
    effectivePrice: bigint('effective_price', { mode: 'number' })
      .notNull()
      .generatedAlwaysAs(sql`CASE WHEN sp > 0 THEN sp ELSE mrp END`),
    categoryId: integer('category_id').references(() => categories.id),
    brandId: integer('brand_id').references(() => brands.id),
    seoId: uuid('seo_id').references(() => seoRecords.id),
    images: jsonb('images').$type<ProductImage[]>().notNull().default([]),
    specifications: jsonb('specifications').$type<ProductSpecification[]>().notNull().default([]),
    /** For `care_package` products: the care-package pricing tier this product sells. */
    carePackageTierId: integer('care_package_tier_id'),
    /** Review aggregates, kept by the reviews module through `updateProductReviewAggregates`. */
    averageRating: numeric('average_rating', { precision: 3, scale: 2, mode: 'number' }),
    reviewCount: integer('review_count').notNull().default(0),
    publishedAt: timestamp('published_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('products_kind_check', sql`${t.productKind} IN ('physical', 'digital', 'care_package')`),
    check('products_status_check', sql`${t.status} IN ('draft', 'published', 'archived')`),
    check('products_price_check', sql`${t.mrp} >= 0 AND ${t.sp} >= 0`),
    index('products_title_trgm_idx').using('gin', sql`${t.title} gin_trgm_ops`),
    // The search's typo branch: each title trigram tagged with the title's trigram count
    // (`product_title_keys`, migration 0026), so a search asks only for the trigrams that can
    // still reach the similarity threshold at each title length (see `titleSearchKeys`).
    index('products_title_keys_idx').using('gin', sql`product_title_keys(${t.title})`),
    index('products_description_trgm_idx').using('gin', sql`${t.description} gin_trgm_ops`),
    index('products_category_idx').on(t.categoryId),
    index('products_brand_idx').on(t.brandId),
    index('products_listing_created_idx').on(t.status, t.isSellable, t.createdAt),
    index('products_listing_price_idx').on(t.status, t.isSellable, t.effectivePrice),
  ],
);

/**
 * How many products the public catalog shows (published and sellable), kept by statement
 * triggers on `products` (migration 0026) in the same transaction as the product write. The
 * plain public list reads its total here: counting ~100,000 visible rows cost ~20 ms a request.
 * One row; a write that changes no product's visibility leaves it alone.
 */
export const productListingCount = pgTable(
  'product_listing_count',
  {
    id: boolean('id').primaryKey().default(true),
    products: bigint('products', { mode: 'number' }).notNull(),
  },
  (t) => [check('product_listing_count_single', sql`${t.id}`)],
);

/** A product's tags, in the order the admin gave them. */
export const productTags = pgTable(
  'product_tags',
  {
    productId: integer('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    tagId: integer('tag_id')
      .notNull()
      .references(() => tags.id, { onDelete: 'cascade' }),
    position: integer('position').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.productId, t.tagId] }), index('product_tags_tag_idx').on(t.tagId)],
);

/** Slugs a product had before: old links keep resolving to the product. */
export const productSlugHistory = pgTable(
  'product_slug_history',
  {
    slug: text('slug').primaryKey(),
    productId: integer('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('product_slug_history_product_idx').on(t.productId)],
);
