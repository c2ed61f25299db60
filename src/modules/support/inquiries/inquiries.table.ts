import { sql } from 'drizzle-orm';
import {
  check,
  index,
  integer,
  pgTable,
  serial,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { users } from '../../identity/identity.table';
import { supportRequests } from '../requests/requests.table';

export const INQUIRY_CATEGORIES = ['account', 'payment', 'technical', 'product', 'order', 'other'] as const;
export const INQUIRY_STATUSES = [
  'open',
  'active',
  'waiting',
  'linked',
  'resolved',
  'closed',
  'spam',
] as const;
export const INQUIRY_AUTHOR_TYPES = ['guest', 'customer', 'admin', 'system'] as const;

/** A chat record opened by a guest or a customer from the storefront or the app. */
export const supportInquiries = pgTable(
  'support_inquiries',
  {
    id: serial('id').primaryKey(),
    trackingCode: text('tracking_code').notNull(),
    customerId: uuid('customer_id').references(() => users.id, { onDelete: 'set null' }),
    guestName: text('guest_name'),
    /** Stored lowercase. */
    guestEmail: text('guest_email'),
    guestPhone: text('guest_phone'),
    emailVerifiedAt: timestamp('email_verified_at', { withTimezone: true }),
    category: text('category', { enum: INQUIRY_CATEGORIES }).notNull(),
    subject: text('subject').notNull(),
    status: text('status', { enum: INQUIRY_STATUSES }).notNull().default('open'),
    assignedAdminId: uuid('assigned_admin_id').references(() => users.id, { onDelete: 'set null' }),
    supportRequestId: integer('support_request_id').references(() => supportRequests.id, {
      onDelete: 'set null',
    }),
    lastVisitorMessageAt: timestamp('last_visitor_message_at', { withTimezone: true }),
    lastAdminMessageAt: timestamp('last_admin_message_at', { withTimezone: true }),
    closedAt: timestamp('closed_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('support_inquiries_tracking_code_unique').on(t.trackingCode),
    index('support_inquiries_customer_idx').on(t.customerId, t.updatedAt),
    index('support_inquiries_status_idx').on(t.status, t.updatedAt),
    index('support_inquiries_assigned_idx').on(t.assignedAdminId),
    index('support_inquiries_request_idx').on(t.supportRequestId),
    check('support_inquiries_subject_not_blank', sql`length(btrim(${t.subject})) > 0`),
    check(
      'support_inquiries_closed_at_matches',
      sql`(${t.status} in ('closed', 'spam')) = (${t.closedAt} is not null)`,
    ),
    check(
      'support_inquiries_verified_needs_email',
      sql`${t.emailVerifiedAt} is null or ${t.guestEmail} is not null`,
    ),
  ],
);

export const supportInquiryMessages = pgTable(
  'support_inquiry_messages',
  {
    id: serial('id').primaryKey(),
    supportInquiryId: integer('support_inquiry_id')
      .notNull()
      .references(() => supportInquiries.id, { onDelete: 'cascade' }),
    authorType: text('author_type', { enum: INQUIRY_AUTHOR_TYPES }).notNull(),
    authorCustomerId: uuid('author_customer_id').references(() => users.id, { onDelete: 'set null' }),
    authorAdminId: uuid('author_admin_id').references(() => users.id, { onDelete: 'set null' }),
    authorName: text('author_name').notNull(),
    authorImage: text('author_image'),
    body: text('body').notNull(),
    /**
     * Set on a message the server wrote (`greeting`): the back office words it in the admin's
     * language; `body` keeps the words the visitor reads.
     */
    bodyCode: text('body_code').$type<'greeting'>(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('support_inquiry_messages_inquiry_idx').on(t.supportInquiryId, t.id),
    check('support_inquiry_messages_body_not_blank', sql`length(btrim(${t.body})) > 0`),
  ],
);

/** A guest's `si_` credential, kept only as its SHA-256 digest. */
export const supportInquiryAccessTokens = pgTable(
  'support_inquiry_access_tokens',
  {
    id: serial('id').primaryKey(),
    supportInquiryId: integer('support_inquiry_id')
      .notNull()
      .references(() => supportInquiries.id, { onDelete: 'cascade' }),
    tokenDigest: text('token_digest').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('support_inquiry_access_tokens_digest_unique').on(t.tokenDigest),
    index('support_inquiry_access_tokens_inquiry_idx').on(t.supportInquiryId),
  ],
);

/**
 * Email verification codes of an inquiry's guest contact. A new request supersedes the live
 * one; a code is consumed by one conditional UPDATE and dies after five wrong attempts.
 */
export const supportInquiryEmailCodes = pgTable(
  'support_inquiry_email_codes',
  {
    id: serial('id').primaryKey(),
    supportInquiryId: integer('support_inquiry_id')
      .notNull()
      .references(() => supportInquiries.id, { onDelete: 'cascade' }),
    /** The address the code was sent to: confirming verifies that address only. */
    email: text('email').notNull(),
    codeDigest: text('code_digest').notNull(),
    failedAttempts: integer('failed_attempts').notNull().default(0),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    consumedAt: timestamp('consumed_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('support_inquiry_email_codes_inquiry_idx').on(t.supportInquiryId)],
);
