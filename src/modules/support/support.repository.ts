// Query pieces the support repositories share: substring search and one page of a list.
import { asc, count, desc, type SQL } from 'drizzle-orm';
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Db } from '../../platform/db/database';
import type { PageWindow } from '../../platform/http/pagination';

/** An ILIKE pattern matching `term` anywhere, with its wildcards taken literally. */
export { containsPattern as contains } from '../../platform/db/like';

/** One page of `table` by `where`, ordered by `sortColumn` then id (ties keep insertion order), and the total. */
export async function pageOf<T extends PgTable>(
  db: Db,
  table: T,
  opts: { where: SQL | undefined; sortColumn: AnyPgColumn; idColumn: AnyPgColumn; order: 'asc' | 'desc' },
  page: PageWindow,
): Promise<{ rows: T['$inferSelect'][]; count: number }> {
  const direction = opts.order === 'asc' ? asc : desc;
  const query = db
    .select()
    .from(table as PgTable)
    .where(opts.where)
    .orderBy(direction(opts.sortColumn), direction(opts.idColumn))
    .offset(page.offset)
    .$dynamic();
  const rows = await (page.limit === undefined ? query : query.limit(page.limit));
  const [total] = await db
    .select({ n: count() })
    .from(table as PgTable)
    .where(opts.where);
  return { rows: rows as T['$inferSelect'][], count: total?.n ?? 0 };
}
