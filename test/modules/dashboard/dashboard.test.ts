// The admin dashboard: today and the last 30 days in the store's calendar (Asia/Kathmandu,
// UTC+05:45) around a local midnight, the revenue rule (the analytics route's), zero-filled
// days, low stock by CATALOG_LOW_STOCK_THRESHOLD, support waiting for staff, and the sections
// an admin sees by their permissions.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClock } from '../../../src/platform/clock';
import { type SignedIn, signedInAdmin, signedInCustomer } from '../../helpers/factories';
import { fakeInitiator, type OrdersTestApp, ordersTestApp } from '../orders/calls';
import { caller, createCustomerInquiry, createGuestInquiry } from '../support/support-helpers';

// Tuesday 10 March 2026, 11:45 in Kathmandu.
const NOW = '2026-03-10T06:00:00.000Z';
const clock = new TestClock(NOW);
const DASHBOARD = '/api/admin/dashboard';
const STATUSES = [
  'created',
  'payment_pending',
  'paid',
  'payment_failed',
  'cancelled',
  'refund_requested',
  'refund_pending',
  'refund_approved',
  'refund_rejected',
] as const;

let c: OrdersTestApp;
let productId: number;
let superadmin: SignedIn;

/** A day of `revenueByDay` without refunds. */
const day = (date: string, revenue: number, orders: number) => ({
  date,
  revenue,
  refunds: 0,
  netRevenue: revenue,
  orders,
});

/** Every status at zero but the given ones. */
const statusCounts = (counts: Partial<Record<(typeof STATUSES)[number], number>>) => ({
  ...Object.fromEntries(STATUSES.map((s) => [s, 0])),
  ...counts,
});

/** One unit (1000 NPR + 100 shipping to Kathmandu) checked out at `instant` by a new customer. */
async function placeAt(instant: string, gateway: 'cod' | 'gateway_card') {
  clock.set(instant);
  const who = await c.customer();
  await c.cartWith(who, [{ productId }]);
  const res = await c.checkout(who, gateway);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data.orderId as number;
}

async function dashboard(who: SignedIn) {
  const res = await c.http.call('GET', DASHBOARD, who.headers);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data;
}

beforeAll(async () => {
  c = await ordersTestApp({
    initiator: fakeInitiator(),
    clock,
    env: { CATALOG_LOW_STOCK_THRESHOLD: '3' },
  });
  productId = await c.product({ onHand: 50, mrp: 1000, title: 'Singing bowl' });

  // Sunday 8 Feb, 23:59:59 local: the day before the 30-day period. Paid online.
  await c.markPaid(await placeAt('2026-02-08T18:14:59.000Z', 'gateway_card'));
  // Monday 9 Feb, 00:00 local: the period's first day. Paid online.
  await c.markPaid(await placeAt('2026-02-08T18:15:00.000Z', 'gateway_card'));
  // Monday 9 Mar, 23:59:59 local: yesterday. COD, cash collected.
  const yesterday = await placeAt('2026-03-09T18:14:59.000Z', 'cod');
  await c.forceOrder(yesterday, { status: 'paid', paymentStatus: 'cod_collected' });
  // Thursday 5 Mar: paid, then cancelled and refunded: still revenue (refunds are not deducted).
  const refunded = await placeAt('2026-03-05T05:00:00.000Z', 'gateway_card');
  await c.markPaid(refunded);
  await c.forceOrder(refunded, { status: 'refund_approved' });
  // Tuesday 10 Mar, 00:00 local: today. Paid online.
  await c.markPaid(await placeAt('2026-03-09T18:15:00.000Z', 'gateway_card'));
  // Today, 10:45 local: COD waiting for its cash, and an online payment never made.
  await placeAt('2026-03-10T05:00:00.000Z', 'cod');
  const failed = await placeAt('2026-03-10T05:30:00.000Z', 'gateway_card');
  await c.forceOrder(failed, { status: 'payment_failed', paymentStatus: 'failed' });

  clock.set(NOW);
  superadmin = await signedInAdmin(c.t, { superadmin: true });
});
afterAll(() => c?.t.close());

describe('GET /api/admin/dashboard: orders', () => {
  it("counts today's orders by the store's calendar: 23:59:59 is yesterday, 00:00 today", async () => {
    const data = await dashboard(superadmin);
    expect(data.timeZone).toBe('Asia/Kathmandu');
    expect(data.today).toEqual({
      date: '2026-03-10',
      orders: 3,
      // Only the paid online order: the COD cash is not collected, the other payment failed.
      revenue: 1100,
      refunds: 0,
      refundsOwed: 0,
      netRevenue: 1100,
      ordersByStatus: statusCounts({ paid: 1, payment_pending: 1, payment_failed: 1 }),
    });
  });

  it('covers the 30 days ending today, one entry a day, zeros included', async () => {
    const { last30Days } = await dashboard(superadmin);
    expect(last30Days.from).toBe('2026-02-09');
    expect(last30Days.to).toBe('2026-03-10');
    expect(last30Days.revenueByDay).toHaveLength(30);
    expect(last30Days.revenueByDay[0]).toEqual(day('2026-02-09', 1100, 1));
    expect(last30Days.revenueByDay[1]).toEqual(day('2026-02-10', 0, 0));
    expect(last30Days.revenueByDay.at(-2)).toEqual(day('2026-03-09', 1100, 1));
    expect(last30Days.revenueByDay.at(-1)).toEqual(day('2026-03-10', 1100, 3));
    const days = last30Days.revenueByDay.map((d: { date: string }) => d.date);
    expect(new Set(days).size).toBe(30);
    expect([...days].sort()).toEqual(days);
    // 8 Feb (before the period) is left out; the refunded order still counts as revenue (it has
    // no refund record: forced to refund_approved, so nothing is owed back for it either).
    expect(last30Days.orders).toBe(6);
    expect(last30Days.revenue).toBe(4 * 1100);
    expect(last30Days).toMatchObject({ refunds: 0, refundsOwed: 0, netRevenue: 4 * 1100 });
    expect(last30Days.ordersByStatus).toEqual(
      statusCounts({ paid: 3, refund_approved: 1, payment_pending: 1, payment_failed: 1 }),
    );
  });

  it("agrees with the analytics route's 30-day figures", async () => {
    const [{ last30Days }, analytics] = await Promise.all([
      dashboard(superadmin),
      c.http.call('GET', '/api/admin/orders/analytics?range=30d', superadmin.headers),
    ]);
    const { totals, series } = analytics.json().data;
    expect(last30Days.revenue).toBe(totals.revenue);
    expect(last30Days.orders).toBe(totals.orderCount);
    expect(last30Days.revenueByDay.map((d: { revenue: number }) => d.revenue)).toEqual(
      series.map((s: { revenue: number }) => s.revenue),
    );
  });

  it('moves with the clock: after local midnight, today starts again at zero', async () => {
    // Wednesday 11 March, 00:00:01 in Kathmandu.
    clock.set('2026-03-10T18:15:01.000Z');
    try {
      const data = await dashboard(await signedInAdmin(c.t, { superadmin: true }));
      expect(data.today).toEqual({
        date: '2026-03-11',
        orders: 0,
        revenue: 0,
        refunds: 0,
        refundsOwed: 0,
        netRevenue: 0,
        ordersByStatus: statusCounts({}),
      });
      expect(data.last30Days.from).toBe('2026-02-10');
      expect(data.last30Days.revenueByDay.at(-2)).toEqual(day('2026-03-10', 1100, 3));
      // 9 Feb has left the period.
      expect(data.last30Days.orders).toBe(5);
    } finally {
      clock.set(NOW);
    }
  });
});

describe('GET /api/admin/dashboard: refunds beside revenue (issue 27, item 3)', () => {
  it('a COD order cancelled by the shop after its cash was collected: revenue, refund owed, net', async () => {
    const before = await dashboard(superadmin);
    // Monday 2 March, 14:00 local: COD, cash collected at the counter, then the shop cancels it.
    const orderId = await placeAt('2026-03-02T08:15:00.000Z', 'cod');
    await c.forceOrder(orderId, { status: 'paid', paymentStatus: 'cod_collected' });
    clock.set(NOW);
    const cancel = await c.http.call('POST', `/api/admin/orders/${orderId}/cancel`, c.admin.headers, {
      reason: 'Out of stock after all',
    });
    expect(cancel.statusCode, cancel.body).toBe(202);
    expect(await c.adminSettled(cancel.json().data.requestId)).toMatchObject({
      status: 'completed',
      result: { orderStatus: 'cancelled', paymentStatus: 'cod_collected', refundStatus: 'pending' },
    });

    const owed = (await dashboard(superadmin)).last30Days;
    // The cash still counts as the day's revenue (the analytics rule); the refund stands beside it.
    expect(owed.revenue).toBe(before.last30Days.revenue + 1100);
    expect(owed).toMatchObject({ refunds: 1100, refundsOwed: 1100, netRevenue: before.last30Days.revenue });
    const march2 = owed.revenueByDay.find((d: { date: string }) => d.date === '2026-03-02');
    expect(march2).toEqual({ date: '2026-03-02', revenue: 1100, refunds: 1100, netRevenue: 0, orders: 1 });

    // Given back in cash: no longer owed, still a refund (the net does not move).
    const { refunds } = await c.adminOrder(orderId);
    const settle = await c.http.call(
      'POST',
      `/api/admin/orders/${orderId}/refunds/${refunds[0].id}/settle`,
      c.admin.headers,
      { method: 'cash', remarks: 'Paid back at the counter' },
    );
    expect(settle.statusCode, settle.body).toBe(200);
    const settled = (await dashboard(superadmin)).last30Days;
    expect(settled).toMatchObject({ refunds: 1100, refundsOwed: 0, netRevenue: before.last30Days.revenue });
    // Today is untouched: the order was placed on 2 March.
    expect((await dashboard(superadmin)).today).toEqual(before.today);
  });
});

describe('GET /api/admin/dashboard: low stock', () => {
  it('lists published, sellable physical products at or below the threshold, fewest first', async () => {
    const low = async (title: string, values: Record<string, unknown>) => c.product({ title, ...values });
    const copper = await low('Copper lamp', { onHand: 2 });
    const never = await low('Prayer flags', { onHand: 0 }); // never stocked: no stock row at all
    const atThreshold = await low('Brass bell', { onHand: 3 });
    await low('Incense box', { onHand: 4 }); // above the threshold
    await low('Draft thangka', { onHand: 1, status: 'draft' });
    await low('Hidden mala', { onHand: 1, isSellable: false });
    await low('Licence', { onHand: 0, kind: 'digital' });
    // 5 on hand, 3 of them held by a cart: 2 available.
    const reserved = await low('Amber beads', { onHand: 5 });
    const shopper = await c.customer();
    await c.cartCall(shopper, 'POST', '/items', { productId: reserved, quantity: 3 });

    const { lowStock } = await dashboard(superadmin);
    const slugOf = async (id: number) =>
      (await c.http.call('GET', `/api/admin/products/${id}`, superadmin.headers)).json().data.slug;
    expect(lowStock).toEqual([
      { productId: never, name: 'Prayer flags', slug: await slugOf(never), stock: 0, threshold: 3 },
      { productId: reserved, name: 'Amber beads', slug: await slugOf(reserved), stock: 2, threshold: 3 },
      { productId: copper, name: 'Copper lamp', slug: await slugOf(copper), stock: 2, threshold: 3 },
      { productId: atThreshold, name: 'Brass bell', slug: await slugOf(atThreshold), stock: 3, threshold: 3 },
    ]);
  });
});

describe('GET /api/admin/dashboard: support', () => {
  it("counts open inquiries and tickets whose last message is the customer's", async () => {
    const call = caller(c.t);
    const customer = await signedInCustomer(c.t);
    const step = () => clock.advance(1000);
    const status = (id: number, value: string) =>
      call('PATCH', `/api/admin/support-inquiries/${id}/status`, {
        headers: superadmin.headers,
        payload: { status: value },
      });
    try {
      // Inquiries: one open, one answered (waiting for the visitor: still open), one resolved, one spam.
      await createGuestInquiry(c.t);
      const answered = await createGuestInquiry(c.t);
      step();
      expect(
        (
          await call('POST', `/api/admin/support-inquiries/${answered.id}/messages`, {
            headers: superadmin.headers,
            payload: { body: 'Looking into it' },
          })
        ).statusCode,
      ).toBe(201);
      expect((await status(answered.id, 'waiting')).statusCode).toBe(200);
      expect((await status((await createCustomerInquiry(c.t, customer)).id, 'resolved')).statusCode).toBe(
        200,
      );
      expect((await status((await createGuestInquiry(c.t)).id, 'spam')).statusCode).toBe(200);

      const ticket = async (subject: string) => {
        const res = await call('POST', '/api/mobile/support-requests', {
          headers: customer.headers,
          payload: { category: 'payment', subject, message: 'Please help' },
        });
        expect(res.statusCode, res.body).toBe(201);
        return res.json().data.id as number;
      };
      const staffReply = async (id: number) => {
        step();
        const res = await call('POST', `/api/admin/support-requests/${id}/messages`, {
          headers: superadmin.headers,
          payload: { body: 'We are on it' },
        });
        expect(res.statusCode, res.body).toBe(201);
      };
      await ticket('New, unanswered'); // waiting
      await staffReply(await ticket('Answered')); // not waiting
      const again = await ticket('Answered, then the customer wrote again');
      await staffReply(again);
      step();
      const reply = await call('POST', `/api/mobile/support-requests/${again}/messages`, {
        headers: customer.headers,
        payload: { body: 'Still not fixed' },
      });
      expect(reply.statusCode, reply.body).toBe(201); // waiting
      const closed = await ticket('Closed unanswered');
      const close = await call('PATCH', `/api/admin/support-requests/${closed}/status`, {
        headers: superadmin.headers,
        payload: { status: 'closed' },
      });
      expect(close.statusCode, close.body).toBe(200);

      const { support } = await dashboard(superadmin);
      expect(support).toEqual({ openInquiries: 2, ticketsWaitingForStaff: 2 });
    } finally {
      clock.set(NOW);
    }
  });
});

describe('GET /api/admin/dashboard: access', () => {
  it('shows each section only to an admin who may read it; the others are null', async () => {
    const orders = await dashboard(await signedInAdmin(c.t, { permissions: ['Orders_READ'] }));
    expect(orders.today).not.toBeNull();
    expect(orders.last30Days.revenueByDay).toHaveLength(30);
    expect(orders).toMatchObject({ timeZone: 'Asia/Kathmandu', lowStock: null, support: null });

    // A low-stock product of its own: the test does not lean on the low-stock test's products.
    const lamp = await c.product({ title: 'Access check lamp', onHand: 1 });
    const products = await dashboard(await signedInAdmin(c.t, { permissions: ['Products_READ'] }));
    expect(products).toMatchObject({ today: null, last30Days: null, support: null });
    expect(products.lowStock.map((p: { productId: number }) => p.productId)).toContain(lamp);

    const inquiries = await dashboard(await signedInAdmin(c.t, { permissions: ['SupportInquiries_READ'] }));
    expect(inquiries).toMatchObject({ today: null, last30Days: null, lowStock: null });
    expect(inquiries.support).toEqual({ openInquiries: expect.any(Number), ticketsWaitingForStaff: null });

    const tickets = await dashboard(await signedInAdmin(c.t, { permissions: ['SupportRequests_READ'] }));
    expect(tickets.support).toEqual({ openInquiries: null, ticketsWaitingForStaff: expect.any(Number) });
  });

  it('answers 200 with every section null to an admin who may read none of them', async () => {
    const data = await dashboard(await signedInAdmin(c.t, { permissions: ['Blog_READ'] }));
    expect(data).toEqual({
      timeZone: 'Asia/Kathmandu',
      today: null,
      last30Days: null,
      lowStock: null,
      support: null,
    });
  });

  it('refuses customers (403) and callers without a token (401)', async () => {
    const customer = await c.http.call('GET', DASHBOARD, (await c.customer()).headers);
    expect(customer.statusCode).toBe(403);
    expect(customer.json().errorCode).toBe('AUTH_FORBIDDEN');
    const anonymous = await c.http.call('GET', DASHBOARD, {});
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json().errorCode).toBe('AUTH_UNAUTHORIZED');
  });
});
