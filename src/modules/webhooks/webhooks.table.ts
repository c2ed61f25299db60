import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/** An endpoint of another system that is told what happened, signed with its own secret. */
export const webhookEndpoints = pgTable(
  'webhook_endpoints',
  {
    id: uuid('id').primaryKey(),
    url: text('url').notNull(),
    description: text('description'),
    /** Event types it hears (docs/decisions.md, "Endpoints"), at least one. */
    events: text('events').array().notNull(),
    isActive: boolean('is_active').notNull().default(true),
    /** `whsec_` + base64 of 32 random bytes; shown once, kept to sign. */
    secret: text('secret').notNull(),
    /** The secret before the last rotation: messages carry its signature too until `previous_secret_expires_at`. */
    previousSecret: text('previous_secret'),
    previousSecretExpiresAt: timestamp('previous_secret_expires_at', { withTimezone: true }),
    /** Deliveries that ended `failed` since the last one that succeeded. */
    consecutiveFailures: integer('consecutive_failures').notNull().default(0),
    lastDeliveryAt: timestamp('last_delivery_at', { withTimezone: true }),
    lastDeliveryStatus: text('last_delivery_status'),
    /** Why the system set it inactive (`gone`: a 410; `failures`: too many failed deliveries in a row). */
    disabledReason: text('disabled_reason'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('webhook_endpoints_active_idx').on(t.isActive)],
);

/**
 * One message: an event as it is sent, body included, so every attempt and every redelivery
 * signs the same bytes under the same `webhook-id`.
 */
export const webhookMessages = pgTable('webhook_messages', {
  /** `msg_` + a uuid v7 without dashes: the `webhook-id` header. */
  id: text('id').primaryKey(),
  eventType: text('event_type').notNull(),
  /** The JSON body exactly as sent: `{ type, timestamp, data }`. */
  body: text('body').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
});

export interface AttemptLogEntry {
  at: string;
  statusCode: number | null;
  durationMs: number;
  error: string | null;
}

/** One message to one endpoint, with every attempt; a redelivery is a new row of the same message. */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: uuid('id').primaryKey(),
    endpointId: uuid('endpoint_id')
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
    messageId: text('message_id')
      .notNull()
      .references(() => webhookMessages.id, { onDelete: 'cascade' }),
    eventType: text('event_type').notNull(),
    status: text('status').notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    lastStatusCode: integer('last_status_code'),
    lastError: text('last_error'),
    lastAttemptAt: timestamp('last_attempt_at', { withTimezone: true }),
    /** When the next attempt is due; null once the delivery has ended. */
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }),
    /** A worker holds the delivery until then (an attempt under way); a crashed one's hold lapses. */
    claimedUntil: timestamp('claimed_until', { withTimezone: true }),
    attemptLog: jsonb('attempt_log').$type<AttemptLogEntry[]>().notNull().default([]),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    index('webhook_deliveries_endpoint_idx').on(t.endpointId, t.createdAt.desc(), t.id.desc()),
    index('webhook_deliveries_due_idx').on(t.nextAttemptAt).where(sql`${t.status} = 'pending'`),
    index('webhook_deliveries_message_idx').on(t.messageId),
    index('webhook_deliveries_created_idx').on(t.createdAt),
    check('webhook_deliveries_status_check', sql`${t.status} IN ('pending', 'succeeded', 'failed')`),
  ],
);

export type WebhookEndpointRow = typeof webhookEndpoints.$inferSelect;
export type WebhookDeliveryRow = typeof webhookDeliveries.$inferSelect;
export type WebhookMessageRow = typeof webhookMessages.$inferSelect;
