// A cart change prices the cart from the lines and products it already holds (issue 33, the hot
// product): the answer of every kind of change must equal the cart read afresh from the database
// afterwards, line order included, and an add sends the statements counted below, so a read put
// back into the transaction fails here.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordStatements, type StatementRecorder, statementListing } from '../../helpers/statements';
import { type CartBody, type CartTestApp, cartTestApp } from './calls';

/**
 * begin; the cart locked; its lines; every line's product with the one added (one read); the
 * line written; the cart's expiry; the other lines' reservations extended; the stock row locked;
 * the units held (one write); commit. The district comes from the process's copy
 * (shipping-districts.copy.ts), loaded by the calls before.
 */
const IN_TRANSACTION_ADD = 10;

describe('a cart change answers the cart as the database then holds it', () => {
  let c: CartTestApp;
  let recorder: StatementRecorder;
  beforeAll(async () => {
    // The district copy outlives the test, so no statement counted reloads it.
    c = await cartTestApp({ schedules: false, startJobs: false, env: { CACHE_LOCAL_TTL_MS: '60000' } });
    recorder = recordStatements(c.t.platform.database);
    await c.district('Lalitpur', 150);
  });
  afterAll(() => c?.t.close());

  /** The answer of a change, then the same cart read by GET: they must be equal. */
  async function sameAsRead(who: Awaited<ReturnType<CartTestApp['customer']>>, answer: CartBody) {
    const read = await c.cartCall(who, 'GET', '');
    expect(answer).toEqual(read);
    return answer;
  }

  it(`an add to a cart of two lines sends ${IN_TRANSACTION_ADD} statements in its transaction`, async () => {
    const held = await c.product({ onHand: 20, mrp: 500, sp: 450 });
    const added = await c.product({ onHand: 20, mrp: 1000, sp: 900 });
    const me = await c.customer();
    await c.cartCall(me, 'POST', '/location', {
      districtName: 'Lalitpur',
      addressLine1: 'Mangal Bazar',
      city: 'Lalitpur',
      postalCode: '44700',
    });
    await c.cartCall(me, 'POST', '/items', { productId: held, quantity: 1 });
    await c.cartCall(me, 'POST', '/items', { productId: added, quantity: 1 });
    recorder.start();
    const answer = await c.cartCall(me, 'POST', '/items', { productId: added, quantity: 2 });
    const statements = recorder.stop();
    const inside = statements.filter((s) => s.inTransaction);
    expect(inside.length, statementListing(statements)).toBe(IN_TRANSACTION_ADD);
    expect(inside.at(-1)?.text, statementListing(statements)).toMatch(/^commit/i);
    expect(inside.at(-2)?.text, statementListing(statements)).toMatch(/stock/i);
    const cart = await sameAsRead(me, answer);
    expect(cart.items.map((i) => [i.productId, i.quantity])).toEqual([
      [held, 1],
      [added, 3],
    ]);
    expect(cart.totals.shippingFee).toBe(150);
    expect(await c.stockOf(added)).toMatchObject({ reserved: 3 });
  });

  it('every kind of change answers what a fresh read shows: add, increase, decrease, quantity, remove, care package, sync', async () => {
    const [a, b, d, e] = [
      await c.product({ onHand: 10, mrp: 1000, sp: 900 }),
      await c.product({ onHand: 10, mrp: 2000, sp: 0 }),
      await c.product({ onHand: 10, mrp: 300, sp: 250 }),
      await c.product({ onHand: 10, mrp: 700, sp: 650 }),
    ];
    const pkg = await c.carePackage();
    const me = await c.customer();
    await sameAsRead(me, await c.cartCall(me, 'POST', '/items', { productId: a, quantity: 1 }));
    const two = await sameAsRead(me, await c.cartCall(me, 'POST', '/items', { productId: b, quantity: 2 }));
    const lineOf = (cart: CartBody, productId: number) =>
      cart.items.find((i) => i.productId === productId)!.id;
    await sameAsRead(me, await c.cartCall(me, 'POST', `/items/${lineOf(two, a)}/increase`));
    await sameAsRead(me, await c.cartCall(me, 'POST', `/items/${lineOf(two, b)}/decrease`));
    await sameAsRead(me, await c.cartCall(me, 'PUT', `/items/${lineOf(two, a)}/quantity`, { quantity: 4 }));
    const withPackage = await sameAsRead(
      me,
      await c.cartCall(
        me,
        'POST',
        `/items/${lineOf(two, a)}/care-package`,
        { carePackageId: pkg.id, pricingTierId: pkg.tiers[0]!.id },
        '/api/mobile/cart',
      ),
    );
    expect(withPackage.items.find((i) => i.productId === a)!.carePackage?.carePackageId).toBe(pkg.id);
    await sameAsRead(
      me,
      await c.cartCall(me, 'DELETE', `/items/${lineOf(two, a)}/care-package`, undefined, '/api/mobile/cart'),
    );
    // A sync adds two lines in one change: they share a created time, so their order is the ids'.
    const synced = await sameAsRead(
      me,
      await c.cartCall(
        me,
        'POST',
        '/sync',
        {
          items: [
            { productId: d, quantity: 1 },
            { productId: e, quantity: 2 },
          ],
        },
        '/api/mobile/cart',
      ),
    );
    expect(synced.items.map((i) => i.productId).sort()).toEqual([a, b, d, e].sort());
    const removed = await sameAsRead(me, await c.cartCall(me, 'DELETE', `/items/${lineOf(two, b)}`));
    expect(removed.items.map((i) => i.productId)).not.toContain(b);
    expect(await c.stockOf(b)).toMatchObject({ reserved: 0 });
  });
});
