// Queries of coupons and their redemptions. The code's uniqueness (case-insensitive, among
// coupons not deleted) is the database's; a violation becomes COUPON_CODE_EXISTS here.
import { and, asc, count, desc, eq, ilike, isNull, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../../platform/db/database';
import { isUniqueViolation } from '../../../platform/db/errors';
import { containsPattern } from '../../../platform/db/like';
import type { PageWindow } from '../../../platform/http/pagination';
import { newUuid } from '../../../platform/ids';
import { cartErrors } from '../cart.errors';
import type { CouponListQuery } from './coupons.schemas';
import { couponRedemptions, coupons } from './coupons.table';

export type CouponRow = typeof coupons.$inferSelect;
type NewCouponRow = typeof coupons.$inferInsert;

const live = isNull(coupons.deletedAt);

async function uniqueCode<T>(code: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isUniqueViolation(error, 'coupons_code_unique')) throw cartErrors.couponCodeExists(code);
    throw error;
  }
}

export function insertCoupon(db: Db, values: NewCouponRow): Promise<CouponRow> {
  return uniqueCode(values.code, async () => (await db.insert(coupons).values(values).returning())[0]!);
}

export function updateCoupon(db: Db, id: number, values: Partial<NewCouponRow>): Promise<CouponRow> {
  return uniqueCode(
    values.code ?? '',
    async () => (await db.update(coupons).set(values).where(eq(coupons.id, id)).returning())[0]!,
  );
}

/** Soft delete: the row stays for its redemptions, inactive, and its code is free again. */
export async function softDeleteCoupon(tx: Db, id: number, at: Date): Promise<void> {
  await tx.update(coupons).set({ deletedAt: at, isActive: false, updatedAt: at }).where(eq(coupons.id, id));
}

export async function findCoupon(db: Db, id: number): Promise<CouponRow | undefined> {
  const [row] = await db
    .select()
    .from(coupons)
    .where(and(eq(coupons.id, id), live));
  return row;
}

export async function lockCoupon(tx: Db, id: number): Promise<CouponRow | undefined> {
  const [row] = await tx
    .select()
    .from(coupons)
    .where(and(eq(coupons.id, id), live))
    .for('update');
  return row;
}

/** The coupon row locked for a use's claim; a deleted coupon too (its window was checked at pricing). */
export async function lockCouponEvenDeleted(tx: Db, id: number): Promise<CouponRow | undefined> {
  const [row] = await tx.select().from(coupons).where(eq(coupons.id, id)).for('update');
  return row;
}

export async function findCouponByCode(db: Db, code: string): Promise<CouponRow | undefined> {
  const [row] = await db
    .select()
    .from(coupons)
    .where(and(sql`lower(${coupons.code}) = lower(${code})`, live));
  return row;
}

export async function listCoupons(
  db: Db,
  q: CouponListQuery,
  page: PageWindow,
): Promise<{ rows: CouponRow[]; count: number }> {
  const filters: SQL[] = [live];
  if (q.search) filters.push(ilike(coupons.code, containsPattern(q.search)));
  if (q.isActive !== undefined) filters.push(eq(coupons.isActive, q.isActive));
  const where = and(...filters);
  const column = { createdAt: coupons.createdAt, code: coupons.code, updatedAt: coupons.updatedAt }[q.sort];
  const dir = q.order === 'asc' ? asc : desc;
  let query = db
    .select()
    .from(coupons)
    .where(where)
    .orderBy(dir(column), dir(coupons.id))
    .offset(page.offset)
    .$dynamic();
  if (page.limit !== undefined) query = query.limit(page.limit);
  const [rows, [total]] = await Promise.all([query, db.select({ n: count() }).from(coupons).where(where)]);
  return { rows, count: total?.n ?? 0 };
}

/** How many placed orders (not given up) used the coupon, in all and by one customer. */
export async function redemptionsByCustomer(
  db: Db,
  couponId: number,
  customerId: string | null,
): Promise<number> {
  if (!customerId) return 0;
  const [row] = await db
    .select({ n: count() })
    .from(couponRedemptions)
    .where(and(eq(couponRedemptions.couponId, couponId), eq(couponRedemptions.customerId, customerId)));
  return row?.n ?? 0;
}

export async function findRedemptionOfOrder(db: Db, orderId: string) {
  const [row] = await db.select().from(couponRedemptions).where(eq(couponRedemptions.orderId, orderId));
  return row;
}

/** Counts one use, unless the limit is reached (a conditional UPDATE: false then). */
export async function takeUse(tx: Db, couponId: number, at: Date): Promise<boolean> {
  const rows = await tx
    .update(coupons)
    .set({ usedCount: sql`${coupons.usedCount} + 1`, updatedAt: at })
    .where(
      and(
        eq(coupons.id, couponId),
        sql`(${coupons.usageLimit} IS NULL OR ${coupons.usedCount} < ${coupons.usageLimit})`,
      ),
    )
    .returning({ id: coupons.id });
  return rows.length > 0;
}

export async function insertRedemption(
  tx: Db,
  values: { couponId: number; customerId: string; orderId: string; at: Date },
): Promise<void> {
  await tx.insert(couponRedemptions).values({
    id: newUuid(),
    couponId: values.couponId,
    customerId: values.customerId,
    orderId: values.orderId,
    createdAt: values.at,
  });
}

/** Removes an order's use, answering whose coupon it was (undefined: the order had none). */
export async function deleteRedemptionOfOrder(
  tx: Db,
  orderId: string,
): Promise<{ couponId: number } | undefined> {
  const [row] = await tx
    .delete(couponRedemptions)
    .where(eq(couponRedemptions.orderId, orderId))
    .returning({ couponId: couponRedemptions.couponId });
  return row;
}

/** One use back (never below zero). */
export async function giveBackUse(tx: Db, couponId: number, at: Date): Promise<void> {
  await tx
    .update(coupons)
    .set({ usedCount: sql`greatest(${coupons.usedCount} - 1, 0)`, updatedAt: at })
    .where(eq(coupons.id, couponId));
}
