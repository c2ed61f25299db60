// Prepared statements for the reads nearly every request makes, and for those a cart change or a
// checkout makes inside its transaction. Drizzle builds a query's SQL on every call, and for a
// join or a wide row that costs tens of microseconds: a quarter of a checkout's CPU was Drizzle
// building the same statements again (bench/README.md, "Issue 33, round five"). A prepared one
// is built once per database handle (PostgreSQL then parses it once per connection).
//
// A transaction's handle is new every time, so a query asked for on one runs the query built on
// the transaction's database, pointed at the transaction's connection (its `client`, the one
// field of Drizzle's prepared query that names where it runs, on node-postgres and PGlite
// alike). test/platform/database.test.ts holds that to both drivers: a prepared read inside a
// transaction sees the transaction's own writes.
import { is, SQL, sql } from 'drizzle-orm';
import type { Db } from './database';
import { transactionScope } from './transaction';

/** Where a Drizzle handle runs its statements: the pool or PGlite, or a transaction's connection. */
const clientOf = (db: Db): unknown => (db as unknown as { session: { client: unknown } }).session.client;

export function preparedPerDb<Q extends object>(build: (db: Db) => Q): (db: Db) => Q {
  const byDb = new WeakMap<Db, Q>();
  const onHandle = (db: Db) => {
    let query = byDb.get(db);
    if (!query) {
      query = build(db);
      byDb.set(db, query);
    }
    return query;
  };
  return (db) => {
    const root = transactionScope(db)?.root;
    if (!root || root === db) return onHandle(db);
    const built = onHandle(root);
    // A query that does not hold its client where expected (another driver, another Drizzle)
    // is built for this transaction instead: slower, never wrong.
    if (!Object.hasOwn(built, 'client')) return build(db);
    return Object.create(built, { client: { value: clientOf(db) } }) as Q;
  };
}

export interface PlaceheldRows {
  /** The keys of every row and which of their values are null: equal shapes build equal SQL. */
  shape: string;
  /** Each row with its non-null values replaced by placeholders named `<row>.<key>`. */
  rows: Record<string, Record<string, unknown>>;
  /** The placeholders' values, to run the statement with. */
  values: Record<string, unknown>;
}

/**
 * Rows to insert with a statement built once per shape (a checkout's order, items and history
 * entry): every non-null value becomes a placeholder, which Drizzle maps through its column on
 * each run as it maps a value built in (a null stays in the SQL: Drizzle's mapping of a
 * placeholder does not pass it through). Undefined when a value is SQL, which is part of the
 * statement's text and so cannot be reused: build that statement as usual.
 */
export function placeheldRows(rows: Record<string, Record<string, unknown>>): PlaceheldRows | undefined {
  const shape: string[] = [];
  const held: Record<string, Record<string, unknown>> = {};
  const values: Record<string, unknown> = {};
  for (const [name, row] of Object.entries(rows)) {
    const keys = Object.keys(row)
      .filter((key) => row[key] !== undefined)
      .sort();
    const out: Record<string, unknown> = {};
    for (const key of keys) {
      const value = row[key];
      if (value === null) out[key] = null;
      else if (is(value, SQL)) return undefined;
      else {
        out[key] = sql.placeholder(`${name}.${key}`);
        values[`${name}.${key}`] = value;
      }
    }
    held[name] = out;
    shape.push(`${name}(${keys.map((key) => (row[key] === null ? `${key}=null` : key)).join(',')})`);
  }
  return { shape: shape.join(' '), rows: held, values };
}
