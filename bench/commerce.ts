// The commerce scenarios of `npm run bench` (bench/README.md, "Commerce"): add to cart, the
// cart read, checkout throughput and the order list, each spread over a pool of customers
// signed in before the server starts, so no request waits on a password hash.
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import autocannon from 'autocannon';
import { products } from '../src/modules/catalog/products/products.table';
import { createCustomerAccount, startSession } from '../src/modules/identity';
import { systemClock } from '../src/platform/clock';
import { createAccessTokens } from '../src/platform/security/jwt';
import { Latencies, selected, sendJson } from './client';
import { withDatabase } from './database';

/** Every customer and product of this run carries it, so a reused PostgreSQL database keeps runs apart. */
const RUN = randomBytes(4).toString('hex');
const DISTRICT = 'Kathmandu';
const LOCATION = {
  districtName: DISTRICT,
  addressLine1: 'Bench street 1',
  city: 'Kathmandu',
  postalCode: '44600',
};
const RETURN_URL = 'http://localhost:3001/checkout/result';
/** The customers buy from a shelf of products, as in a store, not all from one stock row. */
const PRODUCTS = 20;
/** The flash sale: every buyer adds the same product (one for the 10-buyer row, one for the 200-buyer row). */
const HOT_PRODUCTS = 2;
/** Buyers at once in the second hot-product row (each a connection, each a customer of the pool). */
const HOT_BUYERS = 200;

export interface CommerceFixture {
  productIds: number[];
  /** Products every buyer of a hot-product row adds (not on the shelf the carts are filled from). */
  hotProductIds: number[];
  /** One access token per customer, each with its own session. */
  tokens: string[];
}

/** Customers in the pool (`BENCH_CUSTOMERS`): each checks out once, so it bounds the checkout run. */
export function customerCount(): number {
  const raw = process.env.BENCH_CUSTOMERS;
  if (raw === undefined || raw.trim() === '') return 2_000;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 10) {
    throw new Error(`BENCH_CUSTOMERS must be a whole number of at least 10, got "${raw}"`);
  }
  return value;
}

/** The customers with their sessions, and a physical product to buy (before the server starts). */
export function prepareCommerce(
  env: NodeJS.ProcessEnv,
  customers: number,
  /** Names a second pool in the same run (its own shelf and customers). */
  pool = 'a',
): Promise<CommerceFixture> {
  const run = `${RUN}${pool}`;
  return withDatabase(env, async (db) => {
    const tokens = createAccessTokens({ secret: env.JWT_SECRET!, ttlSeconds: 3_600, now: () => new Date() });
    const shelf = await db
      .insert(products)
      .values(
        Array.from({ length: PRODUCTS + HOT_PRODUCTS }, (_, i) => ({
          title:
            i < PRODUCTS ? `Bench laptop ${i + 1} ${run}` : `Bench flash sale ${i + 1 - PRODUCTS} ${run}`,
          slug: i < PRODUCTS ? `bench-laptop-${i + 1}-${run}` : `bench-flash-sale-${i + 1 - PRODUCTS}-${run}`,
          productKind: 'physical' as const,
          mrp: 1_000 + i,
          status: 'published' as const,
        })),
      )
      .returning({ id: products.id });
    const signedIn: string[] = [];
    for (let i = 0; i < customers; i++) {
      const user = await createCustomerAccount({
        db,
        email: `bench-${run}-${i}@pasal.local`,
        name: `Bench customer ${i}`,
        emailVerified: true,
      });
      const session = await startSession({
        db,
        tokens,
        clock: systemClock,
        refreshTtlDays: 1,
        userId: user.id,
        actor: 'customer',
      });
      signedIn.push(session.accessToken);
    }
    const ids = shelf.map((p) => p.id);
    return { productIds: ids.slice(0, PRODUCTS), hotProductIds: ids.slice(PRODUCTS), tokens: signedIn };
  });
}

export interface CommerceRow {
  name: string;
  path: string;
  result: autocannon.Result;
  latencies: Latencies;
  /** Successful requests per second (for checkout: orders per second). */
  perSecond: number;
}

interface Request {
  method: 'GET' | 'POST';
  path: string;
  /** The body of the n-th request. */
  body?: (n: number) => unknown;
}

/**
 * Runs autocannon with each request signed by the next customer of the pool. `amount` runs a
 * fixed number of requests (each customer once) instead of `seconds`.
 */
function rotating(
  baseUrl: string,
  tokens: string[],
  request: Request,
  run: { seconds?: number; amount?: number; connections: number },
  latencies?: Latencies,
): Promise<autocannon.Result & { lastResponseAt: bigint }> {
  let next = 0;
  // When the last answer came. A run of `amount` requests ends on autocannon's next one-second
  // tick, not on its last answer: timed by its end, 500 checkouts taking 2.1 s or 2.9 s both
  // read as 3 s (166 orders/s).
  let lastResponseAt = process.hrtime.bigint();
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: `${baseUrl}${request.path}`,
        connections: run.connections,
        ...(run.amount ? { amount: run.amount } : { duration: run.seconds }),
        method: request.method,
        headers: request.body ? { 'content-type': 'application/json' } : {},
        requests: [
          {
            setupRequest: (req) => {
              const n = next++;
              return {
                ...req,
                headers: { ...req.headers, authorization: `Bearer ${tokens[n % tokens.length]}` },
                ...(request.body ? { body: JSON.stringify(request.body(n)) } : {}),
              };
            },
          },
        ],
      },
      (error, result) => (error ? reject(error) : resolve({ ...result, lastResponseAt })),
    );
    instance.on('response', (_client, _status, _bytes, ms) => {
      lastResponseAt = process.hrtime.bigint();
      latencies?.add(ms);
    });
  });
}

const shelfItem = (f: CommerceFixture, n: number) => ({
  productId: f.productIds[n % f.productIds.length]!,
  quantity: 1,
});

async function adminToken(baseUrl: string, admin: { email: string; password: string }): Promise<string> {
  const login = await sendJson(baseUrl, 'POST', '/api/auth/login/email', admin);
  return login.data.tokens.accessToken as string;
}

/** A webhook receiver on this machine that answers 200 after `delayMs`. */
async function slowReceiver(delayMs: number): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    req.resume();
    const timer = setTimeout(() => res.writeHead(200).end('ok'), delayMs);
    res.on('close', () => clearTimeout(timer));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/bench-hook`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * Signs in as the bench admin, stocks the shelf and makes the district shippable, then gives
 * every customer a shipping location and one unit in the cart (not measured).
 */
async function fillCarts(baseUrl: string, admin: { email: string; password: string }, f: CommerceFixture) {
  const token = await adminToken(baseUrl, admin);
  for (const productId of [...f.productIds, ...f.hotProductIds]) {
    const stock = { onHand: 1_000_000, reason: 'bench' };
    await sendJson(baseUrl, 'PATCH', `/api/admin/products/${productId}/stock`, stock, token);
  }
  const districts = await sendJson(
    baseUrl,
    'GET',
    `/api/admin/shipping-districts?search=${DISTRICT}&pagination=false`,
    undefined,
    token,
  );
  const district = (districts.data as Array<{ id: number; name: string }>).find((d) => d.name === DISTRICT)!;
  await sendJson(
    baseUrl,
    'PATCH',
    `/api/admin/shipping-districts/${district.id}`,
    { shippingFee: 100, isActive: true },
    token,
  );
  let index = 0;
  const worker = async () => {
    while (index < f.tokens.length) {
      const n = index++;
      const customer = f.tokens[n]!;
      await sendJson(baseUrl, 'POST', '/api/cart/location', LOCATION, customer);
      await sendJson(baseUrl, 'POST', '/api/cart/items', shelfItem(f, n), customer);
    }
  };
  await Promise.all(Array.from({ length: 10 }, worker));
}

/**
 * Add to cart and the cart read for `seconds` each (after a warm-up), then every customer checks
 * out once with cash on delivery (orders per second), then the order list for `seconds`.
 */
export async function measureCommerce(
  baseUrl: string,
  admin: { email: string; password: string },
  f: CommerceFixture,
  opts: { seconds: number; warmupSeconds: number; connections: number; slowWebhook?: boolean },
): Promise<CommerceRow[]> {
  process.stderr.write(`Commerce: ${f.tokens.length} customers put one unit in their carts … `);
  await fillCarts(baseUrl, admin, f);
  process.stderr.write('done\n');
  const rows: CommerceRow[] = [];
  const timed = async (name: string, request: Request, connections = opts.connections, tokens = f.tokens) => {
    if (!selected(name)) return;
    process.stderr.write(`${name}: warm-up ${opts.warmupSeconds} s, then ${opts.seconds} s … `);
    await rotating(baseUrl, tokens, request, { seconds: opts.warmupSeconds, connections });
    const latencies = new Latencies();
    const result = await rotating(
      baseUrl,
      tokens,
      request,
      { seconds: opts.seconds, connections },
      latencies,
    );
    process.stderr.write(`${Math.round(result.requests.average).toLocaleString('en-US')} req/s\n`);
    rows.push({ name, path: request.path, result, latencies, perSecond: result.requests.average });
    // Requests still queued when the load stopped (200 buyers' adds take seconds to drain on the
    // embedded database's one connection) must not land in the next row: /ready's own query
    // queues behind them there, so its answer means they are done.
    await sendJson(baseUrl, 'GET', '/ready');
  };

  await timed('Pasal POST /api/cart/items (add to cart)', {
    method: 'POST',
    path: '/api/cart/items',
    // Customer n adds the product after the one it holds: carts grow to a few lines.
    body: (n) => shelfItem(f, n + Math.floor(n / f.tokens.length) + 1),
  });
  // The flash sale (issue 33): every request adds one unit of the same product, each from the
  // next customer of the pool, so concurrent adds meet on one stock row.
  for (const [i, buyers] of [opts.connections, HOT_BUYERS].entries()) {
    await timed(
      `Pasal POST /api/cart/items (add to cart, ${buyers} buyers of one product)`,
      {
        method: 'POST',
        path: '/api/cart/items',
        body: () => ({ productId: f.hotProductIds[i]!, quantity: 1 }),
      },
      Math.min(buyers, f.tokens.length),
    );
  }
  await timed('Pasal GET /api/cart', { method: 'GET', path: '/api/cart' });

  const checkoutRound = async (name: string) => {
    if (!selected(name)) return;
    process.stderr.write(`${name}: ${f.tokens.length} checkouts, one per customer … `);
    const latencies = new Latencies();
    const started = process.hrtime.bigint();
    const result = await rotating(
      baseUrl,
      f.tokens,
      {
        method: 'POST',
        path: '/api/orders/checkout',
        body: () => ({ gateway: 'cod', returnUrl: RETURN_URL }),
      },
      { amount: f.tokens.length, connections: opts.connections },
      latencies,
    );
    const seconds = Number(result.lastResponseAt - started) / 1e9;
    const perSecond = result['2xx'] / seconds;
    process.stderr.write(`${Math.round(perSecond).toLocaleString('en-US')} orders/s\n`);
    rows.push({ name, path: '/api/orders/checkout', result, latencies, perSecond });
  };
  await checkoutRound('Pasal POST /api/orders/checkout (COD, orders/s)');

  if (opts.slowWebhook && selected('webhook on order.created')) {
    // The same checkout with one webhook endpoint hearing order.created (issue 31): first from a
    // receiver that answers at once (what the webhook itself costs: the message and delivery
    // rows in the order's transaction, the delivery job), then from one that answers after 5 s
    // (what a slow receiver adds). The carts are filled again before each round (not measured).
    for (const delayMs of [0, 5_000]) {
      const receiver = await slowReceiver(delayMs);
      const token = await adminToken(baseUrl, admin);
      const endpoint = await sendJson(
        baseUrl,
        'POST',
        '/api/admin/webhooks',
        { url: receiver.url, events: ['order.created'], description: `bench: answers after ${delayMs} ms` },
        token,
      );
      try {
        process.stderr.write('Commerce: the carts filled again … ');
        await fillCarts(baseUrl, admin, f);
        process.stderr.write('done\n');
        await checkoutRound(
          `Pasal POST /api/orders/checkout (COD, orders/s; a webhook on order.created answering ${delayMs ? 'after 5 s' : 'at once'})`,
        );
      } finally {
        await sendJson(baseUrl, 'DELETE', `/api/admin/webhooks/${endpoint.data.id}`, undefined, token);
        await receiver.close();
      }
    }
  }

  await timed('Pasal GET /api/orders (one order each)', { method: 'GET', path: '/api/orders' });
  // The back office's order list, signed in as the bench admin (every request the same token).
  const staff = selected('admin, page of 20') ? [await adminToken(baseUrl, admin)] : [];
  await timed(
    'Pasal GET /api/admin/orders (admin, page of 20)',
    { method: 'GET', path: '/api/admin/orders?page=1&size=20' },
    opts.connections,
    staff,
  );
  return rows;
}
