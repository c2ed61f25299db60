import { index, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * One row per `Idempotency-Key` a caller sent to a route. `running` while the first request
 * is being answered; `completed` keeps that answer (status and body) for replays until the
 * key is 24 h old.
 */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    /** Who sent it: `customer:<id>`, `admin:<id>`, `guest:<id>`, or `ip:<address>`. */
    scope: text('scope').notNull(),
    /** Method and route pattern: `POST /api/orders/checkout`. */
    route: text('route').notNull(),
    key: text('key').notNull(),
    /** SHA-256 of the request's params, query and body: "same body" means same digest. */
    requestDigest: text('request_digest').notNull(),
    status: text('status', { enum: ['running', 'completed'] }).notNull(),
    responseStatus: integer('response_status'),
    responseContentType: text('response_content_type'),
    responseBody: text('response_body'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    completedAt: timestamp('completed_at', { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.scope, t.route, t.key] }),
    index('idempotency_keys_created_at_idx').on(t.createdAt),
  ],
);

export type IdempotencyKeyRow = typeof idempotencyKeys.$inferSelect;
