// Every query of both inboxes: each function takes the audience's table (customers' or staff's)
// and the recipient, so one customer or admin never reaches another's notifications. The one
// exception, `insertCustomerNotification`, writes to the customers' table only (prepared: a
// checkout writes one in its transaction) and takes the recipient in its row.
import { and, asc, count, desc, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/database';
import { preparedPerDb } from '../../platform/db/prepared';
import type { PageWindow } from '../../platform/http/pagination';
import { customerNotifications, type NotificationRow, type NotificationTable } from './notifications.table';

export async function insertNotifications(
  tx: Db,
  n: NotificationTable,
  rows: (typeof n.$inferInsert)[],
): Promise<NotificationRow[]> {
  if (!rows.length) return [];
  return (await tx.insert(n).values(rows).returning()) as NotificationRow[];
}

// A checkout and most changes to an order write one customer notification inside their
// transaction: prepared (platform/db/prepared.ts), each value mapped through its column on every
// run, and nothing read back (the caller made every value).
const customerNotificationInsert = preparedPerDb((db) =>
  db
    .insert(customerNotifications)
    .values({
      id: sql.placeholder('id'),
      recipientId: sql.placeholder('recipientId'),
      type: sql.placeholder('type'),
      title: sql.placeholder('title'),
      body: sql.placeholder('body'),
      data: sql.placeholder('data'),
      createdAt: sql.placeholder('createdAt'),
    })
    .prepare('customer_notification_insert'),
);

export async function insertCustomerNotification(
  tx: Db,
  row: Omit<typeof customerNotifications.$inferInsert, 'readAt'> & { data: Record<string, unknown> },
): Promise<void> {
  await customerNotificationInsert(tx).execute(row);
}

export async function listNotifications(
  db: Db,
  n: NotificationTable,
  recipientId: string,
  window: PageWindow,
  order: 'asc' | 'desc',
): Promise<{ rows: NotificationRow[]; count: number; unreadCount: number }> {
  const query = db
    .select()
    .from(n)
    .where(eq(n.recipientId, recipientId))
    .orderBy(...(order === 'desc' ? [desc(n.createdAt), desc(n.id)] : [asc(n.createdAt), asc(n.id)]))
    .offset(window.offset);
  const rows = (await (window.limit === undefined ? query : query.limit(window.limit))) as NotificationRow[];
  const [totals] = await db
    .select({ total: count(), unread: count(n.readAt).as('read') })
    .from(n)
    .where(eq(n.recipientId, recipientId));
  const total = totals?.total ?? 0;
  // count(read_at) counts the read ones: unread is what is left.
  return { rows, count: total, unreadCount: total - (totals?.unread ?? 0) };
}

/** Marks one of the recipient's notifications read; the first read time stays. Null: not theirs or unknown. */
export async function markRead(
  db: Db,
  n: NotificationTable,
  recipientId: string,
  id: string,
  at: Date,
): Promise<NotificationRow | null> {
  const [updated] = await db
    .update(n)
    .set({ readAt: at })
    .where(and(eq(n.id, id), eq(n.recipientId, recipientId), isNull(n.readAt)))
    .returning();
  if (updated) return updated as NotificationRow;
  const [existing] = await db
    .select()
    .from(n)
    .where(and(eq(n.id, id), eq(n.recipientId, recipientId)));
  return (existing as NotificationRow | undefined) ?? null;
}

export async function markAllRead(
  db: Db,
  n: NotificationTable,
  recipientId: string,
  at: Date,
): Promise<number> {
  const updated = await db
    .update(n)
    .set({ readAt: at })
    .where(and(eq(n.recipientId, recipientId), isNull(n.readAt)))
    .returning({ id: n.id });
  return updated.length;
}
