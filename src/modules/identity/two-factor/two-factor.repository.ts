// Queries of staff two-factor sign-in: the sealed secret with its last accepted step, the
// recovery code digests, and the sign-in challenges (single-use rows of one_time_codes).
// Every use of a code is one conditional UPDATE, so two concurrent requests cannot both use it.
import { and, count, eq, gt, inArray, isNotNull, isNull, lt, or, sql } from 'drizzle-orm';
import type { Db } from '../../../platform/db/database';
import { MAX_WRONG_CODES } from '../auth/one-time-codes';
import { oneTimeCodes, staffRecoveryCodes, staffSecondFactors } from '../identity.table';

export type SecondFactorRow = typeof staffSecondFactors.$inferSelect;
export type ChallengeRow = typeof oneTimeCodes.$inferSelect;

const CHALLENGE = 'two_factor_challenge' as const;

export async function findSecondFactor(db: Db, userId: string): Promise<SecondFactorRow | undefined> {
  const [row] = await db.select().from(staffSecondFactors).where(eq(staffSecondFactors.userId, userId));
  return row;
}

/** The row, locked until the transaction ends: changes of one admin's 2FA happen one at a time. */
export async function lockSecondFactor(db: Db, userId: string): Promise<SecondFactorRow | undefined> {
  const [row] = await db
    .select()
    .from(staffSecondFactors)
    .where(eq(staffSecondFactors.userId, userId))
    .for('update');
  return row;
}

/**
 * Stores a new unconfirmed secret, replacing an unconfirmed one; answers false (nothing
 * written) when 2FA is already on.
 */
export async function savePendingSecret(
  db: Db,
  values: { userId: string; secretEncrypted: string; at: Date },
): Promise<boolean> {
  const rows = await db
    .insert(staffSecondFactors)
    .values({
      userId: values.userId,
      secretEncrypted: values.secretEncrypted,
      createdAt: values.at,
      updatedAt: values.at,
    })
    .onConflictDoUpdate({
      target: staffSecondFactors.userId,
      set: { secretEncrypted: values.secretEncrypted, lastUsedStep: null, updatedAt: values.at },
      setWhere: isNull(staffSecondFactors.enabledAt),
    })
    .returning({ userId: staffSecondFactors.userId });
  return rows.length > 0;
}

/** Takes a code's time step if it is later than every step used before (replays refused). */
export async function acceptStep(db: Db, userId: string, step: number): Promise<boolean> {
  const rows = await db
    .update(staffSecondFactors)
    .set({ lastUsedStep: step })
    .where(
      and(
        eq(staffSecondFactors.userId, userId),
        or(isNull(staffSecondFactors.lastUsedStep), lt(staffSecondFactors.lastUsedStep, step)),
      ),
    )
    .returning({ userId: staffSecondFactors.userId });
  return rows.length > 0;
}

export async function markEnabled(db: Db, userId: string, at: Date): Promise<void> {
  await db
    .update(staffSecondFactors)
    .set({ enabledAt: at, updatedAt: at })
    .where(eq(staffSecondFactors.userId, userId));
}

/** Removes the secret (confirmed or not) and the recovery codes; answers whether 2FA was on. */
export async function removeSecondFactor(
  db: Db,
  userId: string,
): Promise<{ existed: boolean; wasEnabled: boolean }> {
  const rows = await db
    .delete(staffSecondFactors)
    .where(eq(staffSecondFactors.userId, userId))
    .returning({ enabledAt: staffSecondFactors.enabledAt });
  await db.delete(staffRecoveryCodes).where(eq(staffRecoveryCodes.userId, userId));
  return { existed: rows.length > 0, wasEnabled: Boolean(rows[0]?.enabledAt) };
}

export async function replaceRecoveryCodes(
  db: Db,
  userId: string,
  digests: string[],
  at: Date,
): Promise<void> {
  await db.delete(staffRecoveryCodes).where(eq(staffRecoveryCodes.userId, userId));
  await db.insert(staffRecoveryCodes).values(digests.map((digest) => ({ userId, digest, createdAt: at })));
}

/** Uses a recovery code once; false when it is not one of the admin's unused codes. */
export async function useRecoveryCode(db: Db, userId: string, digest: string, at: Date): Promise<boolean> {
  const rows = await db
    .update(staffRecoveryCodes)
    .set({ usedAt: at })
    .where(
      and(
        eq(staffRecoveryCodes.userId, userId),
        eq(staffRecoveryCodes.digest, digest),
        isNull(staffRecoveryCodes.usedAt),
      ),
    )
    .returning({ id: staffRecoveryCodes.id });
  return rows.length > 0;
}

export async function countUnusedRecoveryCodes(db: Db, userId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(staffRecoveryCodes)
    .where(and(eq(staffRecoveryCodes.userId, userId), isNull(staffRecoveryCodes.usedAt)));
  return row?.n ?? 0;
}

/** Which of these users have two-factor sign-in on. */
export async function enabledAmong(db: Db, userIds: string[]): Promise<Set<string>> {
  if (!userIds.length) return new Set();
  const rows = await db
    .select({ userId: staffSecondFactors.userId })
    .from(staffSecondFactors)
    .where(and(inArray(staffSecondFactors.userId, userIds), isNotNull(staffSecondFactors.enabledAt)));
  return new Set(rows.map((r) => r.userId));
}

// ---------- sign-in challenges ----------

export async function insertChallenge(
  db: Db,
  values: { userId: string; tokenDigest: string; expiresAt: Date; at: Date },
): Promise<void> {
  await db.insert(oneTimeCodes).values({
    purpose: CHALLENGE,
    target: values.userId,
    userId: values.userId,
    tokenDigest: values.tokenDigest,
    expiresAt: values.expiresAt,
    createdAt: values.at,
  });
}

/** A live challenge (not used, not expired, fewer than five wrong codes), locked. */
export async function lockLiveChallenge(
  db: Db,
  tokenDigest: string,
  now: Date,
): Promise<ChallengeRow | undefined> {
  const [row] = await db
    .select()
    .from(oneTimeCodes)
    .where(
      and(
        eq(oneTimeCodes.tokenDigest, tokenDigest),
        eq(oneTimeCodes.purpose, CHALLENGE),
        isNull(oneTimeCodes.consumedAt),
        gt(oneTimeCodes.expiresAt, now),
        lt(oneTimeCodes.failedAttempts, MAX_WRONG_CODES),
      ),
    )
    .for('update');
  return row;
}

export async function consumeChallenge(db: Db, id: number, at: Date): Promise<void> {
  await db.update(oneTimeCodes).set({ consumedAt: at }).where(eq(oneTimeCodes.id, id));
}

/** Counts a wrong code against a challenge; answers the count so far. */
export async function countWrongCode(db: Db, id: number): Promise<number> {
  const [row] = await db
    .update(oneTimeCodes)
    .set({ failedAttempts: sql`${oneTimeCodes.failedAttempts} + 1` })
    .where(eq(oneTimeCodes.id, id))
    .returning({ failedAttempts: oneTimeCodes.failedAttempts });
  return row?.failedAttempts ?? MAX_WRONG_CODES;
}

/** Ends the open challenges of a user (2FA turned off or reset while a sign-in waited). */
export async function endChallengesOf(db: Db, userId: string, at: Date): Promise<void> {
  await db
    .update(oneTimeCodes)
    .set({ consumedAt: at })
    .where(
      and(
        eq(oneTimeCodes.purpose, CHALLENGE),
        eq(oneTimeCodes.userId, userId),
        isNull(oneTimeCodes.consumedAt),
      ),
    );
}
