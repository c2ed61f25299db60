import { sql } from 'drizzle-orm';
import { index, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from '../identity/identity.table';

/** In-app notifications of a customer: the app's inbox, also pushed to the customer's devices. */
export const customerNotifications = pgTable(
  'customer_notifications',
  {
    /** uuid v7: newest first is id order too. */
    id: uuid('id').primaryKey(),
    customerId: uuid('customer_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** What happened, for the app to pick an icon and a screen (e.g. `support.request_reply`). */
    type: text('type').notNull(),
    title: text('title').notNull(),
    body: text('body').notNull(),
    data: jsonb('data').$type<Record<string, unknown>>().notNull().default({}),
    readAt: timestamp('read_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    index('customer_notifications_customer_created_idx').on(t.customerId, t.createdAt.desc(), t.id.desc()),
    index('customer_notifications_unread_idx').on(t.customerId).where(sql`${t.readAt} is null`),
  ],
);

export type CustomerNotificationRow = typeof customerNotifications.$inferSelect;
