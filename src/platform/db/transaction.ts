import type { Db } from './database';

export type AfterCommit = (effect: () => void | Promise<void>) => void;

/**
 * Runs `work` in one transaction. Effects registered with `afterCommit` (realtime events,
 * jobs, mail) run only once the transaction has committed, so nobody hears of a write that
 * was rolled back. With PGlite, use only `tx` inside `work`: the outer `db` would deadlock.
 */
export async function inTransaction<T>(
  db: Db,
  work: (tx: Db, afterCommit: AfterCommit) => Promise<T>,
  onEffectError: (error: unknown) => void = () => {},
): Promise<T> {
  const effects: Array<() => void | Promise<void>> = [];
  const result = await db.transaction((tx) => work(tx as unknown as Db, (effect) => effects.push(effect)));
  for (const effect of effects) {
    try {
      await effect();
    } catch (error) {
      onEffectError(error); // the write stands; a failed side effect must not turn it into an error
    }
  }
  return result;
}
