// The back office's order routes: the list (filters, search, sort, pages), the detail (history,
// fulfilment history and actions, notes, refunds), any async request, admin cancel and refund
// decisions (async), notes, serial numbers and COD collection, with who may call each.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../../src/modules/identity/identity.table';
import { orderFulfillmentHistory, type orders } from '../../../src/modules/orders/orders.table';
import { TestClock } from '../../../src/platform/clock';
import { type SignedIn, signedInAdmin, signedInCustomer } from '../../helpers/factories';
import { expectError } from '../cart/calls';
import { fakeInitiator, ORDER_LIST_ITEM_KEYS, type OrdersTestApp, ordersTestApp } from './calls';

const clock = new TestClock('2026-03-01T08:00:00.000Z');
const BASE = '/api/admin/orders';
let c: OrdersTestApp;
let reader: SignedIn;

beforeAll(async () => {
  c = await ordersTestApp({ initiator: fakeInitiator(), clock });
  reader = await signedInAdmin(c.t, { permissions: ['Orders_READ'] });
});
afterAll(() => c?.t.close());

const ids = (res: { json(): { data: Array<{ id: number }> } }) => res.json().data.map((o) => o.id);
const setOrder = (id: number, values: Partial<typeof orders.$inferInsert>) => c.forceOrder(id, values);
const history = async (id: number) =>
  (await c.adminOrder(id)).statusHistory as Array<{
    status: string;
    actorType: string;
    createdByAdminId: string;
  }>;

/** A customer with a name and phone of their own, so a search finds exactly their orders. */
async function namedCustomer(name: string, phone: string) {
  const who = await signedInCustomer(c.t, {
    name,
    email: `${name.toLowerCase().replace(/ /g, '.')}@example.com`,
  });
  await c.db.update(users).set({ phone }).where(eq(users.id, who.userId));
  return who;
}

/** A paid online order of a fresh product with `onHand` units (one sold). */
async function paidOrder(onHand = 5) {
  const who = await c.customer();
  const placed = await c.placed(who, 'gateway_card', { onHand });
  expect((await c.markPaid(placed.orderId)).changed).toBe(true);
  return { who, ...placed };
}

describe('GET /api/admin/orders', () => {
  let sita: SignedIn;
  let ram: SignedIn;
  const made = {} as { sitaCod: number; sitaOnline: number; ramPaid: number; ramDigital: number };

  beforeAll(async () => {
    sita = await namedCustomer('Sita Gurung', '+9779801111111');
    ram = await namedCustomer('Ram Thapa', '+9779802222222');
    made.sitaCod = (await c.placed(sita, 'cod')).orderId;
    clock.advance(1000);
    made.sitaOnline = (await c.placed(sita, 'gateway_card')).orderId;
    clock.advance(1000);
    made.ramPaid = (await c.placed(ram, 'gateway_wallet_a')).orderId;
    await c.markPaid(made.ramPaid);
    await c.t.drainJobs(); // the paid order's cart is cleared before Ram shops again
    clock.advance(1000);
    const digital = await c.product({ kind: 'digital' });
    await c.cartWith(ram, [{ productId: digital }], false);
    const res = await c.checkout(ram, 'cod');
    expect(res.statusCode, res.body).toBe(200);
    made.ramDigital = res.json().data.orderId;
    clock.advance(1000);
  });

  it('every customer’s orders: the list item plus the customer, newest first, with meta', async () => {
    const res = await c.http.call('GET', `${BASE}?search=gurung`, reader.headers);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().meta).toEqual({ count: 2, page: 1, size: 20 });
    expect(ids(res)).toEqual([made.sitaOnline, made.sitaCod]);
    const item = res.json().data[1];
    expect(Object.keys(item).sort()).toEqual([...ORDER_LIST_ITEM_KEYS, 'customer'].sort());
    expect(item).toMatchObject({
      id: made.sitaCod,
      orderStatus: 'payment_pending',
      paymentStatus: 'cod_pending',
      paymentMethod: 'cod',
      fulfillmentStatus: 'received',
      itemCount: 1,
      customer: {
        id: sita.userId,
        name: 'Sita Gurung',
        email: 'sita.gurung@example.com',
        phone: '+9779801111111',
      },
    });
    const all = await c.http.call('GET', BASE, reader.headers);
    expect(all.json().meta.count).toBeGreaterThanOrEqual(4);
  });

  it('search: part of the order number or of the customer’s name, email or phone, any case', async () => {
    const { orderNumber } = await c.adminOrder(made.ramPaid);
    const tail = orderNumber.slice(-5).toLowerCase();
    const byNumber = await c.http.call('GET', `${BASE}?search=${tail}`, reader.headers);
    expect(ids(byNumber)).toEqual([made.ramPaid]);
    for (const term of ['RAM%20THA', 'ram.thapa@EXAMPLE', '9802222']) {
      const res = await c.http.call('GET', `${BASE}?search=${term}`, reader.headers);
      expect(ids(res), term).toEqual([made.ramDigital, made.ramPaid]);
    }
    // Pattern characters are taken literally; a blank search is no search.
    const percent = await c.http.call('GET', `${BASE}?search=%25`, reader.headers);
    expect(percent.json().meta.count).toBe(0);
    const blank = await c.http.call('GET', `${BASE}?search=%20%20`, reader.headers);
    expect(blank.json().meta.count).toBeGreaterThanOrEqual(4);
  });

  it('filters: status, paymentMethod, paymentStatus, orderType, fulfillmentStatus', async () => {
    const q = async (filter: string) => ids(await c.http.call('GET', `${BASE}?${filter}`, reader.headers));
    expect(await q('search=gurung&paymentMethod=cod')).toEqual([made.sitaCod]);
    expect(await q('search=gurung&paymentStatus=pending')).toEqual([made.sitaOnline]);
    expect(await q('search=thapa&status=paid')).toEqual([made.ramPaid]);
    expect(await q('search=thapa&paymentStatus=completed&paymentMethod=online')).toEqual([made.ramPaid]);
    expect(await q('search=thapa&orderType=digital')).toEqual([made.ramDigital]);
    expect(await q('search=thapa&orderType=physical&fulfillmentStatus=received')).toEqual([made.ramPaid]);
    expect(await q('search=gurung&status=cancelled')).toEqual([]);
  });

  it('sort by createdAt or updatedAt, either direction; pages and pagination=false', async () => {
    const q = (query: string) => c.http.call('GET', `${BASE}?search=gurung&${query}`, reader.headers);
    expect(ids(await q('order=asc'))).toEqual([made.sitaCod, made.sitaOnline]);
    // The older order changes last: it leads when sorted by updatedAt.
    await setOrder(made.sitaCod, { updatedAt: clock.now() });
    expect(ids(await q('sort=updatedAt'))).toEqual([made.sitaCod, made.sitaOnline]);
    expect(ids(await q('sort=updatedAt&order=asc'))).toEqual([made.sitaOnline, made.sitaCod]);
    const page2 = await q('size=1&page=2');
    expect(page2.json().meta).toEqual({ count: 2, page: 2, size: 1 });
    expect(ids(page2)).toEqual([made.sitaCod]);
    const whole = await q('pagination=false');
    expect(whole.json().meta).toEqual({ count: 2 });
    expect(whole.json().data).toHaveLength(2);
  });

  it('400 VALIDATION_ERROR for unknown values; 401, 403 without Orders_READ', async () => {
    for (const query of [
      'status=shipped',
      'paymentMethod=card',
      'paymentStatus=paid',
      'orderType=service',
      'sort=total',
      'order=up',
      'size=0',
      'page=01',
      `search=${'x'.repeat(101)}`,
    ]) {
      expectError(await c.http.call('GET', `${BASE}?${query}`, reader.headers), 400, 'VALIDATION_ERROR');
    }
    await c.http.expectGuarded('GET', BASE, 'Orders_READ', await c.customer());
  });
});

describe('GET /api/admin/orders/:id', () => {
  it('the customer detail plus customer, status and fulfilment history, actions, notes, refunds', async () => {
    const who = await namedCustomer('Hari Shrestha', '+9779803333333');
    const { orderId } = await c.placed(who, 'cod');
    const at = clock.now();
    await setOrder(orderId, { fulfillmentStatus: 'ready' });
    await c.db.insert(orderFulfillmentHistory).values({
      orderId,
      fromStatus: 'received',
      toStatus: 'ready',
      remarks: 'packed',
      actorType: 'admin',
      actorId: c.admin.userId,
      createdAt: at,
    });
    const res = await c.http.call('GET', `${BASE}/${orderId}`, reader.headers);
    expect(res.statusCode, res.body).toBe(200);
    const detail = res.json().data;
    const own = await c.order(who, orderId);
    // Everything the customer sees, the same way.
    expect(detail).toMatchObject({ ...own, fulfillmentStatus: 'ready' });
    expect(detail).toMatchObject({
      customer: { id: who.userId, name: 'Hari Shrestha', phone: '+9779803333333' },
      statusHistory: [
        {
          status: 'payment_pending',
          notes: 'Cash on delivery',
          actorType: 'customer',
          createdByCustomerId: who.userId,
          createdByAdminId: null,
          createdBy: 'Hari Shrestha',
        },
      ],
      fulfillmentHistory: [
        {
          fromStatus: 'received',
          toStatus: 'ready',
          remarks: 'packed',
          actorType: 'admin',
          createdByAdminId: c.admin.userId,
          createdAt: at.toISOString(),
        },
      ],
      eligibleFulfillmentActions: ['advance'],
      adminNotes: [],
      refunds: [],
      codCollection: null,
    });
    expect(
      detail.fulfillmentTimeline.map((s: { status: string; current: boolean }) => [s.status, s.current]),
    ).toEqual([
      ['received', false],
      ['ready', true],
      ['picked_up', false],
      ['in_transit', false],
      ['delivered', false],
    ]);
    expect(detail.items).toHaveLength(1);
    expect(detail.items[0]).toMatchObject({ quantity: 1, serialNumber: null, productKind: 'physical' });
  });

  it('eligibleFulfillmentActions by type and state; none before fulfilment starts', async () => {
    const who = await c.customer();
    const digital = await c.product({ kind: 'digital' });
    await c.cartWith(who, [{ productId: digital }], false);
    const res = await c.checkout(who, 'cod');
    const digitalOrder = res.json().data.orderId;
    expect((await c.adminOrder(digitalOrder)).eligibleFulfillmentActions).toEqual(['send-digital-delivery']);
    await setOrder(digitalOrder, { fulfillmentStatus: 'key_sent' });
    expect((await c.adminOrder(digitalOrder)).eligibleFulfillmentActions).toEqual([]);
    const online = await c.placed(await c.customer(), 'gateway_bank');
    const unpaid = await c.adminOrder(online.orderId);
    expect(unpaid).toMatchObject({ fulfillmentStatus: null, eligibleFulfillmentActions: [] });
    await setOrder(online.orderId, { fulfillmentStatus: 'delivered' });
    expect((await c.adminOrder(online.orderId)).eligibleFulfillmentActions).toEqual([]);
  });

  it('a care-package order offers activation only while a subscription of it is pending', async () => {
    const who = await c.customer();
    const pkg = await c.carePackage();
    const cover = await c.product({ kind: 'care_package', carePackageTierId: pkg.tiers[0]!.id });
    await c.cartWith(who, [{ productId: cover }], false);
    const res = await c.checkout(who, 'cod');
    expect(res.statusCode, res.body).toBe(200);
    const orderId = res.json().data.orderId;
    // A confirmed COD order's cover opens at once (docs/decisions.md, "Subscriptions").
    const detail = await c.adminOrder(orderId);
    expect(detail).toMatchObject({
      orderType: 'care_package',
      eligibleFulfillmentActions: ['activate-care-package'],
    });
    expect(detail.items[0].subscriptionInfo).toMatchObject({ tierId: pkg.tiers[0]!.id, status: 'pending' });
    const activated = await c.http.call('POST', `${BASE}/${orderId}/activate-care-package`, c.admin.headers);
    expect(activated.statusCode, activated.body).toBe(200);
    expect(await c.adminOrder(orderId)).toMatchObject({
      fulfillmentStatus: 'activated',
      eligibleFulfillmentActions: [],
    });
  });

  it('404 ORDER_NOT_FOUND, 400 VALIDATION_ERROR for a bad id; 401, 403', async () => {
    expectError(await c.http.call('GET', `${BASE}/99999999`, reader.headers), 404, 'ORDER_NOT_FOUND');
    expectError(await c.http.call('GET', `${BASE}/0x1`, reader.headers), 400, 'VALIDATION_ERROR');
    await c.http.expectGuarded('GET', `${BASE}/1`, 'Orders_READ', await c.customer());
  });
});

describe('GET /api/admin/orders/requests/:requestId', () => {
  it("any request, a customer's as well as an admin's; unknown: 404 ORDER_REQUEST_NOT_FOUND", async () => {
    const who = await c.customer();
    const { orderId } = await c.placed(who, 'cod');
    const asked = await c.http.call('POST', `/api/orders/${orderId}/cancel`, who.headers, {});
    const requestId = asked.json().data.requestId;
    const seen = await c.adminSettled(requestId, reader);
    expect(seen).toMatchObject({ requestId, status: 'completed', result: { orderStatus: 'cancelled' } });
    // The customer cannot read an admin's request.
    const adminAsked = await c.http.call('POST', `${BASE}/${orderId}/cancel`, c.admin.headers, {});
    expectError(
      await c.http.call('GET', `/api/orders/requests/${adminAsked.json().data.requestId}`, who.headers),
      404,
      'ORDER_REQUEST_NOT_FOUND',
    );
    expectError(
      await c.http.call('GET', `${BASE}/requests/no-such-request`, reader.headers),
      404,
      'ORDER_REQUEST_NOT_FOUND',
    );
    expectError(
      await c.http.call('GET', `${BASE}/requests/${'x'.repeat(101)}`, reader.headers),
      400,
      'VALIDATION_ERROR',
    );
    await c.http.expectGuarded('GET', `${BASE}/requests/${requestId}`, 'Orders_READ', who);
  });
});

describe('POST /api/admin/orders/:id/cancel', () => {
  const cancel = (id: number, body: unknown = {}, who: SignedIn = c.admin) =>
    c.http.call('POST', `${BASE}/${id}/cancel`, who.headers, body);

  it('an unpaid COD order: cancelled by the job as the admin, stock released, audited', async () => {
    const { orderId, productId } = await c.placed(await c.customer(), 'cod', { onHand: 4 });
    const res = await cancel(orderId, { reason: 'customer phoned' });
    expect(res.statusCode, res.body).toBe(202);
    expect(res.json().data).toMatchObject({
      status: 'pending',
      result: null,
      error: null,
      completedAt: null,
    });
    const done = await c.adminSettled(res.json().data.requestId);
    expect(done).toMatchObject({
      status: 'completed',
      result: {
        orderId,
        orderStatus: 'cancelled',
        paymentStatus: 'cod_pending',
        fulfillmentStatus: 'cancelled',
      },
    });
    expect(await c.stockOf(productId)).toEqual({ onHand: 4, reserved: 0, available: 4 });
    const detail = await c.adminOrder(orderId);
    expect(detail.statusHistory.at(-1)).toMatchObject({
      status: 'cancelled',
      notes: 'customer phoned',
      actorType: 'admin',
      createdByAdminId: c.admin.userId,
      createdByCustomerId: null,
      createdBy: 'Test Admin',
    });
    expect(detail.refunds).toEqual([]);
    const audit = await c.http.activityOf(c.admin, 'order', orderId);
    expect(audit).toMatchObject([{ adminId: c.admin.userId, action: 'cancel' }]);
    // Already cancelled: the next request fails, nothing changes twice.
    const again = await cancel(orderId);
    expect(await c.adminSettled(again.json().data.requestId)).toMatchObject({
      status: 'failed',
      error: 'invalid_transition',
    });
    expect((await history(orderId)).filter((h) => h.status === 'cancelled')).toHaveLength(1);
  });

  it('a paid order before dispatch (received, ready): cancelled, units back on the shelf, a pending refund', async () => {
    for (const fulfilment of ['received', 'ready'] as const) {
      const { orderId, productId } = await paidOrder(5);
      expect(await c.stockOf(productId)).toEqual({ onHand: 4, reserved: 0, available: 4 });
      await setOrder(orderId, { fulfillmentStatus: fulfilment });
      const res = await cancel(orderId, { reason: 'out of warranty stock' });
      const done = await c.adminSettled(res.json().data.requestId);
      expect(done, fulfilment).toMatchObject({
        status: 'completed',
        result: { orderStatus: 'cancelled', paymentStatus: 'completed', refundStatus: 'pending' },
      });
      expect(await c.stockOf(productId)).toEqual({ onHand: 5, reserved: 0, available: 5 });
      const detail = await c.adminOrder(orderId);
      expect(detail.refunds).toMatchObject([
        {
          amount: detail.finalPayable,
          status: 'pending',
          reason: 'admin_cancel',
          remarks: 'out of warranty stock',
        },
      ]);
      expect(detail.fulfillmentStatus).toBe('cancelled');
    }
  });

  it('refused (invalid_transition) once the goods left the store, and for refund states; the customer still cannot cancel a paid order', async () => {
    const { orderId, productId, who } = await paidOrder(5);
    const customerTry = await c.http.call('POST', `/api/orders/${orderId}/cancel`, who.headers, {});
    expect(await c.settled(who, customerTry.json().data.requestId)).toMatchObject({
      error: 'invalid_transition',
    });
    await setOrder(orderId, { fulfillmentStatus: 'picked_up' });
    const res = await cancel(orderId);
    expect(await c.adminSettled(res.json().data.requestId)).toMatchObject({
      status: 'failed',
      error: 'invalid_transition',
      result: null,
    });
    await setOrder(orderId, { status: 'refund_requested', fulfillmentStatus: 'received' });
    const refundState = await cancel(orderId);
    expect(await c.adminSettled(refundState.json().data.requestId)).toMatchObject({
      error: 'invalid_transition',
    });
    expect(await c.stockOf(productId)).toEqual({ onHand: 4, reserved: 0, available: 4 });
  });

  it('404 ORDER_NOT_FOUND; 400 VALIDATION_ERROR; 401; 403 for Orders_READ only', async () => {
    const { orderId } = await c.placed(await c.customer(), 'cod');
    expectError(await cancel(99999999), 404, 'ORDER_NOT_FOUND');
    expectError(await cancel(orderId, { reason: 5 }), 400, 'VALIDATION_ERROR');
    expectError(await cancel(orderId, { reason: 'x'.repeat(1001) }), 400, 'VALIDATION_ERROR');
    expectError(await cancel(orderId, {}, reader), 403, 'AUTH_PERMISSION_DENIED');
    await c.http.expectGuarded('POST', `${BASE}/${orderId}/cancel`, 'Orders_UPDATE', await c.customer(), {});
    expect((await c.adminOrder(orderId)).orderStatus).toBe('payment_pending');
  });
});

describe('POST /api/admin/orders/:id/process-refund', () => {
  const decide = (id: number, body: unknown, who: SignedIn = c.admin) =>
    c.http.call('POST', `${BASE}/${id}/process-refund`, who.headers, body);

  async function refundRequested(fulfilment: 'received' | 'delivered' = 'received') {
    const paid = await paidOrder(5);
    if (fulfilment === 'delivered') {
      await setOrder(paid.orderId, { fulfillmentStatus: 'delivered', deliveredAt: clock.now() });
    }
    const res = await c.http.call('POST', `/api/orders/${paid.orderId}/request-refund`, paid.who.headers, {
      reason: 'Screen flickers',
    });
    expect(res.statusCode, res.body).toBe(200);
    return paid;
  }

  it('approve before hand-over: refund_approved, fulfilment stopped, units back, refund record approved', async () => {
    const { orderId, productId, who } = await refundRequested();
    expect((await c.adminOrder(orderId)).refunds).toMatchObject([
      { status: 'requested', reason: 'Screen flickers' },
    ]);
    const res = await decide(orderId, { action: 'approve', remarks: 'Refunded to wallet' });
    expect(res.statusCode, res.body).toBe(202);
    expect(await c.adminSettled(res.json().data.requestId)).toMatchObject({
      status: 'completed',
      result: { orderId, orderStatus: 'refund_approved', fulfillmentStatus: 'cancelled' },
    });
    expect(await c.stockOf(productId)).toEqual({ onHand: 5, reserved: 0, available: 5 });
    const detail = await c.adminOrder(orderId);
    expect(detail.refunds).toMatchObject([
      {
        status: 'approved',
        amount: detail.finalPayable,
        remarks: 'Refunded to wallet',
        processedByAdminId: c.admin.userId,
      },
    ]);
    expect(detail.statusHistory.at(-1)).toMatchObject({
      status: 'refund_approved',
      notes: 'Refunded to wallet',
      actorType: 'admin',
      createdByAdminId: c.admin.userId,
    });
    expect((await c.order(who, orderId)).orderStatus).toBe('refund_approved');
    expect(await c.http.activityOf(c.admin, 'order', orderId)).toMatchObject([{ action: 'refund_approve' }]);
    // The same decision again: success, nothing written twice; the other decision: refused.
    const again = await decide(orderId, { action: 'approve', remarks: 'again' });
    expect(await c.adminSettled(again.json().data.requestId)).toMatchObject({
      status: 'completed',
      result: { skipped: 'already_at_target_status' },
    });
    const flip = await decide(orderId, { action: 'reject', remarks: 'changed mind' });
    expect(await c.adminSettled(flip.json().data.requestId)).toMatchObject({
      status: 'failed',
      error: 'invalid_transition',
    });
    expect((await history(orderId)).filter((h) => h.status.startsWith('refund_'))).toHaveLength(2);
    expect(await c.stockOf(productId)).toEqual({ onHand: 5, reserved: 0, available: 5 });
  });

  it('approve after delivery keeps the stock and the fulfilment; reject leaves both', async () => {
    const delivered = await refundRequested('delivered');
    const res = await decide(delivered.orderId, { action: 'approve', remarks: 'ok' });
    expect(await c.adminSettled(res.json().data.requestId)).toMatchObject({
      result: { orderStatus: 'refund_approved', fulfillmentStatus: 'delivered' },
    });
    expect(await c.stockOf(delivered.productId)).toEqual({ onHand: 4, reserved: 0, available: 4 });

    const rejected = await refundRequested();
    const no = await decide(rejected.orderId, { action: 'reject', remarks: 'Outside policy' });
    expect(await c.adminSettled(no.json().data.requestId)).toMatchObject({
      status: 'completed',
      result: { orderStatus: 'refund_rejected', fulfillmentStatus: 'received' },
    });
    expect(await c.stockOf(rejected.productId)).toEqual({ onHand: 4, reserved: 0, available: 4 });
    expect((await c.adminOrder(rejected.orderId)).refunds).toMatchObject([
      { status: 'rejected', remarks: 'Outside policy' },
    ]);
  });

  it('an order without a refund request: the request fails invalid_transition', async () => {
    const { orderId } = await paidOrder();
    const res = await decide(orderId, { action: 'approve', remarks: 'x' });
    expect(await c.adminSettled(res.json().data.requestId)).toMatchObject({
      status: 'failed',
      error: 'invalid_transition',
    });
    expect((await c.adminOrder(orderId)).orderStatus).toBe('paid');
  });

  it('404, 400 VALIDATION_ERROR, 401, 403 for Orders_READ only', async () => {
    const { orderId } = await c.placed(await c.customer(), 'cod');
    expectError(await decide(99999999, { action: 'approve', remarks: 'x' }), 404, 'ORDER_NOT_FOUND');
    for (const body of [
      { action: 'refund', remarks: 'x' },
      { action: 'approve' },
      { action: 'reject', remarks: ' ' },
    ]) {
      expectError(await decide(orderId, body), 400, 'VALIDATION_ERROR');
    }
    expectError(
      await decide(orderId, { action: 'approve', remarks: 'x' }, reader),
      403,
      'AUTH_PERMISSION_DENIED',
    );
    await c.http.expectGuarded(
      'POST',
      `${BASE}/${orderId}/process-refund`,
      'Orders_UPDATE',
      await c.customer(),
      {
        action: 'approve',
        remarks: 'x',
      },
    );
  });
});

describe('POST /api/admin/orders/:id/notes', () => {
  it('201 with the note; listed in the admin detail, oldest first; never in the customer view', async () => {
    const who = await c.customer();
    const { orderId } = await c.placed(who, 'cod');
    const first = await c.http.call('POST', `${BASE}/${orderId}/notes`, c.admin.headers, {
      note: ' Call before 5pm ',
    });
    expect(first.statusCode, first.body).toBe(201);
    expect(first.json().data).toMatchObject({
      note: 'Call before 5pm',
      createdByAdminId: c.admin.userId,
      createdBy: 'Test Admin',
    });
    const other = await signedInAdmin(c.t, { permissions: ['Orders_UPDATE'] });
    await c.http.call('POST', `${BASE}/${orderId}/notes`, other.headers, { note: 'Fragile' });
    const detail = await c.adminOrder(orderId);
    expect(detail.adminNotes.map((n: { note: string }) => n.note)).toEqual(['Call before 5pm', 'Fragile']);
    expect(detail.adminNotes[1].createdByAdminId).toBe(other.userId);
    expect(JSON.stringify(await c.order(who, orderId))).not.toContain('Fragile');
    expect(await c.http.activityOf(c.admin, 'order', orderId)).toHaveLength(2);
  });

  it('a note is 1 to 2,000 characters: a 20,000-character paste is 400 with the field, its code and the limit; nothing stored', async () => {
    const { orderId } = await c.placed(await c.customer(), 'cod');
    const note = (body: unknown) => c.http.call('POST', `${BASE}/${orderId}/notes`, c.admin.headers, body);
    const long = await note({ note: 'x'.repeat(20_000) });
    expectError(long, 400, 'VALIDATION_ERROR');
    expect(long.json().details).toEqual([
      expect.objectContaining({
        path: 'note',
        location: 'body',
        code: 'too_big',
        maximum: 2000,
        origin: 'string',
      }),
    ]);
    expect(long.body).not.toContain('x'.repeat(100));
    const blank = await note({ note: ' \n ' });
    expect(blank.json().details).toEqual([
      expect.objectContaining({ path: 'note', code: 'too_small', minimum: 1, origin: 'string' }),
    ]);
    expect((await c.adminOrder(orderId)).adminNotes).toEqual([]);
    // The limit itself is taken, counted after trimming.
    const longest = await note({ note: ` ${'y'.repeat(2000)} ` });
    expect(longest.statusCode, longest.body).toBe(201);
    expect(longest.json().data.note).toHaveLength(2000);
  });

  it('404, 400 VALIDATION_ERROR, 401, 403 for Orders_READ only', async () => {
    const { orderId } = await c.placed(await c.customer(), 'cod');
    const note = (id: number, body: unknown, who: SignedIn = c.admin) =>
      c.http.call('POST', `${BASE}/${id}/notes`, who.headers, body);
    expectError(await note(99999999, { note: 'x' }), 404, 'ORDER_NOT_FOUND');
    for (const body of [{}, { note: '   ' }, { note: 'x'.repeat(2001) }]) {
      expectError(await note(orderId, body), 400, 'VALIDATION_ERROR');
    }
    expectError(await note(orderId, { note: 'x' }, reader), 403, 'AUTH_PERMISSION_DENIED');
    await c.http.expectGuarded('POST', `${BASE}/${orderId}/notes`, 'Orders_UPDATE', await c.customer(), {
      note: 'x',
    });
    expect((await c.adminOrder(orderId)).adminNotes).toEqual([]);
  });
});

describe('PATCH /api/admin/orders/:id/items/:orderItemId/serial', () => {
  it('physical items only; an item of another order is not found', async () => {
    const who = await c.customer();
    const physical = await c.product({ onHand: 3 });
    const digital = await c.product({ kind: 'digital' });
    await c.cartWith(who, [{ productId: physical }, { productId: digital }]);
    const placed = await c.checkout(who, 'cod');
    const orderId = placed.json().data.orderId;
    const items = (await c.adminOrder(orderId)).items as Array<{ id: number; productKind: string }>;
    const phys = items.find((i) => i.productKind === 'physical')!;
    const dig = items.find((i) => i.productKind === 'digital')!;
    const set = (id: number, itemId: number, body: unknown, as: SignedIn = c.admin) =>
      c.http.call('PATCH', `${BASE}/${id}/items/${itemId}/serial`, as.headers, body);

    const res = await set(orderId, phys.id, { serialNumber: ' SN-12345 ' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ id: phys.id, serialNumber: 'SN-12345', productKind: 'physical' });
    expect((await set(orderId, phys.id, { serialNumber: 'SN-99999' })).json().data.serialNumber).toBe(
      'SN-99999',
    );
    const detail = await c.adminOrder(orderId);
    expect(detail.items.find((i: { id: number }) => i.id === phys.id).serialNumber).toBe('SN-99999');
    expect(
      (await c.order(who, orderId)).items.find((i: { id: number }) => i.id === phys.id).serialNumber,
    ).toBe('SN-99999');
    expect(await c.http.activityOf(c.admin, 'order', orderId)).toMatchObject([
      { action: 'serial_number' },
      { action: 'serial_number' },
    ]);

    expectError(await set(orderId, dig.id, { serialNumber: 'SN-1' }), 400, 'ORDER_ITEM_NOT_PHYSICAL');
    const elsewhere = await c.placed(await c.customer(), 'cod');
    expectError(await set(elsewhere.orderId, phys.id, { serialNumber: 'SN-1' }), 404, 'ORDER_ITEM_NOT_FOUND');
    expectError(await set(orderId, 99999999, { serialNumber: 'SN-1' }), 404, 'ORDER_ITEM_NOT_FOUND');
    expectError(await set(99999999, phys.id, { serialNumber: 'SN-1' }), 404, 'ORDER_NOT_FOUND');
    for (const body of [{}, { serialNumber: '' }, { serialNumber: 'x'.repeat(101) }]) {
      expectError(await set(orderId, phys.id, body), 400, 'VALIDATION_ERROR');
    }
    expectError(
      await c.http.call('PATCH', `${BASE}/${orderId}/items/abc/serial`, c.admin.headers, {
        serialNumber: 'a',
      }),
      400,
      'VALIDATION_ERROR',
    );
    expectError(await set(orderId, phys.id, { serialNumber: 'SN-2' }, reader), 403, 'AUTH_PERMISSION_DENIED');
    await c.http.expectGuarded('PATCH', `${BASE}/${orderId}/items/${phys.id}/serial`, 'Orders_UPDATE', who, {
      serialNumber: 'SN-3',
    });
    expect(
      (await c.adminOrder(orderId)).items.find((i: { id: number }) => i.id === phys.id).serialNumber,
    ).toBe('SN-99999');
  });
});

describe('PUT /api/admin/orders/:id/cod-collect', () => {
  const collect = (
    id: number,
    body: unknown = { remarks: 'Cash received by rider' },
    who: SignedIn = c.admin,
  ) => c.http.call('PUT', `${BASE}/${id}/cod-collect`, who.headers, body);

  it('cod_pending → cod_collected and paid, units sold, history and audit; a repeat answers the same data', async () => {
    const who = await c.customer();
    const { orderId, productId } = await c.placed(who, 'cod', { onHand: 4 });
    expect(await c.stockOf(productId)).toEqual({ onHand: 4, reserved: 1, available: 3 });
    clock.advance(1000);
    const res = await collect(orderId);
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json().data;
    expect(data).toEqual({
      orderId,
      orderNumber: expect.any(String),
      orderStatus: 'paid',
      paymentStatus: 'cod_collected',
      amount: (await c.adminOrder(orderId)).finalPayable,
      collectedAt: clock.now().toISOString(),
      collectedByAdminId: c.admin.userId,
      remarks: 'Cash received by rider',
    });
    expect(await c.stockOf(productId)).toEqual({ onHand: 3, reserved: 0, available: 3 });
    const detail = await c.adminOrder(orderId);
    expect(detail).toMatchObject({
      orderStatus: 'paid',
      paymentStatus: 'cod_collected',
      fulfillmentStatus: 'received',
      paidAt: clock.now().toISOString(),
      codCollection: {
        amount: data.amount,
        collectedAt: data.collectedAt,
        collectedByAdminId: c.admin.userId,
        remarks: 'Cash received by rider',
      },
    });
    expect(detail.statusHistory.at(-1)).toMatchObject({
      status: 'paid',
      notes: 'Cash received by rider',
      actorType: 'admin',
      createdByAdminId: c.admin.userId,
    });
    // A repeat, later and by another admin with other remarks: the same answer, nothing written.
    clock.advance(1000);
    const other = await signedInAdmin(c.t, { permissions: ['Orders_UPDATE'] });
    const again = await collect(orderId, { remarks: 'again' }, other);
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json().data).toEqual(data);
    expect((await history(orderId)).filter((h) => h.status === 'paid')).toHaveLength(1);
    expect(await c.http.activityOf(c.admin, 'order', orderId)).toMatchObject([{ action: 'cod_collect' }]);
    expect(await c.stockOf(productId)).toEqual({ onHand: 3, reserved: 0, available: 3 });
    // The customer sees the order paid; a refund can now be asked for.
    expect(await c.order(who, orderId)).toMatchObject({
      orderStatus: 'paid',
      paymentStatus: 'cod_collected',
    });
  });

  it('400 ORDER_NOT_COD_PENDING for online and cancelled COD orders', async () => {
    const online = await c.placed(await c.customer(), 'gateway_card');
    expectError(await collect(online.orderId), 400, 'ORDER_NOT_COD_PENDING');
    const paid = await paidOrder();
    expectError(await collect(paid.orderId), 400, 'ORDER_NOT_COD_PENDING');
    const cod = await c.placed(await c.customer(), 'cod');
    const res = await c.http.call('POST', `${BASE}/${cod.orderId}/cancel`, c.admin.headers, {});
    await c.adminSettled(res.json().data.requestId);
    expectError(await collect(cod.orderId), 400, 'ORDER_NOT_COD_PENDING');
    expect((await c.adminOrder(cod.orderId)).paymentStatus).toBe('cod_pending');
  });

  it('404, 400 VALIDATION_ERROR, 401, 403 for Orders_READ only', async () => {
    const { orderId } = await c.placed(await c.customer(), 'cod');
    expectError(await collect(99999999), 404, 'ORDER_NOT_FOUND');
    for (const body of [{}, { remarks: '' }, { remarks: 7 }]) {
      expectError(await collect(orderId, body), 400, 'VALIDATION_ERROR');
    }
    expectError(await collect(orderId, undefined, reader), 403, 'AUTH_PERMISSION_DENIED');
    await c.http.expectGuarded('PUT', `${BASE}/${orderId}/cod-collect`, 'Orders_UPDATE', await c.customer(), {
      remarks: 'x',
    });
    expect((await c.adminOrder(orderId)).paymentStatus).toBe('cod_pending');
  });
});
