// The back office's fulfilment routes on orders paid through the payments sandbox (or placed
// COD): every step of the physical path, digital delivery, care-package activation, a mixed
// order's automatic keys and covers, each refusal, and who may call them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClock } from '../../../src/platform/clock';
import { type SignedIn, signedInAdmin } from '../../helpers/factories';
import { expectError } from '../cart/calls';
import { type OrdersTestApp, ordersTestApp, RETURN_URL } from './calls';

const clock = new TestClock('2026-03-01T08:00:00.000Z');
let c: OrdersTestApp;

beforeAll(async () => {
  c = await ordersTestApp({ clock, env: { PAYMENT_RETURN_URL_ALLOWLIST: RETURN_URL } });
});
afterAll(() => c?.t.close());

const admin = (path: string, who: SignedIn = c.admin, method: 'GET' | 'POST' = 'POST') =>
  c.http.call(method, `/api/admin/orders${path}`, who.headers);

/** The keys emails sent since `since` (order events have emails of their own). */
const keyMails = (since: number) =>
  c.t.mail.slice(since).filter((m) => m.subject.startsWith('Your keys for order'));

async function noticesOf(who: SignedIn): Promise<string[]> {
  const res = await c.http.call('GET', '/api/mobile/notifications?pagination=false', who.headers);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data.map((n: { type: string }) => n.type);
}

/** A COD order of one physical unit: fulfilment starts at `received` when it is placed. */
async function codOrder(who: SignedIn): Promise<number> {
  const p = await c.product({ onHand: 3 });
  await c.cartWith(who, [{ productId: p }]);
  const res = await c.checkout(who, 'cod');
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data.orderId;
}

describe('fulfillment-status: the physical path', () => {
  it('a paid physical order walks received → ready → picked_up → in_transit → delivered, one history row a step', async () => {
    const me = await c.customer();
    const orderId = await c.paidOrder(me, [{ productId: await c.product({ onHand: 4 }) }]);
    expect((await c.order(me, orderId)).fulfillmentStatus).toBe('received');

    const res = await c.http.call(
      'POST',
      `/api/admin/orders/${orderId}/fulfillment-status`,
      c.admin.headers,
      { status: 'ready', remarks: 'Packed' },
    );
    expect(res.statusCode, res.body).toBe(202);
    expect(Object.keys(res.json().data).sort()).toEqual(['createdAt', 'requestId', 'status']);
    expect(res.json().data.status).toBe('pending');
    await c.t.drainJobs();
    const first = await c.storedRequest(res.json().data.requestId);
    expect(first).toMatchObject({
      status: 'completed',
      command: 'fulfillment_status',
      adminId: c.admin.userId,
      error: null,
      result: { orderId, orderStatus: 'paid', paymentStatus: 'completed', fulfillmentStatus: 'ready' },
    });

    for (const step of ['picked_up', 'in_transit', 'delivered']) {
      clock.advance(60_000);
      const done = await c.fulfil(orderId, step);
      expect(done.status).toBe('completed');
      expect(done.result).toMatchObject({ fulfillmentStatus: step });
      expect(done.result).not.toHaveProperty('skipped');
    }
    const history = await c.fulfillmentHistory(orderId);
    expect(history.map((h) => [h.fromStatus, h.toStatus])).toEqual([
      ['received', 'ready'],
      ['ready', 'picked_up'],
      ['picked_up', 'in_transit'],
      ['in_transit', 'delivered'],
    ]);
    expect(history[0]).toMatchObject({ remarks: 'Packed', actorType: 'admin', actorId: c.admin.userId });
    expect(history[1]!.remarks).toBeNull();

    const detail = await c.order(me, orderId);
    expect(detail.fulfillmentStatus).toBe('delivered');
    expect(detail.fulfillmentTimeline.every((s: { completed: boolean }) => s.completed)).toBe(true);
    expect(detail.fulfillmentTimeline.at(-1)).toMatchObject({ status: 'delivered', current: true });
    const notices = await noticesOf(me);
    expect(notices).toContain('ORDER_SHIPPED');
    expect(notices).toContain('ORDER_DELIVERED');

    // Delivered is closed: anything else is 409; asking for delivered again is a skipped success.
    for (const status of ['ready', 'in_transit', 'received']) {
      expectError(
        await c.http.call('POST', `/api/admin/orders/${orderId}/fulfillment-status`, c.admin.headers, {
          status,
        }),
        409,
        'ORDER_FULFILLMENT_CLOSED',
      );
    }
    const again = await c.fulfil(orderId, 'delivered');
    expect(again).toMatchObject({
      status: 'completed',
      result: { fulfillmentStatus: 'delivered', skipped: 'already_at_target_status' },
    });
    expect(await c.fulfillmentHistory(orderId)).toHaveLength(4);
  });

  it('skip-ahead, backward and other paths’ states: 400 ORDER_FULFILLMENT_INVALID_TRANSITION, nothing queued', async () => {
    const me = await c.customer();
    const orderId = await c.paidOrder(me, [{ productId: await c.product() }]);
    const ask = (status: string) =>
      c.http.call('POST', `/api/admin/orders/${orderId}/fulfillment-status`, c.admin.headers, { status });
    for (const status of ['picked_up', 'in_transit', 'delivered', 'key_sent', 'activated', 'cancelled'])
      expectError(await ask(status), 400, 'ORDER_FULFILLMENT_INVALID_TRANSITION');
    expect((await c.fulfil(orderId, 'ready')).status).toBe('completed');
    for (const status of ['in_transit', 'delivered', 'received'])
      expectError(await ask(status), 400, 'ORDER_FULFILLMENT_INVALID_TRANSITION');
    expect((await c.fulfil(orderId, 'picked_up')).status).toBe('completed');
    for (const status of ['delivered', 'ready', 'received'])
      expectError(await ask(status), 400, 'ORDER_FULFILLMENT_INVALID_TRANSITION');
    expect((await c.fulfil(orderId, 'in_transit')).status).toBe('completed');
    for (const status of ['picked_up', 'ready', 'received'])
      expectError(await ask(status), 400, 'ORDER_FULFILLMENT_INVALID_TRANSITION');
    expect((await c.fulfillmentHistory(orderId)).map((h) => h.toStatus)).toEqual([
      'ready',
      'picked_up',
      'in_transit',
    ]);
  });

  it('the same target twice: completed with skipped, no second history row', async () => {
    const me = await c.customer();
    const orderId = await c.paidOrder(me, [{ productId: await c.product() }]);
    const received = await c.fulfil(orderId, 'received');
    expect(received).toMatchObject({
      status: 'completed',
      error: null,
      result: { orderId, fulfillmentStatus: 'received', skipped: 'already_at_target_status' },
    });
    expect(await c.fulfillmentHistory(orderId)).toEqual([]);
    expect((await c.fulfil(orderId, 'ready')).result).not.toHaveProperty('skipped');
    const twice = await c.fulfil(orderId, 'ready');
    expect(twice.result).toMatchObject({ fulfillmentStatus: 'ready', skipped: 'already_at_target_status' });
    expect(await c.fulfillmentHistory(orderId)).toHaveLength(1);
  });

  it('a COD order moves from placement; a cancelled one is closed (409); an unpaid online one has not started (400)', async () => {
    const me = await c.customer();
    const cod = await codOrder(me);
    expect((await c.fulfil(cod, 'ready')).status).toBe('completed');
    expect((await c.order(me, cod)).fulfillmentStatus).toBe('ready');

    const cancelled = await codOrder(me);
    const cancel = await c.http.call('POST', `/api/orders/${cancelled}/cancel`, me.headers, {});
    expect(cancel.statusCode, cancel.body).toBe(202);
    expect((await c.settled(me, cancel.json().data.requestId)).status).toBe('completed');
    expectError(
      await c.http.call('POST', `/api/admin/orders/${cancelled}/fulfillment-status`, c.admin.headers, {
        status: 'ready',
      }),
      409,
      'ORDER_FULFILLMENT_CLOSED',
    );

    await c.cartWith(me, [{ productId: await c.product() }]);
    const unpaid = (await c.checkout(me, 'gateway_card')).json().data.orderId;
    expectError(
      await c.http.call('POST', `/api/admin/orders/${unpaid}/fulfillment-status`, c.admin.headers, {
        status: 'ready',
      }),
      400,
      'ORDER_FULFILLMENT_INVALID_TRANSITION',
    );
  });

  it('validation, unknown order, who may call it', async () => {
    const me = await c.customer();
    const orderId = await codOrder(me);
    const url = `/api/admin/orders/${orderId}/fulfillment-status`;
    for (const body of [{}, { status: 'shipped' }, { status: 'ready', remarks: 'x'.repeat(1001) }])
      expectError(await c.http.call('POST', url, c.admin.headers, body), 400, 'VALIDATION_ERROR');
    expectError(
      await c.http.call('POST', '/api/admin/orders/01/fulfillment-status', c.admin.headers, {
        status: 'ready',
      }),
      400,
      'VALIDATION_ERROR',
    );
    expectError(
      await c.http.call('POST', '/api/admin/orders/99999999/fulfillment-status', c.admin.headers, {
        status: 'ready',
      }),
      404,
      'ORDER_NOT_FOUND',
    );
    await c.http.expectGuarded('POST', url, 'Orders_UPDATE', me, { status: 'ready' });
    const reader = await signedInAdmin(c.t, { permissions: ['Orders_READ'] });
    expectError(
      await c.http.call('POST', url, reader.headers, { status: 'ready' }),
      403,
      'AUTH_PERMISSION_DENIED',
    );
    const updater = await signedInAdmin(c.t, { permissions: ['Orders_UPDATE'] });
    const requestId = await c.requestFulfillment(orderId, 'ready', undefined, updater);
    await c.t.drainJobs();
    expect(await c.storedRequest(requestId)).toMatchObject({ status: 'completed', adminId: updater.userId });
    expect((await c.fulfillmentHistory(orderId))[0]!.actorId).toBe(updater.userId);
  });
});

describe('send-digital-delivery and digital-keys', () => {
  it('assigns and emails the keys, received → key_sent; sending again assigns nothing new', async () => {
    const me = await c.customer();
    const office = await c.product({ kind: 'digital', mrp: 300, title: 'Office Suite' });
    const antivirus = await c.product({ kind: 'digital', mrp: 200, title: 'Antivirus' });
    await c.addKeys(office, ['OFFICE-AAAA-1111', 'OFFICE-BBBB-2222', 'OFFICE-CCCC-3333']);
    await c.addKeys(antivirus, ['AV-0001']);
    const orderId = await c.paidOrder(
      me,
      [
        { productId: office, quantity: 2 },
        { productId: antivirus, quantity: 1 },
      ],
      false,
    );
    const placed = await c.order(me, orderId);
    expect(placed).toMatchObject({ orderType: 'digital', fulfillmentStatus: 'received' });
    const officeItem = placed.items.find((i: { productId: number }) => i.productId === office);
    // Paying does not deliver a digital order's keys: the admin does.
    const before = await admin(`/${orderId}/digital-keys`, c.admin, 'GET');
    expect(before.json().data.every((i: { keys: unknown[] }) => i.keys.length === 0)).toBe(true);

    const mailsBefore = c.t.mail.length;
    const res = await admin(`/${orderId}/send-digital-delivery`);
    expect(res.statusCode, res.body).toBe(200);
    const sent = res.json().data;
    expect(Object.keys(sent).sort()).toEqual([
      'deliveredItems',
      'emailSentTo',
      'fulfillmentStatus',
      'orderId',
    ]);
    expect(sent).toMatchObject({ orderId, emailSentTo: me.email, fulfillmentStatus: 'key_sent' });
    expect(sent.deliveredItems).toHaveLength(3);
    expect(sent.deliveredItems.filter((d: { productId: number }) => d.productId === office)).toHaveLength(2);
    expect(sent.deliveredItems[0]).toEqual({
      orderItemId: officeItem.id,
      productId: office,
      productTitle: 'Office Suite',
      keyId: expect.any(String),
      assignedAt: clock.now().toISOString(),
    });
    await c.t.drainJobs();
    const mail = keyMails(mailsBefore);
    expect(mail).toHaveLength(1);
    expect(mail[0]!.to).toBe(me.email);
    expect(mail[0]!.subject).toBe(`Your keys for order ${placed.orderNumber}`);
    const lines = mail[0]!.text.split('\n');
    expect(lines).toContain('AV-0001');
    expect(lines.filter((l) => l.startsWith('OFFICE-'))).toHaveLength(2);

    expect((await c.order(me, orderId)).fulfillmentStatus).toBe('key_sent');
    expect((await c.fulfillmentHistory(orderId)).map((h) => [h.fromStatus, h.toStatus, h.actorType])).toEqual(
      [['received', 'key_sent', 'admin']],
    );
    expect(await noticesOf(me)).toContain('ORDER_KEY_SENT');

    const keys = await admin(`/${orderId}/digital-keys`, c.admin, 'GET');
    expect(keys.statusCode, keys.body).toBe(200);
    const officeKeys = keys.json().data.find((i: { productId: number }) => i.productId === office);
    expect(officeKeys).toMatchObject({
      orderItemId: officeItem.id,
      productTitle: 'Office Suite',
      quantity: 2,
    });
    expect(officeKeys.keys.map((k: { value: string }) => k.value).sort()).toEqual(
      lines.filter((l) => l.startsWith('OFFICE-')).sort(),
    );

    // Again: the same keys, mailed once more; no key taken, no second history row.
    clock.advance(60_000);
    const again = await admin(`/${orderId}/send-digital-delivery`);
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json().data.deliveredItems).toEqual(sent.deliveredItems);
    expect(again.json().data.fulfillmentStatus).toBe('key_sent');
    const available = await c.http.call(
      'GET',
      `/api/admin/products/${office}/digital-keys?status=available`,
      c.admin.headers,
    );
    expect(available.json().meta.count).toBe(1);
    expect(await c.fulfillmentHistory(orderId)).toHaveLength(1);
    await c.t.drainJobs();
    expect(keyMails(mailsBefore)).toHaveLength(2);

    // The generic route cannot move a digital order.
    expectError(
      await c.http.call('POST', `/api/admin/orders/${orderId}/fulfillment-status`, c.admin.headers, {
        status: 'ready',
      }),
      409,
      'ORDER_FULFILLMENT_CLOSED',
    );
  });

  it('refusals: not enough keys (409, nothing assigned), not paid, not digital, unknown order', async () => {
    const me = await c.customer();
    const stocked = await c.product({ kind: 'digital', mrp: 100 });
    const empty = await c.product({ kind: 'digital', mrp: 100 });
    await c.addKeys(stocked, ['S-1', 'S-2']);
    const orderId = await c.paidOrder(
      me,
      [
        { productId: stocked, quantity: 1 },
        { productId: empty, quantity: 2 },
      ],
      false,
    );
    const generic = await c.http.call(
      'POST',
      `/api/admin/orders/${orderId}/fulfillment-status`,
      c.admin.headers,
      {
        status: 'key_sent',
      },
    );
    expectError(generic, 400, 'ORDER_FULFILLMENT_INVALID_TRANSITION');
    expect(generic.json().message).toContain('send-digital-delivery');

    const short = await admin(`/${orderId}/send-digital-delivery`);
    expectError(short, 409, 'ORDER_DIGITAL_KEYS_UNAVAILABLE');
    expect(short.json()).toMatchObject({ productId: empty, needed: 2, available: 0 });
    const stockedKeys = await c.http.call(
      'GET',
      `/api/admin/products/${stocked}/digital-keys?status=available`,
      c.admin.headers,
    );
    expect(stockedKeys.json().meta.count).toBe(2);
    expect((await c.order(me, orderId)).fulfillmentStatus).toBe('received');
    await c.addKeys(empty, ['E-1', 'E-2']);
    const sent = await admin(`/${orderId}/send-digital-delivery`);
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.json().data.deliveredItems).toHaveLength(3);

    // COD digital order: not paid until the cash is collected.
    const cod = await c.product({ kind: 'digital', mrp: 100 });
    await c.addKeys(cod, ['C-1']);
    await c.cartWith(me, [{ productId: cod }], false);
    const codOrderId = (await c.checkout(me, 'cod')).json().data.orderId;
    expectError(await admin(`/${codOrderId}/send-digital-delivery`), 400, 'ORDER_NOT_PAID');

    const physical = await c.paidOrder(me, [{ productId: await c.product() }]);
    expectError(
      await admin(`/${physical}/send-digital-delivery`),
      400,
      'ORDER_DIGITAL_DELIVERY_NOT_APPLICABLE',
    );
    expect((await admin(`/${physical}/digital-keys`, c.admin, 'GET')).json().data).toEqual([]);

    expectError(await admin('/99999999/send-digital-delivery'), 404, 'ORDER_NOT_FOUND');
    expectError(await admin('/0/send-digital-delivery'), 400, 'VALIDATION_ERROR');
    expectError(await admin('/99999999/digital-keys', c.admin, 'GET'), 404, 'ORDER_NOT_FOUND');
    expectError(await admin('/x/digital-keys', c.admin, 'GET'), 400, 'VALIDATION_ERROR');
  });

  it('full key values only with DigitalKeys_READ: Orders_READ alone sees each key masked (value null)', async () => {
    const me = await c.customer();
    const suite = await c.product({ kind: 'digital', mrp: 300, title: 'Design Suite' });
    await c.addKeys(suite, ['DSGN-AAAA-BBBB-1111', 'DSGN-CCCC-DDDD-2222']);
    const orderId = await c.paidOrder(me, [{ productId: suite, quantity: 2 }], false);
    expect((await admin(`/${orderId}/send-digital-delivery`)).statusCode).toBe(200);
    const keysAs = async (who: SignedIn) => {
      const res = await admin(`/${orderId}/digital-keys`, who, 'GET');
      expect(res.statusCode, res.body).toBe(200);
      return (res.json().data as Array<{ keys: Array<Record<string, unknown>> }>)[0]!.keys.sort((a, b) =>
        String(a.maskedValue).localeCompare(String(b.maskedValue)),
      );
    };
    const full = [
      {
        keyId: expect.any(String),
        value: 'DSGN-AAAA-BBBB-1111',
        maskedValue: '****1111',
        assignedAt: expect.any(String),
      },
      {
        keyId: expect.any(String),
        value: 'DSGN-CCCC-DDDD-2222',
        maskedValue: '****2222',
        assignedAt: expect.any(String),
      },
    ];
    expect(await keysAs(c.admin)).toEqual(full);
    const withKeys = await signedInAdmin(c.t, { permissions: ['Orders_READ', 'DigitalKeys_READ'] });
    expect(await keysAs(withKeys)).toEqual(full);
    const ordersOnly = await signedInAdmin(c.t, { permissions: ['Orders_READ'] });
    const masked = await keysAs(ordersOnly);
    expect(masked).toEqual(full.map((k) => ({ ...k, value: null })));
    expect(JSON.stringify(masked)).not.toContain('DSGN-');
  });

  it('who may call them', async () => {
    const me = await c.customer();
    await c.http.expectGuarded(
      'POST',
      '/api/admin/orders/1/send-digital-delivery',
      'DigitalKeys_SEND_DELIVERY',
      me,
    );
    await c.http.expectGuarded('GET', '/api/admin/orders/1/digital-keys', 'Orders_READ', me);
    const ordersOnly = await signedInAdmin(c.t, { permissions: ['Orders_UPDATE', 'Orders_READ'] });
    expectError(await admin('/1/send-digital-delivery', ordersOnly), 403, 'AUTH_PERMISSION_DENIED');
    const sender = await signedInAdmin(c.t, { permissions: ['DigitalKeys_SEND_DELIVERY'] });
    expectError(await admin('/99999999/send-digital-delivery', sender), 404, 'ORDER_NOT_FOUND');
  });
});

describe('care packages: subscriptions and activation', () => {
  async function coverProduct() {
    const pkg = await c.carePackage({ name: 'Laptop Care' });
    const tier = pkg.tiers[0]!;
    const productId = await c.product({ kind: 'care_package', mrp: tier.price, carePackageTierId: tier.id });
    return { pkg, tier, productId };
  }

  it('paying opens a pending subscription; activate makes it active and the order activated', async () => {
    const me = await c.customer();
    const { pkg, tier, productId } = await coverProduct();
    const orderId = await c.paidOrder(me, [{ productId }], false);
    const paid = await c.order(me, orderId);
    expect(paid).toMatchObject({ orderType: 'care_package', fulfillmentStatus: 'received' });
    expect(paid.items[0].subscriptionInfo).toMatchObject({
      carePackageId: pkg.id,
      tierId: tier.id,
      status: 'pending',
      durationMonths: 12,
      startsAt: null,
      endsAt: null,
    });

    expectError(
      await c.http.call('POST', `/api/admin/orders/${orderId}/fulfillment-status`, c.admin.headers, {
        status: 'activated',
      }),
      400,
      'ORDER_FULFILLMENT_INVALID_TRANSITION',
    );
    clock.advance(60_000);
    const res = await admin(`/${orderId}/activate-care-package`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toEqual({ orderId, activatedCount: 1, fulfillmentStatus: 'activated' });
    const active = await c.order(me, orderId);
    expect(active.fulfillmentStatus).toBe('activated');
    expect(active.items[0].subscriptionInfo).toMatchObject({
      status: 'active',
      startsAt: clock.now().toISOString(),
      endsAt: clock.now().toISOString().replace(/^2026/, '2027'),
    });
    expect((await c.fulfillmentHistory(orderId)).map((h) => [h.fromStatus, h.toStatus])).toEqual([
      ['received', 'activated'],
    ]);
    expect(await noticesOf(me)).toContain('ORDER_ACTIVATED');

    expectError(await admin(`/${orderId}/activate-care-package`), 400, 'ORDER_NO_PENDING_SUBSCRIPTIONS');
    expect(await c.fulfillmentHistory(orderId)).toHaveLength(1);
  });

  it('refusals: not a care-package order, nothing pending (unpaid), unknown order, who may call it', async () => {
    const me = await c.customer();
    const physical = await c.paidOrder(me, [{ productId: await c.product() }]);
    expectError(
      await admin(`/${physical}/activate-care-package`),
      400,
      'ORDER_ACTIVATE_CARE_PACKAGE_NOT_APPLICABLE',
    );
    const { productId } = await coverProduct();
    await c.cartWith(me, [{ productId }], false);
    const unpaid = (await c.checkout(me, 'gateway_card')).json().data.orderId;
    expect((await c.order(me, unpaid)).items[0].subscriptionInfo).toBeNull();
    expectError(await admin(`/${unpaid}/activate-care-package`), 400, 'ORDER_NO_PENDING_SUBSCRIPTIONS');
    expectError(await admin('/99999999/activate-care-package'), 404, 'ORDER_NOT_FOUND');
    expectError(await admin('/1.5/activate-care-package'), 400, 'VALIDATION_ERROR');
    await c.http.expectGuarded(
      'POST',
      '/api/admin/orders/1/activate-care-package',
      'CarePackageSubscriptions_UPDATE',
      me,
    );
    const ordersOnly = await signedInAdmin(c.t, { permissions: ['Orders_UPDATE'] });
    expectError(await admin(`/${physical}/activate-care-package`, ordersOnly), 403, 'AUTH_PERMISSION_DENIED');
  });

  it('COD: the cover opens when the order is placed and ends when it is cancelled', async () => {
    const me = await c.customer();
    const { productId } = await coverProduct();
    await c.cartWith(me, [{ productId }], false);
    const orderId = (await c.checkout(me, 'cod')).json().data.orderId;
    expect((await c.order(me, orderId)).items[0].subscriptionInfo.status).toBe('pending');
    const cancel = await c.http.call('POST', `/api/orders/${orderId}/cancel`, me.headers, {});
    expect((await c.settled(me, cancel.json().data.requestId)).status).toBe('completed');
    expect((await c.order(me, orderId)).items[0].subscriptionInfo.status).toBe('cancelled');
    expectError(await admin(`/${orderId}/activate-care-package`), 409, 'ORDER_FULFILLMENT_CLOSED');
  });
});

describe('mixed orders', () => {
  it('paying assigns and emails the digital keys and opens the attached cover; delivery activates it', async () => {
    const me = await c.customer();
    const laptop = await c.product({ onHand: 2, mrp: 60000, title: 'Laptop' });
    const pkg = await c.carePackage({ rules: { productIds: [laptop] } });
    const os = await c.product({ kind: 'digital', mrp: 900, title: 'Operating System' });
    await c.addKeys(os, ['OS-KEY-1']);
    const cart = await c.cartCall(me, 'POST', '/items', { productId: laptop, quantity: 1 });
    await c.cartCall(
      me,
      'POST',
      `/items/${cart.items[0]!.id}/care-package`,
      { carePackageId: pkg.id, pricingTierId: pkg.tiers[1]!.id },
      '/api/mobile/cart',
    );
    const mailsBefore = c.t.mail.length;
    const orderId = await c.paidOrder(me, [{ productId: os }]);
    const paid = await c.order(me, orderId);
    expect(paid).toMatchObject({ orderType: 'mixed', fulfillmentStatus: 'received' });
    const laptopItem = paid.items.find((i: { productId: number }) => i.productId === laptop);
    expect(laptopItem.subscriptionInfo).toMatchObject({ status: 'pending', durationMonths: 24 });
    expect(paid.items.find((i: { productId: number }) => i.productId === os).subscriptionInfo).toBeNull();
    const mail = keyMails(mailsBefore).filter((m) => m.to === me.email);
    expect(mail).toHaveLength(1);
    expect(mail[0]!.text.split('\n')).toContain('OS-KEY-1');
    const keys = await admin(`/${orderId}/digital-keys`, c.admin, 'GET');
    expect(keys.json().data[0].keys.map((k: { value: string }) => k.value)).toEqual(['OS-KEY-1']);

    // The order itself follows the physical path; delivery starts the cover.
    for (const step of ['ready', 'picked_up', 'in_transit'])
      expect((await c.fulfil(orderId, step)).status).toBe('completed');
    expect(
      (await c.order(me, orderId)).items.find((i: { productId: number }) => i.productId === laptop)
        .subscriptionInfo.status,
    ).toBe('pending');
    expect((await c.fulfil(orderId, 'delivered')).status).toBe('completed');
    const delivered = await c.order(me, orderId);
    expect(
      delivered.items.find((i: { productId: number }) => i.productId === laptop).subscriptionInfo,
    ).toMatchObject({
      status: 'active',
      startsAt: clock.now().toISOString(),
    });
    expectError(
      await admin(`/${orderId}/activate-care-package`),
      400,
      'ORDER_ACTIVATE_CARE_PACKAGE_NOT_APPLICABLE',
    );
  });

  it('COD: the keys go out when the cash is collected, not when the order is placed', async () => {
    const me = await c.customer();
    const mouse = await c.product({ onHand: 5 });
    const app = await c.product({ kind: 'digital', mrp: 400, title: 'Editor' });
    await c.addKeys(app, ['EDITOR-1']);
    const mailsBefore = c.t.mail.length;
    await c.cartWith(me, [{ productId: mouse }, { productId: app }]);
    const orderId = (await c.checkout(me, 'cod')).json().data.orderId;
    await c.t.drainJobs();
    expect(keyMails(mailsBefore).filter((m) => m.to === me.email)).toHaveLength(0);
    expect((await admin(`/${orderId}/digital-keys`, c.admin, 'GET')).json().data[0].keys).toEqual([]);
    const collected = await c.http.call('PUT', `/api/admin/orders/${orderId}/cod-collect`, c.admin.headers, {
      remarks: 'Cash received',
    });
    expect(collected.statusCode, collected.body).toBe(200);
    await c.t.drainJobs();
    const mail = keyMails(mailsBefore).filter((m) => m.to === me.email);
    expect(mail).toHaveLength(1);
    expect(mail[0]!.text.split('\n')).toContain('EDITOR-1');
  });

  it('keys run out: the payment stands, the admins are told, send-digital-delivery delivers later', async () => {
    const me = await c.customer();
    const cable = await c.product({ onHand: 5 });
    const game = await c.product({ kind: 'digital', mrp: 500, title: 'Game' });
    const mailsBefore = c.t.mail.length;
    const orderId = await c.paidOrder(me, [{ productId: cable }, { productId: game }]);
    expect(await c.order(me, orderId)).toMatchObject({ orderStatus: 'paid', orderType: 'mixed' });
    expect(keyMails(mailsBefore).filter((m) => m.to === me.email)).toHaveLength(0);
    const feed = await c.http.call('GET', '/api/admin/notifications?pagination=false', c.admin.headers);
    const notice = feed
      .json()
      .data.find(
        (n: { type: string; data: { orderId: number } }) =>
          n.type === 'order.digital_keys_short' && n.data.orderId === orderId,
      );
    expect(notice.body).toContain('Game');

    await c.addKeys(game, ['GAME-1']);
    expect((await c.fulfil(orderId, 'ready')).status).toBe('completed');
    const sent = await admin(`/${orderId}/send-digital-delivery`);
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.json().data).toMatchObject({ orderId, emailSentTo: me.email, fulfillmentStatus: 'ready' });
    expect(sent.json().data.deliveredItems.map((d: { productId: number }) => d.productId)).toEqual([game]);
    expect((await c.fulfillmentHistory(orderId)).map((h) => h.toStatus)).toEqual(['ready']);
  });
});
