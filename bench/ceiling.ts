// What the database alone allows on this machine for an add of the hot product (issue 33): as
// many statements as the API sends for it, on the same tables, rows and locks, each no heavier
// than the API's (the reservation's write is a plain update here), with no HTTP, Fastify, Drizzle
// or Redis, every transaction rolled back (no commit to flush): each figure is a ceiling.
// PostgreSQL (DATABASE_URL set): the pg driver, 10 connections, each statement prepared once per
// connection, on 200 active carts of a database `npm run bench` has filled. Embedded (no
// DATABASE_URL): PGlite in this process, its one connection, on a fixture of its own.
// `npm run bench:ceiling`; bench/README.md, "The hot product's ceiling on this machine".
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { Pool, type PoolClient } from 'pg';
import { openDatabase } from '../src/platform/db/database';

const SECONDS = Number(process.env.BENCH_DURATION ?? 5);
const CONNECTIONS = 10;

/** The statements of one add of the hot product, in the API's order (11 with begin and the end). */
const ADD = [
  'select * from carts where customer_id = $1 and status = $2 for update',
  'select * from cart_items where cart_id = $1 order by created_at asc, id asc',
  `select p.*, (with recursive path(id, parent_id) as (select c.id, c.parent_id from categories c
     where c.id = p.category_id union select c.id, c.parent_id from categories c join path on c.id = path.parent_id)
     select array_agg(path.id) from path) from products p where p.id = any($1::int[])`,
  'update cart_items set quantity = quantity + 1, updated_at = now() where cart_id = $1 and product_id = $2 returning *',
  'select * from shipping_districts where lower(name) = lower($1)',
  `update carts set reserved_until = now() + interval '15 minutes', updated_at = now() where id = $1 returning *`,
  `update stock_reservations set expires_at = now() + interval '15 minutes', updated_at = now()
     where owner_type = 'cart' and owner_id = $1 and product_id <> $2 returning id`,
  'select product_id, on_hand, reserved, updated_at from product_stock where product_id = $1 for update',
  `with s as (update product_stock set reserved = reserved + 1, updated_at = now()
     where product_id = $1 and on_hand - reserved >= 1 returning on_hand, reserved),
   r as (update stock_reservations set quantity = quantity + 1, updated_at = now()
     where owner_type = 'cart' and owner_id = $2 and product_id = $1 and exists (select 1 from s))
   select * from s`,
] as const;

interface Buyer {
  customerId: string;
  cartId: string;
  productIds: number[];
  district: string;
}

/** One database session: `name`d statements are prepared once where the driver can. */
interface Session {
  run(text: string, values?: unknown[], name?: string): Promise<unknown>;
}

interface Fixture {
  hotProduct: number;
  buyers: Buyer[];
  sessions: Session[];
  close(): Promise<void>;
}

async function addOnce(s: Session, f: Fixture, b: Buyer) {
  const params: unknown[][] = [
    [b.customerId, 'active'],
    [b.cartId],
    [b.productIds],
    [b.cartId, f.hotProduct],
    [b.district],
    [b.cartId],
    [b.cartId, f.hotProduct],
    [f.hotProduct],
    [f.hotProduct, b.cartId],
  ];
  await s.run('begin');
  for (const [i, text] of ADD.entries()) await s.run(text, params[i], `ceiling-add-${i}`);
  await s.run('rollback');
}

/** The hot row alone: its lock, its write and the end, nothing else in the transaction. */
async function hotRowOnce(s: Session, f: Fixture, b: Buyer) {
  await s.run('begin');
  await s.run(ADD[7], [f.hotProduct], 'ceiling-add-7');
  await s.run(ADD[8], [f.hotProduct, b.cartId], 'ceiling-add-8');
  await s.run('rollback');
}

/** PostgreSQL: 200 active carts of the bench's customers, each given two shelf products and the
 * hot one (a product the bench stocked with a million units) where it lacks them; the lines
 * added are removed again at the end. */
async function postgresFixture(url: string): Promise<Fixture> {
  const pool = new Pool({ connectionString: url, max: CONNECTIONS });
  const { rows: stocked } = await pool.query<{ product_id: number }>(
    'select product_id from product_stock where on_hand >= 1000000 order by product_id desc limit 3',
  );
  const { rows: buyers } = await pool.query<Buyer>(
    `select customer_id as "customerId", id as "cartId", coalesce(district_name, 'Kathmandu') as district
     from carts c where status = 'active' limit 200`,
  );
  if (stocked.length < 3 || buyers.length < CONNECTIONS) {
    await pool.end();
    throw new Error('run `npm run bench` on this database first');
  }
  const [hotProduct, ...shelf] = stocked.map((r) => r.product_id) as [number, number, number];
  const lines = buyers.flatMap((b) => [...shelf, hotProduct].map((productId) => [b.cartId, productId]));
  const { rows: inserted } = await pool.query<{ id: string }>(
    `insert into cart_items (id, cart_id, product_id, quantity, unit_mrp, unit_sp)
     select gen_random_uuid(), (l->>0)::uuid, (l->>1)::int, 1, 1000, 900 from jsonb_array_elements($1::jsonb) l
     on conflict (cart_id, product_id) do nothing returning id`,
    [JSON.stringify(lines)],
  );
  const { rows: held } = await pool.query<{ cartId: string; productIds: number[] }>(
    `select cart_id as "cartId", array_agg(product_id) as "productIds" from cart_items
     where cart_id = any($1::uuid[]) group by cart_id`,
    [buyers.map((b) => b.cartId)],
  );
  for (const b of buyers) b.productIds = held.find((h) => h.cartId === b.cartId)!.productIds;
  const clients: PoolClient[] = await Promise.all(Array.from({ length: CONNECTIONS }, () => pool.connect()));
  return {
    hotProduct,
    buyers,
    sessions: clients.map((client) => ({
      run: (text, values, name) => (name ? client.query({ name, text, values }) : client.query(text, values)),
    })),
    async close() {
      for (const client of clients) client.release();
      await pool.query('delete from cart_items where id = any($1::uuid[])', [inserted.map((r) => r.id)]);
      await pool.end();
    },
  };
}

/** Embedded: a new PGlite store, migrated, with 200 customers' carts of three lines each. */
async function embeddedFixture(): Promise<Fixture> {
  const dir = mkdtempSync(path.join(tmpdir(), 'pasal-ceiling-'));
  const database = await openDatabase({ databaseUrl: undefined, poolSize: 1, dataDir: dir });
  await database.migrate();
  const pglite: PGlite = database.pglite!;
  const { rows: products } = await pglite.query<{ id: number }>(
    `insert into products (title, slug, product_kind, status, mrp, sp)
     select 'Singing bowl ' || n, 'ceiling-bowl-' || n, 'physical', 'published', 1000, 900
     from generate_series(1, 3) n returning id`,
  );
  await pglite.query(
    `insert into product_stock (product_id, on_hand) select id, 1000000 from products where id = any($1::int[])`,
    [products.map((p) => p.id)],
  );
  const { rows: buyers } = await pglite.query<Buyer>(
    `with u as (
       insert into users (id, name, email, role)
       select gen_random_uuid(), 'Buyer ' || n, 'ceiling-' || n || '@pasal.test', 'customer'
       from generate_series(1, 200) n returning id)
     insert into carts (id, customer_id, status, district_name)
     select gen_random_uuid(), u.id, 'active', 'Kathmandu' from u
     returning customer_id as "customerId", id as "cartId", district_name as district`,
  );
  const productIds = products.map((p) => p.id);
  await pglite.query(
    `insert into cart_items (id, cart_id, product_id, quantity, unit_mrp, unit_sp)
     select gen_random_uuid(), c.id, p, 1, 1000, 900 from carts c, unnest($1::int[]) p`,
    [productIds],
  );
  for (const b of buyers) b.productIds = productIds;
  return {
    hotProduct: productIds.at(-1)!,
    buyers,
    // Its one connection, as the embedded server has: one session, one transaction at a time.
    sessions: [{ run: (text, values) => pglite.query(text, values) }],
    async close() {
      await database.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function measure(f: Fixture, name: string, once: typeof addOnce) {
  // Warm-up: each session prepares its statements.
  await Promise.all(f.sessions.map((s, i) => once(s, f, f.buyers[i]!)));
  let done = 0;
  const until = Date.now() + SECONDS * 1000;
  await Promise.all(
    f.sessions.map(async (s, i) => {
      for (let n = i; Date.now() < until; n += f.sessions.length) {
        await once(s, f, f.buyers[n % f.buyers.length]!);
        done += 1;
      }
    }),
  );
  console.log(`${name}: ${Math.round(done / SECONDS).toLocaleString('en-US')} transactions/s`);
}

const url = process.env.DATABASE_URL;
const fixture = url ? await postgresFixture(url) : await embeddedFixture();
const tier = url ? `PostgreSQL, ${CONNECTIONS} connections` : 'embedded PGlite, one connection';
try {
  await measure(fixture, `add of the hot product, its 11 statements (${tier})`, addOnce);
  await measure(fixture, `the hot stock row alone: lock, write, end (${tier})`, hotRowOnce);
} finally {
  await fixture.close();
}
