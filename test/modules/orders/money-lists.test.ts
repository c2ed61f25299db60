// The back office's money lists (docs/api-notes.md, "Payments and refunds lists"): payments
// across orders with the overdue flag, the refunds queue by where each refund stands, the
// refunds late payments owe, and sales per gateway and per product. Real orders ↔ payments
// wiring (the sandbox), a test clock so a payment's age is known.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClock } from '../../../src/platform/clock';
import { type SignedIn, signedInAdmin } from '../../helpers/factories';
import { expectError } from '../cart/calls';
import { type OrdersTestApp, ordersTestApp, RETURN_URL } from './calls';
import { payInSandbox } from './sandbox';

// Wednesday 15 April 2026, 15:45 in Kathmandu.
const T0 = '2026-04-15T10:00:00.000Z';
const clock = new TestClock(T0);
let c: OrdersTestApp;
let reader: SignedIn;
let outsider: SignedIn;

beforeAll(async () => {
  c = await ordersTestApp({
    env: { PAYMENT_RETURN_URL_ALLOWLIST: RETURN_URL, JWT_ACCESS_TTL_SECONDS: '86400' },
    clock,
  });
  reader = await signedInAdmin(c.t, { permissions: ['Orders_READ'] });
  outsider = await signedInAdmin(c.t, { permissions: ['Products_READ'] });
});
afterAll(() => c?.t.close());

const advance = (seconds: number) =>
  clock.set(new Date(clock.now().getTime() + seconds * 1000).toISOString());

async function read(path: string, who: SignedIn = reader) {
  const res = await c.http.call('GET', path, who.headers);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { data: Array<Record<string, unknown>>; meta: { count: number } };
}

/** A checkout on `gateway`, left as the customer left it; answers the order and its payment. */
async function checkedOut(gateway: string) {
  const me = await c.customer();
  const productId = await c.product({ onHand: 5 });
  await c.cartWith(me, [{ productId }]);
  const res = await c.checkout(me, gateway);
  expect(res.statusCode, res.body).toBe(200);
  const { orderId, paymentId } = res.json().data as { orderId: number; paymentId: string };
  return { me, orderId, paymentId, orderNumber: (await c.order(me, orderId)).orderNumber as string };
}

describe('GET /api/admin/payments', () => {
  let old: Awaited<ReturnType<typeof checkedOut>>;
  let oldFailed: Awaited<ReturnType<typeof checkedOut>>;
  let fresh: Awaited<ReturnType<typeof checkedOut>>;
  let paid: Awaited<ReturnType<typeof checkedOut>>;

  beforeAll(async () => {
    clock.set(T0);
    old = await checkedOut('gateway_card');
    oldFailed = await checkedOut('gateway_wallet_b');
    await payInSandbox(c.t, oldFailed.paymentId, 'failure');
    // PAYMENT_RECONCILE_AFTER_SECONDS is 300: ten minutes on, the first is overdue.
    advance(600);
    fresh = await checkedOut('gateway_wallet_a');
    paid = await checkedOut('gateway_card');
    await payInSandbox(c.t, paid.paymentId, 'success');
  });

  const ours = (rows: Array<Record<string, unknown>>) =>
    rows.filter((r) => [old, oldFailed, fresh, paid].some((o) => o.paymentId === r.id));

  it('lists every payment newest first, with its order, reference and the overdue flag', async () => {
    const { data, meta } = await read('/api/admin/payments?size=100');
    expect(meta.count).toBeGreaterThanOrEqual(4);
    const mine = ours(data);
    expect(mine.map((p) => p.id)).toEqual([
      paid.paymentId,
      fresh.paymentId,
      oldFailed.paymentId,
      old.paymentId,
    ]);
    const byId = new Map(mine.map((p) => [p.id, p]));
    expect(byId.get(old.paymentId)).toMatchObject({
      orderId: old.orderId,
      orderNumber: old.orderNumber,
      method: 'online',
      gateway: 'gateway_card',
      provider: 'sandbox',
      status: 'pending',
      stale: true,
      reference: expect.stringMatching(/^PSL-/),
      completedAt: null,
    });
    // Only a payment still pending is overdue.
    expect(byId.get(oldFailed.paymentId)).toMatchObject({
      gateway: 'gateway_wallet_b',
      status: 'failed',
      stale: false,
    });
    expect(byId.get(fresh.paymentId)).toMatchObject({ status: 'pending', stale: false });
    expect(byId.get(paid.paymentId)).toMatchObject({
      status: 'completed',
      stale: false,
      completedAt: expect.any(String),
    });
    expect(typeof byId.get(paid.paymentId)!.amount).toBe('number');
  });

  it('filters by gateway, status, overdue, search and store-local dates', async () => {
    const ids = async (query: string) =>
      ours((await read(`/api/admin/payments?size=100&${query}`)).data).map((p) => p.id);
    const all = (await read('/api/admin/payments?size=100&gateway=gateway_card')).data;
    expect(all.every((p) => p.gateway === 'gateway_card')).toBe(true);
    expect(await ids('gateway=gateway_card')).toEqual([paid.paymentId, old.paymentId]);
    expect(await ids('status=completed')).toEqual([paid.paymentId]);
    expect(await ids('stale=true')).toEqual([old.paymentId]);
    expect(await ids('stale=false')).toEqual([paid.paymentId, fresh.paymentId, oldFailed.paymentId]);
    expect(
      (await read(`/api/admin/payments?search=${paid.orderNumber.toLowerCase()}`)).data.map((p) => p.id),
    ).toEqual([paid.paymentId]);
    // 15 April in Kathmandu holds them all; the 14th and the 16th none.
    expect(await ids('fromDate=2026-04-15&toDate=2026-04-15')).toHaveLength(4);
    expect(await ids('toDate=2026-04-14')).toEqual([]);
    expect(await ids('fromDate=2026-04-16')).toEqual([]);
  });

  it('refuses bad filters and staff without Orders_READ', async () => {
    for (const query of [
      'gateway=paypal',
      'status=done',
      'stale=maybe',
      'fromDate=2026-04-31',
      'fromDate=2026-04-16&toDate=2026-04-15',
      'size=101',
    ]) {
      expectError(
        await c.http.call('GET', `/api/admin/payments?${query}`, reader.headers),
        400,
        'VALIDATION_ERROR',
      );
    }
    expectError(
      await c.http.call('GET', '/api/admin/payments', outsider.headers),
      403,
      'AUTH_PERMISSION_DENIED',
    );
    expectError(
      await c.http.call('GET', '/api/admin/payments/late-refunds', outsider.headers),
      403,
      'AUTH_PERMISSION_DENIED',
    );
    expectError(
      await c.http.call('GET', '/api/admin/refunds', outsider.headers),
      403,
      'AUTH_PERMISSION_DENIED',
    );
  });
});

/** A paid online order whose customer asked for a refund. */
async function refundRequested() {
  const me = await c.customer();
  const productId = await c.product({ onHand: 5 });
  const orderId = await c.paidOrder(me, [{ productId }]);
  const res = await c.http.call('POST', `/api/orders/${orderId}/request-refund`, me.headers, {
    reason: 'Wrong colour',
  });
  expect(res.statusCode, res.body).toBe(200);
  return { me, orderId, orderNumber: res.json().data.orderNumber as string };
}

async function decide(orderId: number, action: 'approve' | 'reject') {
  const res = await c.http.call('POST', `/api/admin/orders/${orderId}/process-refund`, c.admin.headers, {
    action,
    remarks: 'Checked by the shop',
  });
  expect(res.statusCode, res.body).toBe(202);
  expect((await c.adminSettled(res.json().data.requestId)).status).toBe('completed');
}

async function settle(orderId: number, refundId: number) {
  const res = await c.http.call(
    'POST',
    `/api/admin/orders/${orderId}/refunds/${refundId}/settle`,
    c.admin.headers,
    {
      method: 'cash',
      remarks: 'Handed back at the counter',
    },
  );
  expect(res.statusCode, res.body).toBe(200);
}

describe('GET /api/admin/refunds', () => {
  let asked: Awaited<ReturnType<typeof refundRequested>>;
  let approved: Awaited<ReturnType<typeof refundRequested>>;
  let settled: Awaited<ReturnType<typeof refundRequested>>;
  let rejected: Awaited<ReturnType<typeof refundRequested>>;
  let cancelled: { orderId: number };

  beforeAll(async () => {
    asked = await refundRequested();
    approved = await refundRequested();
    await decide(approved.orderId, 'approve');
    settled = await refundRequested();
    await decide(settled.orderId, 'approve');
    await settle(settled.orderId, (await c.adminOrder(settled.orderId)).refunds[0].id);
    rejected = await refundRequested();
    await decide(rejected.orderId, 'reject');
    // A COD order paid, then cancelled by the shop: a pending refund, owed with nothing to decide.
    const me = await c.customer();
    const { orderId } = await c.placed(me, 'cod');
    await c.http.call('PUT', `/api/admin/orders/${orderId}/cod-collect`, c.admin.headers, {
      remarks: 'Cash in',
    });
    const cancel = await c.http.call('POST', `/api/admin/orders/${orderId}/cancel`, c.admin.headers, {
      reason: 'Out of stock after all',
    });
    expect((await c.adminSettled(cancel.json().data.requestId)).status).toBe('completed');
    cancelled = { orderId };
  });

  const orderIdsIn = async (query: string) =>
    (await read(`/api/admin/refunds?size=100&${query}`)).data.map((r) => r.orderId);

  it('holds every refund with its order and customer, and where it stands', async () => {
    const { data } = await read('/api/admin/refunds?size=100');
    const item = data.find((r) => r.orderId === asked.orderId);
    expect(item).toMatchObject({
      orderNumber: asked.orderNumber,
      orderStatus: 'refund_requested',
      paymentMethod: 'online',
      customer: { id: asked.me.userId, email: asked.me.email },
      status: 'requested',
      state: 'to_decide',
      reason: 'Wrong colour',
      settlement: null,
      amount: expect.any(Number),
    });
    const stateOf = (orderId: number) => data.find((r) => r.orderId === orderId)?.state;
    expect(stateOf(approved.orderId)).toBe('owed');
    expect(stateOf(settled.orderId)).toBe('settled');
    expect(stateOf(rejected.orderId)).toBe('rejected');
    expect(stateOf(cancelled.orderId)).toBe('owed');
    // Newest first.
    const positions = [cancelled, rejected, settled, approved, asked].map((o) =>
      data.findIndex((r) => r.orderId === o.orderId),
    );
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
  });

  it('filters by state, status, reason and search', async () => {
    expect(await orderIdsIn('state=to_decide')).toContain(asked.orderId);
    expect(await orderIdsIn('state=to_decide')).not.toContain(approved.orderId);
    const owed = await orderIdsIn('state=owed');
    expect(owed).toEqual(expect.arrayContaining([approved.orderId, cancelled.orderId]));
    expect(owed).not.toContain(settled.orderId);
    expect(owed).not.toContain(asked.orderId);
    expect(await orderIdsIn('state=settled')).toEqual([settled.orderId]);
    expect(await orderIdsIn('state=rejected')).toEqual([rejected.orderId]);
    expect(await orderIdsIn('status=approved')).toEqual([settled.orderId, approved.orderId]);
    expect(await orderIdsIn('reason=admin_cancel')).toEqual([cancelled.orderId]);
    expect(await orderIdsIn(`search=${encodeURIComponent(asked.me.email)}`)).toEqual([asked.orderId]);
    expect(await orderIdsIn(`search=${asked.orderNumber}`)).toEqual([asked.orderId]);
  });

  it('follows a decision taken on the order: approved, the refund moves from to decide to owed', async () => {
    const next = await refundRequested();
    expect(await orderIdsIn('state=to_decide')).toContain(next.orderId);
    await decide(next.orderId, 'approve');
    expect(await orderIdsIn('state=to_decide')).not.toContain(next.orderId);
    expect(await orderIdsIn('state=owed')).toContain(next.orderId);
  });

  it('pages and refuses bad filters', async () => {
    const first = await read('/api/admin/refunds?size=2&page=1');
    const second = await read('/api/admin/refunds?size=2&page=2');
    expect(first.data).toHaveLength(2);
    expect(first.meta).toMatchObject({ page: 1, size: 2 });
    expect(first.meta.count).toBeGreaterThanOrEqual(5);
    expect(second.data[0]!.id).not.toBe(first.data[1]!.id);
    for (const query of ['state=waiting', 'status=owed', 'sort=amount', 'reason=']) {
      expectError(
        await c.http.call('GET', `/api/admin/refunds?${query}`, reader.headers),
        400,
        'VALIDATION_ERROR',
      );
    }
  });
});

describe('GET /api/admin/payments/late-refunds', () => {
  it('lists the refunds owed for payments completed after the order was given up, with those payments', async () => {
    const late = await checkedOut('gateway_card');
    const cancel = await c.http.call('POST', `/api/orders/${late.orderId}/cancel`, late.me.headers, {});
    expect(cancel.statusCode, cancel.body).toBe(202);
    expect((await c.settled(late.me, cancel.json().data.requestId)).status).toBe('completed');
    // The customer finishes paying in the provider's window anyway.
    await payInSandbox(c.t, late.paymentId, 'success');

    const { data } = await read('/api/admin/payments/late-refunds?size=100');
    expect(data.every((r) => r.reason === 'late_payment')).toBe(true);
    const item = data.find((r) => r.orderId === late.orderId);
    expect(item).toMatchObject({
      orderNumber: late.orderNumber,
      orderStatus: 'cancelled',
      status: 'pending',
      state: 'owed',
      customer: { email: late.me.email },
      payments: [
        {
          id: late.paymentId,
          gateway: 'gateway_card',
          reference: expect.stringMatching(/^PSL-/),
          completedAt: expect.any(String),
        },
      ],
    });
    expect((item!.payments as Array<{ amount: number }>)[0]!.amount).toBe(item!.amount);
    expect(
      (await read('/api/admin/payments/late-refunds?state=settled')).data.map((r) => r.orderId),
    ).not.toContain(late.orderId);

    await settle(late.orderId, item!.id as number);
    expect(
      (await read('/api/admin/payments/late-refunds?state=settled')).data.map((r) => r.orderId),
    ).toContain(late.orderId);
    expect(
      (await read('/api/admin/payments/late-refunds?state=owed')).data.map((r) => r.orderId),
    ).not.toContain(late.orderId);
    expectError(
      await c.http.call('GET', '/api/admin/payments/late-refunds?state=to_decide', reader.headers),
      400,
      'VALIDATION_ERROR',
    );
  });
});

describe('sales by gateway and by product', () => {
  // Thursday 16 April 2026 in Kathmandu, a day no other test of this file sells on (and within
  // the day the sign-ins of the test stay valid).
  const DAY = '2026-04-16';
  const range = `range=custom&fromDate=${DAY}&toDate=${DAY}`;
  let bigProduct: number;
  let smallProduct: number;
  let cardPaid: number;
  let codCollected: number;

  beforeAll(async () => {
    clock.set('2026-04-16T06:00:00.000Z');
    // Gross sales of five digits against three: sorted as numbers, not as text.
    bigProduct = await c.product({ onHand: 10, mrp: 5000 });
    smallProduct = await c.product({ onHand: 10, mrp: 300 });
    // Two units of the big product, paid online, then refunded (approved).
    const buyer = await c.customer();
    cardPaid = await c.paidOrder(buyer, [{ productId: bigProduct, quantity: 2 }]);
    const asked = await c.http.call('POST', `/api/orders/${cardPaid}/request-refund`, buyer.headers, {
      reason: 'Changed my mind',
    });
    expect(asked.statusCode, asked.body).toBe(200);
    await decide(cardPaid, 'approve');
    // An online order never paid: counted as an order, not as a sale.
    await checkedOut('gateway_card');
    // One unit of the small product, cash on delivery, collected.
    const other = await c.customer();
    ({ orderId: codCollected } = await c.placed(other, 'cod', { productId: smallProduct }));
    await c.http.call('PUT', `/api/admin/orders/${codCollected}/cod-collect`, c.admin.headers, {
      remarks: 'Cash in',
    });
  });

  it('per gateway: orders, paid orders, gross sales, refunds and net', async () => {
    const card = (await c.adminOrder(cardPaid)).finalPayable as number;
    const cod = (await c.adminOrder(codCollected)).finalPayable as number;
    const res = await c.http.call('GET', `/api/admin/orders/analytics/gateways?${range}`, reader.headers);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toEqual([
      {
        gateway: 'gateway_card',
        orderCount: 2,
        paidOrderCount: 1,
        grossSales: card,
        refunds: card,
        netSales: 0,
      },
      { gateway: 'cod', orderCount: 1, paidOrderCount: 1, grossSales: cod, refunds: 0, netSales: cod },
    ]);
    const before = await c.http.call(
      'GET',
      '/api/admin/orders/analytics/gateways?range=custom&fromDate=2026-04-14&toDate=2026-04-14',
      reader.headers,
    );
    expect(before.json().data).toEqual([]);
  });

  it('per product: units and sales of paid orders, most sales first, a page at a time', async () => {
    const res = await c.http.call('GET', `/api/admin/orders/analytics/products?${range}`, reader.headers);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.meta).toEqual({ count: 2, page: 1, size: 20 });
    expect(body.data).toEqual([
      { productId: bigProduct, productTitle: expect.any(String), orderCount: 1, quantity: 2, sales: 10000 },
      { productId: smallProduct, productTitle: expect.any(String), orderCount: 1, quantity: 1, sales: 300 },
    ]);
    const second = await c.http.call(
      'GET',
      `/api/admin/orders/analytics/products?${range}&size=1&page=2`,
      reader.headers,
    );
    expect(second.json()).toMatchObject({
      data: [{ productId: smallProduct }],
      meta: { count: 2, page: 2, size: 1 },
    });
  });

  it('refuses what the analytics refuse, and staff without Orders_READ', async () => {
    for (const path of ['gateways', 'products']) {
      const url = `/api/admin/orders/analytics/${path}`;
      expectError(
        await c.http.call('GET', `${url}?range=custom&fromDate=2025-01-01&toDate=2026-04-16`, reader.headers),
        400,
        'ORDER_DATE_RANGE_TOO_LARGE',
      );
      expectError(
        await c.http.call('GET', `${url}?range=custom&fromDate=${DAY}`, reader.headers),
        400,
        'VALIDATION_ERROR',
      );
      expectError(
        await c.http.call('GET', `${url}?range=7d&fromDate=${DAY}`, reader.headers),
        400,
        'VALIDATION_ERROR',
      );
      expectError(await c.http.call('GET', url, outsider.headers), 403, 'AUTH_PERMISSION_DENIED');
    }
    expectError(
      await c.http.call('GET', `/api/admin/orders/analytics/products?size=0`, reader.headers),
      400,
      'VALIDATION_ERROR',
    );
  });
});
