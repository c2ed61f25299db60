// What the database alone allows on this machine for an add of the hot product and for a COD
// checkout (issue 33): as many statements as the API sends for each, on the same tables, rows and
// locks, each no heavier than the API's (the add's reservation write is a plain update here; the
// checkout's order is inserted with its items from one array), with no HTTP, Fastify, Drizzle or
// Redis, every transaction rolled back (no commit to flush): each figure is a ceiling.
// PostgreSQL (DATABASE_URL set): the pg driver, 10 connections, each statement prepared once per
// connection, on 200 active carts of a database `npm run bench` has filled (carts are opened for
// its customers where the bench's checkouts left none, and removed again). Embedded (no
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

/**
 * The statements of one add of the hot product, in the API's order (10 with begin and the end; the
 * district comes from the process's copy, shipping-districts.copy.ts).
 */
const ADD = [
  'select * from carts where customer_id = $1 and status = $2 for update',
  'select * from cart_items where cart_id = $1 order by created_at asc, id asc',
  `select p.*, (with recursive path(id, parent_id) as (select c.id, c.parent_id from categories c
     where c.id = p.category_id union select c.id, c.parent_id from categories c join path on c.id = path.parent_id)
     select array_agg(path.id) from path) from products p where p.id = any($1::int[])`,
  'update cart_items set quantity = quantity + 1, updated_at = now() where cart_id = $1 and product_id = $2 returning *',
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

/**
 * The statements of a COD checkout of the cart, in the API's order (9 with begin and the end):
 * the cart locked, its lines, their products, the order with its items and first history entry
 * (one statement), the customer's notification and the cart ended (neither read back), the
 * cart's hold handed to the order (the stock rows locked, last).
 */
const CHECKOUT = [
  ADD[0],
  ADD[1],
  ADD[2],
  `with new_order as (
     insert into orders (order_number, customer_id, order_type, status, payment_status, payment_method,
       gateway, order_source, total_mrp, total_sp, coupon_id, coupon_code, coupon_discount, shipping_fee,
       care_package_total, final_payable, shipping_district, shipping_address_line1, shipping_city,
       shipping_postal_code, receiver, fulfillment_status, cart_id, return_url, cod_payment_id,
       created_at, updated_at)
     values ($1, $2, 'physical', 'payment_pending', 'cod_pending', 'cod', 'cod', 'checkout', $3, $3, null,
       null, 0, 100, 0, $3 + 100, $4, 'Bench street 1', 'Kathmandu', '44600', 'Bench customer',
       'received', $5, 'http://localhost:3001/checkout/result', gen_random_uuid(), now(), now())
     returning *),
   new_items as (
     insert into order_items (order_id, product_id, product_kind, product_title, product_slug, quantity,
       unit_mrp, unit_sp, discount, final_value)
     select (select id from new_order), p, 'physical', 'Singing bowl', 'singing-bowl-' || p, 1, 1000, 900, 0, 900
     from unnest($6::int[]) p),
   new_status as (
     insert into order_status_history (order_id, status, notes, note_code, actor_type, created_by_customer_id, created_at)
     values ((select id from new_order), 'payment_pending', 'Cash on delivery', 'cod_checkout', 'customer', $2, now()))
   select * from new_order`,
  `insert into customer_notifications (id, customer_id, type, title, body, data, created_at)
   values (gen_random_uuid(), $1, 'ORDER_PLACED_CHECKOUT', 'Order placed', 'Your order ' || $2 || ' has been placed.',
     jsonb_build_object('orderId', $3::int, 'orderNumber', $2::text), now())`,
  `update carts set status = 'ordered', order_id = $2, reserved_until = null, updated_at = now()
   where id = $1`,
  `with wanted as (select * from unnest($1::int[], $2::int[]) as w(product_id, quantity)),
   locked as materialized (
     select s.product_id, s.on_hand, s.reserved from product_stock s
     where s.product_id in (select product_id from wanted) order by s.product_id for update),
   moved as (
     update stock_reservations r set owner_type = 'order', owner_id = $3, expires_at = null, updated_at = now()
     from wanted w, locked l
     where r.product_id = w.product_id and l.product_id = w.product_id
       and r.owner_type = 'cart' and r.owner_id = $4 and r.quantity = w.quantity
       and not exists (select 1 from stock_reservations o
         where o.owner_type = 'order' and o.owner_id = $3 and o.product_id = w.product_id)
     returning r.product_id)
   insert into stock_ledger (product_id, source, reason, on_hand_delta, reserved_delta, on_hand, reserved,
     owner_type, owner_id, created_at)
   select l.product_id, 'reservation', 'Handed from cart to order', 0, 0, l.on_hand, l.reserved, 'order', $3, now()
   from locked l join moved m on m.product_id = l.product_id
   returning product_id, on_hand, reserved`,
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
    [b.cartId],
    [b.cartId, f.hotProduct],
    [f.hotProduct],
    [f.hotProduct, b.cartId],
  ];
  await s.run('begin');
  for (const [i, text] of ADD.entries()) await s.run(text, params[i], `ceiling-add-${i}`);
  await s.run('rollback');
}

let orderNumbers = 0;

/** A COD checkout of the buyer's cart (its lines each held by a reservation of one unit). */
async function checkoutOnce(s: Session, _f: Fixture, b: Buyer) {
  const orderNumber = `CEIL-${process.pid}-${++orderNumbers}`;
  await s.run('begin');
  await s.run(CHECKOUT[0], [b.customerId, 'active'], 'ceiling-checkout-0');
  await s.run(CHECKOUT[1], [b.cartId], 'ceiling-checkout-1');
  await s.run(CHECKOUT[2], [b.productIds], 'ceiling-checkout-2');
  const placed = (await s.run(
    CHECKOUT[3],
    [orderNumber, b.customerId, 900 * b.productIds.length, b.district, b.cartId, b.productIds],
    'ceiling-checkout-3',
  )) as { rows: Array<{ id: number }> };
  const orderId = placed.rows[0]!.id;
  await s.run(CHECKOUT[4], [b.customerId, orderNumber, orderId], 'ceiling-checkout-4');
  await s.run(CHECKOUT[5], [b.cartId, orderId], 'ceiling-checkout-5');
  const handed = (await s.run(
    CHECKOUT[6],
    [b.productIds, b.productIds.map(() => 1), String(orderId), b.cartId],
    'ceiling-checkout-6',
  )) as { rows: unknown[] };
  // Every line's hold must move, as the API's would: a ceiling that skipped the work is no ceiling.
  if (handed.rows.length !== b.productIds.length) throw new Error('a checkout did not move every hold');
  await s.run('rollback');
}

/** The hot row alone: its lock, its write and the end, nothing else in the transaction. */
async function hotRowOnce(s: Session, f: Fixture, b: Buyer) {
  await s.run('begin');
  await s.run(ADD[6], [f.hotProduct], 'ceiling-add-6');
  await s.run(ADD[7], [f.hotProduct, b.cartId], 'ceiling-add-7');
  await s.run('rollback');
}

/** PostgreSQL: 200 active carts opened for the bench's customers who have none, each with two
 * shelf products and the hot one (products the bench stocked with a million units), each line
 * held by a reservation of its one unit; the carts, lines and holds are removed again at the end. */
async function postgresFixture(url: string): Promise<Fixture> {
  const pool = new Pool({ connectionString: url, max: CONNECTIONS });
  const { rows: stocked } = await pool.query<{ product_id: number }>(
    'select product_id from product_stock where on_hand >= 1000000 order by product_id desc limit 3',
  );
  const { rows: buyers } = await pool.query<Buyer>(
    `insert into carts (id, customer_id, status, district_name)
     select gen_random_uuid(), u.id, 'active', 'Kathmandu' from users u
     where u.role = 'customer' and u.email like 'bench-%'
       and not exists (select 1 from carts c where c.customer_id = u.id and c.status = 'active')
     limit 200
     returning customer_id as "customerId", id as "cartId", district_name as district`,
  );
  const cartIds = buyers.map((b) => b.cartId);
  const removeCarts = async () => {
    await pool.query(
      `delete from stock_reservations where owner_type = 'cart' and owner_id = any($1::text[])`,
      [cartIds],
    );
    await pool.query('delete from cart_items where cart_id = any($1::uuid[])', [cartIds]);
    await pool.query('delete from carts where id = any($1::uuid[])', [cartIds]);
  };
  if (stocked.length < 3 || buyers.length < CONNECTIONS) {
    await removeCarts();
    await pool.end();
    throw new Error('run `npm run bench` on this database first');
  }
  const productIds = stocked.map((r) => r.product_id).sort((a, b) => a - b);
  await fillCarts((text, values) => pool.query(text, values), cartIds, productIds);
  for (const b of buyers) b.productIds = productIds;
  const clients: PoolClient[] = await Promise.all(Array.from({ length: CONNECTIONS }, () => pool.connect()));
  return {
    hotProduct: productIds.at(-1)!,
    buyers,
    sessions: clients.map((client) => ({
      run: (text, values, name) => (name ? client.query({ name, text, values }) : client.query(text, values)),
    })),
    async close() {
      for (const client of clients) client.release();
      await removeCarts();
      await pool.end();
    },
  };
}

/** Each cart gets a line of one unit of each product, held by a reservation of that unit. */
async function fillCarts(
  query: (text: string, values: unknown[]) => Promise<unknown>,
  cartIds: string[],
  productIds: number[],
) {
  await query(
    `insert into cart_items (id, cart_id, product_id, quantity, unit_mrp, unit_sp)
     select gen_random_uuid(), c, p, 1, 1000, 900 from unnest($1::uuid[]) c, unnest($2::int[]) p`,
    [cartIds, productIds],
  );
  await query(
    `insert into stock_reservations (id, product_id, owner_type, owner_id, quantity, expires_at)
     select gen_random_uuid(), p, 'cart', c::text, 1, now() + interval '1 day'
     from unnest($1::uuid[]) c, unnest($2::int[]) p`,
    [cartIds, productIds],
  );
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
  const productIds = products.map((p) => p.id).sort((a, b) => a - b);
  await fillCarts(
    (text, values) => pglite.query(text, values),
    buyers.map((b) => b.cartId),
    productIds,
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
  await measure(fixture, `add of the hot product, its 10 statements (${tier})`, addOnce);
  await measure(fixture, `the hot stock row alone: lock, write, end (${tier})`, hotRowOnce);
  await measure(fixture, `COD checkout of a cart of three lines, its 9 statements (${tier})`, checkoutOnce);
} finally {
  await fixture.close();
}
