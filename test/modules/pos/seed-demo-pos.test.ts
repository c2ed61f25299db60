// The demo store's two counter sales, made through the POS API: one paid in cash and picked up,
// one paid by card and waiting at the counter.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemoPos } from '../../../scripts/seed-demo-pos';
import { signedInAdmin, TEST_PASSWORD } from '../../helpers/factories';
import { type PosTestApp, posTestApp } from './calls';

let c: PosTestApp;
beforeAll(async () => {
  c = await posTestApp();
});
afterAll(() => c?.t.close());

describe('seed:demo POS sales', () => {
  it('leaves one sale picked up and one paid by card awaiting pickup', async () => {
    const admin = await signedInAdmin(c.t, { superadmin: true, email: 'seed.pos@example.com' });
    const customer = await c.customer({ email: 'seed.customer@example.com' });
    const products: [number, number] = [await c.product({ onHand: 3 }), await c.product({ onHand: 3 })];
    const orders = await seedDemoPos(
      c.t.app,
      { admin: { email: admin.email, password: TEST_PASSWORD }, customer: { email: customer.email } },
      products,
    );
    expect(orders.map((o) => [o.orderStatus, o.paymentStatus, o.fulfillmentStatus])).toEqual([
      ['paid', 'completed', 'picked_up'],
      ['paid', 'completed', 'received'],
    ]);
    const listed = await c.call('GET', '/orders');
    expect(
      listed
        .json()
        .data.map((o: { orderNumber: string }) => o.orderNumber)
        .sort(),
    ).toEqual(orders.map((o) => o.orderNumber).sort());
    expect(await c.stockOf(products[0])).toEqual({ onHand: 2, reserved: 0, available: 2 });
  });
});
