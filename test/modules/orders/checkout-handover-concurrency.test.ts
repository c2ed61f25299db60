// Checkouts whose carts still hold their units hand the holds to the orders in one statement
// (`moveReservations`: the stock rows locked in product order). Many such checkouts of carts
// sharing several products, their lines added in different orders, run at once: every order is
// placed (no deadlock, no lost hold), and each product's stock accounts for exactly what was
// ordered. On PostgreSQL the requests really run at once; PGlite serialises them.
import { expect, it } from 'vitest';
import { servicesTier } from '../../helpers/services';
import { ordersTestApp } from './calls';

const CROWD = servicesTier ? 40 : 12;
const ON_HAND = 1_000;

it(`${CROWD} carts holding units of three shared products check out at once: every order placed, stock exact`, async () => {
  const c = await ordersTestApp({ env: { DATABASE_POOL_SIZE: '25' } });
  try {
    const shelf = [
      await c.product({ onHand: ON_HAND }),
      await c.product({ onHand: ON_HAND }),
      await c.product({ onHand: ON_HAND }),
    ];
    const buyers = await Promise.all(Array.from({ length: CROWD }, () => c.customer()));
    // Customer i takes i % 3 + 1 of each product, adding them in a rotated order.
    const quantity = (i: number) => (i % 3) + 1;
    for (const [i, who] of buyers.entries()) {
      const order = [0, 1, 2].map((k) => shelf[(i + k) % 3]!);
      await c.cartWith(
        who,
        order.map((productId) => ({ productId, quantity: quantity(i) })),
      );
    }
    const held = buyers.reduce((sum, _, i) => sum + quantity(i), 0);
    for (const p of shelf) expect(await c.stockOf(p)).toMatchObject({ onHand: ON_HAND, reserved: held });

    const answers = await Promise.all(buyers.map((who) => c.checkout(who, 'cod')));
    for (const res of answers) expect(res.statusCode, res.body).toBe(200);

    // The holds moved to the orders: nothing more and nothing less is held, nothing is lost.
    for (const p of shelf) {
      expect(await c.stockOf(p)).toEqual({ onHand: ON_HAND, reserved: held, available: ON_HAND - held });
    }
    for (const [i, who] of buyers.entries()) {
      const orderId = answers[i]!.json().data.orderId as number;
      const order = await c.order(who, orderId);
      const items = (order.items as Array<{ productId: number; quantity: number }>)
        .map((it) => [it.productId, it.quantity])
        .sort((a, b) => a[0]! - b[0]!);
      expect(items).toEqual([...shelf].sort((a, b) => a - b).map((p) => [p, quantity(i)]));
    }
  } finally {
    await c.t.close();
  }
});
