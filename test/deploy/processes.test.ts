// The recipe's processes, for real, on this machine's PostgreSQL and Redis (services tier):
// two `api` processes and one `worker`, started as compose.yaml starts them (its environment,
// with this machine's addresses in place of the containers'). A customer's request to one API
// queues a job, the worker runs it, and the event it emits reaches a socket on the other API.
// A worker killed with SIGKILL in the middle of a job loses nothing: the job runs again when a
// worker is back.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import pg from 'pg';
import { type Socket as ClientSocket, io } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it, type TestContext } from 'vitest';
import { unlinkMatching } from '../../src/platform/cache/redis-cache';
import { type Database, postgresDatabase } from '../../src/platform/db/database';
import { TEST_JWT_SECRET } from '../helpers/app';
import type { SignedIn } from '../helpers/factories';
import { RECIPE_SECRETS, recipeEnvironment, root } from '../helpers/recipe';
import {
  freePort,
  removeTempDirs,
  type ServerProcess,
  startServer,
  tempDir,
} from '../helpers/server-process';
import { servicesTier, serviceUrls, withDatabase } from '../helpers/services';
import { handshake } from '../helpers/sockets';
import { type OrdersTestApp, ordersTestApp, RETURN_URL } from '../modules/orders/calls';

// The test app below signs the tokens and the payment links the processes must accept.
const TEST_URL_SIGNING_SECRET = 'test-url-signing-secret-long-enough-0123456789';
const prefix = `pasal-deploy-${randomBytes(4).toString('hex')}`;

const databaseName = `pasal_deploy_${randomBytes(6).toString('hex')}`;
let databaseUrl: string;
let database: Database;
let c: OrdersTestApp;
let recipeEnv: Record<string, string>;
let sql: pg.Pool;
// The processes live for the whole file (each test goes on from the one before): stopped in afterAll.
const stops: Array<() => Promise<void> | void> = [];
const fileScope = {
  onTestFinished: (fn: () => Promise<void> | void) => stops.push(fn),
} as unknown as TestContext;

interface AdminNotification {
  type: string;
  body: string;
  data: { orderId?: number };
}

beforeAll(async () => {
  if (!servicesTier) return;
  // An empty database, as on a first deploy: the processes below migrate it themselves.
  const admin = new pg.Client({ connectionString: serviceUrls().databaseUrl });
  await admin.connect();
  await admin.query(`create database ${databaseName}`);
  await admin.end();
  databaseUrl = withDatabase(serviceUrls().databaseUrl, databaseName);
  sql = new pg.Pool({ connectionString: databaseUrl, max: 2 });
  const secrets = {
    ...RECIPE_SECRETS,
    JWT_SECRET: TEST_JWT_SECRET,
    URL_SIGNING_SECRET: TEST_URL_SIGNING_SECRET,
  };
  const recipe = recipeEnvironment('api-1', secrets);
  expect(recipeEnvironment('worker', secrets)).toEqual(recipe);
  recipeEnv = {
    ...recipe,
    // This machine's services in place of the recipe's containers.
    DATABASE_URL: databaseUrl,
    REDIS_URL: serviceUrls().redisUrl,
    REDIS_PREFIX: prefix,
    // No MinIO or Mailpit here: files and mail stay under DATA_DIR (nothing below uploads).
    STORAGE_DRIVER: 'local',
    SMTP_URL: '',
    DATA_DIR: tempDir(),
    HOST: '127.0.0.1',
    PAYMENT_RETURN_URL_ALLOWLIST: RETURN_URL,
    SHUTDOWN_TIMEOUT_MS: '20000',
  };
});

afterAll(async () => {
  if (!servicesTier) return;
  for (const stop of stops.splice(0)) await stop();
  await sql?.end();
  if (database) {
    await unlinkMatching(c.t.platform.redis!, `${prefix}*`);
    await c.t.close();
    await database.close();
  }
  const admin = new pg.Client({ connectionString: serviceUrls().databaseUrl });
  await admin.connect();
  await admin.query(`drop database if exists ${databaseName} with (force)`);
  await admin.end();
  removeTempDirs();
});

/** One Pasal process of the recipe; an API gets its own port and public address. */
async function start(role: 'api' | 'worker') {
  const port = await freePort();
  const env = { ...recipeEnv, PORT: String(port), PUBLIC_BASE_URL: `http://127.0.0.1:${port}` };
  const server = startServer(fileScope, [role], env);
  // Three processes loading the app from source at once on a small, busy machine: minutes, not seconds.
  await server.waitForLog(
    (entry) =>
      role === 'api'
        ? /^Pasal API listening on /.test(entry.msg ?? '')
        : entry.msg === 'Pasal worker running (jobs: bullmq)',
    180_000,
  );
  return { server, url: env.PUBLIC_BASE_URL };
}

/** The processes' job queue, read from outside. */
async function withQueue<T>(read: (queue: import('bullmq').Queue) => Promise<T>): Promise<T> {
  const { Queue } = await import('bullmq');
  const connection = new Redis(serviceUrls().redisUrl);
  const queue = new Queue('jobs', { connection, prefix });
  try {
    return await read(queue);
  } finally {
    await queue.close();
    await connection.quit();
  }
}

/** A mixed order (a cable and a game without keys) that waits for its online payment. */
async function mixedOrderAwaitingPayment(me: SignedIn) {
  const cable = await c.product({ onHand: 5 });
  const game = await c.product({ kind: 'digital', mrp: 500, title: 'Game' });
  await c.cartWith(me, [{ productId: cable }, { productId: game }]);
  const res = await c.checkout(me, 'gateway_card');
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as { orderId: number; paymentId: string };
}

/**
 * The customer pays on the sandbox page and comes back, both on `apiUrl`: the return verifies
 * nothing itself, it queues `order.payment_success` for a worker.
 */
async function payOnSandbox(apiUrl: string, paymentId: string) {
  const pressed = await fetch(`${apiUrl}/api/payments/sandbox/${paymentId}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'outcome=success',
    redirect: 'manual',
  });
  expect(pressed.status).toBe(302);
  const back = await fetch(new URL(pressed.headers.get('location')!, apiUrl), { redirect: 'manual' });
  expect(back.status).toBe(302);
  expect(back.headers.get('location')).toContain('/api/payments/result');
}

async function adminSocket(ctx: TestContext, apiUrl: string) {
  const socket: ClientSocket = io(`${apiUrl}${recipeEnv.WS_NAMESPACE ?? '/realtime'}`, {
    auth: { token: c.admin.tokens.accessToken },
    transports: ['websocket'],
    reconnection: false,
    forceNew: true,
  });
  ctx.onTestFinished(() => {
    socket.disconnect();
  });
  const notices: AdminNotification[] = [];
  socket.on('admin.notification', (n: AdminNotification) => notices.push(n));
  expect(await handshake(socket)).toEqual({ connected: true });
  return notices;
}

async function until<T>(what: string, read: () => Promise<T | undefined> | T | undefined, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

const keysShortFor = (notices: AdminNotification[], orderId: number) =>
  notices.filter((n) => n.type === 'order.digital_keys_short' && n.data.orderId === orderId);

async function orderStatus(orderId: number) {
  const { rows } = await sql.query('select status, payment_status from orders where id = $1', [orderId]);
  return rows[0] as { status: string; payment_status: string };
}

describe.skipIf(!servicesTier)('the recipe: two api processes and a worker', { timeout: 400_000 }, () => {
  let apis: Array<{ server: ServerProcess; url: string }>;
  let worker: ServerProcess;
  let me: SignedIn;

  it('start together on an empty database: one migrates while the others wait, all come up, one takes jobs', async () => {
    const started = await Promise.all([start('api'), start('api'), start('worker')]);
    apis = started.slice(0, 2);
    worker = started[2]!.server;
    for (const { url } of apis) {
      const ready = await fetch(`${url}/ready`);
      // Both stores answer; the rest of /ready (providers in use) is the operations tests' concern.
      expect(await ready.json()).toMatchObject({ message: 'OK', data: { database: 'up', redis: 'up' } });
    }
    // Each migration applied once, though three processes ran the migrator at the same time.
    const journal = JSON.parse(readFileSync(path.join(root, 'drizzle/meta/_journal.json'), 'utf8'));
    const { rows } = await sql.query(
      'select hash, count(*)::int as n from drizzle.__drizzle_migrations group by hash',
    );
    expect(rows).toHaveLength(journal.entries.length);
    expect(rows.every((row) => row.n === 1)).toBe(true);
    // Only the worker takes jobs: one BullMQ worker on the queue, though three processes share it.
    expect(await withQueue((queue) => queue.getWorkersCount())).toBe(1);

    // The test's own app on the same database seeds the catalogue, the customer and the orders;
    // its own Redis prefix keeps its queue apart from the processes'.
    database = postgresDatabase(databaseUrl, 5);
    c = await ordersTestApp({
      database,
      env: {
        PAYMENT_RETURN_URL_ALLOWLIST: RETURN_URL,
        DIGITAL_KEYS_SECRET: RECIPE_SECRETS.DIGITAL_KEYS_SECRET,
      },
    });
    me = await c.customer();
  });

  it("a customer's payment return on api-1 queues a job, the worker runs it, its event reaches a socket on api-2", async (ctx) => {
    const [api1, api2] = apis;
    const notices = await adminSocket(ctx, api2!.url);
    const { orderId, paymentId } = await mixedOrderAwaitingPayment(me);

    await payOnSandbox(api1!.url, paymentId);

    const [notice] = await until(
      'the admin notification',
      () => keysShortFor(notices, orderId)[0] && keysShortFor(notices, orderId),
      30_000,
    );
    expect(notice!.body).toContain('Game');
    expect(await orderStatus(orderId)).toEqual({ status: 'paid', payment_status: 'completed' });
  });

  it('a worker killed with SIGKILL in the middle of the job loses it not: the next worker runs it', async (ctx) => {
    const [api1, api2] = apis;
    const notices = await adminSocket(ctx, api2!.url);
    const { orderId, paymentId } = await mixedOrderAwaitingPayment(me);

    // Holds the order's row: the worker's job gets as far as its UPDATE and waits there.
    const blocker = new pg.Client({ connectionString: databaseUrl });
    await blocker.connect();
    ctx.onTestFinished(() => blocker.end());
    await blocker.query('begin');
    await blocker.query('select id from orders where id = $1 for update', [orderId]);
    await payOnSandbox(api1!.url, paymentId);
    await until(
      'the job to wait on the order row',
      async () => {
        // Asked on another connection: inside the blocker's transaction pg_stat_activity is a
        // snapshot taken at its first read, and would never show the job starting to wait.
        const { rows } = await sql.query(
          `select count(*)::int as n from pg_stat_activity
            where datname = current_database() and wait_event_type = 'Lock' and query ilike '%orders%'`,
        );
        return rows[0].n > 0 ? true : undefined;
      },
      60_000,
    ).catch(async (error) => {
      const { rows } = await sql.query(
        `select state, wait_event_type, wait_event, left(query, 120) as query from pg_stat_activity where datname = current_database()`,
      );
      throw new Error(
        `${error.message}\nsessions: ${JSON.stringify(rows)}\nworker: ${JSON.stringify(worker.logs.slice(-10))}`,
      );
    });

    worker.child.kill('SIGKILL');
    expect(await worker.exited).toEqual({ code: null, signal: 'SIGKILL' });
    await blocker.query('rollback');
    // The dead worker's transaction never committed.
    await sleep(500);
    expect(await orderStatus(orderId)).toEqual({ status: 'payment_pending', payment_status: 'pending' });
    expect(keysShortFor(notices, orderId)).toEqual([]);

    // A worker comes back: BullMQ sees the job's lock lapse (30 s) and hands the job to it.
    worker = (await start('worker')).server;
    // Up to two stall checks 30 s apart after the worker's start, and the run itself.
    await until(
      'the job to run again',
      () => (keysShortFor(notices, orderId).length ? true : undefined),
      180_000,
    ).catch(async (error) => {
      // What a failure needs to be understood: where the job is, and what the database waits on.
      const counts = await withQueue((queue) => queue.getJobCounts());
      const { rows } = await sql.query(
        `select state, wait_event_type, left(query, 80) as query from pg_stat_activity where datname = current_database()`,
      );
      throw new Error(
        `${error.message}\njobs: ${JSON.stringify(counts)}\nsessions: ${JSON.stringify(rows)}\nworker: ${JSON.stringify(worker.logs.slice(-10))}`,
      );
    });
    expect(await orderStatus(orderId)).toEqual({ status: 'paid', payment_status: 'completed' });
    // Once: the killed run left nothing behind.
    await sleep(500);
    expect(keysShortFor(notices, orderId)).toHaveLength(1);
  });
});
