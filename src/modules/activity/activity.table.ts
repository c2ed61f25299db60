import { bigserial, index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from '../identity/identity.table';

/** What an admin did: one row for every admin write, in the write's own transaction. */
export const adminActivity = pgTable(
  'admin_activity',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    /** Null: the server itself acted (a system event such as a payment's amount mismatch). */
    adminId: uuid('admin_id').references(() => users.id),
    /** `create`, `update`, `delete`, or a module's own verb (`publish`, `deactivate`, …). */
    action: text('action').notNull(),
    entityType: text('entity_type').notNull(),
    entityId: text('entity_id'),
    summary: text('summary').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('admin_activity_admin_idx').on(t.adminId, t.createdAt),
    index('admin_activity_entity_idx').on(t.entityType, t.entityId),
    index('admin_activity_created_idx').on(t.createdAt),
  ],
);
