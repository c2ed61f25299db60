import { and, eq } from 'drizzle-orm';
import type { Db } from '../../platform/db/database';
import { type PaymentRow, payments } from './payments.table';

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

/** pending → completed, once: the conditional UPDATE returns nothing when it already left pending. */
export async function completeIfPending(
  db: Db,
  id: string,
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
    .where(and(eq(payments.id, id), eq(payments.status, 'pending')))
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
