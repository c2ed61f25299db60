// Customer notifications: notifyCustomer (record in the caller's transaction, push after
// commit to the customer's live devices) and the customer's inbox routes.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endSession, startSession } from '../../../src/modules/identity';
import { type CustomerNotice, createNotifier } from '../../../src/modules/notifications';
import { customerNotifications } from '../../../src/modules/notifications/notifications.table';
import { TestClock } from '../../../src/platform/clock';
import { inTransaction } from '../../../src/platform/db/transaction';
import { createTestApp, type TestApp } from '../../helpers/app';
import { type SignedIn, signedInAdmin, signedInCustomer } from '../../helpers/factories';

describe('customer notifications', () => {
  let t: TestApp;
  const clock = new TestClock('2026-03-01T10:00:00.000Z');
  beforeAll(async () => {
    t = await createTestApp({ clock });
  });
  afterAll(() => t.close());

  const notifier = () =>
    createNotifier({ db: db(), push: t.platform.outgoing.push, clock, realtime: t.platform.realtime });
  const db = () => t.platform.database.db;

  async function notify(customerId: string, over: Partial<CustomerNotice> = {}) {
    await inTransaction(db(), (tx, afterCommit) =>
      notifier().notifyCustomer(tx, afterCommit, {
        customerId,
        type: 'support.request_reply',
        title: 'New reply',
        body: 'The store answered your ticket',
        data: { supportRequestId: 7 },
        ...over,
      }),
    );
    clock.advance(1000);
  }

  const get = (url: string, c?: SignedIn) =>
    t.app.inject({ method: 'GET', url, headers: c ? c.headers : {} });
  const patch = (url: string, c?: SignedIn) =>
    t.app.inject({ method: 'PATCH', url, headers: c ? c.headers : {} });

  /** A device session of the customer with a push token, as a login with deviceInfo.pushToken makes. */
  const device = (userId: string, pushToken: string) =>
    startSession({
      db: db(),
      tokens: t.platform.tokens,
      clock,
      refreshTtlDays: 30,
      userId,
      actor: 'customer',
      pushToken,
    });

  describe('notifyCustomer', () => {
    it('records the notification and pushes it to every live device of the customer, once each', async () => {
      const c = await signedInCustomer(t);
      await device(c.userId, 'device-a');
      await device(c.userId, 'device-a'); // the same phone signed in twice
      await device(c.userId, 'device-b');
      const gone = await device(c.userId, 'device-gone');
      await endSession({
        authenticator: t.platform.authenticator,
        db: db(),
        clock,
        sessionId: gone.sessionId,
      });
      const other = await signedInCustomer(t);
      await device(other.userId, 'other-device');
      const before = t.push.length;

      const at = clock.now();
      await notify(c.userId, { title: 'Reply on SR-1', body: 'Hello', data: { supportRequestId: 1 } });
      await t.drainJobs();

      const rows = await db()
        .select()
        .from(customerNotifications)
        .where(eq(customerNotifications.recipientId, c.userId));
      expect(rows).toHaveLength(1);
      // Every value as given, the data as JSON and the instant as the store's clock said.
      expect(rows[0]).toEqual({
        id: expect.any(String),
        recipientId: c.userId,
        type: 'support.request_reply',
        title: 'Reply on SR-1',
        body: 'Hello',
        data: { supportRequestId: 1 },
        readAt: null,
        createdAt: at,
      });
      const pushed = t.push.slice(before);
      expect(pushed.map((p) => p.to).sort()).toEqual(['device-a', 'device-b']);
      expect(pushed[0]).toEqual({
        to: expect.any(String),
        title: 'Reply on SR-1',
        body: 'Hello',
        data: { supportRequestId: 1, type: 'support.request_reply', notificationId: rows[0]!.id },
      });
    });

    it('records nothing and pushes nothing when the caller rolls back', async () => {
      const c = await signedInCustomer(t);
      await device(c.userId, 'rollback-device');
      const before = t.push.length;
      await expect(
        inTransaction(db(), async (tx, afterCommit) => {
          await notifier().notifyCustomer(tx, afterCommit, {
            customerId: c.userId,
            type: 't',
            title: 'x',
            body: 'y',
          });
          throw new Error('the caller fails after notifying');
        }),
      ).rejects.toThrow('the caller fails');
      await t.drainJobs();
      expect(
        await db()
          .select()
          .from(customerNotifications)
          .where(eq(customerNotifications.recipientId, c.userId)),
      ).toEqual([]);
      expect(t.push.slice(before)).toEqual([]);
    });
  });

  describe('GET /api/mobile/notifications', () => {
    it('lists only the caller’s notifications, newest first, with count, page, size and unreadCount', async () => {
      const c = await signedInCustomer(t);
      const other = await signedInCustomer(t);
      for (const title of ['first', 'second', 'third']) await notify(c.userId, { title });
      await notify(other.userId, { title: 'not yours' });
      const [, second] = (await get('/api/mobile/notifications', c)).json().data;
      expect((await patch(`/api/mobile/notifications/${second.id}/read`, c)).statusCode).toBe(200);

      const res = await get('/api/mobile/notifications?page=1&size=2', c);
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(body.meta).toEqual({ count: 3, page: 1, size: 2, unreadCount: 2 });
      expect(body.data.map((n: { title: string }) => n.title)).toEqual(['third', 'second']);
      expect(body.data[0]).toEqual({
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        type: 'support.request_reply',
        title: 'third',
        body: 'The store answered your ticket',
        data: { supportRequestId: 7 },
        isRead: false,
        readAt: null,
        createdAt: expect.any(String),
      });
      expect(body.data[1]).toMatchObject({ title: 'second', isRead: true });

      const page2 = (await get('/api/mobile/notifications?page=2&size=2', c)).json();
      expect(page2.data.map((n: { title: string }) => n.title)).toEqual(['first']);
      const all = (await get('/api/mobile/notifications?pagination=false&order=asc', c)).json();
      expect(all.meta).toEqual({ count: 3, unreadCount: 2 });
      expect(all.data.map((n: { title: string }) => n.title)).toEqual(['first', 'second', 'third']);
    });

    it('answers an empty list to a customer without notifications', async () => {
      const c = await signedInCustomer(t);
      expect((await get('/api/mobile/notifications', c)).json()).toMatchObject({
        data: [],
        meta: { count: 0, page: 1, size: 20, unreadCount: 0 },
      });
    });

    it('refuses bad query values, no token and an admin', async () => {
      const c = await signedInCustomer(t);
      const bad = await get('/api/mobile/notifications?size=0', c);
      expect(bad.statusCode).toBe(400);
      expect(bad.json().errorCode).toBe('VALIDATION_ERROR');
      expect((await get('/api/mobile/notifications?order=up', c)).json().errorCode).toBe('VALIDATION_ERROR');
      const anon = await get('/api/mobile/notifications');
      expect([anon.statusCode, anon.json().errorCode]).toEqual([401, 'AUTH_UNAUTHORIZED']);
      const admin = await get('/api/mobile/notifications', await signedInAdmin(t, { superadmin: true }));
      expect([admin.statusCode, admin.json().errorCode]).toEqual([403, 'AUTH_FORBIDDEN']);
    });
  });

  describe('PATCH /api/mobile/notifications/:id/read', () => {
    it('marks it read; reading it again keeps the first read time', async () => {
      const c = await signedInCustomer(t);
      await notify(c.userId);
      const [n] = (await get('/api/mobile/notifications', c)).json().data;
      const at = clock.now().toISOString();
      const res = await patch(`/api/mobile/notifications/${n.id}/read`, c);
      expect(res.statusCode).toBe(200);
      expect(res.json().data).toMatchObject({ id: n.id, isRead: true, readAt: at });
      clock.advance(60_000);
      const again = await patch(`/api/mobile/notifications/${n.id}/read`, c);
      expect(again.json().data).toMatchObject({ isRead: true, readAt: at });
      const [row] = await db().select().from(customerNotifications).where(eq(customerNotifications.id, n.id));
      expect(row!.readAt!.toISOString()).toBe(at);
    });

    it("answers 404 NOTIFICATION_NOT_FOUND for another customer's or an unknown id, and leaves it unread", async () => {
      const owner = await signedInCustomer(t);
      const intruder = await signedInCustomer(t);
      await notify(owner.userId);
      const [n] = (await get('/api/mobile/notifications', owner)).json().data;
      const res = await patch(`/api/mobile/notifications/${n.id}/read`, intruder);
      expect([res.statusCode, res.json().errorCode]).toEqual([404, 'NOTIFICATION_NOT_FOUND']);
      const [row] = await db().select().from(customerNotifications).where(eq(customerNotifications.id, n.id));
      expect(row!.readAt).toBeNull();
      const unknown = await patch(
        '/api/mobile/notifications/0190f2b4-7c1a-7000-8000-000000000000/read',
        owner,
      );
      expect([unknown.statusCode, unknown.json().errorCode]).toEqual([404, 'NOTIFICATION_NOT_FOUND']);
    });

    it('refuses a malformed id, no token and an admin', async () => {
      const c = await signedInCustomer(t);
      const bad = await patch('/api/mobile/notifications/42/read', c);
      expect([bad.statusCode, bad.json().errorCode]).toEqual([400, 'VALIDATION_ERROR']);
      const url = '/api/mobile/notifications/0190f2b4-7c1a-7000-8000-000000000000/read';
      expect((await patch(url)).statusCode).toBe(401);
      const admin = await patch(url, await signedInAdmin(t, { superadmin: true }));
      expect([admin.statusCode, admin.json().errorCode]).toEqual([403, 'AUTH_FORBIDDEN']);
    });
  });

  describe('PATCH /api/mobile/notifications/read-all', () => {
    it("marks every unread notification of the caller read and no one else's", async () => {
      const c = await signedInCustomer(t);
      const other = await signedInCustomer(t);
      await notify(c.userId);
      await notify(c.userId);
      await notify(other.userId);
      const res = await patch('/api/mobile/notifications/read-all', c);
      expect(res.statusCode).toBe(200);
      expect(res.json().data).toEqual({ updated: 2 });
      expect((await get('/api/mobile/notifications', c)).json().meta.unreadCount).toBe(0);
      expect((await get('/api/mobile/notifications', other)).json().meta.unreadCount).toBe(1);
      expect((await patch('/api/mobile/notifications/read-all', c)).json().data).toEqual({ updated: 0 });
    });

    it('refuses no token and an admin', async () => {
      expect((await patch('/api/mobile/notifications/read-all')).statusCode).toBe(401);
      const admin = await patch(
        '/api/mobile/notifications/read-all',
        await signedInAdmin(t, { superadmin: true }),
      );
      expect([admin.statusCode, admin.json().errorCode]).toEqual([403, 'AUTH_FORBIDDEN']);
    });
  });
});
