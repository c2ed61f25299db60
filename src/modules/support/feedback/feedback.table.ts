import { sql } from 'drizzle-orm';
import { check, index, pgTable, serial, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from '../../identity/identity.table';

export const FEEDBACK_CATEGORIES = ['bug_report', 'feature_request', 'general_feedback'] as const;
export const FEEDBACK_STATUSES = ['new', 'reviewed'] as const;

export const feedbackSubmissions = pgTable(
  'feedback_submissions',
  {
    id: serial('id').primaryKey(),
    customerId: uuid('customer_id')
      .notNull()
      .references(() => users.id),
    category: text('category', { enum: FEEDBACK_CATEGORIES }).notNull(),
    subject: text('subject').notNull(),
    message: text('message').notNull(),
    status: text('status', { enum: FEEDBACK_STATUSES }).notNull().default('new'),
    reviewedByAdminId: uuid('reviewed_by_admin_id').references(() => users.id, { onDelete: 'set null' }),
    reviewedAt: timestamp('reviewed_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('feedback_submissions_status_idx').on(t.status, t.createdAt),
    check('feedback_submissions_subject_not_blank', sql`length(btrim(${t.subject})) > 0`),
    check('feedback_submissions_message_not_blank', sql`length(btrim(${t.message})) > 0`),
  ],
);
