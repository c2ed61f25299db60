import { and, asc, count, desc, eq, gt, gte, ilike, inArray, lt, not, or, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/database';
import { containsPattern as contains } from '../../platform/db/like';
import { pageWindow } from '../../platform/http/pagination';
import type { AdminPaymentListQuery } from './payments.schemas';
import { type PaymentRow, type PaymentStatus, payments } from './payments.table';

export async function insertPayment(db: Db, values: typeof payments.$inferInsert): Promise<PaymentRow> {
  const [row] = await db.insert(payments).values(values).returning();
  return row!;
}

export async function findPayment(db: Db, id: string): Promise<PaymentRow | undefined> {
  const [row] = await db.select().from(payments).where(eq(payments.id, id));
  return row;
}

export async function recordInitiation(
  db: Db,
  id: string,
  values: { providerReference: string | null; providerPayload: Record<string, unknown> },
): Promise<void> {
  await db.update(payments).set(values).where(eq(payments.id, id));
}

/**
 * `from` (pending; or failed / cancelled for a late payment) → completed, once: the conditional
 * UPDATE returns nothing when the payment is no longer in the status the caller read, so a
 * racing outcome (a failure that won) is never overwritten.
 */
export async function completeIfStatus(
  db: Db,
  id: string,
  from: PaymentStatus,
  values: { providerReference: string | null; providerPayload: Record<string, unknown>; at: Date },
): Promise<PaymentRow | undefined> {
  const [row] = await db
    .update(payments)
    .set({
      status: 'completed',
      providerReference: values.providerReference,
      providerPayload: values.providerPayload,
      completedAt: values.at,
      updatedAt: values.at,
    })
    .where(and(eq(payments.id, id), eq(payments.status, from)))
    .returning();
  return row;
}

/** pending → failed, once. */
export async function failIfPending(
  db: Db,
  id: string,
  values: { reason: string; providerPayload: Record<string, unknown>; at: Date },
): Promise<PaymentRow | undefined> {
  const [row] = await db
    .update(payments)
    .set({
      status: 'failed',
      failureReason: values.reason,
      providerPayload: values.providerPayload,
      updatedAt: values.at,
    })
    .where(and(eq(payments.id, id), eq(payments.status, 'pending')))
    .returning();
  return row;
}

/** Online payments of `providers` still pending, made between the two instants, oldest first. */
export function paymentsToReconcile(
  db: Db,
  p: { createdBefore: Date; createdAfter: Date; providers: string[]; limit: number },
): Promise<Array<Pick<PaymentRow, 'id' | 'createdAt'>>> {
  return db
    .select({ id: payments.id, createdAt: payments.createdAt })
    .from(payments)
    .where(
      and(
        eq(payments.status, 'pending'),
        eq(payments.method, 'online'),
        inArray(payments.provider, p.providers),
        lt(payments.createdAt, p.createdBefore),
        gt(payments.createdAt, p.createdAfter),
      ),
    )
    .orderBy(asc(payments.createdAt))
    .limit(p.limit);
}

export function pendingOnlinePaymentsOfOrder(db: Db, orderId: number): Promise<PaymentRow[]> {
  return db
    .select()
    .from(payments)
    .where(and(eq(payments.orderId, orderId), eq(payments.method, 'online'), eq(payments.status, 'pending')));
}

/** An online payment still pending that was made before `staleBefore`. */
const staleWhere = (staleBefore: Date): SQL =>
  and(eq(payments.status, 'pending'), eq(payments.method, 'online'), lt(payments.createdAt, staleBefore))!;

/**
 * The back office's list of payments, newest first. `staleBefore`: pending online payments made
 * before it are stale; `timeZone`: the store's calendar, for the date filters.
 */
export async function listPayments(
  db: Db,
  q: AdminPaymentListQuery,
  at: { staleBefore: Date; timeZone: string },
): Promise<{ rows: Array<PaymentRow & { stale: boolean }>; count: number }> {
  const term = q.search?.trim();
  const where = and(
    q.gateway ? eq(payments.gateway, q.gateway) : undefined,
    q.status ? eq(payments.status, q.status) : undefined,
    q.stale === undefined
      ? undefined
      : q.stale
        ? staleWhere(at.staleBefore)
        : not(staleWhere(at.staleBefore)),
    term
      ? or(
          ilike(payments.orderNumber, contains(term)),
          ilike(payments.gatewayTransactionId, contains(term)),
          ilike(payments.providerReference, contains(term)),
        )
      : undefined,
    q.fromDate
      ? gte(payments.createdAt, sql`(${q.fromDate}::date)::timestamp at time zone ${at.timeZone}`)
      : undefined,
    q.toDate
      ? lt(payments.createdAt, sql`(${q.toDate}::date + 1)::timestamp at time zone ${at.timeZone}`)
      : undefined,
  );
  const { limit, offset } = pageWindow(q);
  const base = db
    .select({ payment: payments, stale: sql<boolean>`${staleWhere(at.staleBefore)}` })
    .from(payments)
    .where(where)
    .orderBy(desc(payments.createdAt), desc(payments.id))
    .offset(offset);
  const found = await (limit === undefined ? base : base.limit(limit));
  const [total] = await db.select({ n: count() }).from(payments).where(where);
  return {
    rows: found.map((r) => ({ ...r.payment, stale: r.stale === true })),
    count: Number(total?.n ?? 0),
  };
}

/** The completed online payments of these orders, oldest first. */
export function completedOnlinePaymentsOf(db: Db, orderIds: number[]): Promise<PaymentRow[]> {
  if (orderIds.length === 0) return Promise.resolve([]);
  return db
    .select()
    .from(payments)
    .where(
      and(
        inArray(payments.orderId, orderIds),
        eq(payments.method, 'online'),
        eq(payments.status, 'completed'),
      ),
    )
    .orderBy(asc(payments.completedAt), asc(payments.id));
}
