// How many statements a COD checkout of one line, and a COD buy-now, send (bench/README.md,
// "Commerce": the cost of a checkout is its round trips). Pinned so that a statement added back
// into the transaction, where the customer's cart and then the stock rows are held, fails here;
// a change that saves one lowers the number.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { categories } from '../../../src/modules/catalog/taxonomy/taxonomy.table';
import { recordStatements, type StatementRecorder, statementListing } from '../../helpers/statements';
import { type OrdersTestApp, ordersTestApp, RETURN_URL } from './calls';

/**
 * begin; the cart locked; its lines; their products with their category paths; the order with its
 * items and history (one statement); the customer's notification; the cart ended; the cart's hold
 * handed to the order (the stock rows locked, last); commit. The district comes from the
 * process's copy (shipping-districts.copy.ts), loaded by the calls before.
 */
const IN_TRANSACTION = 9;

/**
 * begin; the cart locked (for its location); the product with its category path; the order with
 * its item and history; the notification; the stock row locked; the unit reserved (one write:
 * counts, reservation, ledger); commit. The district as above.
 */
const IN_TRANSACTION_BUY_NOW = 8;

describe('the statements of a COD checkout of one line, and of a COD buy-now', () => {
  let c: OrdersTestApp;
  let recorder: StatementRecorder;
  beforeAll(async () => {
    // No job or schedule runs beside the request: every statement recorded is the checkout's.
    // The district copy outlives the test, so no statement counted reloads it.
    c = await ordersTestApp({ schedules: false, startJobs: false, env: { CACHE_LOCAL_TTL_MS: '60000' } });
    recorder = recordStatements(c.t.platform.database);
    // A first checkout fills what is read once and then kept (which events webhooks listen to).
    const first = await c.customer();
    await c.cartWith(first, [{ productId: await c.product() }]);
    expect((await c.checkout(first)).statusCode).toBe(200);
  });
  afterAll(() => c?.t.close());

  /** A product in a sub-category, as a shop's are: its category path is read with it. */
  async function productInSubCategory(slug: string) {
    const [parent] = await c.db
      .insert(categories)
      .values({ name: 'Laptops', slug: `${slug}-top` })
      .returning();
    const [category] = await c.db
      .insert(categories)
      .values({ name: 'Gaming laptops', slug, parentId: parent!.id })
      .returning();
    return c.product({ onHand: 10, mrp: 1000, sp: 900, categoryId: category!.id });
  }

  /** The statements `call` sends, checked for one transaction that ends with a commit. */
  async function statementsOf<R extends { statusCode: number; body: string }>(call: () => Promise<R>) {
    recorder.start();
    const res = await call();
    const statements = recorder.stop();
    expect(res.statusCode, res.body).toBe(200);
    const inside = statements.filter((s) => s.inTransaction);
    expect(
      inside.filter((s) => /^begin/i.test(s.text)),
      statementListing(statements),
    ).toHaveLength(1);
    expect(inside.at(-1)?.text, statementListing(statements)).toMatch(/^commit/i);
    // The stock rows are locked last, by the statements just before the commit (bench/README.md,
    // "shorter stock locks").
    expect(inside.at(-2)?.text, statementListing(statements)).toMatch(/stock/i);
    return { res, inside, all: statementListing(statements) };
  }

  it(`sends ${IN_TRANSACTION} statements inside its one transaction, the stock hand-over last`, async () => {
    const productId = await productInSubCategory('st-checkout');
    const me = await c.customer();
    await c.cartWith(me, [{ productId }]);
    const { res, inside, all } = await statementsOf(() => c.checkout(me));
    expect(inside.length, all).toBe(IN_TRANSACTION);

    // The one statement writes what the three it replaced wrote: the order, its items, its history.
    const orderId = res.json().data.orderId as number;
    const order = await c.order(me, orderId);
    expect(order).toMatchObject({
      paymentMethod: 'cod',
      paymentStatus: 'cod_pending',
      fulfillmentStatus: 'received',
      totalSp: 900,
      finalPayable: 1000,
    });
    expect(order.items).toHaveLength(1);
    expect(order.items[0]).toMatchObject({
      productId,
      quantity: 1,
      unitMrp: 1000,
      unitSp: 900,
      finalValue: 900,
    });
    expect((await c.adminOrder(orderId)).statusHistory).toEqual([
      expect.objectContaining({
        status: 'payment_pending',
        noteCode: 'cod_checkout',
        actorType: 'customer',
        createdByCustomerId: me.userId,
      }),
    ]);
    expect(await c.stockOf(productId)).toEqual({ onHand: 10, reserved: 1, available: 9 });
  });

  it(`a COD buy-now sends ${IN_TRANSACTION_BUY_NOW} statements inside its one transaction, the stock last`, async () => {
    const productId = await productInSubCategory('st-buy-now');
    const buyNow = (who: { headers: Record<string, string> }) =>
      c.http.call('POST', '/api/orders/buy-now', who.headers, {
        productId,
        gateway: 'cod',
        returnUrl: RETURN_URL,
      });
    // The shipping location comes from the cart (which keeps its line: buy-now leaves it alone).
    const me = await c.customer();
    await c.cartWith(me, [{ productId }]);
    const { res, inside, all } = await statementsOf(() => buyNow(me));
    expect(inside.length, all).toBe(IN_TRANSACTION_BUY_NOW);

    const orderId = res.json().data.orderId as number;
    expect(await c.order(me, orderId)).toMatchObject({
      orderSource: 'buy_now',
      paymentMethod: 'cod',
      shippingDistrict: 'Kathmandu',
      shippingFee: 100,
      finalPayable: 1000,
      items: [expect.objectContaining({ productId, quantity: 1, unitSp: 900 })],
    });
    // The cart's unit and the order's.
    expect(await c.stockOf(productId)).toEqual({ onHand: 10, reserved: 2, available: 8 });
    expect((await c.cartCall(me, 'GET', '')).items).toHaveLength(1);
  });
});
