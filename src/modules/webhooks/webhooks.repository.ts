// Every query of the webhooks module: endpoints, messages (the outbox) and deliveries.
import { and, arrayContains, asc, count, desc, eq, inArray, isNull, lt, lte, or, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/database';
import type { PageWindow } from '../../platform/http/pagination';
import {
  type AttemptLogEntry,
  type WebhookDeliveryRow,
  type WebhookEndpointRow,
  type WebhookMessageRow,
  webhookDeliveries,
  webhookEndpoints,
  webhookMessages,
} from './webhooks.table';

export async function insertEndpoint(db: Db, values: typeof webhookEndpoints.$inferInsert) {
  const [row] = await db.insert(webhookEndpoints).values(values).returning();
  return row!;
}

export async function findEndpoint(db: Db, id: string): Promise<WebhookEndpointRow | undefined> {
  const [row] = await db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, id));
  return row;
}

export async function listEndpoints(
  db: Db,
  window: PageWindow,
  order: 'asc' | 'desc',
): Promise<{ rows: WebhookEndpointRow[]; count: number }> {
  const by =
    order === 'desc'
      ? [desc(webhookEndpoints.createdAt), desc(webhookEndpoints.id)]
      : [asc(webhookEndpoints.createdAt), asc(webhookEndpoints.id)];
  const query = db
    .select()
    .from(webhookEndpoints)
    .orderBy(...by)
    .offset(window.offset);
  const rows = await (window.limit === undefined ? query : query.limit(window.limit));
  const [total] = await db.select({ n: count() }).from(webhookEndpoints);
  return { rows, count: total?.n ?? 0 };
}

export async function updateEndpoint(
  db: Db,
  id: string,
  values: Partial<typeof webhookEndpoints.$inferInsert>,
): Promise<WebhookEndpointRow | undefined> {
  const [row] = await db.update(webhookEndpoints).set(values).where(eq(webhookEndpoints.id, id)).returning();
  return row;
}

export async function deleteEndpoint(db: Db, id: string): Promise<boolean> {
  const rows = await db
    .delete(webhookEndpoints)
    .where(eq(webhookEndpoints.id, id))
    .returning({ id: webhookEndpoints.id });
  return rows.length > 0;
}

/**
 * Locks an endpoint's row before one of its deliveries is ended. Every writer takes the endpoint
 * first and its deliveries after (a delete cascades that way, a disable fails the pending ones
 * that way): a delivery's end that locked its delivery row first and then the endpoint's
 * counters deadlocked with a delete of the endpoint (seen under load with deliveries in flight).
 */
export async function lockEndpoint(db: Db, id: string): Promise<void> {
  await db
    .select({ id: webhookEndpoints.id })
    .from(webhookEndpoints)
    .where(eq(webhookEndpoints.id, id))
    .for('no key update');
}

/** Active endpoints that hear `eventType`. */
export async function activeEndpointsFor(
  db: Db,
  eventType: string,
): Promise<Pick<WebhookEndpointRow, 'id'>[]> {
  return db
    .select({ id: webhookEndpoints.id })
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.isActive, true), arrayContains(webhookEndpoints.events, [eventType])));
}

/** The event types some active endpoint hears. */
export async function listenedEventTypes(db: Db): Promise<string[]> {
  const rows = await db
    .selectDistinct({ type: sql<string>`unnest(${webhookEndpoints.events})` })
    .from(webhookEndpoints)
    .where(eq(webhookEndpoints.isActive, true));
  return rows.map((r) => r.type);
}

export async function insertMessage(db: Db, values: WebhookMessageRow): Promise<void> {
  await db.insert(webhookMessages).values(values);
}

export async function findMessage(db: Db, id: string): Promise<WebhookMessageRow | undefined> {
  const [row] = await db.select().from(webhookMessages).where(eq(webhookMessages.id, id));
  return row;
}

export async function insertDeliveries(
  db: Db,
  rows: (typeof webhookDeliveries.$inferInsert)[],
): Promise<WebhookDeliveryRow[]> {
  if (!rows.length) return [];
  return db.insert(webhookDeliveries).values(rows).returning();
}

export async function findDelivery(
  db: Db,
  endpointId: string,
  deliveryId: string,
): Promise<WebhookDeliveryRow | undefined> {
  const [row] = await db
    .select()
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.id, deliveryId), eq(webhookDeliveries.endpointId, endpointId)));
  return row;
}

export async function listDeliveries(
  db: Db,
  endpointId: string,
  status: string | undefined,
  window: PageWindow,
  order: 'asc' | 'desc',
): Promise<{ rows: WebhookDeliveryRow[]; count: number }> {
  const where = and(
    eq(webhookDeliveries.endpointId, endpointId),
    status ? eq(webhookDeliveries.status, status) : undefined,
  );
  const by =
    order === 'desc'
      ? [desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id)]
      : [asc(webhookDeliveries.createdAt), asc(webhookDeliveries.id)];
  const query = db
    .select()
    .from(webhookDeliveries)
    .where(where)
    .orderBy(...by)
    .offset(window.offset);
  const rows = await (window.limit === undefined ? query : query.limit(window.limit));
  const [total] = await db.select({ n: count() }).from(webhookDeliveries).where(where);
  return { rows, count: total?.n ?? 0 };
}

/**
 * Takes a pending delivery for one attempt: nobody else may attempt it until `until` (a worker
 * that dies mid-attempt lets it go when the hold lapses). Undefined: ended, or held by another.
 */
export async function claimDelivery(
  db: Db,
  id: string,
  p: { at: Date; until: Date },
): Promise<WebhookDeliveryRow | undefined> {
  const [row] = await db
    .update(webhookDeliveries)
    .set({ claimedUntil: p.until })
    .where(
      and(
        eq(webhookDeliveries.id, id),
        eq(webhookDeliveries.status, 'pending'),
        // Due (a second early at most: a delayed job fires at the time the row names), so a
        // second job of an attempt already made (a sweep's) does not run the next one early.
        lte(webhookDeliveries.nextAttemptAt, new Date(p.at.getTime() + 1000)),
        or(isNull(webhookDeliveries.claimedUntil), lte(webhookDeliveries.claimedUntil, p.at)),
      ),
    )
    .returning();
  return row;
}

export async function recordAttempt(
  db: Db,
  id: string,
  values: {
    status: 'pending' | 'succeeded' | 'failed';
    entry: AttemptLogEntry;
    nextAttemptAt: Date | null;
  },
): Promise<WebhookDeliveryRow | undefined> {
  const [row] = await db
    .update(webhookDeliveries)
    .set({
      status: values.status,
      attempts: sql`${webhookDeliveries.attempts} + 1`,
      lastStatusCode: values.entry.statusCode,
      lastError: values.entry.error,
      lastAttemptAt: new Date(values.entry.at),
      nextAttemptAt: values.nextAttemptAt,
      claimedUntil: null,
      attemptLog: sql`${webhookDeliveries.attemptLog} || ${JSON.stringify([values.entry])}::jsonb`,
    })
    .where(and(eq(webhookDeliveries.id, id), eq(webhookDeliveries.status, 'pending')))
    .returning();
  return row;
}

/** Ends an endpoint's pending deliveries as failed (the endpoint was disabled or deleted). */
export async function failPendingDeliveries(db: Db, endpointId: string, reason: string): Promise<void> {
  await db
    .update(webhookDeliveries)
    .set({ status: 'failed', lastError: reason, nextAttemptAt: null, claimedUntil: null })
    .where(and(eq(webhookDeliveries.endpointId, endpointId), eq(webhookDeliveries.status, 'pending')));
}

/**
 * A delivery ended for the endpoint: success resets the failures in a row, a failure adds
 * one. Answers the endpoint after the change.
 */
export async function noteDeliveryOutcome(
  db: Db,
  endpointId: string,
  outcome: 'succeeded' | 'failed',
  at: Date,
): Promise<WebhookEndpointRow | undefined> {
  const [row] = await db
    .update(webhookEndpoints)
    .set({
      consecutiveFailures: outcome === 'succeeded' ? 0 : sql`${webhookEndpoints.consecutiveFailures} + 1`,
      lastDeliveryAt: at,
      lastDeliveryStatus: outcome,
    })
    .where(eq(webhookEndpoints.id, endpointId))
    .returning();
  return row;
}

/** Sets an endpoint inactive for a reason, unless it is already; undefined when it was. */
export async function disableEndpoint(
  db: Db,
  endpointId: string,
  reason: 'gone' | 'failures',
  at: Date,
): Promise<WebhookEndpointRow | undefined> {
  const [row] = await db
    .update(webhookEndpoints)
    .set({ isActive: false, disabledReason: reason, updatedAt: at })
    .where(and(eq(webhookEndpoints.id, endpointId), eq(webhookEndpoints.isActive, true)))
    .returning();
  return row;
}

/** Pending deliveries due before `at` and held by nobody: the sweep hands them to the queue again. */
export async function dueDeliveries(
  db: Db,
  at: Date,
  limit: number,
): Promise<Pick<WebhookDeliveryRow, 'id' | 'attempts'>[]> {
  return db
    .select({ id: webhookDeliveries.id, attempts: webhookDeliveries.attempts })
    .from(webhookDeliveries)
    .where(
      and(
        eq(webhookDeliveries.status, 'pending'),
        lte(webhookDeliveries.nextAttemptAt, at),
        or(isNull(webhookDeliveries.claimedUntil), lte(webhookDeliveries.claimedUntil, at)),
      ),
    )
    .orderBy(asc(webhookDeliveries.nextAttemptAt))
    .limit(limit);
}

/** Removes deliveries created before `before`, then the messages no delivery refers to any more. */
export async function removeOldDeliveries(db: Db, before: Date): Promise<number> {
  const removed = await db
    .delete(webhookDeliveries)
    .where(
      and(
        lt(webhookDeliveries.createdAt, before),
        inArray(webhookDeliveries.status, ['succeeded', 'failed']),
      ),
    )
    .returning({ id: webhookDeliveries.id });
  await db.execute(
    sql`delete from webhook_messages m where m.created_at < ${before.toISOString()}::timestamptz and not exists (select 1 from webhook_deliveries d where d.message_id = m.id)`,
  );
  return removed.length;
}
