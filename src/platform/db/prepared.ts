// Prepared statements for the reads nearly every request makes. Drizzle builds a query's SQL on
// every call, and for a join or a wide row that costs tens of microseconds: more than the rest
// of a request's fixed cost. A prepared one is built once per database handle (PostgreSQL then
// parses it once per connection). A transaction's handle gets its own, built once per
// transaction: no gain there and no loss, so it pays for reads made mostly outside transactions.
import type { Db } from './database';

export function preparedPerDb<Q>(build: (db: Db) => Q): (db: Db) => Q {
  const byDb = new WeakMap<Db, Q>();
  return (db) => {
    let query = byDb.get(db);
    if (!query) {
      query = build(db);
      byDb.set(db, query);
    }
    return query;
  };
}
