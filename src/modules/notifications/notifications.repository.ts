import { and, asc, count, desc, eq, isNull } from 'drizzle-orm';
import type { Db } from '../../platform/db/database';
import type { PageWindow } from '../../platform/http/pagination';
import { type CustomerNotificationRow, customerNotifications as n } from './notifications.table';

export async function insertNotification(
  tx: Db,
  row: typeof n.$inferInsert,
): Promise<CustomerNotificationRow> {
  const [created] = await tx.insert(n).values(row).returning();
  return created!;
}

export async function listNotifications(
  db: Db,
  customerId: string,
  window: PageWindow,
  order: 'asc' | 'desc',
): Promise<{ rows: CustomerNotificationRow[]; count: number; unreadCount: number }> {
  const query = db
    .select()
    .from(n)
    .where(eq(n.customerId, customerId))
    .orderBy(...(order === 'desc' ? [desc(n.createdAt), desc(n.id)] : [asc(n.createdAt), asc(n.id)]))
    .offset(window.offset);
  const rows = await (window.limit === undefined ? query : query.limit(window.limit));
  const [totals] = await db
    .select({ total: count(), unread: count(n.readAt).as('read') })
    .from(n)
    .where(eq(n.customerId, customerId));
  const total = totals?.total ?? 0;
  // count(read_at) counts the read ones: unread is what is left.
  return { rows, count: total, unreadCount: total - (totals?.unread ?? 0) };
}

/** Marks one of the customer's notifications read; the first read time stays. Null: not theirs or unknown. */
export async function markRead(
  db: Db,
  customerId: string,
  id: string,
  at: Date,
): Promise<CustomerNotificationRow | null> {
  const [updated] = await db
    .update(n)
    .set({ readAt: at })
    .where(and(eq(n.id, id), eq(n.customerId, customerId), isNull(n.readAt)))
    .returning();
  if (updated) return updated;
  const [existing] = await db
    .select()
    .from(n)
    .where(and(eq(n.id, id), eq(n.customerId, customerId)));
  return existing ?? null;
}

export async function markAllRead(db: Db, customerId: string, at: Date): Promise<number> {
  const updated = await db
    .update(n)
    .set({ readAt: at })
    .where(and(eq(n.customerId, customerId), isNull(n.readAt)))
    .returning({ id: n.id });
  return updated.length;
}
