import { and, eq, lt } from 'drizzle-orm';
import type { Db } from '../../platform/db/database';
import { type IdempotencyKeyRow, idempotencyKeys } from './idempotency.table';

export interface KeyId {
  scope: string;
  route: string;
  key: string;
}

const byId = (id: KeyId) =>
  and(
    eq(idempotencyKeys.scope, id.scope),
    eq(idempotencyKeys.route, id.route),
    eq(idempotencyKeys.key, id.key),
  );

/** Claims the key for a first request; false when a row for it already exists. */
export async function claimKey(db: Db, id: KeyId, requestDigest: string, now: Date): Promise<boolean> {
  const inserted = await db
    .insert(idempotencyKeys)
    .values({ ...id, requestDigest, status: 'running', createdAt: now })
    .onConflictDoNothing()
    .returning({ key: idempotencyKeys.key });
  return inserted.length === 1;
}

export async function findKey(db: Db, id: KeyId): Promise<IdempotencyKeyRow | undefined> {
  const [row] = await db.select().from(idempotencyKeys).where(byId(id));
  return row;
}

/** Removes an expired row, only if it is still the one that was read (a newer claim stays). */
export async function deleteExpiredKey(db: Db, id: KeyId, createdAt: Date): Promise<void> {
  await db.delete(idempotencyKeys).where(and(byId(id), eq(idempotencyKeys.createdAt, createdAt)));
}

export async function completeKey(
  db: Db,
  id: KeyId,
  response: { status: number; contentType: string | null; body: string },
  now: Date,
): Promise<void> {
  await db
    .update(idempotencyKeys)
    .set({
      status: 'completed',
      responseStatus: response.status,
      responseContentType: response.contentType,
      responseBody: response.body,
      completedAt: now,
    })
    .where(and(byId(id), eq(idempotencyKeys.status, 'running')));
}

/** Frees a running key whose request failed on our side, so the same key can be tried again. */
export async function releaseKey(db: Db, id: KeyId): Promise<void> {
  await db.delete(idempotencyKeys).where(and(byId(id), eq(idempotencyKeys.status, 'running')));
}

export async function deleteKeysCreatedBefore(db: Db, before: Date): Promise<number> {
  const deleted = await db
    .delete(idempotencyKeys)
    .where(lt(idempotencyKeys.createdAt, before))
    .returning({ key: idempotencyKeys.key });
  return deleted.length;
}
