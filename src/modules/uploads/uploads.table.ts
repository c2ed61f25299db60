import { sql } from 'drizzle-orm';
import { check, index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from '../identity/identity.table';

/**
 * Every stored upload with who sent it: a customer may sign only keys recorded as theirs.
 * Keys stored before this table existed have no row (admins may still sign them).
 */
export const uploads = pgTable(
  'uploads',
  {
    /** The storage key (`uploads/<type>/<file>` or `public/<type>/<file>`). */
    key: text('key').primaryKey(),
    ownerActor: text('owner_actor').notNull().$type<'admin' | 'customer'>(),
    ownerId: uuid('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    uploadType: text('upload_type').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    index('uploads_owner_idx').on(t.ownerId, t.createdAt),
    check('uploads_owner_actor_check', sql`${t.ownerActor} in ('admin', 'customer')`),
  ],
);

export type UploadRow = typeof uploads.$inferSelect;
