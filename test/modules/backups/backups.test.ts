// Backups on the tier the suite runs on: a dump of the demo shop restores to the same rows, a
// dump taken while checkouts run restores to a consistent shop, a restore refuses a database
// that holds Pasal tables unless forced and brings an older backup up to the current migrations,
// scheduled backups keep BACKUP_KEEP files, set their metric and tell admins when they fail.
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemoStore } from '../../../scripts/seed-demo';
import { seedDemoOrders } from '../../../scripts/seed-demo-orders';
import { scheduledBackupJob } from '../../../src/modules/backups/backups.jobs';
import { createNotifier } from '../../../src/modules/notifications';
import { TestClock } from '../../../src/platform/clock';
import {
  BACKUP_FILE,
  backupSourceOf,
  makeBackup,
  pgliteSession,
  postgresSession,
  pruneBackups,
  rowCounts,
  type SqlSession,
  sequenceValues,
} from '../../../src/platform/db/backup';
import { pgliteExtensions } from '../../../src/platform/db/database';
import {
  backupCommand,
  CommandRefused,
  restoreCommand,
  startBackupControl,
} from '../../../src/platform/db/db-commands';
import { migrationsFolder } from '../../../src/platform/db/migrations-folder';
import { createTestApp, type TestApp } from '../../helpers/app';
import { demoSeedDeps } from '../../helpers/demo';
import { signedInAdmin } from '../../helpers/factories';
import { servicesTier, serviceUrls, withDatabase } from '../../helpers/services';
import { ordersTestApp } from '../orders/calls';
import { emptyTarget } from './backup-target';

const work = mkdtempSync(path.join(tmpdir(), 'pasal-backups-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const urlOf = (t: TestApp) => (t.platform.database as { url?: string }).url;
/** A session on the app's own database, left open (the app owns it). */
async function sessionOf(t: TestApp): Promise<SqlSession> {
  const url = urlOf(t);
  if (url) return postgresSession(url);
  const client = (t.platform.database.db as unknown as { $client: PGlite }).$client;
  return { ...pgliteSession(client), close: async () => {} };
}

describe('a dump of the demo shop', () => {
  let t: TestApp;
  beforeAll(async () => {
    // No recurring jobs: the worker's heartbeat would write a row between the dump and the
    // comparison, and the restored copy must equal the source as it was dumped.
    t = await createTestApp({ schedules: false });
    const summary = await seedDemoStore(demoSeedDeps(t));
    await seedDemoOrders(t.app, summary, summary.orderProducts, 'http://localhost:3001/checkout/result');
  }, 180_000);
  afterAll(() => t.close());

  it('is gzip SQL named by its time, and restores to the same rows, sequences and records', async () => {
    const at = new Date('2026-11-29T01:02:03Z');
    const r = await makeBackup({
      source: backupSourceOf(t.platform.database.db, urlOf(t)),
      dir: work,
      now: at,
    });
    expect(path.basename(r.file)).toBe('pasal-20261129-010203.sql.gz');
    expect(BACKUP_FILE.test(path.basename(r.file))).toBe(true);
    const text = gunzipSync(readFileSync(r.file)).toString('utf8');
    expect(text).toContain('CREATE TABLE public.orders');
    expect(text).not.toContain('transaction_timeout'); // PostgreSQL 15's psql would stop there
    expect(r.tables).toBeGreaterThan(70);

    const source = await sessionOf(t);
    const target = await emptyTarget();
    try {
      await target.load(r.file);
      const counts = await rowCounts(source);
      expect(counts.get('public.orders')).toBeGreaterThan(0);
      expect(await rowCounts(target.session)).toEqual(counts);
      expect(await sequenceValues(target.session)).toEqual(await sequenceValues(source));
      for (const table of [
        'orders',
        'order_items',
        'products',
        'tax_documents',
        'users',
        'drizzle.__drizzle_migrations',
      ]) {
        const q = `select * from ${table} order by 1`;
        expect(await target.session.rows(q), table).toEqual(await source.rows(q));
      }
    } finally {
      await target.close();
      await source.close();
    }
  });
});

it('a dump taken while checkouts run restores to a consistent shop', async () => {
  const c = await ordersTestApp({ env: { DATABASE_POOL_SIZE: '20' } });
  const target = await emptyTarget();
  try {
    const shelf = [await c.product({ onHand: 500 }), await c.product({ onHand: 500 })];
    const buyers = await Promise.all(Array.from({ length: servicesTier ? 30 : 10 }, () => c.customer()));
    for (const who of buyers)
      await c.cartWith(
        who,
        shelf.map((productId) => ({ productId, quantity: 2 })),
      );
    const load = Promise.all(buyers.map((who) => c.checkout(who, 'cod')));
    await new Promise((resolve) => setTimeout(resolve, 30));
    const dump = await makeBackup({
      source: backupSourceOf(c.t.platform.database.db, urlOf(c.t)),
      dir: path.join(work, 'load'),
      now: new Date(),
    });
    for (const res of await load) expect(res.statusCode, res.body).toBe(200);

    await target.load(dump.file);
    const s = target.session;
    const orphans = await s.rows<{ n: number }>(
      'select count(*)::int as n from orders o where not exists (select 1 from order_items i where i.order_id = o.id)',
    );
    expect(orphans[0]?.n).toBe(0);
    // Every unit held is held by someone: a cart's or an order's reservation, never half of one.
    const stock = await s.rows<{ product_id: number; reserved: number; held: number }>(
      `select s.product_id, s.reserved, coalesce((select sum(quantity) from stock_reservations r
         where r.product_id = s.product_id), 0)::int as held from product_stock s order by 1`,
    );
    expect(stock.length).toBeGreaterThanOrEqual(2);
    for (const row of stock) expect(row.reserved, `product ${row.product_id}`).toBe(row.held);
    // Each customer's two units of each product are in their cart or in their order, not both.
    for (const productId of shelf) {
      const [row] = await s.rows<{ reserved: number }>(
        `select reserved from product_stock where product_id = ${productId}`,
      );
      expect(row?.reserved).toBe(2 * buyers.length);
    }
  } finally {
    await target.close();
    await c.t.close();
  }
});

/** A database migrated up to all but the newest migration: what an older release wrote. */
async function olderReleaseDump(): Promise<string> {
  const folder = path.join(work, 'older-migrations');
  cpSync(migrationsFolder(), folder, { recursive: true });
  const journalFile = path.join(folder, 'meta', '_journal.json');
  const journal = JSON.parse(readFileSync(journalFile, 'utf8')) as { entries: unknown[] };
  journal.entries.pop();
  writeFileSync(journalFile, JSON.stringify(journal));
  if (!servicesTier) {
    const client = await PGlite.create({ extensions: pgliteExtensions });
    await migratePglite(drizzlePglite({ client }), { migrationsFolder: folder });
    const r = await makeBackup({
      source: { driver: 'pglite', client },
      dir: path.join(work, 'older'),
      now: new Date(),
    });
    await client.close();
    return r.file;
  }
  const { url, drop } = await emptyPostgresDatabase('older');
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  await migratePg(drizzlePg({ client: pool }), { migrationsFolder: folder });
  await pool.end();
  const r = await makeBackup({
    source: { driver: 'postgres', url },
    dir: path.join(work, 'older'),
    now: new Date(),
  });
  await drop();
  return r.file;
}

async function emptyPostgresDatabase(tag: string) {
  const { databaseUrl } = serviceUrls();
  const name = `pasal_${tag}_${Math.random().toString(36).slice(2, 10)}`;
  const admin = new pg.Client({ connectionString: databaseUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  return {
    url: withDatabase(databaseUrl, name),
    drop: async () => {
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    },
  };
}

it('db:restore loads an older backup and migrates it forward; a database with Pasal tables needs --force', async () => {
  const file = await olderReleaseDump();
  const dataDir = mkdtempSync(path.join(work, 'data-'));
  const target = servicesTier ? await emptyPostgresDatabase('restore') : undefined;
  const config = {
    DATABASE_URL: target?.url,
    DATA_DIR: dataDir,
    BACKUP_DIR: undefined,
    STORAGE_DRIVER: 'local' as const,
  };
  const journal = JSON.parse(readFileSync(path.join(migrationsFolder(), 'meta', '_journal.json'), 'utf8'));
  const migrationsApplied = async () => {
    const s = target
      ? await postgresSession(target.url)
      : pgliteSession(await PGlite.create(path.join(dataDir, 'db'), { extensions: pgliteExtensions }));
    try {
      return (await s.rows<{ n: number }>('select count(*)::int as n from drizzle.__drizzle_migrations'))[0]
        ?.n;
    } finally {
      await s.close();
    }
  };
  try {
    const first = await restoreCommand(config, { file });
    expect(first.tables).toBeGreaterThan(70);
    expect(await migrationsApplied()).toBe(journal.entries.length);

    const refused = restoreCommand(config, { file });
    await expect(refused).rejects.toBeInstanceOf(CommandRefused);
    await expect(refused).rejects.toThrow(/already holds \d+ Pasal tables.*--force/);

    const forced = await restoreCommand(config, { file, force: true });
    expect(forced.tables).toBe(first.tables);
    expect(await migrationsApplied()).toBe(journal.entries.length);
  } finally {
    await target?.drop();
  }
}, 120_000);

describe('scheduled backups', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const jobWith = (
    dir: string,
    clock: TestClock,
    source = backupSourceOf(t.platform.database.db, urlOf(t)),
  ) =>
    scheduledBackupJob({
      db: t.platform.database.db,
      source,
      clock,
      config: { DATA_DIR: t.platform.config.DATA_DIR, BACKUP_DIR: dir, BACKUP_KEEP: 2 },
      log: pino({ level: 'silent' }),
      metrics: t.platform.metrics,
      notifier: createNotifier({
        db: t.platform.database.db,
        push: t.platform.outgoing.push,
        clock,
        realtime: t.platform.realtime,
      }),
    });

  it('keep the BACKUP_KEEP newest and set the last-success metric', async () => {
    const dir = path.join(work, 'scheduled');
    const clock = new TestClock('2026-11-01T02:30:00Z');
    const job = jobWith(dir, clock);
    for (let i = 0; i < 3; i++) {
      await job.handler({}, { attempt: 1, jobId: `run-${i}` });
      clock.set(new Date(clock.now().getTime() + 86_400_000));
    }
    expect(readdirSync(dir).sort()).toEqual(['pasal-20261102-023000.sql.gz', 'pasal-20261103-023000.sql.gz']);
    const metric = await t.platform.metrics.registry.getSingleMetricAsString(
      'backup_last_success_timestamp_seconds',
    );
    expect(metric).toContain(
      `backup_last_success_timestamp_seconds ${Date.parse('2026-11-03T02:30:00Z') / 1000}`,
    );
  });

  it('prune only their own files, with each dump’s uploads archive', () => {
    const dir = mkdtempSync(path.join(work, 'prune-'));
    for (const name of [
      'pasal-20260101-000000.sql.gz',
      'pasal-20260101-000000.files.tar.gz',
      'pasal-20260102-000000.sql.gz',
      'pasal-20260103-000000.sql.gz',
      'pasal-20260103-000000.files.tar.gz',
      'my-own-copy.sql.gz',
    ]) {
      writeFileSync(path.join(dir, name), 'x');
    }
    expect(pruneBackups(dir, 2).map((f) => path.basename(f))).toEqual(['pasal-20260101-000000.sql.gz']);
    expect(readdirSync(dir).sort()).toEqual([
      'my-own-copy.sql.gz',
      'pasal-20260102-000000.sql.gz',
      'pasal-20260103-000000.files.tar.gz',
      'pasal-20260103-000000.sql.gz',
    ]);
  });

  it('that fail are logged as failed and told to superadmins in the back office', async () => {
    const owner = await signedInAdmin(t, { superadmin: true });
    const clerk = await signedInAdmin(t, { permissions: ['Orders_READ'] });
    const job = jobWith(path.join(work, 'failing'), new TestClock(), {
      driver: 'postgres',
      url: 'postgres://nobody@127.0.0.1:1/nothing',
    });
    await expect(job.handler({}, { attempt: 1, jobId: 'fails' })).rejects.toThrow();
    const feed = await t.app.inject({
      method: 'GET',
      url: '/api/admin/notifications',
      headers: owner.headers,
    });
    const item = feed.json().data.find((n: { type: string }) => n.type === 'BACKUP_FAILED');
    expect(item?.title).toBe('The scheduled backup failed');
    const other = await t.app.inject({
      method: 'GET',
      url: '/api/admin/notifications',
      headers: clerk.headers,
    });
    expect(other.json().data.some((n: { type: string }) => n.type === 'BACKUP_FAILED')).toBe(false);
  });
});

it.skipIf(servicesTier)(
  'db:backup on the embedded database asks the running server over its control socket',
  async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'pasal-ctl-'));
    const client = await PGlite.create({ extensions: pgliteExtensions });
    await client.exec('create table kept (id int); insert into kept values (1), (2);');
    const config = {
      DATA_DIR: dataDir,
      BACKUP_DIR: undefined,
      DATABASE_URL: undefined,
      STORAGE_DRIVER: 'local' as const,
    };
    writeFileSync(path.join(mkdtempSync(path.join(dataDir, 'storage-')), 'x'), 'x');
    const control = await startBackupControl(config, client);
    try {
      const r = await backupCommand(config, { withFiles: true });
      expect(r.by).toBe('server');
      expect(r.file.startsWith(path.join(dataDir, 'backups'))).toBe(true);
      expect(gunzipSync(readFileSync(r.file)).toString()).toContain('INSERT INTO public.kept VALUES');
      expect(r.filesArchive && existsSync(r.filesArchive)).toBe(true);
      // The server's session is as it was: its search_path back, no transaction left open.
      expect((await client.query('select count(*)::int as n from kept')).rows).toEqual([{ n: 2 }]);
      await client.exec('insert into kept values (3)');
    } finally {
      await control.close();
      await client.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
    expect(existsSync(path.join(dataDir, 'control.sock'))).toBe(false);
  },
);
