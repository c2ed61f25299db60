import { sql } from 'drizzle-orm';
import { index, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from '../identity/identity.table';

/**
 * One inbox table per audience, of one shape: customers' (the app's inbox, also pushed to
 * their devices) and staff's (the back office's feed, also sent to their sockets). The same
 * repository serves both.
 */
function notificationTable<Name extends string>(name: Name, recipientColumn: string, recipient: string) {
  return pgTable(
    name,
    {
      /** uuid v7: newest first is id order too. */
      id: uuid('id').primaryKey(),
      recipientId: uuid(recipientColumn)
        .notNull()
        .references(() => users.id, { onDelete: 'cascade' }),
      /** What happened, for the client to pick an icon and a screen (e.g. `support.request_reply`). */
      type: text('type').notNull(),
      title: text('title').notNull(),
      body: text('body').notNull(),
      data: jsonb('data').$type<Record<string, unknown>>().notNull().default({}),
      readAt: timestamp('read_at', { withTimezone: true }),
      createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    },
    (t) => [
      index(`${name}_${recipient}_created_idx`).on(t.recipientId, t.createdAt.desc(), t.id.desc()),
      index(`${name}_unread_idx`).on(t.recipientId).where(sql`${t.readAt} is null`),
    ],
  );
}

export const customerNotifications = notificationTable('customer_notifications', 'customer_id', 'customer');
export const adminNotifications = notificationTable('admin_notifications', 'admin_id', 'admin');

export type NotificationTable = typeof customerNotifications | typeof adminNotifications;
export type NotificationRow = typeof customerNotifications.$inferSelect;
