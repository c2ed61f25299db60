// Single-use secrets (codes and link tokens). Each is consumed by one conditional UPDATE, so
// of many concurrent attempts at most one succeeds, and wrong codes are counted atomically:
// the fifth kills the code.
import type { Clock } from '../../../platform/clock';
import type { Db } from '../../../platform/db/database';
import { numericCode } from '../../../platform/ids';
import { randomToken, sha256Hex } from '../../../platform/security/tokens';
import type { CodePurpose, OneTimeCode } from './one-time-codes.repository';
import * as repo from './one-time-codes.repository';

export type { CodePurpose, OneTimeCode } from './one-time-codes.repository';

export const MAX_WRONG_CODES = 5;

// The code is salted with its purpose and address, so equal codes never share a digest.
const codeDigest = (purpose: CodePurpose, target: string, code: string) =>
  sha256Hex(`${purpose}:${target}:${code}`);

/**
 * Issues a new secret for `purpose` and `target`; earlier unused ones for the same pair stop
 * working, so only the latest email's code is valid.
 */
export async function issueCode(opts: {
  db: Db;
  clock: Clock;
  purpose: CodePurpose;
  target: string;
  userId?: string | null;
  ttlMs: number;
  /** A 6-digit code for people to type (default true). */
  withCode?: boolean;
  /** A long random token for links (default true). */
  withToken?: boolean;
  payload?: Record<string, unknown>;
}): Promise<{ code?: string; token?: string; expiresAt: Date }> {
  const now = opts.clock.now();
  const code = opts.withCode === false ? undefined : numericCode(6);
  const token = opts.withToken === false ? undefined : randomToken(32);
  const expiresAt = new Date(now.getTime() + opts.ttlMs);
  await repo.retireUnusedCodes(opts.db, { purpose: opts.purpose, target: opts.target, now });
  await repo.insertCode(opts.db, {
    purpose: opts.purpose,
    target: opts.target,
    userId: opts.userId ?? null,
    codeDigest: code ? codeDigest(opts.purpose, opts.target, code) : null,
    tokenDigest: token ? sha256Hex(token) : null,
    payload: opts.payload,
    expiresAt,
    createdAt: now,
  });
  return { code, token, expiresAt };
}

/** Consumes a link token: the row it belonged to, or undefined (unknown, used, expired). */
export async function consumeToken(opts: {
  db: Db;
  clock: Clock;
  purpose: CodePurpose;
  token: string;
}): Promise<OneTimeCode | undefined> {
  return repo.consumeByTokenDigest(opts.db, {
    purpose: opts.purpose,
    tokenDigest: sha256Hex(opts.token),
    now: opts.clock.now(),
    maxWrongCodes: MAX_WRONG_CODES,
  });
}

/**
 * Consumes a typed code for `target`. A wrong code counts against the live code of that
 * purpose and address; after MAX_WRONG_CODES wrong ones it is dead, even for the right code.
 */
export async function consumeCode(opts: {
  db: Db;
  clock: Clock;
  purpose: CodePurpose;
  target: string;
  code: string;
}): Promise<OneTimeCode | undefined> {
  const at = {
    purpose: opts.purpose,
    target: opts.target,
    now: opts.clock.now(),
    maxWrongCodes: MAX_WRONG_CODES,
  };
  const row = await repo.consumeByCodeDigest(opts.db, {
    ...at,
    codeDigest: codeDigest(opts.purpose, opts.target, opts.code),
  });
  if (row) return row;
  await repo.countWrongCode(opts.db, at);
  return undefined;
}

/** Removes secrets used or expired more than a day ago (they hold PKCE verifiers, provider tokens). */
export async function purgeSpentCodes(db: Db, now: Date): Promise<number> {
  return repo.deleteCodesSpentBefore(db, new Date(now.getTime() - 86_400_000));
}
