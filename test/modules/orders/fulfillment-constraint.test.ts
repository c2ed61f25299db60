// The database holds the fulfilment state machine too: the history table's CHECK (built from
// allowedMovesCheckSql) takes every allowed (from, to) pair and refuses others with 23514.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ALLOWED_FULFILLMENT_MOVES,
  FULFILLMENT_STATUSES,
} from '../../../src/modules/orders/fulfillment/fulfillment.rules';
import { orderFulfillmentHistory } from '../../../src/modules/orders/orders.table';
import { type OrdersTestApp, ordersTestApp } from './calls';

function pgCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let i = 0; current && typeof current === 'object' && i < 5; i++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

describe('fulfilment history CHECK constraint', () => {
  let c: OrdersTestApp;
  let orderId: number;
  beforeAll(async () => {
    c = await ordersTestApp();
    const me = await c.customer();
    const d = await c.product({ kind: 'digital', mrp: 100 });
    await c.cartWith(me, [{ productId: d }], false);
    const res = await c.checkout(me);
    expect(res.statusCode, res.body).toBe(200);
    orderId = res.json().data.orderId;
  });
  afterAll(() => c?.t.close());

  const insert = (fromStatus: string, toStatus: string) =>
    c.db.insert(orderFulfillmentHistory).values({
      orderId,
      fromStatus: fromStatus as never,
      toStatus: toStatus as never,
      actorType: 'admin',
      createdAt: new Date(),
    });

  it('accepts every allowed pair and refuses every other pair with 23514', async () => {
    const allowed = new Set(ALLOWED_FULFILLMENT_MOVES.map(([f, t]) => `${f}>${t}`));
    for (const from of FULFILLMENT_STATUSES) {
      for (const to of FULFILLMENT_STATUSES) {
        if (allowed.has(`${from}>${to}`)) {
          await insert(from, to);
        } else {
          const error = await insert(from, to).then(
            () => undefined,
            (e: unknown) => e,
          );
          expect(pgCode(error), `${from} > ${to}`).toBe('23514');
        }
      }
    }
  });
});
