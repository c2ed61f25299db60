// db:move-to-postgres on the demo shop (made by `seed:demo` itself, on the embedded database):
// every table's rows and every sequence match, a non-empty target is refused, the embedded data
// stays as it was, and a server started on the PostgreSQL copy answers the same orders, products
// and invoices, lets the demo customer sign in with their password, and continues the invoice
// series without a gap. Needs a PostgreSQL server: runs on the services tier.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ADMIN, DEMO_CUSTOMER } from '../../../scripts/seed-demo';
import { pgliteSession, rowCounts, type SqlSession } from '../../../src/platform/db/backup';
import { openPglite, postgresDatabase } from '../../../src/platform/db/database';
import { CommandRefused, moveToPostgresCommand } from '../../../src/platform/db/db-commands';
import { createTestApp, TEST_JWT_SECRET, type TestApp } from '../../helpers/app';
import { servicesTier, serviceUrls, withDatabase } from '../../helpers/services';

describe.skipIf(!servicesTier)('db:move-to-postgres of the demo shop', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'pasal-move-'));
  const config = {
    DATA_DIR: dataDir,
    DATABASE_URL: undefined,
    BACKUP_DIR: undefined,
    STORAGE_DRIVER: 'local' as const,
  };
  let admin: pg.Client;
  let name: string;
  let url: string;
  const embedded = async <T>(read: (s: SqlSession) => Promise<T>) => {
    const s = pgliteSession(await openPglite(path.join(dataDir, 'db')));
    try {
      return await read(s);
    } finally {
      await s.close();
    }
  };

  beforeAll(async () => {
    // The demo exactly as an operator makes it: `npm run seed:demo` on the embedded database.
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      DATA_DIR: dataDir,
      NODE_ENV: 'development',
      LOG_LEVEL: 'warn',
    };
    delete env.DATABASE_URL;
    delete env.REDIS_URL;
    delete env.TEST_SERVICES;
    const seed = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/seed-demo.ts'], {
      env,
      encoding: 'utf8',
    });
    expect(seed.status, seed.stderr).toBe(0);
    admin = new pg.Client({ connectionString: serviceUrls().databaseUrl });
    await admin.connect();
    name = `pasal_move_${randomBytes(5).toString('hex')}`;
    await admin.query(`create database ${name}`);
    url = withDatabase(serviceUrls().databaseUrl, name);
  }, 240_000);

  afterAll(async () => {
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('copies every row and sequence; the PostgreSQL server answers the same shop and goes on from it', async () => {
    const before = await embedded(async (s) => ({
      counts: await rowCounts(s),
      orders: await s.rows<{ order_number: string }>('select order_number from orders order by order_number'),
      products: await s.rows<{ slug: string }>('select slug from products order by slug'),
      invoices: await s.rows<{ number: string; sequence: number; fiscal_year: string }>(
        "select number, sequence, fiscal_year from tax_documents where kind = 'invoice' order by sequence",
      ),
    }));
    expect(before.orders.length).toBeGreaterThan(3);
    expect(before.invoices.length).toBeGreaterThan(0);

    const report = await moveToPostgresCommand(config, { to: url });
    expect(report.ok).toBe(true);
    expect(report.tables.find((t) => t.name === 'public.orders')).toEqual({
      name: 'public.orders',
      embedded: before.orders.length,
      postgres: before.orders.length,
    });
    expect(report.tables.length).toBe(before.counts.size);
    expect(report.sequences.length).toBeGreaterThan(10);
    for (const s of report.sequences) expect(s.postgres, s.name).toBe(s.embedded);

    // A second move into the now full target is refused; the embedded data is as it was.
    await expect(moveToPostgresCommand(config, { to: url })).rejects.toBeInstanceOf(CommandRefused);
    await expect(moveToPostgresCommand(config, { to: url })).rejects.toThrow(/not empty/);
    expect(await embedded(rowCounts)).toEqual(before.counts);

    // The server started on the copy (its secrets are this test's: passwords are hashes in rows).
    const database = postgresDatabase(url, 5);
    const t: TestApp = await createTestApp({
      database,
      env: { TAX_INVOICES_ENABLED: 'true', SELLER_PAN: '600000001', JWT_SECRET: TEST_JWT_SECRET },
    });
    try {
      const call = async (method: 'GET' | 'POST' | 'PUT', u: string, token?: string, payload?: object) => {
        const res = await t.app.inject({
          method,
          url: u,
          headers: token ? { authorization: `Bearer ${token}` } : {},
          ...(payload ? { payload } : {}),
        });
        expect(res.statusCode, `${method} ${u}: ${res.body.slice(0, 300)}`).toBeLessThan(300);
        return res.json().data;
      };
      const adminToken = (await call('POST', '/api/auth/login/email', undefined, DEMO_ADMIN)).tokens
        .accessToken;
      const customerToken = (
        await call('POST', '/api/mobile/auth/login/email', undefined, {
          email: DEMO_CUSTOMER.email,
          password: DEMO_CUSTOMER.password,
          deviceInfo: { deviceId: 'move-test', deviceType: 'web', deviceName: 'move test' },
        })
      ).tokens.accessToken;

      const orders = await call('GET', '/api/admin/orders?pagination=false', adminToken);
      expect(orders.map((o: { orderNumber: string }) => o.orderNumber).sort()).toEqual(
        before.orders.map((o) => o.order_number),
      );
      const invoices = await call('GET', '/api/admin/invoices?pagination=false', adminToken);
      expect(invoices.map((d: { number: string }) => d.number).sort()).toEqual(
        before.invoices.map((d) => d.number).sort(),
      );
      const products = await call('GET', '/api/admin/products?pagination=false', adminToken);
      expect(products.map((p: { slug: string }) => p.slug).sort()).toEqual(
        before.products.map((p) => p.slug),
      );

      // A new paid order on PostgreSQL takes the next number of the same series.
      const { rows } = await (database as unknown as { db: { $client: pg.Pool } }).db.$client.query(
        `select s.product_id from product_stock s join order_items i on i.product_id = s.product_id
          where s.on_hand - s.reserved > 2 limit 1`,
      );
      const productId = rows[0]?.product_id as number;
      const order = await call('POST', '/api/orders/buy-now', customerToken, {
        productId,
        gateway: 'cod',
        returnUrl: 'http://localhost:3001/checkout/result',
      });
      await call('PUT', `/api/admin/orders/${order.orderId}/cod-collect`, adminToken, {
        remarks: 'Cash at the door',
      });
      const after = await call('GET', '/api/admin/invoices?pagination=false', adminToken);
      expect(after.length).toBe(invoices.length + 1);
      const last = before.invoices.at(-1)!;
      const newest = after.find(
        (d: { number: string }) => !before.invoices.some((b) => b.number === d.number),
      );
      expect(newest.number).toBe(last.number.replace(/\d+$/, String(last.sequence + 1)));
    } finally {
      await t.close();
      await database.close();
    }
  }, 240_000);
});
