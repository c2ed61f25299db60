import { randomInt } from 'node:crypto';
import { v7 } from 'uuid';

/** Time-ordered uuid (v7): the id of users, sessions and events. */
export const newUuid = (): string => v7();

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** Random Crockford base32 characters (no I, L, O, U): safe to read aloud and type. */
export function crockfordCode(length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) out += CROCKFORD[randomInt(32)];
  return out;
}

/** A numeric one-time code, zero-padded (e.g. 6 digits for email codes). */
export function numericCode(digits: number): string {
  return randomInt(10 ** digits)
    .toString()
    .padStart(digits, '0');
}
