import type { Db } from '../../platform/db/database';
import { type PageMeta, pageMeta, pageWindow } from '../../platform/http/pagination';
import * as repo from './activity.repository';
import type { ActivityEntry, ActivityListQuery } from './activity.schemas';

export interface ActivityRecord {
  /** The admin who acted; null when the server itself did (e.g. a payment answered with another amount). */
  adminId: string | null;
  /** `create`, `update`, `delete`, or the module's own verb (`deactivate`, `publish`, …). */
  action: string;
  entityType: string;
  entityId: string | number | null;
  summary: string;
  /** When it happened; the database's transaction time when left out. */
  at?: Date;
}

/**
 * Records one admin write. Call it with the write's own transaction, so the entry exists
 * exactly when the write does.
 */
export async function recordActivity(db: Db, record: ActivityRecord): Promise<void> {
  await repo.insertActivity(db, {
    adminId: record.adminId,
    action: record.action,
    entityType: record.entityType,
    entityId: record.entityId === null ? null : String(record.entityId),
    summary: record.summary,
    ...(record.at ? { createdAt: record.at } : {}),
  });
}

const toEntry = (row: repo.ActivityRow): ActivityEntry => ({
  id: row.id,
  adminId: row.adminId,
  action: row.action,
  entityType: row.entityType,
  entityId: row.entityId,
  summary: row.summary,
  createdAt: row.createdAt.toISOString(),
});

export async function listActivity(
  deps: { db: Db },
  query: ActivityListQuery,
): Promise<{ entries: ActivityEntry[]; meta: PageMeta }> {
  const { rows, count } = await repo.listActivity(deps.db, query, query.order, pageWindow(query));
  return { entries: rows.map(toEntry), meta: pageMeta(query, count) };
}
