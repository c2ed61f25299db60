// Counts the SQL statements (round trips) an app sends, on either tier, for tests that pin how
// many a request makes. PostgreSQL: every `query` of the pool's clients, `begin` and `commit`
// included. PGlite: `query` and `exec` of the instance and of the object its `transaction` hands
// over; PGlite sends its own BEGIN and COMMIT, so those are recorded here as the statements
// they stand for, and both tiers give the same list.
import type { Database } from '../../src/platform/db/database';

export interface RecordedStatement {
  /** The statement's text (no values). */
  text: string;
  /** Sent inside a transaction (`begin` and `commit` count as inside). */
  inTransaction: boolean;
}

export interface StatementRecorder {
  /** What was recorded since `start`, oldest first. */
  readonly statements: RecordedStatement[];
  start(): void;
  stop(): RecordedStatement[];
}

type Run = (...args: unknown[]) => unknown;

/** The statements one per line, those inside a transaction marked `tx |`: a failed count's message. */
export const statementListing = (statements: RecordedStatement[]) =>
  statements.map((s) => `${s.inTransaction ? 'tx | ' : '   | '}${s.text.slice(0, 160)}`).join('\n');

const textOf = (query: unknown): string =>
  typeof query === 'string' ? query : String((query as { text?: unknown })?.text ?? query);

export function recordStatements(database: Database): StatementRecorder {
  let on = false;
  const statements: RecordedStatement[] = [];
  const note = (text: string, inTransaction: boolean) => {
    if (on) statements.push({ text: text.trim().replace(/\s+/g, ' '), inTransaction });
  };
  const wrap = (target: Record<string, unknown>, method: string, inTransaction: () => boolean) => {
    const original = target[method] as Run;
    target[method] = function (this: unknown, ...args: unknown[]) {
      note(textOf(args[0]), inTransaction());
      return original.apply(this, args);
    };
  };

  if (database.pglite) {
    const client = database.pglite as unknown as Record<string, unknown>;
    wrap(client, 'query', () => false);
    wrap(client, 'exec', () => false);
    const transaction = client.transaction as (work: (tx: unknown) => Promise<unknown>) => Promise<unknown>;
    client.transaction = function (this: unknown, work: (tx: unknown) => Promise<unknown>) {
      return transaction.call(this, async (tx) => {
        note('begin', true);
        wrap(tx as Record<string, unknown>, 'query', () => true);
        wrap(tx as Record<string, unknown>, 'exec', () => true);
        try {
          const result = await work(tx);
          note('commit', true);
          return result;
        } catch (error) {
          note('rollback', true);
          throw error;
        }
      });
    };
  } else {
    const pool = (database.db as unknown as { $client: Record<string, unknown> }).$client;
    const wrapped = new WeakSet<object>();
    const inTransaction = new WeakMap<object, boolean>();
    const wrapClient = (client: Record<string, unknown>) => {
      if (wrapped.has(client)) return;
      wrapped.add(client);
      const original = client.query as Run;
      client.query = function (this: unknown, ...args: unknown[]) {
        const text = textOf(args[0]);
        if (/^\s*begin\b/i.test(text)) inTransaction.set(client, true);
        note(text, inTransaction.get(client) === true);
        if (/^\s*(commit|rollback)\b/i.test(text)) inTransaction.set(client, false);
        return original.apply(this, args);
      };
    };
    // The pool's own `query` checks a client out through `connect` too, so every statement
    // passes through a wrapped client exactly once.
    const connect = pool.connect as Run;
    pool.connect = function (this: unknown, ...args: unknown[]) {
      const [callback] = args;
      if (typeof callback === 'function') {
        return connect.call(this, (error: unknown, client: Record<string, unknown>, done: unknown) => {
          if (client) wrapClient(client);
          (callback as Run)(error, client, done);
        });
      }
      return (connect.call(this) as Promise<Record<string, unknown>>).then((client) => {
        wrapClient(client);
        return client;
      });
    };
  }

  return {
    statements,
    start() {
      statements.length = 0;
      on = true;
    },
    stop() {
      on = false;
      return [...statements];
    },
  };
}
