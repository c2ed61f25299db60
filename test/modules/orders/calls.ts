// Helpers of the orders tests: a cart test app with orders deps, fake checkout payments (in
// place of the payments module's steps), and shortcuts to fill a cart and check out.
import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import type { CheckoutPayments, OrderDeps } from '../../../src/modules/orders';
import { createOrdersModule, markOrderPaid } from '../../../src/modules/orders';
import { fulfillmentHistoryOf } from '../../../src/modules/orders/admin/admin-orders.repository';
import { findRequest } from '../../../src/modules/orders/orders.repository';
import { orders } from '../../../src/modules/orders/orders.table';
import { inTransaction } from '../../../src/platform/db/transaction';
import type { TestAppOptions } from '../../helpers/app';
import type { SignedIn } from '../../helpers/factories';
import { cartTestApp } from '../cart/calls';
import { payInSandbox } from './sandbox';

export const ORDER_PREFIXES = ['/api/orders', '/api/mobile/orders'] as const;
export const RETURN_URL = 'http://localhost:3001/checkout/result';

/** The fields of an order list item (docs/decisions.md, "Order list item"). */
export const ORDER_LIST_ITEM_KEYS = [
  'id',
  'orderNumber',
  'orderType',
  'orderStatus',
  'paymentStatus',
  'paymentMethod',
  'fulfillmentStatus',
  'finalPayable',
  'itemCount',
  'orderThumbnails',
  'createdAt',
  'updatedAt',
];

export interface FakeInitiator extends CheckoutPayments {
  calls: Array<{ orderId: number; amount: number; gateway: string }>;
  fail: boolean;
}

/** A provider that answers every start at once (or, with `fail`, cannot be reached). */
export function fakeInitiator(): FakeInitiator {
  const fake: FakeInitiator = {
    calls: [],
    fail: false,
    async open(_tx, request) {
      return {
        paymentId: `pay-${request.orderId}`,
        gatewayTransactionId: `tx-${request.orderNumber}`,
        request,
      };
    },
    async start({ paymentId, gatewayTransactionId, request: p }) {
      if (fake.fail) throw new Error('provider down');
      fake.calls.push({ orderId: p.orderId, amount: p.amount, gateway: p.gateway });
      return {
        paymentId,
        gatewayTransactionId,
        initiationType: 'redirect',
        redirectUrl: `http://127.0.0.1/sandbox/${p.orderId}`,
        gatewayPayload: { amount: p.amount },
      };
    },
    async abandon() {},
  };
  return fake;
}

export async function ordersTestApp(opts: TestAppOptions & { initiator?: CheckoutPayments } = {}) {
  const { initiator, ...rest } = opts;
  const c = await cartTestApp({
    ...rest,
    replaceModules: initiator ? [createOrdersModule({ payments: () => initiator })] : undefined,
  });
  const p = c.t.platform;
  const deps: OrderDeps = {
    db: p.database.db,
    clock: p.clock,
    cache: p.cache,
    config: p.config,
    storage: p.storage,
    jobs: p.jobs,
    push: p.outgoing.push,
    realtime: p.realtime,
    log: p.log,
    mail: p.outgoing.mail,
  };
  let districtReady = false;

  /** A customer whose cart holds `items` (and a Kathmandu shipping location unless `location: false`). */
  async function cartWith(
    who: SignedIn,
    items: Array<{ productId: number; quantity?: number }>,
    location = true,
  ) {
    for (const item of items) await c.cartCall(who, 'POST', '/items', { quantity: 1, ...item });
    if (location) {
      if (!districtReady) {
        await c.district('Kathmandu', 100);
        districtReady = true;
      }
      await c.cartCall(who, 'POST', '/location', {
        districtName: 'Kathmandu',
        addressLine1: 'Ward 1',
        city: 'Kathmandu',
        postalCode: '44600',
      });
    }
  }

  const checkout = (who: SignedIn, gateway = 'cod', prefix: string = ORDER_PREFIXES[0], headers = {}) =>
    c.http.call(
      'POST',
      `${prefix}/checkout`,
      { ...who.headers, ...headers },
      { gateway, returnUrl: RETURN_URL },
    );

  async function order(who: SignedIn, id: number) {
    const res = await c.http.call('GET', `/api/orders/${id}`, who.headers);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data;
  }

  /** Polls an async request until it is no longer pending (drains the jobs first). */
  async function settled(who: SignedIn, requestId: string) {
    return settledAt(`/api/orders/requests/${requestId}`, who);
  }

  /** Reads an async request at `path` until it is no longer pending, running the jobs first. */
  async function settledAt(path: string, who: SignedIn) {
    for (let i = 0; i < 50; i++) {
      await c.t.drainJobs();
      const res = await c.http.call('GET', path, who.headers);
      expect(res.statusCode, res.body).toBe(200);
      if (res.json().data.status !== 'pending') return res.json().data;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`request at ${path} still pending`);
  }

  /** `who` checks out one unit of a product (a new one with `onHand` units unless given). */
  async function placed(who: SignedIn, gateway = 'cod', opts: { onHand?: number; productId?: number } = {}) {
    const productId = opts.productId ?? (await c.product({ onHand: opts.onHand ?? 5 }));
    await cartWith(who, [{ productId }]);
    const res = await checkout(who, gateway);
    expect(res.statusCode, res.body).toBe(200);
    return { productId, orderId: res.json().data.orderId as number };
  }

  /** A verified online payment, as the payments module reports it. */
  const markPaid = (orderId: number) =>
    inTransaction(c.db, (tx, afterCommit) =>
      markOrderPaid(deps, tx, afterCommit, { orderId, paymentReference: `ref-${orderId}` }),
    );

  /** The back office's view of an order (read by the superadmin). */
  async function adminOrder(id: number) {
    const res = await c.http.call('GET', `/api/admin/orders/${id}`, c.admin.headers);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data;
  }

  /** Polls an async request on the admin route until it is no longer pending. */
  function adminSettled(requestId: string, who: SignedIn = c.admin) {
    return settledAt(`/api/admin/orders/requests/${requestId}`, who);
  }

  /**
   * Sets an order's columns directly: for states (delivered, COD collected) whose own routes
   * are tested elsewhere, when a test only needs an order in that state.
   */
  async function forceOrder(orderId: number, values: Partial<typeof orders.$inferInsert>) {
    await c.db.update(orders).set(values).where(eq(orders.id, orderId));
    // Written behind the app's back: its order caches must not answer the old state.
    await c.t.platform.cache.deleteByPrefix('orders:');
  }

  /**
   * An order of `items` paid online through the payments sandbox (the app needs
   * `PAYMENT_RETURN_URL_ALLOWLIST: RETURN_URL` and no fake initiator). Answers the order id.
   */
  async function paidOrder(
    who: SignedIn,
    items: Array<{ productId: number; quantity?: number }>,
    location = true,
  ): Promise<number> {
    await cartWith(who, items, location);
    const res = await checkout(who, 'gateway_card');
    expect(res.statusCode, res.body).toBe(200);
    const init = res.json().data;
    await payInSandbox(c.t, init.paymentId, 'success');
    expect((await order(who, init.orderId)).orderStatus).toBe('paid');
    return init.orderId;
  }

  /** An admin's fulfillment-status request, 202; answers its request id. */
  async function requestFulfillment(orderId: number, status: string, remarks?: string, who = c.admin) {
    const res = await c.http.call('POST', `/api/admin/orders/${orderId}/fulfillment-status`, who.headers, {
      status,
      ...(remarks === undefined ? {} : { remarks }),
    });
    expect(res.statusCode, res.body).toBe(202);
    return res.json().data.requestId as string;
  }

  /** An async request as stored (the admin request route lives elsewhere). */
  async function storedRequest(requestId: string) {
    const row = await findRequest(c.db, requestId);
    expect(row).toBeDefined();
    return row!;
  }

  /** Requests a fulfilment move, runs the job, answers how the request ended. */
  async function fulfil(orderId: number, status: string, remarks?: string) {
    const requestId = await requestFulfillment(orderId, status, remarks);
    await c.t.drainJobs();
    return storedRequest(requestId);
  }

  const fulfillmentHistory = (orderId: number) => fulfillmentHistoryOf(c.db, orderId);

  /** Adds licence keys to a digital product. */
  async function addKeys(productId: number, keys: string[]) {
    const res = await c.http.call('POST', `/api/admin/products/${productId}/digital-keys`, c.admin.headers, {
      keys,
    });
    expect(res.statusCode, res.body).toBe(201);
  }

  return {
    ...c,
    deps,
    cartWith,
    checkout,
    order,
    settled,
    placed,
    markPaid,
    adminOrder,
    adminSettled,
    forceOrder,
    paidOrder,
    requestFulfillment,
    storedRequest,
    fulfil,
    fulfillmentHistory,
    addKeys,
  };
}

export type OrdersTestApp = Awaited<ReturnType<typeof ordersTestApp>>;
