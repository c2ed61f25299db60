import { and, asc, count, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../../platform/db/database';
import type { PageWindow } from '../../../platform/http/pagination';
import { paged } from '../catalog.repository';
import type { DigitalKeyListQuery } from './digital-keys.schemas';
import { type DigitalKeyStatus, digitalKeys } from './digital-keys.table';

export type DigitalKeyRow = typeof digitalKeys.$inferSelect;

/** Inserts the keys a product does not hold yet; the unique digest settles concurrent uploads. */
export async function insertNewKeys(db: Db, rows: Array<typeof digitalKeys.$inferInsert>): Promise<number> {
  if (!rows.length) return 0;
  const inserted = await db
    .insert(digitalKeys)
    .values(rows)
    .onConflictDoNothing({ target: [digitalKeys.productId, digitalKeys.valueDigest] })
    .returning({ id: digitalKeys.id });
  return inserted.length;
}

export async function listKeys(
  db: Db,
  productId: number,
  query: DigitalKeyListQuery,
  page: PageWindow,
): Promise<{ rows: DigitalKeyRow[]; count: number }> {
  const where = and(
    eq(digitalKeys.productId, productId),
    query.status ? eq(digitalKeys.status, query.status) : undefined,
  );
  const direction = query.order === 'asc' ? asc : desc;
  const rows = await paged(
    db
      .select()
      .from(digitalKeys)
      .where(where)
      .orderBy(direction(digitalKeys.createdAt), direction(digitalKeys.id))
      .$dynamic(),
    page,
  );
  const [total] = await db.select({ n: count() }).from(digitalKeys).where(where);
  return { rows, count: total?.n ?? 0 };
}

export async function findKey(db: Db, productId: number, id: string): Promise<DigitalKeyRow | undefined> {
  const [row] = await db
    .select()
    .from(digitalKeys)
    .where(and(eq(digitalKeys.productId, productId), eq(digitalKeys.id, id)));
  return row;
}

/** Moves a key on only from `from`: the conditional UPDATE settles a race with an assignment. */
export async function transitionKey(
  db: Db,
  id: string,
  from: DigitalKeyStatus,
  values: Partial<typeof digitalKeys.$inferInsert> & { status: DigitalKeyStatus },
): Promise<DigitalKeyRow | undefined> {
  const [row] = await db
    .update(digitalKeys)
    .set(values)
    .where(and(eq(digitalKeys.id, id), eq(digitalKeys.status, from)))
    .returning();
  return row;
}

export async function countAssigned(db: Db, productId: number, orderItemId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(digitalKeys)
    .where(
      and(
        eq(digitalKeys.productId, productId),
        eq(digitalKeys.orderItemId, orderItemId),
        eq(digitalKeys.status, 'assigned'),
      ),
    );
  return row?.n ?? 0;
}

/**
 * Up to `limit` available keys, oldest first, locked for this transaction. SKIP LOCKED lets
 * concurrent assigners take different keys instead of waiting for (and then sharing) the same.
 */
export async function lockAvailableKeys(db: Db, productId: number, limit: number): Promise<string[]> {
  const rows = await db
    .select({ id: digitalKeys.id })
    .from(digitalKeys)
    .where(and(eq(digitalKeys.productId, productId), eq(digitalKeys.status, 'available')))
    .orderBy(asc(digitalKeys.createdAt), asc(digitalKeys.id))
    .limit(limit)
    .for('update', { skipLocked: true });
  return rows.map((r) => r.id);
}

export async function assignKeys(
  db: Db,
  ids: string[],
  orderItemId: string,
  at: Date,
): Promise<DigitalKeyRow[]> {
  if (!ids.length) return [];
  return db
    .update(digitalKeys)
    .set({ status: 'assigned', orderItemId, assignedAt: at })
    .where(and(inArray(digitalKeys.id, ids), eq(digitalKeys.status, 'available')))
    .returning();
}

export async function assignedKeysOf(db: Db, orderItemId: string): Promise<DigitalKeyRow[]> {
  return db
    .select()
    .from(digitalKeys)
    .where(and(eq(digitalKeys.orderItemId, orderItemId), eq(digitalKeys.status, 'assigned')))
    .orderBy(asc(digitalKeys.assignedAt), asc(digitalKeys.id));
}

export async function availableCounts(db: Db, productIds: number[]): Promise<Map<number, number>> {
  const out = new Map(productIds.map((id) => [id, 0]));
  if (!productIds.length) return out;
  const rows = await db
    .select({ productId: digitalKeys.productId, n: sql<number>`count(*)::int` })
    .from(digitalKeys)
    .where(and(inArray(digitalKeys.productId, productIds), eq(digitalKeys.status, 'available')))
    .groupBy(digitalKeys.productId);
  for (const row of rows) out.set(row.productId, Number(row.n));
  return out;
}

/** How many keys are with the customer (assigned) for any of these order items. */
export async function countAssignedToItems(db: Db, orderItemIds: string[]): Promise<number> {
  if (!orderItemIds.length) return 0;
  const [row] = await db
    .select({ n: count() })
    .from(digitalKeys)
    .where(and(inArray(digitalKeys.orderItemId, orderItemIds), eq(digitalKeys.status, 'assigned')));
  return row?.n ?? 0;
}

/** Revokes the keys assigned to these order items (never sold again); answers the masked values. */
export async function revokeAssignedToItems(db: Db, orderItemIds: string[], at: Date): Promise<string[]> {
  if (!orderItemIds.length) return [];
  const rows = await db
    .update(digitalKeys)
    .set({ status: 'revoked', revokedAt: at })
    .where(and(inArray(digitalKeys.orderItemId, orderItemIds), eq(digitalKeys.status, 'assigned')))
    .returning({ maskedValue: digitalKeys.maskedValue });
  return rows.map((r) => r.maskedValue);
}
