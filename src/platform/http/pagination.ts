// The standard list query of the interface and the `meta` every paginated list answers with.
import { z } from 'zod';
import { decimalInt, MAX_INT_ID } from './params';

const booleanQuery = z
  .enum(['true', 'false'])
  .transform((v) => v === 'true')
  .or(z.boolean());

export const paginationQuery = z.object({
  // Plain decimal digits (docs/decisions.md, "Ids in paths"); the page bound keeps OFFSET in range.
  page: decimalInt(1, MAX_INT_ID).default(1),
  size: decimalInt(1, 100).default(20),
  pagination: booleanQuery.default(true),
  order: z.enum(['asc', 'desc']).default('desc'),
});

/** The pagination query plus a route's own sort keys (first one is the default). */
export const listQuery = <S extends readonly [string, ...string[]]>(sortKeys: S) =>
  paginationQuery.extend({ sort: z.enum(sortKeys).default(sortKeys[0] as S[0]) });

export type PaginationQuery = z.output<typeof paginationQuery>;

export interface PageWindow {
  limit: number | undefined;
  offset: number;
}

/** LIMIT/OFFSET of a page; `pagination=false` reads the whole list. */
export function pageWindow(q: PaginationQuery): PageWindow {
  return q.pagination ? { limit: q.size, offset: (q.page - 1) * q.size } : { limit: undefined, offset: 0 };
}

export interface PageMeta {
  count: number;
  page?: number;
  size?: number;
}

export function pageMeta(q: PaginationQuery, count: number): PageMeta {
  return q.pagination ? { count, page: q.page, size: q.size } : { count };
}
