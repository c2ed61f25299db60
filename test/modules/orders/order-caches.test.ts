// The order caches of the interface's Limits (ORDER_HISTORY_CACHE_TTL_SECONDS for the customer,
// ORDER_ADMIN_CACHE_TTL_SECONDS for the back office): reads are served from the cache, every
// change made through the app clears them at once, and a cached detail keeps its access check.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forgetOrder, orderCache } from '../../../src/modules/orders/orders.cache';
import { orders } from '../../../src/modules/orders/orders.table';
import { createMemoryCache } from '../../../src/platform/cache/memory-cache';
import { systemClock } from '../../../src/platform/clock';
import { type OrdersTestApp, ordersTestApp } from './calls';

describe('order caches', () => {
  let c: OrdersTestApp;
  beforeAll(async () => {
    c = await ordersTestApp();
  });
  afterAll(() => c?.t.close());

  /** Changes an order behind the app's back, so only a cache miss can show it. */
  const sneak = (id: number, values: Partial<typeof orders.$inferInsert>) =>
    c.db.update(orders).set(values).where(eq(orders.id, id));
  const customerView = async (who: Parameters<typeof c.order>[0], id: number) => {
    const list = (await c.http.call('GET', '/api/orders', who.headers)).json().data;
    return { detail: await c.order(who, id), listed: list.find((o: { id: number }) => o.id === id) };
  };
  const adminView = async (id: number) => {
    const list = (await c.http.call('GET', '/api/admin/orders', c.admin.headers)).json().data;
    return { detail: await c.adminOrder(id), listed: list.find((o: { id: number }) => o.id === id) };
  };

  it('customer and back-office reads come from the cache until a change through the app clears them', async () => {
    const me = await c.customer();
    const { orderId } = await c.placed(me, 'cod');
    expect((await customerView(me, orderId)).detail.orderStatus).toBe('payment_pending');
    expect((await adminView(orderId)).detail.orderStatus).toBe('payment_pending');

    await sneak(orderId, { shippingCity: 'Pokhara' });
    expect((await customerView(me, orderId)).detail.shippingCity).toBe('Kathmandu');
    expect((await adminView(orderId)).detail.shippingCity).toBe('Kathmandu');

    // The customer cancels (an async job): every view shows it at once afterwards.
    const cancel = await c.http.call('POST', `/api/orders/${orderId}/cancel`, me.headers, {});
    await c.settled(me, cancel.json().data.requestId);
    const mine = await customerView(me, orderId);
    expect(mine.detail).toMatchObject({ orderStatus: 'cancelled', shippingCity: 'Pokhara' });
    expect(mine.listed.orderStatus).toBe('cancelled');
    const theirs = await adminView(orderId);
    expect(theirs.detail).toMatchObject({ orderStatus: 'cancelled', shippingCity: 'Pokhara' });
    expect(theirs.listed.orderStatus).toBe('cancelled');
  });

  it('admin writes (COD cash, a note, a serial number, a fulfilment move) clear the views they change', async () => {
    const me = await c.customer();
    const { orderId } = await c.placed(me, 'cod');
    await customerView(me, orderId);
    await adminView(orderId);
    const collect = await c.http.call('PUT', `/api/admin/orders/${orderId}/cod-collect`, c.admin.headers, {
      remarks: 'cash',
    });
    expect(collect.statusCode, collect.body).toBe(200);
    expect((await customerView(me, orderId)).listed.paymentStatus).toBe('cod_collected');
    expect((await adminView(orderId)).listed.paymentStatus).toBe('cod_collected');

    const note = await c.http.call('POST', `/api/admin/orders/${orderId}/notes`, c.admin.headers, {
      note: 'Call before delivery',
    });
    expect(note.statusCode, note.body).toBe(201);
    expect((await c.adminOrder(orderId)).adminNotes.map((n: { note: string }) => n.note)).toEqual([
      'Call before delivery',
    ]);

    const itemId = (await c.adminOrder(orderId)).items[0].id;
    const serial = await c.http.call(
      'PATCH',
      `/api/admin/orders/${orderId}/items/${itemId}/serial`,
      c.admin.headers,
      { serialNumber: 'SN-1' },
    );
    expect(serial.statusCode, serial.body).toBe(200);
    expect((await c.adminOrder(orderId)).items[0].serialNumber).toBe('SN-1');

    expect((await c.fulfil(orderId, 'ready')).status).toBe('completed');
    expect((await customerView(me, orderId)).detail.fulfillmentStatus).toBe('ready');
    expect((await adminView(orderId)).listed.fulfillmentStatus).toBe('ready');
  });

  it('a cached detail is still refused to another customer', async () => {
    const me = await c.customer();
    const other = await c.customer();
    const { orderId } = await c.placed(me, 'cod');
    await c.order(me, orderId); // now cached
    const res = await c.http.call('GET', `/api/orders/${orderId}`, other.headers);
    expect(res.statusCode).toBe(403);
    expect(res.json().errorCode).toBe('ORDER_ACCESS_DENIED');
  });
});

describe('order caches off (0)', () => {
  it('every read goes to the database', async () => {
    const c = await ordersTestApp({
      env: { ORDER_HISTORY_CACHE_TTL_SECONDS: '0', ORDER_ADMIN_CACHE_TTL_SECONDS: '0' },
    });
    try {
      const me = await c.customer();
      const { orderId } = await c.placed(me, 'cod');
      expect((await c.order(me, orderId)).shippingCity).toBe('Kathmandu');
      await c.db.update(orders).set({ shippingCity: 'Pokhara' }).where(eq(orders.id, orderId));
      expect((await c.order(me, orderId)).shippingCity).toBe('Pokhara');
      expect((await c.adminOrder(orderId)).shippingCity).toBe('Pokhara');
    } finally {
      await c.t.close();
    }
  });
});

describe('order caches and a change racing a read', () => {
  it('a read that loaded before the commit cannot leave its stale copy behind', async () => {
    const cache = createMemoryCache({ maxEntries: 100, clock: systemClock });
    const order = { id: 7, customerId: 'c-1' };
    let release!: () => void;
    const gate = new Promise<void>((r) => {
      release = r;
    });
    let loading!: () => void;
    const loaded = new Promise<void>((r) => {
      loading = r;
    });
    // The read loads (the old state: the change has not committed) and is slow to store it...
    const slow = orderCache.detail(cache, 60, order.id, async () => {
      loading();
      await gate;
      return 'before the change';
    });
    await loaded;
    // ...while the change commits and clears the caches.
    const effects: Array<() => void | Promise<void>> = [];
    forgetOrder(cache, (effect) => effects.push(effect), order);
    for (const effect of effects) await effect();
    release();
    expect(await slow).toBe('before the change');
    // The next read does not get the copy the slow read filed after the change.
    expect(await orderCache.detail(cache, 60, order.id, async () => 'after the change')).toBe(
      'after the change',
    );
    expect(await orderCache.adminDetail(cache, 60, order.id, async () => 'admin, after')).toBe(
      'admin, after',
    );
  });
});
