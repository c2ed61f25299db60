import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, serial, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from '../../identity/identity.table';

export const SUPPORT_REQUEST_CATEGORIES = ['account', 'payment', 'technical', 'other'] as const;
export const SUPPORT_REQUEST_STATUSES = ['open', 'in_progress', 'resolved', 'closed'] as const;
export const SUPPORT_REQUEST_AUTHOR_TYPES = ['customer', 'admin'] as const;

/**
 * A customer's ticket. `resolvedAt` and `closedAt` follow the status (see the service); the
 * check constraints keep a buggy write from storing a ticket that contradicts itself.
 */
export const supportRequests = pgTable(
  'support_requests',
  {
    id: serial('id').primaryKey(),
    customerId: uuid('customer_id')
      .notNull()
      .references(() => users.id),
    category: text('category', { enum: SUPPORT_REQUEST_CATEGORIES }).notNull(),
    subject: text('subject').notNull(),
    status: text('status', { enum: SUPPORT_REQUEST_STATUSES }).notNull().default('open'),
    assignedAdminId: uuid('assigned_admin_id').references(() => users.id, { onDelete: 'set null' }),
    resolutionNote: text('resolution_note'),
    resolvedAt: timestamp('resolved_at', { withTimezone: true }),
    closedAt: timestamp('closed_at', { withTimezone: true }),
    lastCustomerMessageAt: timestamp('last_customer_message_at', { withTimezone: true }),
    lastAdminMessageAt: timestamp('last_admin_message_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('support_requests_customer_idx').on(t.customerId, t.updatedAt),
    index('support_requests_status_idx').on(t.status, t.updatedAt),
    index('support_requests_assigned_idx').on(t.assignedAdminId),
    check('support_requests_subject_not_blank', sql`length(btrim(${t.subject})) > 0`),
    check('support_requests_closed_at_matches', sql`(${t.status} = 'closed') = (${t.closedAt} is not null)`),
  ],
);

export const supportRequestMessages = pgTable(
  'support_request_messages',
  {
    id: serial('id').primaryKey(),
    supportRequestId: integer('support_request_id')
      .notNull()
      .references(() => supportRequests.id, { onDelete: 'cascade' }),
    authorType: text('author_type', { enum: SUPPORT_REQUEST_AUTHOR_TYPES }).notNull(),
    authorCustomerId: uuid('author_customer_id').references(() => users.id),
    authorAdminId: uuid('author_admin_id').references(() => users.id),
    authorName: text('author_name').notNull(),
    body: text('body').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('support_request_messages_request_idx').on(t.supportRequestId, t.id),
    check('support_request_messages_body_not_blank', sql`length(btrim(${t.body})) > 0`),
  ],
);
