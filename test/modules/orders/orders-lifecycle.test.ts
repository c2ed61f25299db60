// The customer's orders after checkout: list (filters, sort, meta), detail, who may see them
// (ownership rows), async cancel with its request, refund requests, and the unpaid-order sweep.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { markOrderPaid, queueUnpaidOrderCancels } from '../../../src/modules/orders';
import { orders } from '../../../src/modules/orders/orders.table';
import { TestClock } from '../../../src/platform/clock';
import { inTransaction } from '../../../src/platform/db/transaction';
import type { SignedIn } from '../../helpers/factories';
import { type OwnershipContext, ownershipTests } from '../../helpers/ownership';
import { expectError } from '../cart/calls';
import {
  fakeInitiator,
  ORDER_LIST_ITEM_KEYS,
  ORDER_PREFIXES,
  type OrdersTestApp,
  ordersTestApp,
} from './calls';

const clock = new TestClock('2026-03-01T08:00:00.000Z');
let c: OrdersTestApp;

beforeAll(async () => {
  c = await ordersTestApp({ initiator: fakeInitiator(), clock });
});
afterAll(() => c?.t.close());

async function placed(who: SignedIn, gateway = 'cod', onHand = 5, productId?: number) {
  const p = productId ?? (await c.product({ onHand }));
  await c.cartWith(who, [{ productId: p }]);
  const res = await c.checkout(who, gateway);
  expect(res.statusCode, res.body).toBe(200);
  return { productId: p, orderId: res.json().data.orderId as number };
}

/** Pays as the payments module would, then runs the jobs that follows (the cart clearing): on
 * Redis they run on their own, and a cart cleared late would take the next order's lines. */
async function pay(orderId: number) {
  const outcome = await inTransaction(c.db, (tx, ac) =>
    markOrderPaid(c.deps, tx, ac, { orderId, paymentReference: `ref-${orderId}` }),
  );
  await c.t.drainJobs();
  return outcome;
}

describe('order list and detail', () => {
  for (const prefix of ORDER_PREFIXES) {
    it(`${prefix}: own orders only, list item shape, filters, sort and meta`, async () => {
      const me = await c.customer();
      const first = await placed(me, 'cod');
      clock.advance(60_000);
      const second = await placed(me, 'gateway_card');
      clock.advance(60_000);
      await placed(await c.customer(), 'cod'); // someone else's
      const res = await c.http.call('GET', prefix, me.headers);
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json();
      expect(body.meta).toEqual({ count: 2, page: 1, size: 20 });
      expect(body.data.map((o: { id: number }) => o.id)).toEqual([second.orderId, first.orderId]);
      expect(Object.keys(body.data[0]).sort()).toEqual([...ORDER_LIST_ITEM_KEYS].sort());
      const asc = await c.http.call('GET', `${prefix}?order=asc&sort=updatedAt`, me.headers);
      expect(asc.json().data.map((o: { id: number }) => o.id)).toEqual([first.orderId, second.orderId]);
      const cod = await c.http.call('GET', `${prefix}?fulfillmentStatus=received`, me.headers);
      expect(cod.json().data.map((o: { id: number }) => o.id)).toEqual([first.orderId]);
      const pending = await c.http.call('GET', `${prefix}?status=payment_pending&size=1&page=2`, me.headers);
      expect(pending.json().meta).toEqual({ count: 2, page: 2, size: 1 });
      expect(pending.json().data.map((o: { id: number }) => o.id)).toEqual([first.orderId]);
      const all = await c.http.call('GET', `${prefix}?pagination=false`, me.headers);
      expect(all.json().meta).toEqual({ count: 2 });
      expectError(await c.http.call('GET', `${prefix}?status=shipped`, me.headers), 400, 'VALIDATION_ERROR');
      const detail = await c.http.call('GET', `${prefix}/${first.orderId}`, me.headers);
      expect(detail.json().data).toMatchObject({ id: first.orderId, paymentMethod: 'cod' });
      expectError(await c.http.call('GET', `${prefix}/99999999`, me.headers), 404, 'ORDER_NOT_FOUND');
      expectError(await c.http.call('GET', `${prefix}/01`, me.headers), 400, 'VALIDATION_ERROR');
    });
  }
});

describe('who may reach an order', () => {
  interface Rec {
    id: number;
    requestId: string;
  }
  let context: OwnershipContext<Rec>;
  beforeAll(async () => {
    const owner = await c.customer();
    const { orderId } = await placed(owner, 'cod');
    const order = await c.order(owner, orderId);
    // A cancel request of the owner's that fails (already cancelled below is not needed: a pending one is enough).
    const other = await c.customer();
    const otherOrder = await placed(other, 'cod');
    const req = await c.http.call('POST', `/api/orders/${otherOrder.orderId}/cancel`, other.headers, {});
    expect(req.statusCode, req.body).toBe(202);
    context = {
      t: c.t,
      record: { id: orderId, requestId: req.json().data.requestId },
      actors: {
        owner,
        otherCustomer: await c.customer(),
        requestOwner: other,
        admin: c.admin,
        anonymous: { headers: {} },
      },
      secrets: [order.orderNumber],
      snapshot: async () => c.order(owner, orderId),
    };
  });

  ownershipTests(
    () => context,
    [
      { method: 'GET', url: (r) => `/api/orders/${r.id}`, as: 'owner', expect: 200 },
      {
        method: 'GET',
        url: (r) => `/api/orders/${r.id}`,
        as: 'otherCustomer',
        expect: 403,
        errorCode: 'ORDER_ACCESS_DENIED',
      },
      {
        method: 'GET',
        url: (r) => `/api/mobile/orders/${r.id}`,
        as: 'otherCustomer',
        expect: 403,
        errorCode: 'ORDER_ACCESS_DENIED',
      },
      {
        method: 'GET',
        url: (r) => `/api/orders/${r.id}`,
        as: 'admin',
        expect: 403,
        errorCode: 'AUTH_FORBIDDEN',
      },
      {
        method: 'GET',
        url: (r) => `/api/orders/${r.id}`,
        as: 'anonymous',
        expect: 401,
        errorCode: 'AUTH_UNAUTHORIZED',
      },
      {
        method: 'POST',
        url: (r) => `/api/orders/${r.id}/cancel`,
        payload: () => ({}),
        as: 'otherCustomer',
        expect: 403,
        errorCode: 'ORDER_ACCESS_DENIED',
      },
      {
        method: 'POST',
        url: (r) => `/api/orders/${r.id}/request-refund`,
        payload: () => ({ reason: 'broken' }),
        as: 'otherCustomer',
        expect: 403,
        errorCode: 'ORDER_ACCESS_DENIED',
      },
      { method: 'GET', url: () => '/api/orders', as: 'otherCustomer', expect: 200, shows: false },
      {
        method: 'GET',
        url: (r) => `/api/orders/requests/${r.requestId}`,
        as: 'otherCustomer',
        expect: 404,
        errorCode: 'ORDER_REQUEST_NOT_FOUND',
      },
      {
        method: 'GET',
        url: (r) => `/api/orders/requests/${r.requestId}`,
        as: 'owner',
        expect: 404,
        errorCode: 'ORDER_REQUEST_NOT_FOUND',
        note: '(the order owner did not make that request)',
      },
    ],
  );
});

describe('cancel (async)', () => {
  for (const prefix of ORDER_PREFIXES) {
    it(`${prefix}: a COD order is cancelled by the job, its stock released; a second cancel fails invalid_transition`, async () => {
      const me = await c.customer();
      const { orderId, productId } = await placed(me, 'cod', 4);
      expect(await c.stockOf(productId)).toEqual({ onHand: 4, reserved: 1, available: 3 });
      const res = await c.http.call('POST', `${prefix}/${orderId}/cancel`, me.headers, {
        reason: 'changed my mind',
      });
      expect(res.statusCode, res.body).toBe(202);
      expect(res.json().data).toMatchObject({
        status: 'pending',
        result: null,
        error: null,
        completedAt: null,
      });
      const done = await c.settled(me, res.json().data.requestId);
      expect(done).toMatchObject({
        status: 'completed',
        error: null,
        result: {
          orderId,
          orderStatus: 'cancelled',
          paymentStatus: 'cod_pending',
          fulfillmentStatus: 'cancelled',
        },
      });
      expect(done.completedAt).not.toBeNull();
      expect(await c.stockOf(productId)).toEqual({ onHand: 4, reserved: 0, available: 4 });
      const again = await c.http.call('POST', `${prefix}/${orderId}/cancel`, me.headers);
      expect(again.statusCode, again.body).toBe(202);
      expect(await c.settled(me, again.json().data.requestId)).toMatchObject({
        status: 'failed',
        error: 'invalid_transition',
        result: null,
      });
      expect(await c.stockOf(productId)).toEqual({ onHand: 4, reserved: 0, available: 4 });
      expectError(
        await c.http.call('GET', `${prefix}/requests/nope`, me.headers),
        404,
        'ORDER_REQUEST_NOT_FOUND',
      );
      expectError(
        await c.http.call('POST', `${prefix}/99999999/cancel`, me.headers, {}),
        404,
        'ORDER_NOT_FOUND',
      );
    });
  }

  it('a paid order cannot be cancelled by the customer', async () => {
    const me = await c.customer();
    const { orderId, productId } = await placed(me, 'gateway_card');
    await pay(orderId);
    const res = await c.http.call('POST', `/api/orders/${orderId}/cancel`, me.headers, {});
    expect(await c.settled(me, res.json().data.requestId)).toMatchObject({
      status: 'failed',
      error: 'invalid_transition',
    });
    expect((await c.order(me, orderId)).orderStatus).toBe('paid');
    expect(await c.stockOf(productId)).toEqual({ onHand: 4, reserved: 0, available: 4 });
  });
});

describe('refund request', () => {
  it('paid before dispatch: refund_requested; again or unpaid: ORDER_REFUND_NOT_ALLOWED', async () => {
    const me = await c.customer();
    const cod = await placed(me, 'cod');
    expectError(
      await c.http.call('POST', `/api/orders/${cod.orderId}/request-refund`, me.headers, { reason: 'x' }),
      400,
      'ORDER_REFUND_NOT_ALLOWED',
    );
    const online = await placed(me, 'gateway_wallet_a');
    await pay(online.orderId);
    const res = await c.http.call('POST', `/api/mobile/orders/${online.orderId}/request-refund`, me.headers, {
      reason: 'Arrived late',
      remarks: 'box dented',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({
      id: online.orderId,
      orderStatus: 'refund_requested',
      refundReason: 'Arrived late',
    });
    expectError(
      await c.http.call('POST', `/api/orders/${online.orderId}/request-refund`, me.headers, {
        reason: 'again',
      }),
      400,
      'ORDER_REFUND_NOT_ALLOWED',
    );
    expectError(
      await c.http.call('POST', `/api/orders/${online.orderId}/request-refund`, me.headers, {}),
      400,
      'VALIDATION_ERROR',
    );
  });

  it('after delivery: allowed within REFUND_WINDOW_DAYS (7), refused after; in transit: refused', async () => {
    const me = await c.customer();
    const ids: number[] = [];
    for (let i = 0; i < 3; i++) {
      const { orderId } = await placed(me, 'gateway_card');
      await pay(orderId);
      ids.push(orderId);
    }
    const now = clock.now().getTime();
    const day = 86_400_000;
    await c.db
      .update(orders)
      .set({ fulfillmentStatus: 'delivered', deliveredAt: new Date(now - 6 * day) })
      .where(eq(orders.id, ids[0]!));
    await c.db
      .update(orders)
      .set({ fulfillmentStatus: 'delivered', deliveredAt: new Date(now - 8 * day) })
      .where(eq(orders.id, ids[1]!));
    await c.db.update(orders).set({ fulfillmentStatus: 'in_transit' }).where(eq(orders.id, ids[2]!));
    const ask = (id: number) =>
      c.http.call('POST', `/api/orders/${id}/request-refund`, me.headers, { reason: 'faulty' });
    expect((await ask(ids[0]!)).statusCode).toBe(200);
    expectError(await ask(ids[1]!), 400, 'ORDER_REFUND_NOT_ALLOWED');
    expectError(await ask(ids[2]!), 400, 'ORDER_REFUND_NOT_ALLOWED');
  });
});

describe('order.auto_cancel', () => {
  const statusOf = async (id: number) => (await c.db.select().from(orders).where(eq(orders.id, id)))[0]!;

  it('online orders unpaid after ORDER_PAYMENT_TIMEOUT_MINUTES are cancelled and release stock; COD and paid ones stay', async () => {
    // One customer per order: an online order leaves its lines in the cart, and the next
    // checkout of that cart would take them again.
    const freshProduct = await c.product({ onHand: 3 });
    const stale = await placed(await c.customer(), 'gateway_card', 3);
    const cod = await placed(await c.customer(), 'cod', 3);
    const paid = await placed(await c.customer(), 'gateway_card', 3);
    await pay(paid.orderId);
    clock.advance(29 * 60_000);
    const later = await c.customer(); // signed in now: its token is fresh
    const fresh = await placed(later, 'gateway_bank', 3, freshProduct);
    await queueUnpaidOrderCancels(c.deps);
    await c.t.drainJobs();
    expect((await statusOf(stale.orderId)).status).toBe('payment_pending');
    clock.advance(2 * 60_000);
    expect(await queueUnpaidOrderCancels(c.deps)).toBeGreaterThanOrEqual(1);
    await c.t.drainJobs();
    expect(await statusOf(stale.orderId)).toMatchObject({ status: 'cancelled', fulfillmentStatus: null });
    expect(await c.stockOf(stale.productId)).toEqual({ onHand: 3, reserved: 0, available: 3 });
    expect((await statusOf(cod.orderId)).status).toBe('payment_pending');
    expect(await c.stockOf(cod.productId)).toMatchObject({ reserved: 1 });
    expect((await statusOf(paid.orderId)).status).toBe('paid');
    expect((await statusOf(fresh.orderId)).status).toBe('payment_pending');
    expect(await c.stockOf(freshProduct)).toMatchObject({ reserved: 1 });
    // Nothing left to queue; a late payment for the cancelled order changes nothing here.
    expect(await queueUnpaidOrderCancels(c.deps)).toBe(0);
    expect((await pay(stale.orderId)).changed).toBe(false);
  });
});
