// Staff notifications (docs/decisions.md, "Admin notifications"): `notifyAdmins` reaches exactly
// the active admins whose role grants the permission, in the caller's transaction; each admin
// reads and marks only their own feed; an admin's open sockets hear `admin.notification`.
import type { AddressInfo } from 'node:net';
import { inArray } from 'drizzle-orm';
import { type Socket as ClientSocket, io } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setAccountActive } from '../../../src/modules/identity';
import { type AdminNotice, createNotifier } from '../../../src/modules/notifications';
import { adminNotifications } from '../../../src/modules/notifications/notifications.table';
import { TestClock } from '../../../src/platform/clock';
import { inTransaction } from '../../../src/platform/db/transaction';
import { createTestApp, type TestApp } from '../../helpers/app';
import { type SignedIn, signedInAdmin, signedInCustomer } from '../../helpers/factories';
import { handshake } from '../../helpers/sockets';

describe('admin notifications', () => {
  let t: TestApp;
  let baseUrl: string;
  const clock = new TestClock(new Date());
  let refunder: SignedIn;
  let anotherRefunder: SignedIn;
  let writer: SignedIn;
  let superadmin: SignedIn;
  let customer: SignedIn;
  const permission = 'Orders_UPDATE';

  beforeAll(async () => {
    t = await createTestApp({ clock });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    baseUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    refunder = await signedInAdmin(t, { permissions: [permission] });
    anotherRefunder = await signedInAdmin(t, { permissions: [permission, 'Orders_READ'] });
    writer = await signedInAdmin(t, { permissions: ['Orders_READ'] });
    superadmin = await signedInAdmin(t, { superadmin: true });
    customer = await signedInCustomer(t);
  });
  afterAll(() => t?.close());

  const db = () => t.platform.database.db;
  const notifier = () =>
    createNotifier({ db: db(), push: t.platform.outgoing.push, clock, realtime: t.platform.realtime });
  const notice = (over: Partial<AdminNotice> = {}): AdminNotice => ({
    permission,
    type: 'payment.late_payment',
    title: 'Late payment on ORD-1',
    body: 'A payment completed after its order was cancelled: refund it.',
    data: { orderId: 1 },
    ...over,
  });
  const notify = async (over: Partial<AdminNotice> = {}) => {
    const n = await inTransaction(db(), (tx, afterCommit) =>
      notifier().notifyAdmins(tx, afterCommit, notice(over)),
    );
    clock.advance(1000);
    return n;
  };
  const list = (who: SignedIn, query = '') =>
    t.app.inject({ method: 'GET', url: `/api/admin/notifications${query}`, headers: who.headers });
  const feedIds = async (who: SignedIn) => (await list(who)).json().data.map((n: { id: string }) => n.id);

  it('reaches the active admins who hold the permission and superadmins, nobody else', async () => {
    const inactive = await signedInAdmin(t, { permissions: [permission] });
    await setAccountActive({
      authenticator: t.platform.authenticator,
      db: db(),
      clock,
      userId: inactive.userId,
      isActive: false,
    });
    const before = {
      refunder: (await feedIds(refunder)).length,
      writer: (await feedIds(writer)).length,
      superadmin: (await feedIds(superadmin)).length,
    };
    const told = await notify();
    // refunder, anotherRefunder, superadmin (and any superadmin the app bootstrapped)
    expect(told).toBeGreaterThanOrEqual(3);
    expect((await feedIds(refunder)).length).toBe(before.refunder + 1);
    expect((await feedIds(anotherRefunder)).length).toBeGreaterThanOrEqual(1);
    expect((await feedIds(superadmin)).length).toBe(before.superadmin + 1);
    expect((await feedIds(writer)).length).toBe(before.writer);
    const strays = await db()
      .select()
      .from(adminNotifications)
      .where(inArray(adminNotifications.recipientId, [inactive.userId, customer.userId]));
    expect(strays).toEqual([]);
  });

  it('lists the own feed newest first with count, page, size and unreadCount', async () => {
    const fresh = await signedInAdmin(t, { permissions: ['Notice_ONLY_FOR_THIS_TEST'] });
    for (const title of ['first', 'second', 'third'])
      await notify({ permission: 'Notice_ONLY_FOR_THIS_TEST', title });
    const page = await list(fresh, '?page=1&size=2');
    expect(page.statusCode).toBe(200);
    const body = page.json();
    expect(body.data.map((n: { title: string }) => n.title)).toEqual(['third', 'second']);
    expect(body.meta).toEqual({ count: 3, page: 1, size: 2, unreadCount: 3 });
    expect(body.data[0]).toMatchObject({
      id: expect.any(String),
      type: 'payment.late_payment',
      body: expect.any(String),
      data: { orderId: 1 },
      readAt: null,
      createdAt: expect.any(String),
    });
  });

  it('marks one read (again: unchanged), and never another admin’s: 404 NOTIFICATION_NOT_FOUND', async () => {
    await notify();
    const [mine] = await feedIds(refunder);
    const read = await t.app.inject({
      method: 'PATCH',
      url: `/api/admin/notifications/${mine}/read`,
      headers: refunder.headers,
    });
    expect(read.statusCode).toBe(200);
    expect(read.json().data).toMatchObject({ id: mine, isRead: true, readAt: expect.any(String) });
    clock.advance(5000);
    const again = await t.app.inject({
      method: 'PATCH',
      url: `/api/admin/notifications/${mine}/read`,
      headers: refunder.headers,
    });
    expect(again.json().data.readAt).toBe(read.json().data.readAt);

    const theirs = await t.app.inject({
      method: 'PATCH',
      url: `/api/admin/notifications/${mine}/read`,
      headers: anotherRefunder.headers,
    });
    expect(theirs.statusCode).toBe(404);
    expect(theirs.json().errorCode).toBe('NOTIFICATION_NOT_FOUND');
    expect(JSON.stringify(theirs.json())).not.toContain('Late payment');
    const unknown = await t.app.inject({
      method: 'PATCH',
      url: '/api/admin/notifications/0193a8d4-0000-7000-8000-000000000000/read',
      headers: refunder.headers,
    });
    expect(unknown.statusCode).toBe(404);
    const bad = await t.app.inject({
      method: 'PATCH',
      url: '/api/admin/notifications/not-a-uuid/read',
      headers: refunder.headers,
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errorCode).toBe('VALIDATION_ERROR');
  });

  it('read-all marks only the caller’s', async () => {
    await notify();
    const othersUnread = (await list(anotherRefunder)).json().meta.unreadCount;
    expect(othersUnread).toBeGreaterThan(0);
    const all = await t.app.inject({
      method: 'POST',
      url: '/api/admin/notifications/read-all',
      headers: refunder.headers,
    });
    expect(all.statusCode).toBe(200);
    expect(all.json().data.updated).toBeGreaterThan(0);
    expect((await list(refunder)).json().meta.unreadCount).toBe(0);
    expect((await list(anotherRefunder)).json().meta.unreadCount).toBe(othersUnread);
  });

  it('is for signed-in admins only', async () => {
    const asCustomer = await list(customer);
    expect(asCustomer.statusCode).toBe(403);
    expect(asCustomer.json().errorCode).toBe('AUTH_FORBIDDEN');
    const anonymous = await t.app.inject({ method: 'GET', url: '/api/admin/notifications' });
    expect(anonymous.statusCode).toBe(401);
    // The customer inbox does not show staff notifications either.
    expect(
      (
        await t.app.inject({ method: 'GET', url: '/api/mobile/notifications', headers: customer.headers })
      ).json().meta.count,
    ).toBe(0);
  });

  it('sends admin.notification to the admin’s sockets after commit, and nothing for a rolled-back write', async () => {
    const connect = (who: SignedIn): ClientSocket =>
      io(`${baseUrl}/realtime`, {
        auth: { token: who.tokens.accessToken },
        transports: ['websocket'],
        reconnection: false,
        forceNew: true,
      });
    const mine = connect(refunder);
    const notMine = connect(writer);
    try {
      // Both handshakes are watched from the start: either may finish first.
      expect(await Promise.all([handshake(mine), handshake(notMine)])).toEqual([
        { connected: true },
        { connected: true },
      ]);
      const heard: unknown[] = [];
      const wrongly: unknown[] = [];
      mine.on('admin.notification', (n) => heard.push(n));
      notMine.on('admin.notification', (n) => wrongly.push(n));

      await expect(
        inTransaction(db(), async (tx, afterCommit) => {
          await notifier().notifyAdmins(tx, afterCommit, notice({ title: 'rolled back' }));
          throw new Error('the caller fails after notifying');
        }),
      ).rejects.toThrow('the caller fails');
      await notify({ title: 'Refund needed' });
      await expect.poll(() => heard.length, { timeout: 3000 }).toBe(1);
      expect(heard[0]).toMatchObject({ title: 'Refund needed', type: 'payment.late_payment', readAt: null });
      const [newest] = (await list(refunder)).json().data;
      expect(heard[0]).toMatchObject({ id: newest.id });
      expect(wrongly).toEqual([]);
    } finally {
      mine.disconnect();
      notMine.disconnect();
    }
  });
});
