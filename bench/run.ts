// `npm run bench`: builds the server, starts a bare Fastify hello and `node dist/main.js all` in
// child processes, and measures both with autocannon in the same run, so Pasal's figures can be
// read against the machine's own baseline. See bench/README.md.
//   BENCH_DURATION=5 npm run bench                    embedded PGlite, in-process cache
//   DATABASE_URL=… REDIS_URL=… npm run bench          the services setup
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import autocannon from 'autocannon';
import { and, asc, eq } from 'drizzle-orm';
import { seedBulk } from '../scripts/seed-bulk';
import { DEMO_HOME_SECTIONS, DEMO_HOME_TITLE } from '../scripts/seed-demo-content';
import { loadConfig, settings } from '../src/config';
import {
  comparePublicSearch,
  countProducts,
  explainProductSearch,
} from '../src/modules/catalog/products/products.service';
import { products } from '../src/modules/catalog/products/products.table';
import type { Db } from '../src/platform/db/database';
import * as bannerBench from './banners';
import { Latencies, selected, sendJson } from './client';
import * as commerceBench from './commerce';
import * as consoleBench from './console';
import { withDatabase } from './database';
import * as memoryBench from './memory';

const ROOT = path.resolve(import.meta.dirname, '..');
const RESULTS_FILE = path.join(ROOT, 'bench', 'results', 'latest.json');
const HOST = '127.0.0.1';
const CONNECTIONS = 10;
const WARMUP_SECONDS = 2;
// Generous: on the shared 2-core VM with other work running a start has taken over a minute.
const START_TIMEOUT_MS = 180_000;
const STOP_TIMEOUT_MS = 5_000;
/** Pasal settings taken from the bench's own environment; every other one is set here or left default. */
const PASS_THROUGH = ['DATABASE_URL', 'REDIS_URL'] as const;

interface Child {
  name: string;
  proc: ChildProcess;
  exited: Promise<void>;
  done: boolean;
}

interface Scenario {
  name: string;
  /** `pasal-uncached`: a second Pasal, started after the first stops, with the list cache off. */
  server: 'bare' | 'pasal' | 'pasal-uncached';
  path: string;
}

interface Row {
  scenario: string;
  path: string;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  requests: number;
  ratioToBare: number;
}

/** The catalog scenarios' search terms: a typo of common title words, and a rarer exact word. */
const SEARCH_TYPO = 'singng bowl';
const SEARCH_WORD = 'manjushri';
/** More typos, only for the check that the search finds what its former query shape found. */
const CHECKED_TYPOS = [
  'budha statue',
  'mandla paintng',
  'pashmna shawl',
  'tibetan singng bowl',
  'manjusri statue',
  'copper thanka',
  'yak wol blanket',
  'zzqx',
];

/** The public product list, plain and with each search, as a client sends it. */
function catalogScenarios(server: Scenario['server'], label: string): Scenario[] {
  return [
    { name: `Pasal GET /api/products (${label})`, server, path: '/api/products' },
    ...[SEARCH_WORD, SEARCH_TYPO].map((term) => ({
      name: `Pasal GET /api/products?search=${term} (${label})`,
      server,
      path: `/api/products?search=${encodeURIComponent(term)}`,
    })),
  ];
}

/** The sizes of the cached answers whose ratios the issues set targets for (issue 12). */
interface AnswerSizes {
  homePage: number;
  bannerServe: number;
}

/**
 * Every scenario in order; `productPath` is one published product of the bench catalog. The
 * bare rows after the hello send JSON text of the home page's and a banner answer's size: the
 * ceiling of those cached reads' ratios when Pasal's own cost is left out.
 */
const scenarios = (productPath: string, sizes: AnswerSizes): Scenario[] => [
  { name: 'bare Fastify hello', server: 'bare', path: '/' },
  ...[
    { what: 'the home content page', bytes: sizes.homePage },
    { what: 'a banner serving answer', bytes: sizes.bannerServe },
  ].map(({ what, bytes }) => ({
    name: `bare Fastify, ${(bytes / 1024).toFixed(1)} KB of JSON text (${what}'s size)`,
    server: 'bare' as const,
    path: `/sized/${bytes}`,
  })),
  { name: 'Pasal GET /health', server: 'pasal', path: '/health' },
  { name: 'Pasal GET /api/system/status (cache)', server: 'pasal', path: '/api/system/status' },
  { name: 'Pasal GET /ready (database)', server: 'pasal', path: '/ready' },
  { name: 'Pasal GET /api/content/pages/home (cache)', server: 'pasal', path: '/api/content/pages/home' },
  ...catalogScenarios('pasal', 'list cache on'),
  { name: 'Pasal GET /api/products/:slug (cache on)', server: 'pasal', path: productPath },
  { name: 'Pasal GET /api/banners/serve/:slug (cache hit)', server: 'pasal', path: bannerBench.servePath },
  ...catalogScenarios('pasal-uncached', 'list cache off'),
  { name: 'Pasal GET /api/products/:slug (cache off)', server: 'pasal-uncached', path: productPath },
  {
    name: 'Pasal GET /api/banners/serve/:slug (cache miss)',
    server: 'pasal-uncached',
    path: bannerBench.servePath,
  },
];

/** The detail path of the first published, sellable product of the bench catalog. */
function publishedProductPath(env: NodeJS.ProcessEnv): Promise<string> {
  return withDatabase(env, async (db) => {
    const [row] = await db
      .select({ slug: products.slug })
      .from(products)
      .where(and(eq(products.status, 'published'), eq(products.isSellable, true)))
      .orderBy(asc(products.id))
      .limit(1);
    if (!row) throw new Error('The bench catalog has no published product');
    return `/api/products/${encodeURIComponent(row.slug)}`;
  });
}

function catalogSize(): number {
  const raw = process.env.BENCH_PRODUCTS;
  if (raw === undefined || raw.trim() === '') return 100_000;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) {
    throw new Error(`BENCH_PRODUCTS must be a whole number, got "${raw}"`);
  }
  return value;
}

/**
 * Fills the bench database up to `target` products with the bulk seeder (before the server
 * starts: PGlite admits one process), and returns the search plans at that size.
 */
async function prepareCatalog(
  env: NodeJS.ProcessEnv,
  target: number,
): Promise<{
  products: number;
  plans: Record<string, string[]>;
  searchChecks: Array<{ term: string; matches: number; samePage: boolean }>;
}> {
  const config = loadConfig({ ...env, NODE_ENV: 'development' });
  return withDatabase(env, async (db) => {
    const existing = await countProducts(db);
    if (existing < target) {
      console.error(`Seeding the catalog: ${existing} → ${target} products (npm run seed:bulk) …`);
      await seedBulk(db, { products: target - existing });
    }
    const plans: Record<string, string[]> = {};
    for (const term of [SEARCH_WORD, SEARCH_TYPO]) {
      // EXPLAIN ANALYZE twice: the first run reads the pages into memory, as the bench's warm-up does.
      await explainProductSearch({ db, config }, term, { analyze: true });
      plans[term] = await explainProductSearch({ db, config }, term, { analyze: true });
    }
    return { products: await countProducts(db), plans, searchChecks: await checkSearches(db, config) };
  });
}

/**
 * For each search term: the matches, and whether the first page (ids in order) and the total
 * equal those of the search's former query shape (`title % term` for typos). Fails the bench
 * otherwise: a faster search must find the same products.
 */
async function checkSearches(
  db: Db,
  config: ReturnType<typeof loadConfig>,
): Promise<Array<{ term: string; matches: number; samePage: boolean }>> {
  const checks = [];
  console.error('\nSearch answers against the former query shape (first page ids, total):');
  for (const term of [SEARCH_WORD, SEARCH_TYPO, ...CHECKED_TYPOS]) {
    const { current, former } = await comparePublicSearch({ db, config }, term);
    const samePage = current.count === former.count && current.ids.join(',') === former.ids.join(',');
    console.error(
      `  "${term}": ${current.count} matches, first page and total ${samePage ? 'the same' : `DIFFER (former: ${former.count})`}`,
    );
    checks.push({ term, matches: current.count, samePage });
  }
  if (checks.some((c) => !c.samePage)) throw new Error('the product search no longer finds what it found');
  return checks;
}

/** The admin the bench signs in as to write the home page (a scratch database only). */
const BENCH_ADMIN = { email: 'bench-admin@pasal.local', password: 'pasal-bench-admin-password' };

/** Writes the demo home page through the admin API, as an admin would, before it is read. */
async function prepareHomePage(baseUrl: string): Promise<void> {
  const send = (method: string, path: string, body: unknown, token?: string) =>
    sendJson(baseUrl, method, path, body, token);
  const login = await send('POST', '/api/auth/login/email', BENCH_ADMIN);
  const token = login.data.tokens.accessToken as string;
  await send('PATCH', '/api/admin/content/pages/home/meta', { title: DEMO_HOME_TITLE }, token);
  for (const [position, section] of DEMO_HOME_SECTIONS.entries()) {
    await send(
      'PUT',
      `/api/admin/content/pages/home/sections/${section.key}`,
      { payloadJson: section.payload, position },
      token,
    );
  }
}

const children = new Set<Child>();
/** Temporary folder of the Pasal child: its working directory, with DATA_DIR inside. */
let workDir: string | undefined;
let running: autocannon.Instance | undefined;

function durationSeconds(): number {
  const raw = process.env.BENCH_DURATION;
  if (raw === undefined || raw.trim() === '') return 10;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) {
    throw new Error(`BENCH_DURATION must be a positive number of seconds, got "${raw}"`);
  }
  return value;
}

function randomSecret(): string {
  return randomBytes(36).toString('base64url'); // 48 characters
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, HOST, () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => (port ? resolve(port) : reject(new Error('no free port'))));
    });
  });
}

/** A URL without its credentials, for printing. */
function describeUrl(value: string): string {
  try {
    const url = new URL(value);
    return `${url.protocol}//${url.host}${url.pathname === '/' ? '' : url.pathname}`;
  } catch {
    return '(unparsable URL)';
  }
}

function runCommand(command: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const proc = spawn(command, args, { cwd: ROOT, stdio: 'inherit' });
    proc.once('error', reject);
    proc.once('exit', (code, signal) =>
      code === 0 ? resolve() : reject(new Error(`${command} ${args.join(' ')} failed (${code ?? signal})`)),
    );
  });
}

function startChild(name: string, args: string[], env: NodeJS.ProcessEnv, cwd = ROOT): Child {
  // BENCH_CPU_PROFILE_DIR: every Pasal process writes a V8 CPU profile there when it stops
  // (Node refuses --cpu-prof in NODE_OPTIONS, so it is passed here).
  const profileDir = process.env.BENCH_CPU_PROFILE_DIR;
  const profile =
    profileDir && name.startsWith('pasal')
      ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(profileDir)}`]
      : [];
  const proc = spawn(process.execPath, [...profile, ...args], {
    cwd,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let markDone: () => void = () => {};
  const child: Child = { name, proc, done: false, exited: new Promise((resolve) => (markDone = resolve)) };
  proc.once('exit', () => {
    child.done = true;
    markDone();
  });
  proc.once('error', (error) => {
    console.error(`[${name}] could not start: ${error.message}`);
    child.done = true;
    markDone();
  });
  // Children log at warn and above only: whatever they say is worth seeing next to the figures.
  for (const stream of [proc.stdout, proc.stderr]) {
    if (stream) createInterface({ input: stream }).on('line', (line) => console.error(`[${name}] ${line}`));
  }
  children.add(child);
  return child;
}

async function stopChild(child: Child): Promise<void> {
  if (!child.done) {
    child.proc.kill('SIGTERM');
    const timer = setTimeout(() => child.proc.kill('SIGKILL'), STOP_TIMEOUT_MS);
    await child.exited;
    clearTimeout(timer);
  }
  children.delete(child);
}

let cleaning: Promise<void> | undefined;
function cleanup(): Promise<void> {
  cleaning ??= (async () => {
    running?.stop();
    await Promise.all([...children].map(stopChild));
    if (workDir) rmSync(workDir, { recursive: true, force: true });
    workDir = undefined;
  })();
  return cleaning;
}

// Last resort when the bench dies some other way: nothing async runs in an 'exit' listener.
process.on('exit', () => {
  for (const child of children) if (!child.done) child.proc.kill('SIGKILL');
  if (workDir) rmSync(workDir, { recursive: true, force: true });
});
for (const [signal, code] of [
  ['SIGINT', 130],
  ['SIGTERM', 143],
] as const) {
  process.once(signal, () => {
    console.error(`\n${signal}: stopping the servers`);
    void cleanup().finally(() => process.exit(code));
  });
}

async function waitUntilAnswering(child: Child, url: string): Promise<void> {
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.done) {
      throw new Error(
        `${child.name} exited (${child.proc.exitCode ?? child.proc.signalCode}) before answering`,
      );
    }
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(1_000) });
      await response.arrayBuffer();
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await sleep(100);
  }
  throw new Error(`${child.name} did not answer ${url} within ${START_TIMEOUT_MS / 1000} s`);
}

/** One request first, so a wrong route fails with its answer instead of a table of 404s. */
/** The length in bytes of a 200 answer's body. */
async function answerSize(url: string): Promise<number> {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url} answered ${response.status}`);
  return (await response.arrayBuffer()).byteLength;
}

async function checkAnswers(url: string): Promise<unknown> {
  const response = await fetch(url, { signal: AbortSignal.timeout(5_000) });
  const text = await response.text();
  if (!response.ok) throw new Error(`GET ${url} answered ${response.status}: ${text.slice(0, 500)}`);
  return JSON.parse(text);
}

function cannon(url: string, duration: number, latencies?: Latencies): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => {
    const instance = autocannon({ url, connections: CONNECTIONS, duration }, (error, result) => {
      running = undefined;
      if (error) reject(error instanceof Error ? error : new Error(String(error)));
      else resolve(result);
    });
    if (latencies) instance.on('response', (_client, _status, _bytes, ms) => latencies.add(ms));
    running = instance;
  });
}

async function measure(scenario: Scenario, baseUrl: string, duration: number): Promise<Row> {
  const url = `${baseUrl}${scenario.path}`;
  await checkAnswers(url);
  process.stderr.write(`${scenario.name}: warm-up ${WARMUP_SECONDS} s, then ${duration} s … `);
  await cannon(url, WARMUP_SECONDS);
  const latencies = new Latencies();
  const result = await cannon(url, duration, latencies);
  process.stderr.write(`${Math.round(result.requests.average).toLocaleString('en-US')} req/s\n`);
  return rowOf(scenario.name, scenario.path, result, latencies, result.requests.average);
}

/** A table row from an autocannon run; `perSecond` is what the row counts (requests, or orders). */
function rowOf(
  scenario: string,
  path: string,
  result: autocannon.Result,
  latencies: Latencies,
  perSecond: number,
): Row {
  const [p50, p99] = latencies.percentiles([50, 99]);
  return {
    scenario,
    path,
    requestsPerSecond: perSecond,
    p50Ms: p50!,
    p99Ms: p99!,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    requests: result.requests.total,
    ratioToBare: Number.NaN,
  };
}

function formatTable(rows: Row[]): string {
  const header = ['scenario', 'req/s (avg)', 'p50 ms', 'p99 ms', 'non-2xx', 'errors', 'vs bare'];
  const body = rows.map((r) => [
    r.scenario,
    Math.round(r.requestsPerSecond).toLocaleString('en-US'),
    r.p50Ms.toFixed(2),
    r.p99Ms.toFixed(2),
    String(r.non2xx),
    String(r.errors),
    Number.isFinite(r.ratioToBare) ? `${r.ratioToBare.toFixed(2)}×` : '–',
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((cells) => cells[i]!.length)));
  const line = (cells: string[]) =>
    cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  ');
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...body.map(line)].join('\n');
}

function gitCommit(): string | undefined {
  try {
    return execFileSync('git', ['rev-parse', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).trim();
  } catch {
    return undefined;
  }
}

async function main(): Promise<number> {
  const duration = durationSeconds();
  const passed = Object.fromEntries(
    PASS_THROUGH.flatMap((name) => (process.env[name]?.trim() ? [[name, process.env[name]!.trim()]] : [])),
  );
  const engines = {
    database: passed.DATABASE_URL ? `postgres ${describeUrl(passed.DATABASE_URL)}` : 'pglite (embedded)',
    cache: passed.REDIS_URL ? `redis ${describeUrl(passed.REDIS_URL)}` : 'memory (in-process)',
  };

  // BENCH_BUILD=0 measures dist/ as it is (e.g. an earlier build copied back, for a before/after).
  if (process.env.BENCH_BUILD === '0') console.error('BENCH_BUILD=0: measuring dist/ as it is');
  else {
    console.error('Building the server (npm run build) …');
    await runCommand('npm', ['run', 'build']);
  }

  // The inherited environment minus every Pasal setting, so a developer's shell (LOG_LEVEL=debug,
  // DOCS_ENABLED=false, …) does not change what is measured. Only PASS_THROUGH is kept.
  const baseEnv: NodeJS.ProcessEnv = { ...process.env };
  for (const name of Object.keys(settings)) delete baseEnv[name];

  const [barePort, pasalPort] = [await freePort(), await freePort()];
  const bare = startChild('bare', ['bench/bare-server.mjs'], {
    ...baseEnv,
    NODE_ENV: 'production',
    HOST,
    PORT: String(barePort),
  });
  // Run from an empty folder, so a developer's .env in the repository is not read either.
  workDir = mkdtempSync(path.join(os.tmpdir(), 'pasal-bench-'));
  const pasalEnv: NodeJS.ProcessEnv = {
    ...baseEnv,
    ...passed,
    NODE_ENV: 'production',
    HOST,
    PORT: String(pasalPort),
    DATA_DIR: path.join(workDir, 'data'),
    LOG_LEVEL: 'warn',
    RATE_LIMIT_ENABLED: 'false',
    BOOTSTRAP_ADMIN_EMAIL: BENCH_ADMIN.email,
    BOOTSTRAP_ADMIN_PASSWORD: BENCH_ADMIN.password,
    JWT_SECRET: randomSecret(),
    URL_SIGNING_SECRET: randomSecret(),
    // A shared Redis must not see the bench's keys (cache, job schedules) mixed with a real deployment's.
    REDIS_PREFIX: 'pasal-bench',
    METRICS_TOKEN: bannerBench.METRICS_TOKEN,
    // The checkout row with a slow webhook receiver posts to this machine (bench/commerce.ts).
    WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
  };
  // The server as a shop starts it and as the issues measure it from outside: `node dist/main.js`
  // with default settings (only the production secrets, the port and the engines) on a fresh
  // DATA_DIR; on the embedded tier that is also a new shop's first start.
  const firstStart = await measureFirstStart({
    ...baseEnv,
    ...passed,
    NODE_ENV: 'production',
    HOST,
    JWT_SECRET: pasalEnv.JWT_SECRET,
    URL_SIGNING_SECRET: pasalEnv.URL_SIGNING_SECRET,
  });
  const catalog = await prepareCatalog(pasalEnv, catalogSize());
  for (const [term, plan] of Object.entries(catalog.plans)) {
    console.error(
      `\nPlan of the public product search "${term}" at ${catalog.products} products:\n${plan.join('\n')}\n`,
    );
  }
  const bannerFixture = await bannerBench.prepareBanners(pasalEnv);
  const productPath = await publishedProductPath(pasalEnv);
  console.error(`Signing in ${commerceBench.customerCount()} bench customers …`);
  const commerceFixture = await commerceBench.prepareCommerce(pasalEnv, commerceBench.customerCount());
  // On PostgreSQL + Redis the commerce scenarios run a second time on the deployment
  // docs/operations.md describes (api and worker processes), with a pool of their own.
  const splitFixture = passed.DATABASE_URL
    ? await commerceBench.prepareCommerce(pasalEnv, commerceBench.customerCount(), 'b')
    : undefined;
  let tracking: bannerBench.TrackingFigures | undefined;
  const bareUrl = `http://${HOST}:${barePort}`;
  const pasalUrl = `http://${HOST}:${pasalPort}`;
  await waitUntilAnswering(bare, `${bareUrl}/`);

  // Pasal alone on the machine while it starts, so its start-up time is its own.
  console.error('Starting Pasal (node dist/main.js all) …');
  const spawnedAt = performance.now();
  const pasal = startChild('pasal', [path.join(ROOT, 'dist', 'main.js'), 'all'], pasalEnv, workDir);
  const memory: memoryBench.MemoryFigures = {
    start: await memoryBench.measureStart(
      'pasal',
      pasal.proc.pid,
      spawnedAt,
      `${pasalUrl}/health`,
      () => pasal.done,
      START_TIMEOUT_MS,
    ),
    firstStart,
  };
  console.error(
    `Pasal answers (${(memory.start.startToHealthyMs / 1000).toFixed(2)} s); ` +
      `idle RSS ${memory.start.idleRssMb} MB after ${memoryBench.IDLE_SECONDS} s.`,
  );
  await prepareHomePage(pasalUrl);
  const ready = (await checkAnswers(`${pasalUrl}/ready`)) as { data?: { database?: string; redis?: string } };
  console.error(
    `Engines: database ${engines.database}, cache ${engines.cache}` +
      ` (/ready: database ${ready.data?.database}, redis ${ready.data?.redis})`,
  );
  console.error(
    `${CONNECTIONS} connections, ${duration} s per scenario after a ${WARMUP_SECONDS} s warm-up, ` +
      `node ${process.version}, ${os.availableParallelism()} CPUs\n`,
  );

  const sizes: AnswerSizes = {
    homePage: await answerSize(`${pasalUrl}/api/content/pages/home`),
    bannerServe: await answerSize(`${pasalUrl}${bannerBench.servePath}`),
  };
  const rows: Row[] = [];
  let uncachedUrl: string | undefined;
  const planned = scenarios(productPath, sizes).filter((s) => selected(s.name));

  // The first Pasal's commerce and tracking rows, then it stops: before the first uncached row,
  // or after the last row when BENCH_ONLY leaves none.
  let firstDone = false;
  const finishFirstPasal = async () => {
    firstDone = true;
    rows.push(...(await measureCommerce(pasalUrl, commerceFixture, duration, true)));
    if (selected('Pasal POST /api/banners/events/impression'))
      tracking = await measureTracking(rows, pasalUrl, bannerFixture, duration);
    memory.idleRssAfterLoadMb = await memoryBench.idleRssAfterLoad(pasal.proc.pid);
    await stopChild(pasal);
    if (splitFixture && selected('[api + worker processes]'))
      rows.push(...(await measureCommerceOnApiAndWorker(pasalEnv, splitFixture, duration)));
  };
  for (const [index, scenario] of planned.entries()) {
    if (scenario.server === 'pasal-uncached' && !uncachedUrl) {
      await finishFirstPasal();
      // The same database (PGlite admits one process at a time), the list cache off: what
      // every query costs when the cache cannot answer.
      const port = await freePort();
      const uncached = startChild(
        'pasal-uncached',
        [path.join(ROOT, 'dist', 'main.js'), 'all'],
        {
          ...pasalEnv,
          PORT: String(port),
          CATALOG_PUBLIC_LIST_CACHE_SECONDS: '0',
          BANNER_SERVE_CACHE_TTL_SECONDS: '0',
        },
        workDir,
      );
      uncachedUrl = `http://${HOST}:${port}`;
      await waitUntilAnswering(uncached, `${uncachedUrl}/health`);
    }
    const base = scenario.server === 'bare' ? bareUrl : scenario.server === 'pasal' ? pasalUrl : uncachedUrl!;
    rows.push(await measure(scenario, base, duration));
    // The baseline is measured right before Pasal; it has no more to do afterwards.
    if (scenario.server === 'bare' && planned[index + 1]?.server !== 'bare') await stopChild(bare);
  }
  if (!firstDone) await finishFirstPasal();
  const baseline = rows.find((r) => r.path === '/' && r.scenario.startsWith('bare'))?.requestsPerSecond;
  for (const row of rows) row.ratioToBare = baseline ? row.requestsPerSecond / baseline : Number.NaN;
  if (tracking) {
    // Counted once every server has stopped (PGlite admits one process).
    await Promise.all([...children].map(stopChild));
    tracking.recorded = await bannerBench.countRecordedImpressions(pasalEnv);
  }
  const trackingLost =
    tracking &&
    (tracking.recorded === undefined ||
      tracking.recorded < tracking.uniqueAccepted ||
      tracking.recorded > tracking.uniqueSent);

  const consoleFigures =
    process.env.BENCH_CONSOLE === '0' ? undefined : await measureConsole(pasalEnv, passed);

  const failed = rows.filter((r) => r.errors > 0 || r.non2xx > 0);
  console.log(
    `\nPasal bench — database ${engines.database}, cache ${engines.cache}, catalog ${catalog.products} products\n`,
  );
  console.log(formatTable(rows));
  console.log(`\n${memoryBench.formatMemory(memory)}`);
  if (consoleFigures) console.log(`\n${consoleBench.formatConsole(consoleFigures)}`);
  if (tracking) {
    console.log(
      `\nImpression tracking: ${Math.round(tracking.acceptedPerSecond).toLocaleString('en-US')} events accepted/s; ` +
        `${tracking.sent} sent (${tracking.uniqueSent} unique correlation ids, the rest repeats), ` +
        `${tracking.accepted} answered 202 (${tracking.uniqueAccepted} unique ids), ` +
        `${tracking.recorded} rows recorded after the queue drained` +
        (trackingLost
          ? ' — MISMATCH'
          : tracking.recorded === tracking.uniqueSent
            ? ' (= unique ids sent)'
            : ` (unique ids sent minus ${tracking.uniqueSent - tracking.recorded!} cut off unsent at the end of the run)`),
    );
  }

  mkdirSync(path.dirname(RESULTS_FILE), { recursive: true });
  const report = {
    date: new Date().toISOString(),
    commit: gitCommit(),
    node: process.version,
    platform: `${os.platform()} ${os.arch()}`,
    cpus: os.availableParallelism(),
    connections: CONNECTIONS,
    warmupSeconds: WARMUP_SECONDS,
    durationSeconds: duration,
    engines,
    catalogProducts: catalog.products,
    searchPlans: catalog.plans,
    searchChecks: catalog.searchChecks,
    ok: failed.length === 0 && !trackingLost,
    bannerTracking: tracking,
    memory,
    console: consoleFigures,
    scenarios: rows.map((r) => ({
      ...r,
      requestsPerSecond: Math.round(r.requestsPerSecond * 10) / 10,
      p50Ms: Math.round(r.p50Ms * 1000) / 1000,
      p99Ms: Math.round(r.p99Ms * 1000) / 1000,
      ratioToBare: Math.round(r.ratioToBare * 1000) / 1000,
    })),
  };
  writeFileSync(RESULTS_FILE, `${JSON.stringify(report, null, 2)}\n`);
  console.log(`\nWritten to ${path.relative(ROOT, RESULTS_FILE)}`);

  if (failed.length) {
    console.error(`\nFAILED: errors or non-2xx answers in: ${failed.map((r) => r.scenario).join(', ')}`);
    return 1;
  }
  if (trackingLost) {
    console.error('\nFAILED: banner impression rows do not match the unique correlation ids sent');
    return 1;
  }
  return 0;
}

/** `node dist/main.js` (default role) on an empty data folder of its own, then stopped and the folder removed. */
async function measureFirstStart(env: NodeJS.ProcessEnv): Promise<memoryBench.StartFigures> {
  const dataDir = path.join(workDir!, 'first-start');
  const port = await freePort();
  console.error(
    'node dist/main.js with default settings on an empty DATA_DIR (embedded: a copy of the build’s migrated template) …',
  );
  const spawnedAt = performance.now();
  const child = startChild(
    'pasal-first-start',
    [path.join(ROOT, 'dist', 'main.js')],
    { ...env, DATA_DIR: dataDir, PORT: String(port) },
    workDir,
  );
  try {
    const figures = await memoryBench.measureStart(
      child.name,
      child.proc.pid,
      spawnedAt,
      `http://${HOST}:${port}/health`,
      () => child.done,
      START_TIMEOUT_MS,
    );
    console.error(
      `First start: healthy in ${(figures.startToHealthyMs / 1000).toFixed(2)} s, idle RSS ${figures.idleRssMb} MB.`,
    );
    return figures;
  } finally {
    await stopChild(child);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * The console section (bench/console.ts) on a store of its own: the embedded database in a
 * folder of this run, whatever tier the rest measured (BENCH_CONSOLE=0 skips it).
 */
async function measureConsole(
  env: NodeJS.ProcessEnv,
  passed: Record<string, string>,
): Promise<consoleBench.ConsoleFigures> {
  const consoleEnv: NodeJS.ProcessEnv = { ...env, DATA_DIR: path.join(workDir!, 'console') };
  for (const name of Object.keys(passed)) delete consoleEnv[name];
  return consoleBench.measureConsole(consoleEnv, async (serverEnv) => {
    const port = await freePort();
    const child = startChild(
      'pasal-console',
      [path.join(ROOT, 'dist', 'main.js'), 'all'],
      { ...serverEnv, PORT: String(port) },
      workDir,
    );
    const baseUrl = `http://${HOST}:${port}`;
    await waitUntilAnswering(child, `${baseUrl}/health`);
    return { baseUrl, stop: () => stopChild(child) };
  });
}

/** Cart, checkout and order list on the first Pasal, as rows of the table. */
async function measureCommerce(
  baseUrl: string,
  fixture: commerceBench.CommerceFixture,
  duration: number,
  slowWebhook = false,
): Promise<Row[]> {
  const measured = await commerceBench.measureCommerce(baseUrl, BENCH_ADMIN, fixture, {
    seconds: duration,
    warmupSeconds: WARMUP_SECONDS,
    connections: CONNECTIONS,
    slowWebhook,
  });
  return measured.map((m) => rowOf(m.name, m.path, m.result, m.latencies, m.perSecond));
}

/**
 * The commerce scenarios against `node dist/main.js api` with a `node dist/main.js worker`
 * beside it (PostgreSQL + Redis only), as docs/operations.md deploys Pasal: the order emails and
 * other jobs run in the worker's process instead of the API's.
 */
async function measureCommerceOnApiAndWorker(
  env: NodeJS.ProcessEnv,
  fixture: commerceBench.CommerceFixture,
  duration: number,
): Promise<Row[]> {
  const port = await freePort();
  const api = startChild(
    'pasal-api',
    [path.join(ROOT, 'dist', 'main.js'), 'api'],
    { ...env, PORT: String(port) },
    workDir,
  );
  const worker = startChild('pasal-worker', [path.join(ROOT, 'dist', 'main.js'), 'worker'], env, workDir);
  const url = `http://${HOST}:${port}`;
  try {
    await waitUntilAnswering(api, `${url}/health`);
    const rows = await measureCommerce(url, fixture, duration);
    return rows.map((row) => ({ ...row, scenario: `${row.scenario} [api + worker processes]` }));
  } finally {
    await Promise.all([stopChild(api), stopChild(worker)]);
  }
}

/** Impression tracking on the first Pasal: a row of events accepted per second, then the queue drained. */
async function measureTracking(
  rows: Row[],
  baseUrl: string,
  fixture: bannerBench.BannerFixture,
  duration: number,
): Promise<bannerBench.TrackingFigures> {
  const name = 'Pasal POST /api/banners/events/impression (202, queued)';
  process.stderr.write(`${name}: warm-up ${WARMUP_SECONDS} s, then ${duration} s … `);
  const { result, figures, latencies } = await bannerBench.measureTracking(baseUrl, fixture, duration, {
    connections: CONNECTIONS,
    warmupSeconds: WARMUP_SECONDS,
  });
  process.stderr.write(
    `${Math.round(figures.acceptedPerSecond).toLocaleString('en-US')} events/s; draining … `,
  );
  const completed = await bannerBench.waitForTrackingDrain(baseUrl);
  process.stderr.write(`${completed} jobs done\n`);
  const timings = new Latencies();
  for (const ms of latencies) timings.add(ms);
  rows.push(rowOf(name, '/api/banners/events/impression', result, timings, result.requests.average));
  return figures;
}

let exitCode = 1;
try {
  exitCode = await main();
} catch (error) {
  console.error(`\nbench failed: ${error instanceof Error ? error.message : String(error)}`);
} finally {
  await cleanup();
}
process.exit(exitCode);
