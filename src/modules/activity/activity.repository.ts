import { and, asc, count, desc, eq, gte, lte, type SQL } from 'drizzle-orm';
import type { Db } from '../../platform/db/database';
import type { PageWindow } from '../../platform/http/pagination';
import { adminActivity } from './activity.table';

export type ActivityRow = typeof adminActivity.$inferSelect;
export type NewActivity = typeof adminActivity.$inferInsert;

export async function insertActivity(db: Db, values: NewActivity): Promise<void> {
  await db.insert(adminActivity).values(values);
}

export interface ActivityFilter {
  adminId?: string;
  entityType?: string;
  entityId?: string;
  from?: Date;
  to?: Date;
}

function where(f: ActivityFilter): SQL | undefined {
  return and(
    f.adminId ? eq(adminActivity.adminId, f.adminId) : undefined,
    f.entityType ? eq(adminActivity.entityType, f.entityType) : undefined,
    f.entityId ? eq(adminActivity.entityId, f.entityId) : undefined,
    f.from ? gte(adminActivity.createdAt, f.from) : undefined,
    f.to ? lte(adminActivity.createdAt, f.to) : undefined,
  );
}

export async function listActivity(
  db: Db,
  filter: ActivityFilter,
  order: 'asc' | 'desc',
  page: PageWindow,
): Promise<{ rows: ActivityRow[]; count: number }> {
  const direction = order === 'asc' ? asc : desc;
  const query = db
    .select()
    .from(adminActivity)
    .where(where(filter))
    // Entries of one transaction share a timestamp; the id keeps them in writing order.
    .orderBy(direction(adminActivity.createdAt), direction(adminActivity.id))
    .offset(page.offset)
    .$dynamic();
  const rows = await (page.limit === undefined ? query : query.limit(page.limit));
  const [total] = await db.select({ n: count() }).from(adminActivity).where(where(filter));
  return { rows, count: total?.n ?? 0 };
}
