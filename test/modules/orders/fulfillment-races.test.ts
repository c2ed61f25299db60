// Fulfilment when people act at once. With the job queue held back, requests wait together and
// then run together: two admins' same move makes one history row; a cancellation waiting beside
// a move wins whichever job runs first. On PostgreSQL (services tier) real parallel requests:
// many admins moving one order, repeated digital deliveries and activations.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SignedIn, signedInAdmin } from '../../helpers/factories';
import { servicesTier } from '../../helpers/services';
import { type OrdersTestApp, ordersTestApp, RETURN_URL } from './calls';

async function codOrder(c: OrdersTestApp, who: SignedIn): Promise<number> {
  await c.cartWith(who, [{ productId: await c.product({ onHand: 5 }) }]);
  const res = await c.checkout(who, 'cod');
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data.orderId;
}

async function cancelRequest(c: OrdersTestApp, who: SignedIn, orderId: number): Promise<string> {
  const res = await c.http.call('POST', `/api/orders/${orderId}/cancel`, who.headers, {});
  expect(res.statusCode, res.body).toBe(202);
  return res.json().data.requestId;
}

describe('requests that wait together (queue held back)', () => {
  let c: OrdersTestApp;
  beforeAll(async () => {
    c = await ordersTestApp({ startJobs: false });
  });
  afterAll(() => c?.t.close());

  it('two admins ask for the same step: one moves, the other is skipped; a cancellation beside a move wins', async () => {
    const me = await c.customer();
    const first = await signedInAdmin(c.t, { permissions: ['Orders_UPDATE'] });
    const second = await signedInAdmin(c.t, { permissions: ['Orders_UPDATE'] });

    const shared = await codOrder(c, me);
    const byFirst = await c.requestFulfillment(shared, 'ready', 'first', first);
    const bySecond = await c.requestFulfillment(shared, 'ready', 'second', second);

    // The move is queued before the cancellation, and the other way round.
    const moveThenCancel = await codOrder(c, me);
    const earlyMove = await c.requestFulfillment(moveThenCancel, 'ready');
    const lateCancel = await cancelRequest(c, me, moveThenCancel);
    const cancelThenMove = await codOrder(c, me);
    const earlyCancel = await cancelRequest(c, me, cancelThenMove);
    const lateMove = await c.requestFulfillment(cancelThenMove, 'ready');

    await c.t.platform.jobs.start();
    await c.t.drainJobs();

    const outcomes = [await c.storedRequest(byFirst), await c.storedRequest(bySecond)];
    expect(outcomes.map((r) => r.status)).toEqual(['completed', 'completed']);
    const skipped = outcomes.filter((r) => r.result?.skipped === 'already_at_target_status');
    expect(skipped).toHaveLength(1);
    const history = await c.fulfillmentHistory(shared);
    expect(history.map((h) => [h.fromStatus, h.toStatus])).toEqual([['received', 'ready']]);
    const winner = outcomes.find((r) => r.result?.skipped === undefined)!;
    expect(history[0]!.actorId).toBe(winner.adminId);
    expect((await c.order(me, shared)).fulfillmentStatus).toBe('ready');

    for (const [orderId, move, cancel] of [
      [moveThenCancel, earlyMove, lateCancel],
      [cancelThenMove, lateMove, earlyCancel],
    ] as const) {
      expect(await c.storedRequest(cancel)).toMatchObject({ status: 'completed' });
      expect(await c.storedRequest(move)).toMatchObject({
        status: 'failed',
        error: 'invalid_transition',
        result: null,
      });
      expect(await c.order(me, orderId)).toMatchObject({
        orderStatus: 'cancelled',
        fulfillmentStatus: 'cancelled',
      });
      expect(await c.fulfillmentHistory(orderId)).toEqual([]);
    }
  });
});

describe.runIf(servicesTier)('real parallel requests on PostgreSQL', () => {
  let c: OrdersTestApp;
  beforeAll(async () => {
    c = await ordersTestApp({
      env: { DATABASE_POOL_SIZE: '25', PAYMENT_RETURN_URL_ALLOWLIST: RETURN_URL },
    });
  });
  afterAll(() => c?.t.close());

  it('six admins move one order to ready at once: one history row, one real move', async () => {
    const me = await c.customer();
    const orderId = await codOrder(c, me);
    const admins = await Promise.all(
      Array.from({ length: 6 }, () => signedInAdmin(c.t, { permissions: ['Orders_UPDATE'] })),
    );
    const ids = await Promise.all(admins.map((a) => c.requestFulfillment(orderId, 'ready', undefined, a)));
    await c.t.drainJobs();
    const requests = await Promise.all(ids.map((id) => c.storedRequest(id)));
    expect(requests.every((r) => r.status === 'completed')).toBe(true);
    expect(requests.filter((r) => r.result?.skipped === undefined)).toHaveLength(1);
    expect((await c.fulfillmentHistory(orderId)).map((h) => h.toStatus)).toEqual(['ready']);
  });

  it('a cancellation and moves at once: never both (cancelled with a move, or moved and cancelled)', async () => {
    const me = await c.customer();
    const orderId = await codOrder(c, me);
    const [cancel, ...moves] = await Promise.all([
      cancelRequest(c, me, orderId),
      c.requestFulfillment(orderId, 'ready'),
      c.requestFulfillment(orderId, 'ready'),
    ]);
    await c.t.drainJobs();
    const order = await c.order(me, orderId);
    const history = await c.fulfillmentHistory(orderId);
    const cancelled = await c.storedRequest(cancel!);
    if (order.orderStatus === 'cancelled') {
      expect(cancelled.status).toBe('completed');
      expect(order.fulfillmentStatus).toBe('cancelled');
      expect(history).toEqual([]);
      for (const id of moves) expect((await c.storedRequest(id)).status).toBe('failed');
    } else {
      expect(cancelled).toMatchObject({ status: 'failed', error: 'invalid_transition' });
      expect(order.fulfillmentStatus).toBe('ready');
      expect(history.map((h) => h.toStatus)).toEqual(['ready']);
    }
  });

  it('send-digital-delivery four times at once: the keys are assigned once, one history row', async () => {
    const me = await c.customer();
    const product = await c.product({ kind: 'digital', mrp: 100 });
    await c.addKeys(product, ['K-1', 'K-2', 'K-3', 'K-4', 'K-5']);
    const orderId = await c.paidOrder(me, [{ productId: product, quantity: 2 }], false);
    const answers = await Promise.all(
      Array.from({ length: 4 }, () =>
        c.http.call('POST', `/api/admin/orders/${orderId}/send-digital-delivery`, c.admin.headers),
      ),
    );
    for (const res of answers) expect(res.statusCode, res.body).toBe(200);
    const keyIds = answers.map((res) =>
      res
        .json()
        .data.deliveredItems.map((d: { keyId: string }) => d.keyId)
        .sort()
        .join(),
    );
    expect(new Set(keyIds).size).toBe(1);
    expect(answers[0]!.json().data.deliveredItems).toHaveLength(2);
    const available = await c.http.call(
      'GET',
      `/api/admin/products/${product}/digital-keys?status=available`,
      c.admin.headers,
    );
    expect(available.json().meta.count).toBe(3);
    expect((await c.fulfillmentHistory(orderId)).map((h) => h.toStatus)).toEqual(['key_sent']);
  });

  it('activate-care-package three times at once: one activation, the others find nothing pending', async () => {
    const me = await c.customer();
    const pkg = await c.carePackage();
    const product = await c.product({
      kind: 'care_package',
      mrp: pkg.tiers[0]!.price,
      carePackageTierId: pkg.tiers[0]!.id,
    });
    const orderId = await c.paidOrder(me, [{ productId: product }], false);
    const answers = await Promise.all(
      Array.from({ length: 3 }, () =>
        c.http.call('POST', `/api/admin/orders/${orderId}/activate-care-package`, c.admin.headers),
      ),
    );
    const ok = answers.filter((r) => r.statusCode === 200);
    expect(ok).toHaveLength(1);
    expect(ok[0]!.json().data).toMatchObject({ activatedCount: 1 });
    for (const res of answers.filter((r) => r.statusCode !== 200)) {
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().errorCode).toBe('ORDER_NO_PENDING_SUBSCRIPTIONS');
    }
    expect((await c.fulfillmentHistory(orderId)).map((h) => h.toStatus)).toEqual(['activated']);
  });
});
