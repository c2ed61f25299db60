// The database layer both drivers share: extensions, transactions with after-commit effects,
// and the translation of constraint violations.
import { createHash } from 'node:crypto';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase, openPglite } from '../../src/platform/db/database';
import { isForeignKeyViolation, isUniqueViolation } from '../../src/platform/db/errors';
import { migrationsFolder } from '../../src/platform/db/migrations-folder';
import { buildPgliteTemplate, pgliteTemplateIsCurrent } from '../../src/platform/db/pglite-data-dir';
import { placeheldRows, preparedPerDb } from '../../src/platform/db/prepared';
import { inTransaction } from '../../src/platform/db/transaction';
import { freshDatabase } from '../helpers/database';

describe('database', () => {
  let database: Database;
  beforeAll(async () => {
    database = await freshDatabase();
    await database.db.execute(sql`create table widgets (id int primary key, name text not null unique)`);
    await database.db.execute(
      sql`create table parts (id int primary key, widget_id int references widgets(id))`,
    );
  });
  afterAll(() => database.close());

  // Both drivers answer raw queries with `{ rows }`.
  const rows = async <T>(query: ReturnType<typeof sql>) =>
    ((await database.db.execute(query)) as { rows: T[] }).rows;
  const count = async () => (await rows<{ n: number }>(sql`select count(*)::int as n from widgets`))[0]!.n;

  it('has pg_trgm enabled', async () => {
    const [row] = await rows<{ s: number }>(sql`select similarity('pasal', 'pasals') as s`);
    expect(Number(row!.s)).toBeGreaterThan(0.5);
  });

  it('commits a transaction and then runs its after-commit effects, in order', async () => {
    const seen: string[] = [];
    const result = await inTransaction(database.db, async (tx, afterCommit) => {
      await tx.execute(sql`insert into widgets values (1, 'lamp')`);
      afterCommit(() => {
        seen.push('first');
      });
      afterCommit(async () => {
        seen.push(`second saw ${await count()} rows`);
      });
      expect(seen).toEqual([]); // nothing runs before the commit
      return 'done';
    });
    expect(result).toBe('done');
    expect(seen).toEqual(['first', 'second saw 1 rows']);
  });

  it('rolls back every write of a failed transaction and runs none of its effects', async () => {
    const seen: string[] = [];
    await expect(
      inTransaction(database.db, async (tx, afterCommit) => {
        await tx.execute(sql`insert into widgets values (2, 'chair')`);
        afterCommit(() => {
          seen.push('effect');
        });
        await tx.execute(sql`insert into widgets values (3, 'lamp')`); // duplicate name
      }),
    ).rejects.toSatisfy((error) => isUniqueViolation(error, 'widgets_name_key'));
    expect(await count()).toBe(1);
    expect(seen).toEqual([]);
  });

  it('a failing effect does not undo the committed write', async () => {
    const errors: unknown[] = [];
    await inTransaction(
      database.db,
      async (tx, afterCommit) => {
        await tx.execute(sql`insert into widgets values (4, 'desk')`);
        afterCommit(() => {
          throw new Error('mail server down');
        });
      },
      (error) => errors.push(error),
    );
    expect(await count()).toBe(2);
    expect(errors).toHaveLength(1);
  });

  it('a prepared statement runs inside a transaction on its connection, built once for every transaction', async () => {
    const gadgets = pgTable('gadgets', { id: integer('id').primaryKey(), name: text('name').notNull() });
    await database.db.execute(sql`create table gadgets (id int primary key, name text not null)`);
    const byIds = preparedPerDb((db) =>
      db
        .select()
        .from(gadgets)
        .where(sql`${gadgets.id} = any(${sql.placeholder('ids')}::int[])`)
        .orderBy(gadgets.id)
        .prepare('test_gadgets_by_ids'),
    );
    const handed: object[] = [];
    // Its own uncommitted write is seen: on PostgreSQL another connection would not see it, and
    // on PGlite a statement sent outside the open transaction would wait for it forever.
    await inTransaction(database.db, async (tx) => {
      await tx.insert(gadgets).values({ id: 1, name: 'singing bowl' });
      handed.push(byIds(tx));
      expect(await byIds(tx).execute({ ids: [1, 2] })).toEqual([{ id: 1, name: 'singing bowl' }]);
    });
    await expect(
      inTransaction(database.db, async (tx) => {
        await tx.insert(gadgets).values({ id: 2, name: 'prayer flag' });
        handed.push(byIds(tx));
        expect(await byIds(tx).execute({ ids: [1, 2] })).toHaveLength(2);
        throw new Error('undone');
      }),
    ).rejects.toThrow('undone');
    expect(await byIds(database.db).execute({ ids: [1, 2] })).toEqual([{ id: 1, name: 'singing bowl' }]);
    // Both transactions ran the query built once on the database, pointed at their connection.
    expect(Object.getPrototypeOf(handed[0]!)).toBe(byIds(database.db));
    expect(Object.getPrototypeOf(handed[1]!)).toBe(byIds(database.db));
  });

  it('rows for a statement built once per shape: values become placeholders, nulls and keys make the shape', async () => {
    const gizmos = pgTable('gizmos', {
      id: integer('id').primaryKey(),
      name: text('name').notNull(),
      note: text('note'),
      madeAt: timestamp('made_at', { withTimezone: true, mode: 'date' }).notNull(),
    });
    await database.db.execute(
      sql`create table gizmos (id int primary key, name text not null, note text, made_at timestamptz not null)`,
    );
    const first = placeheldRows({
      gizmo: { id: 1, name: 'bowl', note: null, madeAt: new Date('2026-11-29T10:00:00Z') },
    });
    const second = placeheldRows({
      gizmo: { madeAt: new Date('2026-11-30T10:00:00Z'), name: 'flag', note: null, id: 2 },
    });
    expect(first?.shape).toBe('gizmo(id,madeAt,name,note=null)');
    expect(second?.shape).toBe(first?.shape);
    expect(
      placeheldRows({ gizmo: { id: 3, name: 'drum', note: 'loud', madeAt: new Date() } })?.shape,
    ).not.toBe(first?.shape);
    expect(placeheldRows({ gizmo: { id: 4, name: sql`'built in'` } })).toBeUndefined();
    // Built once with the first rows' placeholders, run with each call's values, mapped by column.
    const insert = preparedPerDb((db) =>
      db
        .insert(gizmos)
        .values(first!.rows.gizmo as typeof gizmos.$inferInsert)
        .returning()
        .prepare('test_gizmos_insert'),
    );
    expect(await insert(database.db).execute(first!.values)).toEqual([
      { id: 1, name: 'bowl', note: null, madeAt: new Date('2026-11-29T10:00:00Z') },
    ]);
    expect(await insert(database.db).execute(second!.values)).toEqual([
      { id: 2, name: 'flag', note: null, madeAt: new Date('2026-11-30T10:00:00Z') },
    ]);
  });

  it.runIf(!process.env.DATABASE_URL)(
    'PGlite: Drizzle queries hand PGlite no parsers to merge, in and out of transactions; instants and arrays read as before',
    async () => {
      const stamps = pgTable('stamps', {
        id: integer('id').primaryKey(),
        at: timestamp('at', { withTimezone: true, mode: 'date' }).notNull(),
        label: text('label').notNull(),
      });
      await database.db.execute(
        sql`create table stamps (id int primary key, at timestamptz not null, label text not null)`,
      );
      const pglite = database.pglite!;
      const options: unknown[] = [];
      const query = pglite.query;
      pglite.query = function (this: unknown, ...args: Parameters<typeof query>) {
        options.push(args[2]);
        return query.apply(this, args);
      } as typeof query;
      type Tx = Parameters<Parameters<typeof pglite.transaction>[0]>[0];
      const transaction = pglite.transaction;
      pglite.transaction = function (this: unknown, work: (tx: Tx) => Promise<unknown>) {
        return transaction.call(this, (tx: Tx) => {
          const txQuery = tx.query;
          tx.query = ((...args: Parameters<typeof txQuery>) => {
            options.push(args[2]);
            return txQuery(...args);
          }) as typeof txQuery;
          return work(tx);
        });
      } as typeof transaction;
      const at = new Date('2026-11-30T01:02:03.456Z');
      try {
        await database.db.insert(stamps).values({ id: 1, at, label: 'bowl' });
        expect(await database.db.select().from(stamps)).toEqual([{ id: 1, at, label: 'bowl' }]);
        await inTransaction(database.db, async (tx) => {
          await tx.insert(stamps).values({ id: 2, at, label: 'flag' });
          expect(await tx.select().from(stamps).orderBy(stamps.id)).toHaveLength(2);
        });
        const [raw] = await rows<{ at: string; ats: string; ids: number[] }>(
          sql`select at, array_agg(at)::text as ats, array_agg(id order by id) as ids from stamps where id = 1 group by at`,
        );
        // Instants stay text for Drizzle to map; an integer array is still an array.
        expect(raw).toEqual({
          at: '2026-11-30 01:02:03.456+00',
          ats: '{"2026-11-30 01:02:03.456+00"}',
          ids: [1],
        });
      } finally {
        pglite.query = query;
        pglite.transaction = transaction;
      }
      // Two writes and two reads outside, the transaction's write and read inside, the raw read.
      expect(options.length).toBeGreaterThanOrEqual(5);
      expect(options.filter((o) => (o as { parsers?: unknown } | undefined)?.parsers)).toEqual([]);
    },
  );

  it('tells unique and foreign-key violations apart, by constraint', async () => {
    const dup = await database.db.execute(sql`insert into widgets values (1, 'other')`).catch((e) => e);
    expect(isUniqueViolation(dup)).toBe(true);
    expect(isUniqueViolation(dup, 'widgets_pkey')).toBe(true);
    expect(isUniqueViolation(dup, 'widgets_name_key')).toBe(false);
    expect(isForeignKeyViolation(dup)).toBe(false);

    const orphan = await database.db.execute(sql`insert into parts values (1, 999)`).catch((e) => e);
    expect(isForeignKeyViolation(orphan)).toBe(true);
    expect(isUniqueViolation(orphan)).toBe(false);
    expect(isUniqueViolation(new Error('not a database error'))).toBe(false);
  });
});

const journalEntries = () =>
  (JSON.parse(readFileSync(path.resolve('drizzle/meta/_journal.json'), 'utf8')) as { entries: unknown[] })
    .entries.length;

async function appliedMigrations(database: Database): Promise<number> {
  const applied = (await database.db.execute(
    sql`select count(*)::int as n from drizzle.__drizzle_migrations`,
  )) as unknown as { rows: { n: number }[] };
  return applied.rows[0]!.n;
}

/** initdb gives every database a new system identifier; a copy keeps its template's. */
async function systemIdentifier(database: Database): Promise<string> {
  const result = (await database.db.execute(
    sql`select system_identifier::text as id from pg_control_system()`,
  )) as unknown as { rows: { id: string }[] };
  return result.rows[0]!.id;
}

/** The same, read from a data folder's control file without opening it (its first 8 bytes). */
const folderSystemIdentifier = (dataDir: string) =>
  readFileSync(path.join(dataDir, 'global', 'pg_control'))
    .readBigUInt64LE(0)
    .toString();

/** Every file's path and content: shows whether anything wrote to a folder. */
function folderDigest(dir: string): string {
  const hash = createHash('sha256');
  const walk = (at: string) => {
    for (const entry of readdirSync(at, { withFileTypes: true }).sort((a, b) =>
      a.name.localeCompare(b.name),
    )) {
      const entryPath = path.join(at, entry.name);
      hash.update(path.relative(dir, entryPath));
      if (entry.isDirectory()) walk(entryPath);
      else hash.update(readFileSync(entryPath));
    }
  };
  walk(dir);
  return hash.digest('hex');
}

// Each of these runs PGlite's initdb (a few seconds on a quiet machine, far more on a busy CI
// runner next to the rest of the suite): the suite's default of 20 s is too tight for them.
describe('the embedded database', { timeout: 90_000 }, () => {
  it('takes its page cache size from PGLITE_SHARED_BUFFERS_MB (PostgreSQL 128 MB without it)', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'pasal-pglite-'));
    try {
      const small = await openPglite(path.join(dir, 'db'), { sharedBuffersMb: 24 });
      expect((await small.query<{ shared_buffers: string }>('show shared_buffers')).rows[0]).toEqual({
        shared_buffers: '24MB',
      });
      await small.close();
      const plain = await openPglite(path.join(dir, 'db'));
      expect((await plain.query<{ shared_buffers: string }>('show shared_buffers')).rows[0]).toEqual({
        shared_buffers: '128MB',
      });
      await plain.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  // initdb runs in a child process (its ~700 MB of WebAssembly memory would otherwise stay
  // resident in the server), building a sibling folder that is renamed into place when done.
  it('creates a new database in a child process, migrated, with no folder left behind', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'pasal-pglite-'));
    try {
      // No template: whatever the last build left in dist/ plays no part.
      const template = path.join(dir, 'no-template');
      const database = await openDatabase({
        poolSize: 1,
        dataDir: dir,
        pgliteSharedBuffersMb: 16,
        pgliteTemplate: template,
      });
      try {
        expect(await appliedMigrations(database)).toBe(journalEntries());
        await database.migrate(); // nothing left to apply
        const [row] = (
          (await database.db.execute(sql`select similarity('pasal', 'pasals') as s`)) as unknown as {
            rows: { s: number }[];
          }
        ).rows;
        expect(row!.s).toBeGreaterThan(0.5);
      } finally {
        await database.close();
      }
      expect(existsSync(path.join(dir, 'db', 'PG_VERSION'))).toBe(true);
      expect(existsSync(path.join(dir, 'db.initdb'))).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses a folder that holds files but no database, and leaves it as it was', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'pasal-pglite-'));
    try {
      mkdirSync(path.join(dir, 'db'));
      writeFileSync(path.join(dir, 'db', 'notes.txt'), 'not a database');
      await expect(openPglite(path.join(dir, 'db'))).rejects.toThrow(/holds files but no PGlite database/);
      expect(readFileSync(path.join(dir, 'db', 'notes.txt'), 'utf8')).toBe('not a database');
      expect(existsSync(path.join(dir, 'db.initdb'))).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

// The build leaves a migrated data folder in dist/pglite-template/ (scripts/build.mjs), stamped
// with what it depends on; a first start copies it instead of running initdb when it fits.
describe('the embedded database template', { timeout: 180_000 }, () => {
  let dir: string;
  let template: string;
  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'pasal-pglite-template-'));
    template = path.join(dir, 'template');
    await buildPgliteTemplate(template, migrationsFolder());
  }, 180_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** A template beside the built one: its copy, with `change` applied. */
  function templateCopy(name: string, change: (copy: string) => void): string {
    const copy = path.join(dir, name);
    cpSync(template, copy, { recursive: true });
    change(copy);
    return copy;
  }

  it('is stamped with PGlite, its start parameters and the migrations; a new or edited migration makes it stale', () => {
    const stamp = JSON.parse(readFileSync(path.join(template, 'stamp.json'), 'utf8')) as Record<
      string,
      unknown
    >;
    expect(Object.keys(stamp).sort()).toEqual(['migrations', 'pglite', 'startParams']);
    expect(pgliteTemplateIsCurrent(template, migrationsFolder())).toBe(true);

    const added = path.join(dir, 'drizzle-added');
    cpSync(migrationsFolder(), added, { recursive: true });
    const journalFile = path.join(added, 'meta', '_journal.json');
    const journal = JSON.parse(readFileSync(journalFile, 'utf8')) as { entries: Record<string, unknown>[] };
    const last = journal.entries.at(-1)!;
    journal.entries.push({
      ...last,
      idx: journal.entries.length,
      tag: '9999_next',
      when: Number(last.when) + 1,
    });
    writeFileSync(journalFile, JSON.stringify(journal, null, 2));
    writeFileSync(path.join(added, '9999_next.sql'), 'create table next_thing (id int);');
    expect(pgliteTemplateIsCurrent(template, added)).toBe(false);

    const edited = path.join(dir, 'drizzle-edited');
    cpSync(migrationsFolder(), edited, { recursive: true });
    const firstSql = path.join(edited, `${String(journal.entries[0]!.tag)}.sql`);
    writeFileSync(firstSql, `${readFileSync(firstSql, 'utf8')}\n-- edited`);
    expect(pgliteTemplateIsCurrent(template, edited)).toBe(false);
  });

  it('a first start copies a current template: every migration applied, the template untouched', async () => {
    const shop = path.join(dir, 'shop-from-template');
    const digest = folderDigest(template);
    const errors: unknown[] = [];
    const database = await openDatabase({
      poolSize: 1,
      dataDir: shop,
      pgliteSharedBuffersMb: 24,
      pgliteTemplate: template,
      onPgliteTemplateError: (error) => errors.push(error),
    });
    try {
      expect(await systemIdentifier(database)).toBe(folderSystemIdentifier(path.join(template, 'data')));
      expect(await appliedMigrations(database)).toBe(journalEntries());
      await database.migrate(); // nothing left to apply
      expect(await appliedMigrations(database)).toBe(journalEntries());
      // A start parameter, so the copy runs with this process's page cache, not the build's.
      const shown = (await database.db.execute(sql`show shared_buffers`)) as unknown as {
        rows: { shared_buffers: string }[];
      };
      expect(shown.rows[0]!.shared_buffers).toBe('24MB');
      // It works like any database: extensions, writes.
      const [row] = (
        (await database.db.execute(sql`select similarity('pasal', 'pasals') as s`)) as unknown as {
          rows: { s: number }[];
        }
      ).rows;
      expect(row!.s).toBeGreaterThan(0.5);
      await database.db.execute(sql`create table widgets (id int primary key)`);
      await database.db.execute(sql`insert into widgets values (1)`);
    } finally {
      await database.close();
    }
    expect(errors).toEqual([]);
    expect(existsSync(path.join(dir, 'shop-from-template.initdb'))).toBe(false);
    expect(folderDigest(template)).toBe(digest);
  });

  it('a stale stamp: the database is made by initdb instead, fully migrated', async () => {
    const stale = templateCopy('template-stale', (copy) => {
      const stampFile = path.join(copy, 'stamp.json');
      const stamp = JSON.parse(readFileSync(stampFile, 'utf8')) as { migrations: string };
      writeFileSync(stampFile, JSON.stringify({ ...stamp, migrations: 'an older set of migrations' }));
    });
    const shop = path.join(dir, 'shop-stale');
    const database = await openDatabase({ poolSize: 1, dataDir: shop, pgliteTemplate: stale });
    try {
      expect(await systemIdentifier(database)).not.toBe(folderSystemIdentifier(path.join(stale, 'data')));
      expect(await appliedMigrations(database)).toBe(journalEntries());
    } finally {
      await database.close();
    }
  });

  it('a current template that cannot be copied: told, and the database is made by initdb', async () => {
    // A stamp whose folder is gone (an interrupted copy of dist/, a permission problem).
    const broken = templateCopy('template-broken', (copy) => rmSync(path.join(copy, 'data', 'PG_VERSION')));
    const errors: unknown[] = [];
    const shop = path.join(dir, 'shop-broken');
    const database = await openDatabase({
      poolSize: 1,
      dataDir: shop,
      pgliteTemplate: broken,
      onPgliteTemplateError: (error) => errors.push(error),
    });
    try {
      expect(await systemIdentifier(database)).not.toBe(folderSystemIdentifier(path.join(broken, 'data')));
      expect(await appliedMigrations(database)).toBe(journalEntries());
    } finally {
      await database.close();
    }
    expect(errors).toHaveLength(1);
    expect(existsSync(path.join(dir, 'shop-broken.initdb'))).toBe(false);
  });
});
