import { randomInt } from 'node:crypto';
import { v7 } from 'uuid';

/** Time-ordered uuid (v7): the id of users, sessions and events. */
export const newUuid = (): string => v7();

/** A numeric one-time code, zero-padded (e.g. 6 digits for email codes). */
export function numericCode(digits: number): string {
  return randomInt(10 ** digits)
    .toString()
    .padStart(digits, '0');
}
