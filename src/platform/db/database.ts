// One `Db` type over two drivers: PGlite (PostgreSQL in WebAssembly, the embedded default)
// and node-postgres (a real server at DATABASE_URL). Repositories see only `Db`.
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { PGlite, types } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { sql } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { migrationsFolder } from './migrations-folder';
import { createPgliteDataDir, defaultPgliteTemplate } from './pglite-data-dir';

/** A database or an open transaction: repositories accept either. */
export type Db = PgDatabase<PgQueryResultHKT, Record<string, never>>;

export type DatabaseDriver = 'pglite' | 'postgres';

export interface Database {
  db: Db;
  driver: DatabaseDriver;
  /** The embedded database's PGlite instance (backups dump through it); undefined on PostgreSQL. */
  pglite?: PGlite;
  /** Applies the committed migrations in `drizzle/`; safe when several processes start at once. */
  migrate(): Promise<void>;
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** Extensions PGlite must load; PostgreSQL gets the same from the first migration. */
export const pgliteExtensions = { pg_trgm };

export async function openPglite(
  dataDir: string,
  opts: {
    sharedBuffersMb?: number;
    migrateNew?: boolean;
    /** A template folder (`defaultPgliteTemplate()`) a new migrated database may be copied from. */
    template?: string;
    onTemplateError?: (error: unknown) => void;
  } = {},
): Promise<PGlite> {
  mkdirSync(dataDir, { recursive: true });
  // Start parameters, not initdb ones: they apply to every run of a folder however it was made.
  const startParams = opts.sharedBuffersMb
    ? [...PGlite.defaultStartParams, '-c', `shared_buffers=${opts.sharedBuffersMb}MB`]
    : undefined;
  if (!existsSync(path.join(dataDir, 'PG_VERSION'))) {
    await createPgliteDataDir(dataDir, {
      startParams,
      migrationsFolder: opts.migrateNew ? migrationsFolder() : undefined,
      template: opts.template,
      onTemplateError: opts.onTemplateError,
    });
  }
  return PGlite.create(dataDir, { extensions: pgliteExtensions, startParams });
}

/** The types Drizzle maps itself, so asks PGlite to leave as text: instants, dates, intervals, their arrays, numeric arrays. */
const DRIZZLE_TEXT_TYPES = [
  types.TIMESTAMP,
  types.TIMESTAMPTZ,
  types.INTERVAL,
  types.DATE,
  1115,
  1185,
  1187,
  1182,
  1231,
];
const asText = (value: string) => value;

/**
 * The embedded database answers instants, dates and intervals as the text PostgreSQL writes, to
 * every caller of its instance: Drizzle maps them itself, and the instance's other readers
 * (backups, the move to PostgreSQL) read counts and names only. A restored copy compared row by
 * row with this one must be opened the same way.
 */
export function answerInstantsAsText(client: PGlite): void {
  for (const id of DRIZZLE_TEXT_TYPES) client.parsers[id] = asText;
}

/**
 * The PGlite instance as Drizzle is handed it. Drizzle passes the parsers above with every query,
 * and PGlite merges a query's parsers into its own 318 (one per type and array type) on every
 * query: ~80 µs, as long as a simple query takes itself (bench/README.md, "Issue 33, round six").
 * The instance holds them already (`answerInstantsAsText`; any other a query asks for is added),
 * so they are left off each query and PGlite uses its own without merging. Every other property
 * is the instance's own.
 */
function withParsersOnInstance(client: PGlite): PGlite {
  answerInstantsAsText(client);
  const lean = <O extends { parsers?: Record<number, unknown> } | undefined>(options: O): O => {
    if (!options?.parsers) return options;
    Object.assign(client.parsers, options.parsers);
    const { parsers: _, ...rest } = options;
    return rest as O;
  };
  type Query = PGlite['query'];
  const query: Query = (text, params, options) => client.query(text, params, lean(options));
  const transaction: PGlite['transaction'] = (work) =>
    client.transaction((tx) => {
      const txQuery: Query = (text, params, options) => tx.query(text, params, lean(options));
      return work(Object.create(tx, { query: { value: txQuery } }));
    });
  return new Proxy(client, {
    get(target, key) {
      if (key === 'query') return query;
      if (key === 'transaction') return transaction;
      const value = Reflect.get(target, key, target);
      // PGlite's methods use private fields: they must run on the instance itself.
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

export function pgliteDatabase(client: PGlite, opts: { ownsClient?: boolean } = {}): Database {
  const db = drizzlePglite({ client: withParsersOnInstance(client) }) as unknown as Db;
  return {
    db,
    driver: 'pglite',
    pglite: client,
    migrate: () => migratePglite(drizzlePglite({ client }), { migrationsFolder: migrationsFolder() }),
    ping: async () => {
      await client.query('select 1');
    },
    close: async () => {
      if (opts.ownsClient !== false) await client.close();
    },
  };
}

// Any constant works; it only has to be the same in every process of one deployment.
const MIGRATION_LOCK_ID = 727_275_001;

export function postgresDatabase(connectionString: string, poolSize: number): Database {
  const pool = new pg.Pool({ connectionString, max: poolSize });
  // An idle client that loses its server emits 'error'; the pool replaces it, so just note it.
  pool.on('error', () => {});
  const db = drizzlePg({ client: pool }) as unknown as Db;
  return {
    db,
    driver: 'postgres',
    async migrate() {
      // An advisory lock held on one connection makes concurrent starts migrate one at a time.
      const client = await pool.connect();
      try {
        await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
        await migratePg(drizzlePg({ client }), { migrationsFolder: migrationsFolder() });
      } finally {
        await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_ID]).catch(() => {});
        client.release();
      }
    },
    ping: async () => {
      await db.execute(sql`select 1`);
    },
    close: () => pool.end(),
  };
}

export async function openDatabase(opts: {
  databaseUrl?: string;
  poolSize: number;
  dataDir: string;
  pgliteSharedBuffersMb?: number;
  /** Where a new embedded database is copied from when it fits; `defaultPgliteTemplate()` unless given. */
  pgliteTemplate?: string;
  /** Told when the template fitted but could not be copied (the database is then made by initdb). */
  onPgliteTemplateError?: (error: unknown) => void;
}): Promise<Database> {
  if (opts.databaseUrl) return postgresDatabase(opts.databaseUrl, opts.poolSize);
  // Every caller migrates next (main, cli, seed scripts, the bench): a new database comes
  // migrated, from the template or the child that creates it (see createPgliteDataDir).
  return pgliteDatabase(
    await openPglite(path.join(opts.dataDir, 'db'), {
      sharedBuffersMb: opts.pgliteSharedBuffersMb,
      migrateNew: true,
      template: opts.pgliteTemplate ?? defaultPgliteTemplate(),
      onTemplateError: opts.onPgliteTemplateError,
    }),
  );
}
