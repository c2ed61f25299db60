// Query pieces the catalog's repositories share.
import { type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn, PgSelect } from 'drizzle-orm/pg-core';
import type { Db } from '../../platform/db/database';
import type { PageWindow } from '../../platform/http/pagination';

/** `%term%` for ILIKE, with the pattern characters of the term taken literally. */
export { containsPattern } from '../../platform/db/like';

/** `base` and `base-<n>` as a regular expression, to find the slugs a new one must avoid. */
export const slugFamilyPattern = (base: string) => `^${base.replace(/[^a-z0-9-]/g, '')}(-[0-9]+)?$`;

/** ORDER BY a column, empty values last either way, then the id so pages never overlap. */
export function orderBy(column: AnyPgColumn | SQL, order: 'asc' | 'desc', id: AnyPgColumn): SQL[] {
  return order === 'asc'
    ? [sql`${column} asc nulls last`, sql`${id} asc`]
    : [sql`${column} desc nulls last`, sql`${id} desc`];
}

/** The page's LIMIT and OFFSET; the whole list when pagination is off. */
export function paged<T extends PgSelect>(query: T, page: PageWindow): T {
  const q = query.offset(page.offset);
  return page.limit === undefined ? q : q.limit(page.limit);
}

/** A PostgreSQL array literal of integers (`{1,2,NULL}`), for an `unnest` or `any` parameter. */
export const intArray = (values: Array<number | null>) =>
  `{${values.map((v) => (v === null ? 'NULL' : String(v))).join(',')}}`;

/** The rows of a raw query; both drivers (PGlite, node-postgres) answer `{ rows }`. */
export async function rowsOf<T>(db: Db, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}
