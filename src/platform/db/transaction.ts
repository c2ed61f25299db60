import { PgTransaction } from 'drizzle-orm/pg-core';
import type { Db } from './database';

export type AfterCommit = (effect: () => void | Promise<void>) => void;

/** What a transaction opened by `inTransaction` knows of itself: the database it runs on and its after-commit list. */
export interface TransactionScope {
  root: Db;
  afterCommit: AfterCommit;
}

// Each open transaction's scope, so code handed only `tx` (a domain event published deep in a
// service) can still reach the after-commit list; entries go with their transaction object.
const scopes = new WeakMap<Db, TransactionScope>();

/** The scope of a transaction opened by `inTransaction`; undefined for a database or another transaction. */
export const transactionScope = (tx: Db): TransactionScope | undefined => scopes.get(tx);

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
  const afterCommit: AfterCommit = (effect) => effects.push(effect);
  // A transaction inside another one (a savepoint) publishes into the outer one, whose commit is the real one.
  const scope = scopes.get(db) ?? { root: db, afterCommit };
  const result = await db.transaction((txRaw) => {
    const tx = txRaw as unknown as Db;
    scopes.set(tx, scope);
    return work(tx, afterCommit);
  });
  for (const effect of effects) {
    try {
      await effect();
    } catch (error) {
      onEffectError(error); // the write stands; a failed side effect must not turn it into an error
    }
  }
  return result;
}

/**
 * Independent reads: side by side on the database (each takes a pool connection), one after
 * another on a transaction, which is one connection: overlapping queries on one client are
 * deprecated by pg (and refused from pg 9). A read that may be handed either (an order's detail
 * built for the back office, or inside the transaction that writes a webhook message) uses this.
 */
export async function readTogether<const T extends readonly (() => Promise<unknown>)[]>(
  db: Db,
  reads: T,
): Promise<{ -readonly [K in keyof T]: Awaited<ReturnType<T[K]>> }> {
  type Results = { -readonly [K in keyof T]: Awaited<ReturnType<T[K]>> };
  if (!((db as unknown) instanceof PgTransaction))
    return (await Promise.all(reads.map((read) => read()))) as Results;
  const results: unknown[] = [];
  for (const read of reads) results.push(await read());
  return results as Results;
}
