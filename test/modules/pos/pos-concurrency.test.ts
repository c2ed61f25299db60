// Counters racing each other (really at once on PostgreSQL; PGlite serialises them): one
// order takes one payment, one phone or email one account, the last unit one sale.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { payments } from '../../../src/modules/payments/payments.table';
import { signedInAdmin } from '../../helpers/factories';
import { expectRace, race } from '../../helpers/money-races';
import { ALL_POS, type PosTestApp, posTestApp } from './calls';

describe('POS under concurrency', () => {
  let c: PosTestApp;
  beforeAll(async () => {
    c = await posTestApp({ env: { DATABASE_POOL_SIZE: '25' } });
  });
  afterAll(() => c?.t.close());

  it('two payments of one order at once (different keys): one is recorded, the other refused', async () => {
    const who = await c.customer();
    const productId = await c.product({ mrp: 1500, onHand: 3 });
    const orderId = await c.posOrder(who.userId, [{ productId, quantity: 1 }]);
    const gateways = ['pos_cash', 'pos_card', 'pos_wallet_a'];
    const outcome = await race(3, (i) => c.pay(orderId, { gateway: gateways[i], amountNpr: 1500 }));
    expectRace(outcome, { won: 1, refusedAs: ['400 POS_ORDER_NOT_PAYMENT_PENDING'] });
    const rows = await c.db.select().from(payments).where(eq(payments.orderId, orderId));
    expect(rows).toHaveLength(1);
    expect((await c.detail(orderId)).gateway).toBe(rows[0]!.gateway);
    expect(await c.stockOf(productId)).toEqual({ onHand: 2, reserved: 0, available: 2 });
  });

  it('the same slip reference on two orders at once: one payment, the other POS_DUPLICATE_PAYMENT_REFERENCE', async () => {
    const who = await c.customer();
    const productId = await c.product({ mrp: 500, onHand: 3 });
    const first = await c.posOrder(who.userId, [{ productId, quantity: 1 }]);
    const second = await c.posOrder(who.userId, [{ productId, quantity: 1 }]);
    const body = { gateway: 'pos_card', amountNpr: 500, transactionReference: 'SLIP-RACE-1' };
    const answers = await Promise.all([c.pay(first, body), c.pay(second, body)]);
    expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 400]);
    expect(answers.find((r) => r.statusCode === 400)!.json().errorCode).toBe(
      'POS_DUPLICATE_PAYMENT_REFERENCE',
    );
  });

  it('two counters creating accounts with one phone, or one email, at once: one account each time', async () => {
    const clerks = await Promise.all([1, 2].map(() => signedInAdmin(c.t, { permissions: ALL_POS })));
    const byPhone = await Promise.all(
      clerks.map((clerk, i) =>
        c.write(
          '/customers',
          { name: `P${i}`, email: `race-phone-${i}@example.com`, phone: '9800011111' },
          {},
          clerk,
        ),
      ),
    );
    expect(byPhone.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    expect(byPhone.find((r) => r.statusCode === 409)!.json().errorCode).toBe('POS_DUPLICATE_PHONE');
    const byEmail = await Promise.all(
      clerks.map((clerk, i) =>
        c.write('/customers', { name: `E${i}`, email: 'race-email@example.com' }, {}, clerk),
      ),
    );
    expect(byEmail.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    expect(byEmail.find((r) => r.statusCode === 409)!.json().errorCode).toBe('POS_DUPLICATE_EMAIL');
  });

  it('two sales of the last unit at once: one order, the other CART_INSUFFICIENT_STOCK', async () => {
    const who = await c.customer();
    const productId = await c.product({ onHand: 1 });
    const answers = await Promise.all(
      [1, 2].map(() => c.createOrder({ customerId: who.userId, items: [{ productId, quantity: 1 }] })),
    );
    expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 400]);
    expect(answers.find((r) => r.statusCode === 400)!.json().errorCode).toBe('CART_INSUFFICIENT_STOCK');
    expect(await c.stockOf(productId)).toEqual({ onHand: 1, reserved: 1, available: 0 });
  });
});
