// The secrets of staff two-factor sign-in (docs/decisions.md, "TOTP"): RFC 6238
// codes through `otpauth` (20-byte secret, SHA-1, 6 digits, 30 s steps, one step either side),
// the secret sealed like digital keys (AES-256-GCM, bound to its admin), and recovery codes
// kept only as digests.
import { randomInt } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import type { Config } from '../../../config';
import { createEncryptor } from '../../../platform/security/encryption';
import { hmacSha256Hex, sha256Hex } from '../../../platform/security/tokens';

const PERIOD_SECONDS = 30;
const DIGITS = 6;
/** Steps either side of now whose codes are accepted (phone clocks drift). */
const WINDOW = 1;

export const RECOVERY_CODE_COUNT = 10;

/** A new 20-byte secret, as base32 without padding (what authenticator apps take). */
export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32.replace(/=+$/, '');
}

const totpOf = (base32: string) =>
  new TOTP({ secret: Secret.fromBase32(base32), algorithm: 'SHA1', digits: DIGITS, period: PERIOD_SECONDS });

/**
 * The time step a code belongs to, when it is the code of the step at `at` or of the one
 * before or after; undefined otherwise. The caller refuses a step already used (replay).
 */
export function stepOfCode(base32: string, code: string, at: Date): number | undefined {
  const token = code.replace(/\s+/g, '');
  if (!/^\d{6}$/.test(token)) return undefined;
  const totp = totpOf(base32);
  const timestamp = at.getTime();
  const delta = totp.validate({ token, timestamp, window: WINDOW });
  return delta === null ? undefined : totp.counter({ timestamp }) + delta;
}

/**
 * `otpauth://totp/<store>:<email>?secret=…&issuer=<store>&algorithm=SHA1&digits=6&period=30`,
 * in the order docs/decisions.md "Enrolment" shows, label and issuer URL-encoded.
 */
export function otpauthUrl(opts: { storeName: string; email: string; secret: string }): string {
  const issuer = encodeURIComponent(opts.storeName);
  const label = `${issuer}:${encodeURIComponent(opts.email)}`;
  return `otpauth://totp/${label}?secret=${opts.secret}&issuer=${issuer}&algorithm=SHA1&digits=${DIGITS}&period=${PERIOD_SECONDS}`;
}

export interface SecondFactorVault {
  seal(userId: string, secret: string): string;
  open(userId: string, sealed: string): string;
}

/**
 * Sealed with the secret that seals digital keys (`DIGITAL_KEYS_SECRET`, derived from
 * `JWT_SECRET` when unset, exactly as digital keys derive it), under its own purpose, and bound
 * to the admin: a value copied to another admin's row does not open.
 */
export function secondFactorVault(
  config: Pick<Config, 'DIGITAL_KEYS_SECRET' | 'JWT_SECRET'>,
): SecondFactorVault {
  const secret = config.DIGITAL_KEYS_SECRET ?? hmacSha256Hex(config.JWT_SECRET, 'digital-keys');
  const box = createEncryptor(secret, 'staff-totp');
  return {
    seal: (userId, value) => box.encrypt(value, `user:${userId}`),
    open: (userId, sealed) => box.decrypt(sealed, `user:${userId}`),
  };
}

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';
const randomPart = () => Array.from({ length: 5 }, () => ALPHABET[randomInt(ALPHABET.length)]).join('');

/** Ten fresh codes, `xxxxx-xxxxx` of lowercase letters and digits (about 51 bits each). */
export function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => `${randomPart()}-${randomPart()}`);
}

/** A typed recovery code as stored: any case, spaces and a missing dash forgiven. */
export function normalizeRecoveryCode(input: string): string {
  const bare = input.toLowerCase().replace(/[\s-]+/g, '');
  return bare.length === 10 ? `${bare.slice(0, 5)}-${bare.slice(5)}` : bare;
}

/** The stored form: a digest salted with the admin, so equal codes of two admins differ. */
export const recoveryCodeDigest = (userId: string, code: string) =>
  sha256Hex(`recovery:${userId}:${normalizeRecoveryCode(code)}`);
