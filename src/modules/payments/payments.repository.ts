import { and, asc, eq, gt, inArray, lt } from 'drizzle-orm';
import type { Db } from '../../platform/db/database';
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
