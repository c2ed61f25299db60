// Staff two-factor sign-in (docs/decisions.md, "Staff second factor and signed-in devices"):
// enrolment with an authenticator app, recovery codes, turning it off, a superadmin's reset,
// and the challenge that the password step of a sign-in hands to the code step. Every change
// is an activity record (in the change's transaction) and an email to the admin (after it).
import type { Db } from '../../../platform/db/database';
import { type AfterCommit, inTransaction } from '../../../platform/db/transaction';
import { httpErrors } from '../../../platform/http/errors';
import type { MailMessage } from '../../../platform/mail/mailer';
import type { ModuleContext } from '../../../platform/module';
import { verifyPassword } from '../../../platform/security/passwords';
import { randomToken, sha256Hex } from '../../../platform/security/tokens';
import { recordActivity } from '../../activity';
import { authErrors } from '../auth/auth.errors';
import { countFailure, refuseWhileBlocked } from '../auth/auth.throttle';
import { MAX_WRONG_CODES } from '../auth/one-time-codes';
import { findUserById, type UserRow } from '../identity.repository';
import { twoFactorErrors } from './two-factor.errors';
import { twoFactorMail } from './two-factor.mail';
import * as repo from './two-factor.repository';
import {
  newRecoveryCodes,
  newTotpSecret,
  otpauthUrl,
  recoveryCodeDigest,
  secondFactorVault,
  stepOfCode,
} from './two-factor.secrets';

export type TwoFactorDeps = Pick<
  ModuleContext,
  'db' | 'clock' | 'counters' | 'config' | 'mail' | 'authenticator'
>;

const ADMIN_USER = 'admin_user';
const MINUTE = 60_000;

/** Wrong codes (and passwords, on disable) of a signed-in admin: 5 per 15 min, then 429. */
export const ENROLMENT_FAILURES_PER_USER = 5;
const ENROLMENT_FAILURE_WINDOW_MS = 15 * MINUTE;

const noticeTo = (deps: TwoFactorDeps, user: UserRow) => ({
  to: user.email,
  name: user.name,
  storeName: deps.config.STORE_NAME,
});

async function signedInAdmin(db: Db, userId: string): Promise<UserRow> {
  const user = await findUserById(db, userId);
  if (!user) throw httpErrors.unauthorized();
  return user;
}

/** Whether the admin has confirmed two-factor sign-in. */
export async function isEnabled(db: Db, userId: string): Promise<boolean> {
  return Boolean((await repo.findSecondFactor(db, userId))?.enabledAt);
}

/** Of these users, those with two-factor sign-in on (the staff list). */
export const enabledAmong = repo.enabledAmong;

/**
 * Checks an authenticator code against the stored secret and takes its time step, inside the
 * caller's transaction: a code whose step (or a later one) was used before is refused.
 */
async function acceptTotp(deps: TwoFactorDeps, tx: Db, row: repo.SecondFactorRow, code: string) {
  const secret = secondFactorVault(deps.config).open(row.userId, row.secretEncrypted);
  const step = stepOfCode(secret, code, deps.clock.now());
  return step !== undefined && (await repo.acceptStep(tx, row.userId, step));
}

/** Ten new recovery codes stored as digests; the plain codes are answered once, never again. */
async function issueRecoveryCodes(tx: Db, userId: string, at: Date): Promise<string[]> {
  const codes = newRecoveryCodes();
  await repo.replaceRecoveryCodes(
    tx,
    userId,
    codes.map((c) => recoveryCodeDigest(userId, c)),
    at,
  );
  return codes;
}

const failKey = (userId: string) => `auth:2fa-fail:user:${userId}`;

/**
 * A change that needs a fresh code from the app: blocked after 5 wrong codes in 15 min (a
 * stolen access token must not buy unlimited guesses). A wrong code throws after the
 * transaction, so nothing else of it is kept.
 */
async function withCode<T>(
  deps: TwoFactorDeps,
  userId: string,
  work: (tx: Db, row: repo.SecondFactorRow, afterCommit: AfterCommit) => Promise<T>,
  opts: { needsEnabled: boolean; code: string },
): Promise<T> {
  await refuseWhileBlocked(deps, [failKey(userId)]);
  const outcome = await inTransaction(deps.db, async (tx, afterCommit) => {
    const row = await repo.lockSecondFactor(tx, userId);
    if (!row || (opts.needsEnabled && !row.enabledAt)) throw twoFactorErrors.setupRequired();
    if (!opts.needsEnabled && row.enabledAt) throw twoFactorErrors.alreadyEnabled();
    if (!(await acceptTotp(deps, tx, row, opts.code))) return { ok: false as const };
    return { ok: true as const, value: await work(tx, row, afterCommit) };
  });
  if (!outcome.ok) {
    await countFailure(deps, failKey(userId), ENROLMENT_FAILURES_PER_USER, ENROLMENT_FAILURE_WINDOW_MS);
    throw twoFactorErrors.codeInvalid();
  }
  return outcome.value;
}

// ---------- enrolment ----------

/** A new secret for the admin's app; replaces an unconfirmed one. */
export async function setupTotp(
  deps: TwoFactorDeps,
  input: { userId: string },
): Promise<{ secret: string; otpauthUrl: string }> {
  const user = await signedInAdmin(deps.db, input.userId);
  const secret = newTotpSecret();
  const saved = await repo.savePendingSecret(deps.db, {
    userId: user.id,
    secretEncrypted: secondFactorVault(deps.config).seal(user.id, secret),
    at: deps.clock.now(),
  });
  if (!saved) throw twoFactorErrors.alreadyEnabled();
  return { secret, otpauthUrl: otpauthUrl({ storeName: deps.config.STORE_NAME, email: user.email, secret }) };
}

/** An admin's change of their own 2FA: the activity record, and after commit the email telling them. */
async function ownChangeRecorded(
  deps: TwoFactorDeps,
  tx: Db,
  afterCommit: AfterCommit,
  p: {
    user: UserRow;
    action: string;
    summary: string;
    mail: (to: ReturnType<typeof noticeTo>) => MailMessage;
    at: Date;
  },
): Promise<void> {
  await recordActivity(tx, {
    adminId: p.user.id,
    action: p.action,
    entityType: ADMIN_USER,
    entityId: p.user.id,
    summary: p.summary,
    at: p.at,
  });
  afterCommit(() => deps.mail.send(p.mail(noticeTo(deps, p.user))));
}

/** Turns 2FA on with a code from the app; answers the first ten recovery codes. */
export async function confirmTotp(
  deps: TwoFactorDeps,
  input: { userId: string; code: string },
): Promise<{ recoveryCodes: string[] }> {
  const user = await signedInAdmin(deps.db, input.userId);
  const now = deps.clock.now();
  return withCode(
    deps,
    user.id,
    async (tx, _row, afterCommit) => {
      await repo.markEnabled(tx, user.id, now);
      // With STAFF_2FA_REQUIRED, the enrolment-only limit lifts from the next request on.
      afterCommit(() => deps.authenticator.forgetAllSessions());
      const recoveryCodes = await issueRecoveryCodes(tx, user.id, now);
      await ownChangeRecorded(deps, tx, afterCommit, {
        user,
        action: 'enable_two_factor',
        summary: `Turned on two-factor sign-in for ${user.email}`,
        mail: twoFactorMail.enabled,
        at: now,
      });
      return { recoveryCodes };
    },
    { needsEnabled: false, code: input.code },
  );
}

/** Ten new recovery codes for a code from the app; the old ones stop working. */
export async function renewRecoveryCodes(
  deps: TwoFactorDeps,
  input: { userId: string; code: string },
): Promise<{ recoveryCodes: string[] }> {
  const user = await signedInAdmin(deps.db, input.userId);
  const now = deps.clock.now();
  return withCode(
    deps,
    user.id,
    async (tx, _row, afterCommit) => {
      const recoveryCodes = await issueRecoveryCodes(tx, user.id, now);
      await ownChangeRecorded(deps, tx, afterCommit, {
        user,
        action: 'renew_recovery_codes',
        summary: `Made new recovery codes for ${user.email}`,
        mail: twoFactorMail.recoveryCodesRenewed,
        at: now,
      });
      return { recoveryCodes };
    },
    { needsEnabled: true, code: input.code },
  );
}

/** Turns 2FA off: the password and a code from the app, both. */
export async function disableTotp(
  deps: TwoFactorDeps,
  input: { userId: string; password: string; code: string },
): Promise<void> {
  const user = await signedInAdmin(deps.db, input.userId);
  await refuseWhileBlocked(deps, [failKey(user.id)]);
  if (!user.passwordHash || !(await verifyPassword(user.passwordHash, input.password))) {
    await countFailure(deps, failKey(user.id), ENROLMENT_FAILURES_PER_USER, ENROLMENT_FAILURE_WINDOW_MS);
    throw authErrors.invalidCredentials();
  }
  const now = deps.clock.now();
  await withCode(
    deps,
    user.id,
    async (tx, _row, afterCommit) => {
      await repo.removeSecondFactor(tx, user.id);
      await repo.endChallengesOf(tx, user.id, now);
      afterCommit(() => deps.authenticator.forgetAllSessions());
      await ownChangeRecorded(deps, tx, afterCommit, {
        user,
        action: 'disable_two_factor',
        summary: `Turned off two-factor sign-in for ${user.email}`,
        mail: twoFactorMail.disabled,
        at: now,
      });
    },
    { needsEnabled: true, code: input.code },
  );
}

/**
 * Another admin's reset (a lost phone), inside the caller's transaction: the secret and the
 * recovery codes go, open sign-in challenges end. Answers whether there was anything to reset;
 * the caller ends the sessions and records the activity.
 */
export async function resetSecondFactor(
  deps: TwoFactorDeps,
  tx: Db,
  input: { user: UserRow; by: UserRow | undefined; afterCommit: AfterCommit },
): Promise<boolean> {
  const now = deps.clock.now();
  const { existed, wasEnabled } = await repo.removeSecondFactor(tx, input.user.id);
  if (!existed) return false;
  await repo.endChallengesOf(tx, input.user.id, now);
  if (wasEnabled) {
    const by = input.by ? `${input.by.name} (${input.by.email})` : 'An administrator';
    input.afterCommit(() => deps.mail.send(twoFactorMail.reset({ ...noticeTo(deps, input.user), by })));
  }
  return true;
}

// ---------- sign-in ----------

export const CHALLENGE_METHODS = ['totp', 'recovery_code'] as const;

/** Opens the code step of a sign-in whose password was right: the token names it. */
export async function openChallenge(deps: TwoFactorDeps, userId: string): Promise<string> {
  const now = deps.clock.now();
  const challengeToken = randomToken(32);
  await repo.insertChallenge(deps.db, {
    userId,
    tokenDigest: sha256Hex(challengeToken),
    expiresAt: new Date(now.getTime() + deps.config.AUTH_2FA_CHALLENGE_TTL_SECONDS * 1000),
    at: now,
  });
  return challengeToken;
}

export type ChallengeAnswer = { code: string } | { recoveryCode: string };

export type ChallengeOutcome<T> =
  | { ok: true; value: T }
  | { ok: false; reason: 'challenge' }
  | { ok: false; reason: 'code'; user: UserRow };

/**
 * Answers a challenge with a code from the app or a recovery code. Right: the challenge is
 * used and `open` (the session) runs in the same transaction. Wrong: the wrong code is counted
 * on the challenge (the fifth kills it) and that count is committed; the caller throws.
 */
export async function answerChallenge<T>(
  deps: TwoFactorDeps,
  input: {
    challengeToken: string;
    answer: ChallengeAnswer;
    open: (tx: Db, user: UserRow) => Promise<T>;
  },
): Promise<ChallengeOutcome<T>> {
  const now = deps.clock.now();
  return inTransaction(deps.db, async (tx, afterCommit) => {
    const challenge = await repo.lockLiveChallenge(tx, sha256Hex(input.challengeToken), now);
    const user = challenge?.userId ? await findUserById(tx, challenge.userId) : undefined;
    const row = user ? await repo.lockSecondFactor(tx, user.id) : undefined;
    // The account was deactivated, or its 2FA turned off or reset, since the password step.
    if (!challenge || !user?.isActive || user.anonymizedAt || !row?.enabledAt) {
      return { ok: false, reason: 'challenge' } as const;
    }
    const right =
      'code' in input.answer
        ? await acceptTotp(deps, tx, row, input.answer.code)
        : await repo.useRecoveryCode(
            tx,
            user.id,
            recoveryCodeDigest(user.id, input.answer.recoveryCode),
            now,
          );
    if (!right) {
      const wrong = await repo.countWrongCode(tx, challenge.id);
      if (wrong >= MAX_WRONG_CODES) {
        await recordActivity(tx, {
          adminId: user.id,
          action: 'two_factor_challenge_locked',
          entityType: ADMIN_USER,
          entityId: user.id,
          summary: `A sign-in to ${user.email} was stopped after 5 wrong two-factor codes`,
          at: now,
        });
      }
      return { ok: false, reason: 'code', user } as const;
    }
    await repo.consumeChallenge(tx, challenge.id, now);
    if ('recoveryCode' in input.answer) {
      const left = await repo.countUnusedRecoveryCodes(tx, user.id);
      await recordActivity(tx, {
        adminId: user.id,
        action: 'use_recovery_code',
        entityType: ADMIN_USER,
        entityId: user.id,
        summary: `Signed in to ${user.email} with a recovery code (${left} left)`,
        at: now,
      });
      afterCommit(() => deps.mail.send(twoFactorMail.recoveryCodeUsed({ ...noticeTo(deps, user), left })));
    }
    return { ok: true, value: await input.open(tx, user) } as const;
  });
}
