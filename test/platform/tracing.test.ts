// Traces end to end: real server processes (api and worker on PostgreSQL + Redis, one `all`
// process on the embedded database) export OTLP/HTTP JSON to a receiver in this test. One
// checkout paid through Khalti (a fake of its API) makes one trace: the request's span named by
// its route template, its SQL statements, the call to Khalti, and the order mail's
// job on the worker, and a webhook delivery of the new order (its job and its POST to the
// receiver). No attribute carries a token, an e-mail address, a phone number or a query
// string, and the log lines carry the trace's id.
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { DEMO_ADMIN, DEMO_CUSTOMER, seedDemoStore } from '../../scripts/seed-demo';
import { openDatabase, postgresDatabase } from '../../src/platform/db/database';
import { createTestApp } from '../helpers/app';
import { demoSeedDeps } from '../helpers/demo';
import { type FakeKhalti, startFakeKhalti } from '../helpers/fake-khalti';
import { servicesTier, serviceUrls, withDatabase } from '../helpers/services';

interface ExportedSpan {
  service: string;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes: Record<string, unknown>;
}

const KHALTI_KEY = 'sandbox-khalti-secret-of-the-trace-test';
const RETURN_URL = 'http://localhost:3001/checkout/result';
const spans: ExportedSpan[] = [];
const logs: string[] = [];
const processes: ChildProcess[] = [];
let receiver: http.Server;
let hookReceiver: http.Server;
let hookUrl: string;
let khalti: FakeKhalti;
let base: string;
let dropDatabase: (() => Promise<void>) | undefined;
const dataDir = mkdtempSync(path.join(tmpdir(), 'pasal-trace-'));

function startReceiver(): Promise<string> {
  receiver = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => {
      body += chunk;
    });
    req.on('end', () => {
      if (req.url === '/v1/traces') {
        const data = JSON.parse(body) as {
          resourceSpans: Array<{
            resource: { attributes: Array<{ key: string; value: { stringValue?: string } }> };
            scopeSpans: Array<{
              spans: Array<
                Omit<ExportedSpan, 'attributes' | 'service'> & {
                  attributes?: Array<{ key: string; value: Record<string, unknown> }>;
                }
              >;
            }>;
          }>;
        };
        for (const rs of data.resourceSpans) {
          const service =
            rs.resource.attributes.find((a) => a.key === 'service.name')?.value.stringValue ?? '';
          for (const ss of rs.scopeSpans) {
            for (const s of ss.spans) {
              const attributes = Object.fromEntries(
                (s.attributes ?? []).map((a) => [a.key, Object.values(a.value)[0]]),
              );
              spans.push({ ...s, service, attributes });
            }
          }
        }
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{}');
    });
  });
  return new Promise((resolve) =>
    receiver.listen(0, '127.0.0.1', () =>
      resolve(`http://127.0.0.1:${(receiver.address() as AddressInfo).port}`),
    ),
  );
}

/** A migrated database holding the demo store, for the servers to start on. */
async function seededDatabase(): Promise<string | undefined> {
  if (!servicesTier) {
    const database = await openDatabase({ poolSize: 1, dataDir });
    const t = await createTestApp({ database });
    await seedDemoStore(demoSeedDeps(t));
    await t.close();
    await database.close();
    return undefined;
  }
  const name = `pasal_trace_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serviceUrls().databaseUrl });
  await admin.connect();
  await admin.query(`create database ${name} template ${inject('postgresTemplate')}`);
  dropDatabase = async () => {
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  };
  const url = withDatabase(serviceUrls().databaseUrl, name);
  const database = postgresDatabase(url, 2);
  const t = await createTestApp({ database });
  await seedDemoStore(demoSeedDeps(t));
  await t.close();
  await database.close();
  return url;
}

/** A webhook receiver on this machine: answers 204 to every message. */
async function startHookReceiver(): Promise<string> {
  hookReceiver = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(204).end());
  });
  await new Promise<void>((resolve) => hookReceiver.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(hookReceiver.address() as AddressInfo).port}/hooks/pasal`;
}

beforeAll(async () => {
  const endpoint = await startReceiver();
  hookUrl = await startHookReceiver();
  khalti = await startFakeKhalti(KHALTI_KEY);
  const databaseUrl = await seededDatabase();
  const port = 20_000 + Math.floor(Math.random() * 20_000);
  base = `http://127.0.0.1:${port}`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'development',
    LOG_LEVEL: 'info',
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    CONSOLE_ENABLED: 'false',
    RATE_LIMIT_ENABLED: 'false',
    OTEL_EXPORTER_OTLP_ENDPOINT: endpoint,
    OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
    OTEL_BSP_SCHEDULE_DELAY: '100',
    PAYMENT_RETURN_URL_ALLOWLIST: RETURN_URL,
    PAYMENT_GATEWAY_WALLET_B: 'khalti',
    KHALTI_SECRET_KEY: KHALTI_KEY,
    KHALTI_BASE_URL: khalti.baseUrl,
    WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
    DATABASE_URL: databaseUrl ?? '',
    REDIS_URL: servicesTier ? serviceUrls().redisUrl : '',
    REDIS_PREFIX: `pasal-trace-${randomBytes(4).toString('hex')}`,
  };
  delete env.TEST_SERVICES;
  delete env.OTEL_SERVICE_NAME;
  for (const role of servicesTier ? ['api', 'worker'] : ['all']) {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', role], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout?.on('data', (chunk: Buffer) =>
      logs.push(...chunk.toString('utf8').split('\n').filter(Boolean)),
    );
    child.stderr?.on('data', (chunk: Buffer) => logs.push(chunk.toString('utf8')));
    processes.push(child);
  }
  for (let i = 0; i < 1800; i++) {
    const up = await fetch(`${base}/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (up && (!servicesTier || logs.some((l) => l.includes('Pasal worker running')))) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`the servers did not start:\n${logs.join('\n')}`);
}, 240_000);

afterAll(async () => {
  for (const child of processes) child.kill('SIGTERM');
  await Promise.all(
    processes.map((child) => new Promise((r) => (child.exitCode !== null ? r(null) : child.once('exit', r)))),
  );
  receiver?.close();
  hookReceiver?.close();
  await khalti?.close();
  await dropDatabase?.();
  rmSync(dataDir, { recursive: true, force: true });
});

async function call(method: string, url: string, token?: string, body?: unknown) {
  const res = await fetch(`${base}${url}`, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await res.json()) as { data: Record<string, unknown> };
  expect(res.status, `${method} ${url}: ${JSON.stringify(json).slice(0, 300)}`).toBeLessThan(300);
  return json.data;
}

it('one checkout is one trace: the request, its SQL, the call to Khalti, the mail job and the webhook delivery on the worker', async () => {
  const staff = await call('POST', '/api/auth/login/email', undefined, {
    email: DEMO_ADMIN.email,
    password: DEMO_ADMIN.password,
  });
  const staffToken = (staff.tokens as { accessToken: string }).accessToken;
  await call('POST', '/api/admin/webhooks', staffToken, { url: hookUrl, events: ['order.created'] });
  const signedIn = await call('POST', '/api/mobile/auth/login/email', undefined, {
    email: DEMO_CUSTOMER.email,
    password: DEMO_CUSTOMER.password,
    deviceInfo: { deviceId: 'trace-test', deviceType: 'web', deviceName: 'trace test' },
  });
  const token = (signedIn.tokens as { accessToken: string }).accessToken;
  // A query string with personal data: it must not reach any attribute.
  for (const search of [DEMO_CUSTOMER.email, '+9779841234567']) {
    expect(await call('GET', `/api/products?search=${encodeURIComponent(search)}&size=1`)).toBeDefined();
  }
  const listing = (await call('GET', '/api/products?size=50')) as unknown as Array<{
    id: number;
    productKind: string;
    sp: number;
  }>;
  const product = listing.find((p) => p.productKind === 'physical' && p.sp > 100);
  expect(product).toBeDefined();
  await call('POST', '/api/cart/items', token, { productId: product!.id, quantity: 1 });
  await call('POST', '/api/cart/location', token, {
    districtName: 'Kathmandu',
    addressLine1: 'Ward 1',
    city: 'Kathmandu',
    postalCode: '44600',
  });
  const placed = await call('POST', '/api/orders/checkout', token, {
    gateway: 'gateway_wallet_b',
    returnUrl: RETURN_URL,
  });
  expect(placed.orderId).toBeDefined();

  // The spans of the checkout's trace, once its mail job has run on the worker and been exported.
  const request = () => spans.find((s) => s.name === 'POST /api/orders/checkout' && s.kind === 2);
  let trace: ExportedSpan[] = [];
  for (let i = 0; i < 600; i++) {
    const root = request();
    trace = root ? spans.filter((s) => s.traceId === root.traceId) : [];
    const delivered = trace.some(
      (s) => s.kind === 3 && String(s.attributes['url.full'] ?? '').startsWith(hookUrl),
    );
    if (trace.some((s) => s.name.startsWith('job mail')) && delivered) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  const root = request();
  expect(root, spans.map((s) => s.name).join(', ')).toBeDefined();
  expect(root!.service).toBe(servicesTier ? 'pasal-api' : 'pasal');
  expect(root!.attributes['http.route']).toBe('/api/orders/checkout');
  const job = trace.find((s) => s.name.startsWith('job mail'));
  expect(job, trace.map((s) => s.name).join(', ')).toBeDefined();
  expect(job!.service).toBe(servicesTier ? 'pasal-worker' : 'pasal');
  // The call to Khalti's initiate, made by the api while handling the request.
  const khaltiCall = trace.find(
    (s) => s.kind === 3 && String(s.attributes['url.full'] ?? '').startsWith(khalti.baseUrl),
  );
  expect(khaltiCall, trace.map((s) => `${s.name} ${JSON.stringify(s.attributes)}`).join('\n')).toBeDefined();
  // The webhook delivery: a job span on the worker and, under it, its POST to the receiver.
  const hookJob = trace.find((s) => s.name.startsWith('job webhook'));
  expect(hookJob, trace.map((s) => s.name).join(', ')).toBeDefined();
  expect(hookJob!.service).toBe(servicesTier ? 'pasal-worker' : 'pasal');
  const hookCall = trace.find(
    (s) => s.kind === 3 && String(s.attributes['url.full'] ?? '').startsWith(hookUrl),
  );
  expect(hookCall, trace.map((s) => `${s.name} ${JSON.stringify(s.attributes)}`).join('\n')).toBeDefined();
  expect(hookCall!.parentSpanId).toBe(hookJob!.spanId);
  {
    const statements = trace.filter(
      (s) => s.attributes['db.system.name'] === 'postgresql' || s.attributes['db.system'] === 'postgresql',
    );
    expect(statements.length).toBeGreaterThan(3);
    expect(
      statements.some((s) =>
        /insert into "orders"/i.test(String(s.attributes['db.query.text'] ?? s.attributes['db.statement'])),
      ),
    ).toBe(true);
  }

  // The product search carried the e-mail in its query string: it is nowhere.
  const searched = spans.find((s) => s.name === 'GET /api/products');
  expect(searched).toBeDefined();
  const everything = JSON.stringify(spans.map((s) => ({ name: s.name, attributes: s.attributes })));
  expect(everything).not.toContain(DEMO_CUSTOMER.email);
  expect(everything).not.toContain(encodeURIComponent(DEMO_CUSTOMER.email));
  expect(everything).not.toContain(token);
  expect(everything).not.toContain(KHALTI_KEY);
  expect(everything).not.toMatch(/9841234567/);
  expect(everything).not.toMatch(/[\w.+-]+@[\w-]+\.[\w.-]+/);
  expect(everything).not.toContain('search=');

  // The api's log line of that request names its trace.
  expect(logs.some((l) => l.includes(`"trace_id":"${root!.traceId}"`))).toBe(true);
}, 120_000);
