// Money races: N callers doing the same money or stock move at once (checkouts and buy-nows with
// one coupon, refunds of one order, counter sales of one product). Every module that moves money
// or stock races its writes through this, the way records are checked with ownership.ts. On
// PostgreSQL the calls really run at once (give the app a pool of about N connections:
// `DATABASE_POOL_SIZE`); PGlite serialises them, which still checks the rules one by one.
import { expect } from 'vitest';

export interface RaceAnswer {
  statusCode: number;
  body: string;
  json(): { errorCode?: string; reason?: string; data?: unknown } & Record<string, unknown>;
}

export interface RaceOutcome<A extends RaceAnswer> {
  answers: A[];
  /** The answers that succeeded (2xx). */
  won: A[];
  /** How many answers of each kind: `200`, or `400 CART_COUPON_INVALID usage_limit_reached`. */
  tally: Record<string, number>;
}

const kindOf = (a: RaceAnswer): string => {
  if (a.statusCode < 300) return String(a.statusCode);
  const body = a.json();
  return [a.statusCode, body.errorCode, body.reason].filter(Boolean).join(' ');
};

/** Starts `n` calls at once (`call(i)` for i in 0..n-1) and waits for them all. */
export async function race<A extends RaceAnswer>(
  n: number,
  call: (i: number) => Promise<A>,
): Promise<RaceOutcome<A>> {
  const answers = await Promise.all(Array.from({ length: n }, (_, i) => call(i)));
  const tally: Record<string, number> = {};
  for (const a of answers) tally[kindOf(a)] = (tally[kindOf(a)] ?? 0) + 1;
  return { answers, won: answers.filter((a) => a.statusCode < 300), tally };
}

/**
 * Checks a race's tally against what the rules allow: exactly `won` successes, and every other
 * answer one of `refusedAs` (e.g. `400 CART_COUPON_INVALID usage_limit_reached`). A 500, a
 * deadlock or an unexpected code fails the test with the whole tally in the message.
 */
export function expectRace<A extends RaceAnswer>(
  outcome: RaceOutcome<A>,
  want: { won: number; refusedAs: readonly string[] },
): void {
  const unexpected = Object.keys(outcome.tally).filter(
    (k) => !(k.startsWith('2') || want.refusedAs.includes(k)),
  );
  expect(unexpected, JSON.stringify(outcome.tally)).toEqual([]);
  expect(outcome.won.length, JSON.stringify(outcome.tally)).toBe(want.won);
}
