// The catalog's settings: search matching, search rate limits, the low-stock line and the public
// list cache. src/config.ts composes them with the others.
import { z } from 'zod';
import { int, setting } from '../../platform/settings';

export const catalogSettings = {
  SEARCH_SIMILARITY_THRESHOLD: setting({
    doc: 'Product search: a title matches a search term when their trigram similarity is above this (0 to 1).',
    schema: z
      .string()
      .trim()
      .regex(/^(0(\.\d+)?|1(\.0+)?|\.\d+)$/, 'expected a number from 0 to 1')
      .transform(Number),
    default: '0.3',
  }),
  CATALOG_ADMIN_PRODUCT_SEARCH_RATE_LIMIT: setting({
    doc: 'Admin product lists with `search`: requests allowed per admin per window.',
    schema: int(1),
    default: '120',
  }),
  CATALOG_ADMIN_PRODUCT_SEARCH_RATE_WINDOW_SECONDS: setting({
    doc: 'Window of `CATALOG_ADMIN_PRODUCT_SEARCH_RATE_LIMIT`, in seconds.',
    schema: int(1),
    default: '60',
  }),
  CATALOG_CUSTOMER_PRODUCT_SEARCH_RATE_LIMIT: setting({
    doc: 'Public product lists with `search` (both surfaces together): requests allowed per IP per window.',
    schema: int(1),
    default: '60',
  }),
  CATALOG_CUSTOMER_PRODUCT_SEARCH_RATE_WINDOW_SECONDS: setting({
    doc: 'Window of `CATALOG_CUSTOMER_PRODUCT_SEARCH_RATE_LIMIT`, in seconds.',
    schema: int(1),
    default: '60',
  }),
  CATALOG_LOW_STOCK_THRESHOLD: setting({
    doc: 'A published, sellable physical product with this many units or fewer available (on hand minus reserved) is low in stock: the admin dashboard lists it (at most 10, fewest first).',
    schema: int(0, 1_000_000),
    default: '5',
  }),
  CATALOG_PUBLIC_LIST_CACHE_SECONDS: setting({
    doc: 'Public product list pages are kept this long in the cache (0: off). Product, taxonomy and review-moderation writes clear them; stock changes show within this time.',
    schema: int(0, 3600),
    default: '15',
  }),
} as const;
