// The console section of `npm run bench`: what the back office costs a browser, measured in
// Debian's Chromium (the one the end-to-end tests use) against `node dist/main.js` serving the
// built console. Two figures, as issue 18 sets them:
//   - the JavaScript the sign-in screen loads, gzip-compressed (target: under 200 kB);
//   - the orders list interactive with 10,000 orders in the store (target: under 1 s): from the
//     click on "Orders" in the menu to its first row shown and its search box usable.
// It runs on a store of its own (the demo store, its orders copied up to 10,000) on the
// embedded database, whatever tier the rest of the bench measured: the figures are the
// browser's, and the embedded tier is the slower one for the list query.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { chromium } from '@playwright/test';
import { sql } from 'drizzle-orm';
import { DEMO_ADMIN } from '../scripts/seed-demo';
import { rowsOf } from '../src/modules/catalog/catalog.repository';
import { SIGN_IN_JS_BUDGET_KB, signInScripts } from '../test/e2e/console';
import { withDatabase } from './database';

export const ORDERS_IN_STORE = 10_000;
/** Runs of the orders list after the first (cold) one, to show the warm figure too. */
const WARM_RUNS = 5;

export interface ConsoleFigures {
  orders: number;
  signInScripts: number;
  signInJsGzipKb: number;
  signInJsRawKb: number;
  ordersListColdMs: number;
  ordersListWarmMedianMs: number;
}

export interface ConsoleServer {
  baseUrl: string;
  stop(): Promise<void>;
}

const ROOT = path.resolve(import.meta.dirname, '..');

function seedDemoStore(env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'scripts', 'seed-demo.ts')], {
      cwd: ROOT,
      env: { ...env, NODE_ENV: 'development', LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    proc.once('error', reject);
    proc.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`seed:demo failed (${code})`))));
  });
}

/**
 * The demo store's orders copied until the store holds `total`: each copy keeps its order's
 * customer, statuses, amounts and items, gets its own number, and is placed a few minutes
 * earlier than the last, so the list's newest-first pages look like a busy shop's.
 */
async function copyOrdersUpTo(env: NodeJS.ProcessEnv, total: number): Promise<number> {
  return withDatabase(env, async (db) => {
    const columns = async (table: string) =>
      (
        await rowsOf<{ column_name: string }>(
          db,
          sql`SELECT column_name FROM information_schema.columns
              WHERE table_schema = current_schema() AND table_name = ${table} ORDER BY ordinal_position`,
        )
      ).map((r) => r.column_name);
    const orderColumns = (await columns('orders')).filter(
      (c) => !['id', 'order_number', 'created_at', 'updated_at'].includes(c),
    );
    const itemColumns = (await columns('order_items')).filter((c) => !['id', 'order_id'].includes(c));
    const list = (names: string[], prefix = '') => sql.raw(names.map((c) => `${prefix}"${c}"`).join(', '));
    const orderCount = async () =>
      (await rowsOf<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM orders`))[0]?.n ?? 0;
    const existing = await orderCount();
    if (existing === 0) throw new Error('the demo store has no orders to copy');
    const copies = Math.ceil((total - existing) / existing);
    await db.transaction(async (tx) => {
      // Copy number g of order o is `<o's number>-C<g>`, which is how its items find it below.
      await tx.execute(sql`
        INSERT INTO orders (${list(orderColumns)}, order_number, created_at, updated_at)
        SELECT ${list(orderColumns, 'o.')}, o.order_number || '-C' || g,
               o.created_at - g * interval '7 minutes', o.created_at - g * interval '7 minutes'
        FROM orders o CROSS JOIN generate_series(1, ${copies}) AS g`);
      await tx.execute(sql`
        INSERT INTO order_items (order_id, ${list(itemColumns)})
        SELECT c.id, ${list(itemColumns, 'i.')}
        FROM orders c
        JOIN orders o ON o.order_number = split_part(c.order_number, '-C', 1)
        JOIN order_items i ON i.order_id = o.id
        WHERE c.order_number LIKE '%-C%'`);
    });
    return orderCount();
  });
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
};

/**
 * Seeds the console's store in `env.DATA_DIR`, starts a server on it with `start`, and measures.
 * `start` returns once the server answers; `stop` ends it.
 */
export async function measureConsole(
  env: NodeJS.ProcessEnv,
  start: (env: NodeJS.ProcessEnv) => Promise<ConsoleServer>,
): Promise<ConsoleFigures> {
  console.error(`Console: seeding the demo store and copying its orders up to ${ORDERS_IN_STORE} …`);
  await seedDemoStore(env);
  const orders = await copyOrdersUpTo(env, ORDERS_IN_STORE);
  const server = await start(env);
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium' });
  try {
    const context = await browser.newContext({ timezoneId: 'Asia/Kathmandu', locale: 'en-US' });
    const page = await context.newPage();

    const signIn = await signInScripts(page, `${server.baseUrl}/admin/`);

    await page.getByLabel('Email').fill(DEMO_ADMIN.email);
    await page.getByLabel('Password').fill(DEMO_ADMIN.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();

    // From the click in the menu to the list's first row shown and its search box usable.
    const openOrders = async () => {
      const startedAt = performance.now();
      await page.getByRole('navigation').getByRole('link', { name: 'Orders', exact: true }).click();
      await page.getByRole('table').getByRole('row').nth(1).waitFor();
      await page
        .getByRole('searchbox')
        .or(page.getByRole('textbox', { name: /search/i }))
        .first()
        .waitFor();
      const elapsed = performance.now() - startedAt;
      await page.getByRole('navigation').getByRole('link', { name: 'Dashboard', exact: true }).click();
      await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
      return elapsed;
    };
    const cold = await openOrders();
    const warm: number[] = [];
    for (let run = 0; run < WARM_RUNS; run++) warm.push(await openOrders());
    return {
      orders,
      signInScripts: signIn.files,
      signInJsGzipKb: signIn.gzipKb,
      signInJsRawKb: signIn.rawKb,
      ordersListColdMs: Math.round(cold),
      ordersListWarmMedianMs: Math.round(median(warm)),
    };
  } finally {
    await browser.close();
    await server.stop();
  }
}

export function formatConsole(figures: ConsoleFigures): string {
  const verdict = (ok: boolean) => (ok ? 'target met' : 'target MISSED');
  return [
    'Console (Chromium, embedded store of its own):',
    `  sign-in screen JavaScript: ${figures.signInJsGzipKb} kB gzip (${figures.signInJsRawKb} kB raw, ` +
      `${figures.signInScripts} files); target < ${SIGN_IN_JS_BUDGET_KB} kB: ${verdict(figures.signInJsGzipKb < SIGN_IN_JS_BUDGET_KB)}`,
    `  orders list interactive with ${figures.orders.toLocaleString('en-US')} orders: ` +
      `${figures.ordersListColdMs} ms first open, ${figures.ordersListWarmMedianMs} ms median of ${WARM_RUNS} more; ` +
      `target < 1,000 ms: ${verdict(figures.ordersListColdMs < 1000)}`,
  ].join('\n');
}
