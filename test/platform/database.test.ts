// The database layer both drivers share: extensions, transactions with after-commit effects,
// and the translation of constraint violations.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openPglite } from '../../src/platform/db/database';
import { isForeignKeyViolation, isUniqueViolation } from '../../src/platform/db/errors';
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

describe('the embedded database', () => {
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
});
