// The queries of single-use secrets (one-time-codes.ts issues and checks them). Each consuming
// query is one conditional UPDATE, so of many concurrent attempts at most one succeeds.
import { and, eq, gt, isNull, lt, or, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../../platform/db/database';
import { oneTimeCodes } from '../identity.table';

export type CodePurpose = (typeof oneTimeCodes.$inferSelect)['purpose'];
export type OneTimeCode = typeof oneTimeCodes.$inferSelect;
export type NewOneTimeCode = typeof oneTimeCodes.$inferInsert;

/** Ends every unused secret of `purpose` for `target` (a newer one replaces them). */
export async function retireUnusedCodes(
  db: Db,
  p: { purpose: CodePurpose; target: string; now: Date },
): Promise<void> {
  await db
    .update(oneTimeCodes)
    .set({ consumedAt: p.now })
    .where(
      and(
        eq(oneTimeCodes.purpose, p.purpose),
        eq(oneTimeCodes.target, p.target),
        isNull(oneTimeCodes.consumedAt),
      ),
    );
}

export async function insertCode(db: Db, values: NewOneTimeCode): Promise<void> {
  await db.insert(oneTimeCodes).values(values);
}

/** Unused, unexpired and not killed by too many wrong codes. */
const live = (purpose: CodePurpose, now: Date, maxWrongCodes: number, ...more: SQL[]) =>
  and(
    eq(oneTimeCodes.purpose, purpose),
    isNull(oneTimeCodes.consumedAt),
    gt(oneTimeCodes.expiresAt, now),
    lt(oneTimeCodes.failedAttempts, maxWrongCodes),
    ...more,
  );

/** Marks the live secret of `purpose` with this token digest used; its row, or undefined. */
export async function consumeByTokenDigest(
  db: Db,
  p: { purpose: CodePurpose; tokenDigest: string; now: Date; maxWrongCodes: number },
): Promise<OneTimeCode | undefined> {
  const [row] = await db
    .update(oneTimeCodes)
    .set({ consumedAt: p.now })
    .where(live(p.purpose, p.now, p.maxWrongCodes, eq(oneTimeCodes.tokenDigest, p.tokenDigest)))
    .returning();
  return row;
}

/** Marks the live code of `purpose` for `target` with this digest used; its row, or undefined. */
export async function consumeByCodeDigest(
  db: Db,
  p: { purpose: CodePurpose; target: string; codeDigest: string; now: Date; maxWrongCodes: number },
): Promise<OneTimeCode | undefined> {
  const [row] = await db
    .update(oneTimeCodes)
    .set({ consumedAt: p.now })
    .where(
      live(
        p.purpose,
        p.now,
        p.maxWrongCodes,
        eq(oneTimeCodes.target, p.target),
        eq(oneTimeCodes.codeDigest, p.codeDigest),
      ),
    )
    .returning();
  return row;
}

/** Counts a wrong code against the live code of `purpose` for `target`, atomically. */
export async function countWrongCode(
  db: Db,
  p: { purpose: CodePurpose; target: string; now: Date; maxWrongCodes: number },
): Promise<void> {
  await db
    .update(oneTimeCodes)
    .set({ failedAttempts: sql`${oneTimeCodes.failedAttempts} + 1` })
    .where(live(p.purpose, p.now, p.maxWrongCodes, eq(oneTimeCodes.target, p.target)));
}

/** Deletes secrets used or expired before `before`; how many. */
export async function deleteCodesSpentBefore(db: Db, before: Date): Promise<number> {
  const rows = await db
    .delete(oneTimeCodes)
    .where(or(lt(oneTimeCodes.consumedAt, before), lt(oneTimeCodes.expiresAt, before)))
    .returning({ id: oneTimeCodes.id });
  return rows.length;
}
