// Support inquiries, back office side: list and search, detail, reply, assign, status,
// link-support-request, and the inactivity sweep.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeInactiveInquiriesJob } from '../../../src/modules/support/inquiries/inquiries.jobs';
import { supportInquiries } from '../../../src/modules/support/inquiries/inquiries.table';
import { supportEvents } from '../../../src/modules/support/realtime/support-events.table';
import { supportRequestMessages } from '../../../src/modules/support/requests/requests.table';
import { TestClock } from '../../../src/platform/clock';
import { createTestApp, type TestApp } from '../../helpers/app';
import { type SignedIn, signedInAdmin, signedInCustomer } from '../../helpers/factories';
import {
  activityOf,
  caller,
  createCustomerInquiry,
  createGuestInquiry,
  expectAdminGuarded,
} from './support-helpers';

describe('support inquiries (admin)', () => {
  let t: TestApp;
  let call: ReturnType<typeof caller>;
  let customer: SignedIn;
  let reader: SignedIn;
  let agent: SignedIn;
  let auditor: SignedIn;
  const clock = new TestClock(new Date());
  beforeAll(async () => {
    t = await createTestApp({ clock });
    call = caller(t);
    customer = await signedInCustomer(t, { name: 'Gita Rai' });
    reader = await signedInAdmin(t, { permissions: ['SupportInquiries_READ'] });
    agent = await signedInAdmin(t, { permissions: ['SupportInquiries_READ', 'SupportInquiries_UPDATE'] });
    auditor = await signedInAdmin(t, { superadmin: true });
  });
  afterAll(() => t.close());
  const db = () => t.platform.database.db;
  const admin = (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: unknown) =>
    call(method, url, { headers: agent.headers, payload });

  describe('guards', () => {
    it('every admin route: 401 without a token, 403 for customers, 403 without the permission', async () => {
      const { id } = await createGuestInquiry(t);
      await expectAdminGuarded(t, customer, 'GET', '/api/admin/support-inquiries', 'SupportInquiries_READ');
      await expectAdminGuarded(
        t,
        customer,
        'GET',
        `/api/admin/support-inquiries/${id}`,
        'SupportInquiries_READ',
      );
      for (const [method, path, payload] of [
        ['POST', 'messages', { body: 'x' }],
        ['PATCH', 'assign', { assignedAdminId: null }],
        ['PATCH', 'status', { status: 'active' }],
        ['POST', 'link-support-request', { subject: 'x' }],
      ] as const) {
        await expectAdminGuarded(
          t,
          customer,
          method,
          `/api/admin/support-inquiries/${id}/${path}`,
          'SupportInquiries_UPDATE',
          payload,
        );
        // READ alone is not enough to write.
        const res = await call(method, `/api/admin/support-inquiries/${id}/${path}`, {
          headers: reader.headers,
          payload,
        });
        expect(res.statusCode).toBe(403);
        expect(res.json().errorCode).toBe('AUTH_PERMISSION_DENIED');
      }
    });

    it('a guest token on an admin route is 401; unknown ids are 404 SUPPORT_INQUIRY_NOT_FOUND', async () => {
      const g = await createGuestInquiry(t);
      const guest = await call('GET', '/api/admin/support-inquiries', { headers: g.headers });
      expect(guest.statusCode).toBe(401);
      for (const [method, path, payload] of [
        ['GET', '', undefined],
        ['POST', '/messages', { body: 'x' }],
        ['PATCH', '/assign', { assignedAdminId: null }],
        ['PATCH', '/status', { status: 'active' }],
        ['POST', '/link-support-request', { subject: 'x' }],
      ] as const) {
        const res = await admin(method, `/api/admin/support-inquiries/999999${path}`, payload);
        expect(res.statusCode, path).toBe(404);
        expect(res.json().errorCode).toBe('SUPPORT_INQUIRY_NOT_FOUND');
        const badId = await admin(method, `/api/admin/support-inquiries/1.5${path}`, payload);
        expect(badId.statusCode, path).toBe(400);
        expect(badId.json().errorCode).toBe('VALIDATION_ERROR');
      }
    });
  });

  describe('GET list and detail', () => {
    it('filters by status, category, customerId, assignedAdminId, supportRequestId; searches code, subject and contact', async () => {
      const tag = `zx${Date.now()}`;
      const a = await createGuestInquiry(t, { subject: `Broken ${tag}`, category: 'technical' });
      const b = await createGuestInquiry(t, { guestEmail: `${tag}@example.com`, category: 'product' });
      const c = await createCustomerInquiry(t, customer, { subject: `Card ${tag}` });
      clock.advance(1000);
      await admin('PATCH', `/api/admin/support-inquiries/${b.id}/assign`, { assignedAdminId: agent.userId });
      clock.advance(1000);
      await admin('PATCH', `/api/admin/support-inquiries/${a.id}/status`, { status: 'waiting' });

      const ids = async (query: string) => {
        const res = await call('GET', `/api/admin/support-inquiries?${query}`, { headers: reader.headers });
        expect(res.statusCode, query).toBe(200);
        return res.json().data.map((i: { id: number }) => i.id);
      };
      // Default: most recently updated first.
      expect(await ids(`search=${tag}`)).toEqual([a.id, b.id, c.id]);
      expect(await ids(`search=${tag}&sort=createdAt&order=asc`)).toEqual([a.id, b.id, c.id]);
      expect(await ids(`search=${tag}&status=waiting`)).toEqual([a.id]);
      expect(await ids(`search=${tag}&category=product`)).toEqual([b.id]);
      expect(await ids(`customerId=${customer.userId}&search=${tag}`)).toEqual([c.id]);
      expect(await ids(`assignedAdminId=${agent.userId}&search=${tag}`)).toEqual([b.id]);
      expect(await ids(`search=${a.data.trackingCode}`)).toEqual([a.id]);
      expect(await ids(`search=${tag.toUpperCase()}%40EXAMPLE`)).toEqual([b.id]);
      expect(await ids(`search=${tag}%25`)).toEqual([]);

      const page = await call('GET', `/api/admin/support-inquiries?search=${tag}&size=2&page=2`, {
        headers: reader.headers,
      });
      expect(page.json().meta).toEqual({ count: 3, page: 2, size: 2 });
      expect(page.json().data).toHaveLength(1);
      const all = await call('GET', `/api/admin/support-inquiries?search=${tag}&pagination=false`, {
        headers: reader.headers,
      });
      expect(all.json().meta).toEqual({ count: 3 });
      expect(all.json().data[0]).toHaveProperty('assignedAdminId');

      for (const bad of [
        'status=nope',
        'customerId=abc',
        'supportRequestId=-1',
        'sort=subject',
        'size=101',
      ]) {
        const res = await call('GET', `/api/admin/support-inquiries?${bad}`, { headers: reader.headers });
        expect(res.statusCode, bad).toBe(400);
        expect(res.json().errorCode).toBe('VALIDATION_ERROR');
      }
    });

    it("names an account holder's conversation by the account's name (customerName); a guest's is null", async () => {
      const tag = `nm${Date.now()}`;
      const g = await createGuestInquiry(t, { subject: `Guest ${tag}`, guestName: 'Maya' });
      const c = await createCustomerInquiry(t, customer, { subject: `Account ${tag}` });
      const list = await call('GET', `/api/admin/support-inquiries?search=${tag}`, {
        headers: reader.headers,
      });
      expect(list.statusCode).toBe(200);
      const byId = new Map(
        list.json().data.map((i: { id: number; customerName: string | null }) => [i.id, i.customerName]),
      );
      expect(byId.get(c.id)).toBe('Gita Rai');
      expect(byId.get(g.id)).toBeNull();
      const detail = await call('GET', `/api/admin/support-inquiries/${c.id}`, { headers: reader.headers });
      expect(detail.json().data).toMatchObject({ customerId: customer.userId, customerName: 'Gita Rai' });
      // Visitors see no such field: it is the back office's.
      const own = await call('GET', `/api/support-inquiries/${c.id}`, { headers: customer.headers });
      expect(own.statusCode, own.body).toBe(200);
      expect(own.json().data).not.toHaveProperty('customerName');
    });

    it('detail shows contact fields, assigned admin id and the full history with admin author ids', async () => {
      const g = await createGuestInquiry(t, { guestName: 'Maya', guestPhone: '+977980' });
      await admin('POST', `/api/admin/support-inquiries/${g.id}/messages`, { body: 'Hi Maya' });
      await admin('PATCH', `/api/admin/support-inquiries/${g.id}/assign`, { assignedAdminId: agent.userId });
      const res = await call('GET', `/api/admin/support-inquiries/${g.id}`, { headers: reader.headers });
      expect(res.statusCode).toBe(200);
      const data = res.json().data;
      expect(data).toMatchObject({ guestName: 'Maya', guestPhone: '+977980', assignedAdminId: agent.userId });
      expect(data.messages.map((m: { authorType: string }) => m.authorType)).toEqual([
        'system',
        'guest',
        'admin',
      ]);
      expect(data.messages[2]).toMatchObject({ authorAdminId: agent.userId, authorName: 'Test Admin' });
      // The server's greeting carries its code, for the back office to word in its language;
      // what people wrote has none.
      expect(data.messages.map((m: { bodyCode: string | null }) => m.bodyCode)).toEqual([
        'greeting',
        null,
        null,
      ]);
      // The guest sees that someone is assigned, never who.
      const visitor = await call('GET', `/api/support-inquiries/${g.id}`, { headers: g.headers });
      expect(visitor.json().data.isAssigned).toBe(true);
      expect(JSON.stringify(visitor.json().data)).not.toContain(agent.userId);
      // The visitor's view keeps the interface's fields: the greeting's words, no code.
      expect(visitor.json().data.messages[0]).not.toHaveProperty('bodyCode');
    });
  });

  describe('POST …/messages (reply)', () => {
    it('answers 201, moves open to active, stamps lastAdminMessageAt, publishes and records activity', async () => {
      const g = await createGuestInquiry(t);
      clock.advance(1000);
      const res = await admin('POST', `/api/admin/support-inquiries/${g.id}/messages`, { body: '  On it ' });
      expect(res.statusCode).toBe(201);
      expect(res.json().data).toMatchObject({
        status: 'active',
        lastAdminMessageAt: clock.now().toISOString(),
      });
      expect(res.json().data.messages.at(-1)).toMatchObject({ body: 'On it', authorType: 'admin' });
      const events = await db()
        .select()
        .from(supportEvents)
        .where(eq(supportEvents.room, `support:inquiry:${g.id}:messages`));
      expect(events.map((e) => e.seq)).toEqual([1, 2]);
      expect(events[1]!.dataForAdmin).toMatchObject({ authorAdminId: agent.userId });
      expect(events[1]!.dataForVisitor).not.toHaveProperty('authorAdminId');
      const activity = await activityOf(t, auditor, 'support_inquiry', g.id);
      expect(activity[0]).toMatchObject({
        adminId: agent.userId,
        action: 'reply',
        summary: expect.stringMatching(/^Replied to support inquiry SI-[0-9A-Z]{10}$/),
      });
    });

    it('keeps other statuses, refuses closed and spam (400 SUPPORT_INQUIRY_CLOSED), validates the body', async () => {
      const waiting = await createGuestInquiry(t);
      await admin('PATCH', `/api/admin/support-inquiries/${waiting.id}/status`, { status: 'waiting' });
      const res = await admin('POST', `/api/admin/support-inquiries/${waiting.id}/messages`, { body: 'x' });
      expect(res.json().data.status).toBe('waiting');
      for (const status of ['closed', 'spam']) {
        const g = await createGuestInquiry(t);
        await admin('PATCH', `/api/admin/support-inquiries/${g.id}/status`, { status });
        const refused = await admin('POST', `/api/admin/support-inquiries/${g.id}/messages`, { body: 'x' });
        expect(refused.statusCode).toBe(400);
        expect(refused.json().errorCode).toBe('SUPPORT_INQUIRY_CLOSED');
      }
      const blank = await admin('POST', `/api/admin/support-inquiries/${waiting.id}/messages`, { body: ' ' });
      expect(blank.statusCode).toBe(400);
      expect(blank.json().errorCode).toBe('VALIDATION_ERROR');
    });
  });

  describe('PATCH …/assign', () => {
    it('assigns an admin, unassigns with null, records activity', async () => {
      const g = await createGuestInquiry(t);
      const assigned = await admin('PATCH', `/api/admin/support-inquiries/${g.id}/assign`, {
        assignedAdminId: reader.userId,
      });
      expect(assigned.statusCode).toBe(200);
      expect(assigned.json().data.assignedAdminId).toBe(reader.userId);
      const cleared = await admin('PATCH', `/api/admin/support-inquiries/${g.id}/assign`, {
        assignedAdminId: null,
      });
      expect(cleared.json().data.assignedAdminId).toBeNull();
      const activity = await activityOf(t, auditor, 'support_inquiry', g.id);
      expect(activity.map((a) => a.action)).toEqual(['unassign', 'assign']);
      expect(activity[0]!.summary).toMatch(/^Support inquiry SI-[0-9A-Z]{10} unassigned$/);
    });

    it('refuses a customer id, an unknown id or a missing field with 400 VALIDATION_ERROR', async () => {
      const g = await createGuestInquiry(t);
      for (const payload of [
        { assignedAdminId: customer.userId },
        { assignedAdminId: '0190aaaa-0000-7000-8000-000000000000' },
        { assignedAdminId: 'nope' },
        {},
      ]) {
        const res = await admin('PATCH', `/api/admin/support-inquiries/${g.id}/assign`, payload);
        expect(res.statusCode).toBe(400);
        expect(res.json().errorCode).toBe('VALIDATION_ERROR');
      }
    });
  });

  describe('PATCH …/status', () => {
    it('sets any status from any status; closed and spam set closedAt, leaving them clears it', async () => {
      const g = await createGuestInquiry(t);
      const statuses = [
        'active',
        'waiting',
        'closed',
        'spam',
        'linked',
        'resolved',
        'open',
        'spam',
        'active',
      ];
      let closedAt: string | null = null;
      for (const status of statuses) {
        clock.advance(1000);
        const res = await admin('PATCH', `/api/admin/support-inquiries/${g.id}/status`, { status });
        expect(res.statusCode, status).toBe(200);
        const data = res.json().data;
        expect(data.status).toBe(status);
        if (status === 'closed') closedAt = clock.now().toISOString();
        if (status === 'closed' || status === 'spam') {
          // closed → spam keeps the moment it was closed.
          expect(data.closedAt).toBe(status === 'spam' && closedAt ? closedAt : clock.now().toISOString());
        } else {
          expect(data.closedAt).toBeNull();
          closedAt = null;
        }
        expect(data.updatedAt).toBe(clock.now().toISOString());
      }
      const activity = await activityOf(t, auditor, 'support_inquiry', g.id);
      expect(activity).toHaveLength(statuses.length);
      expect(activity[0]!.summary).toContain('spam → active');
    });

    it('setting the current status again is accepted and recorded', async () => {
      const g = await createGuestInquiry(t);
      for (let i = 0; i < 2; i++) {
        const res = await admin('PATCH', `/api/admin/support-inquiries/${g.id}/status`, { status: 'open' });
        expect(res.statusCode).toBe(200);
        expect(res.json().data).toMatchObject({ status: 'open', closedAt: null });
      }
      expect(await activityOf(t, auditor, 'support_inquiry', g.id)).toHaveLength(2);
    });

    it('an unknown status is 400 VALIDATION_ERROR', async () => {
      const g = await createGuestInquiry(t);
      const res = await admin('PATCH', `/api/admin/support-inquiries/${g.id}/status`, { status: 'archived' });
      expect(res.statusCode).toBe(400);
      expect(res.json().errorCode).toBe('VALIDATION_ERROR');
    });
  });

  describe('POST …/link-support-request', () => {
    it('{ subject } creates a ticket (201) copying every non-system message; the inquiry becomes linked', async () => {
      const inquiry = await createCustomerInquiry(t, customer, { category: 'product', message: 'first' });
      await admin('POST', `/api/admin/support-inquiries/${inquiry.id}/messages`, { body: 'reply' });
      await call('POST', `/api/support-inquiries/${inquiry.id}/messages`, {
        headers: customer.headers,
        payload: { body: 'third' },
      });
      await admin('PATCH', `/api/admin/support-inquiries/${inquiry.id}/status`, { status: 'closed' });
      clock.advance(1000);
      const res = await admin('POST', `/api/admin/support-inquiries/${inquiry.id}/link-support-request`, {
        subject: 'Follow up',
      });
      expect(res.statusCode).toBe(201);
      const data = res.json().data;
      expect(data).toMatchObject({ status: 'linked', closedAt: null });
      expect(data.supportRequestId).toEqual(expect.any(Number));

      const ticket = await call('GET', `/api/mobile/support-requests/${data.supportRequestId}`, {
        headers: customer.headers,
      });
      expect(ticket.statusCode).toBe(200);
      expect(ticket.json().data).toMatchObject({
        customerId: customer.userId,
        category: 'other',
        subject: 'Follow up',
        status: 'open',
      });
      expect(
        ticket.json().data.messages.map((m: { authorType: string; body: string }) => [m.authorType, m.body]),
      ).toEqual([
        ['customer', 'first'],
        ['admin', 'reply'],
        ['customer', 'third'],
      ]);
      const stored = await db()
        .select()
        .from(supportRequestMessages)
        .where(eq(supportRequestMessages.supportRequestId, data.supportRequestId));
      expect(stored[0]!.authorCustomerId).toBe(customer.userId);
      expect(stored[1]!.authorAdminId).toBe(agent.userId);
      const activity = await activityOf(t, auditor, 'support_inquiry', inquiry.id);
      expect(activity[0]!.action).toBe('create_support_request');
    });

    it('maps inquiry categories to ticket categories', async () => {
      const cases: Array<[string, string]> = [
        ['account', 'account'],
        ['payment', 'payment'],
        ['technical', 'technical'],
        ['product', 'other'],
        ['order', 'other'],
        ['other', 'other'],
      ];
      for (const [from, to] of cases) {
        const inquiry = await createCustomerInquiry(t, customer, { category: from });
        const res = await admin('POST', `/api/admin/support-inquiries/${inquiry.id}/link-support-request`, {
          subject: from,
        });
        const ticket = await call('GET', `/api/admin/support-requests/${res.json().data.supportRequestId}`, {
          headers: auditor.headers,
        });
        expect(ticket.json().data.category, from).toBe(to);
      }
    });

    it('{ supportRequestId } links an existing ticket of the same customer (200)', async () => {
      const created = await call('POST', '/api/mobile/support-requests', {
        headers: customer.headers,
        payload: { category: 'payment', subject: 'Existing', message: 'hello' },
      });
      const ticketId = created.json().data.id;
      const inquiry = await createCustomerInquiry(t, customer);
      const res = await admin('POST', `/api/admin/support-inquiries/${inquiry.id}/link-support-request`, {
        supportRequestId: ticketId,
      });
      expect(res.statusCode).toBe(200);
      expect(res.json().data).toMatchObject({ status: 'linked', supportRequestId: ticketId });
      const ticket = await call('GET', `/api/admin/support-requests/${ticketId}`, {
        headers: auditor.headers,
      });
      expect(ticket.json().data.messages).toHaveLength(1);
      const filtered = await call('GET', `/api/admin/support-inquiries?supportRequestId=${ticketId}`, {
        headers: reader.headers,
      });
      expect(filtered.json().data.map((i: { id: number }) => i.id)).toEqual([inquiry.id]);
    });

    it('a linked inquiry can be linked again, to another ticket of its customer', async () => {
      const inquiry = await createCustomerInquiry(t, customer);
      const first = await admin('POST', `/api/admin/support-inquiries/${inquiry.id}/link-support-request`, {
        subject: 'First',
      });
      const other = await call('POST', '/api/mobile/support-requests', {
        headers: customer.headers,
        payload: { category: 'other', subject: 'Second', message: 'x' },
      });
      const res = await admin('POST', `/api/admin/support-inquiries/${inquiry.id}/link-support-request`, {
        supportRequestId: other.json().data.id,
      });
      expect(res.statusCode).toBe(200);
      expect(res.json().data.supportRequestId).toBe(other.json().data.id);
      expect(res.json().data.supportRequestId).not.toBe(first.json().data.supportRequestId);
    });

    it("another customer's or an unknown ticket: 400 SUPPORT_INQUIRY_LINK_INVALID", async () => {
      const other = await signedInCustomer(t);
      const theirs = await call('POST', '/api/mobile/support-requests', {
        headers: other.headers,
        payload: { category: 'other', subject: 'Theirs', message: 'x' },
      });
      const inquiry = await createCustomerInquiry(t, customer);
      for (const supportRequestId of [theirs.json().data.id, 999999]) {
        const res = await admin('POST', `/api/admin/support-inquiries/${inquiry.id}/link-support-request`, {
          supportRequestId,
        });
        expect(res.statusCode).toBe(400);
        expect(res.json().errorCode).toBe('SUPPORT_INQUIRY_LINK_INVALID');
      }
      const [row] = await db().select().from(supportInquiries).where(eq(supportInquiries.id, inquiry.id));
      expect(row).toMatchObject({ status: 'open', supportRequestId: null });
    });

    it('an inquiry without a customer: 400 SUPPORT_INQUIRY_SUPPORT_REQUEST_REQUIRED (both forms)', async () => {
      const g = await createGuestInquiry(t);
      for (const payload of [{ subject: 'x' }, { supportRequestId: 1 }]) {
        const res = await admin('POST', `/api/admin/support-inquiries/${g.id}/link-support-request`, payload);
        expect(res.statusCode).toBe(400);
        expect(res.json().errorCode).toBe('SUPPORT_INQUIRY_SUPPORT_REQUEST_REQUIRED');
      }
    });

    it('a body with both, neither or a blank subject is 400 VALIDATION_ERROR', async () => {
      const inquiry = await createCustomerInquiry(t, customer);
      for (const payload of [
        {},
        { subject: 'x', supportRequestId: 1 },
        { subject: '  ' },
        { supportRequestId: 'a' },
      ]) {
        const res = await admin(
          'POST',
          `/api/admin/support-inquiries/${inquiry.id}/link-support-request`,
          payload,
        );
        expect(res.statusCode).toBe(400);
        expect(res.json().errorCode).toBe('VALIDATION_ERROR');
      }
    });
  });

  describe('inactivity sweep', () => {
    it('closes open, active, waiting and resolved inquiries idle for 7 days; keeps the rest', async () => {
      const statuses = ['open', 'active', 'waiting', 'resolved', 'linked', 'spam'] as const;
      const idle: Record<string, number> = {};
      for (const status of statuses) {
        const g = await createGuestInquiry(t);
        if (status !== 'open')
          await admin('PATCH', `/api/admin/support-inquiries/${g.id}/status`, { status });
        idle[status] = g.id;
      }
      const fresh = await createGuestInquiry(t);
      const started = clock.now();
      try {
        clock.advance(7 * 86_400_000 - 60_000);
        // A visitor message a minute before the deadline keeps this one open.
        await call('POST', `/api/support-inquiries/${fresh.id}/messages`, {
          headers: fresh.headers,
          payload: { body: 'still here' },
        });
        clock.advance(120_000);
        const job = closeInactiveInquiriesJob({ db: db(), clock, days: 7 });
        await t.platform.jobs.enqueue(job, {});
        await t.drainJobs();

        const statusOf = async (id: number) =>
          (await db().select().from(supportInquiries).where(eq(supportInquiries.id, id)))[0]!;
        for (const status of ['open', 'active', 'waiting', 'resolved']) {
          const row = await statusOf(idle[status]!);
          expect(row.status, status).toBe('closed');
          expect(row.closedAt?.toISOString()).toBe(clock.now().toISOString());
          expect(row.updatedAt.toISOString()).toBe(clock.now().toISOString());
        }
        expect((await statusOf(idle.linked!)).status).toBe('linked');
        expect((await statusOf(idle.spam!)).status).toBe('spam');
        expect((await statusOf(fresh.id)).status).toBe('open');
      } finally {
        clock.set(started);
      }
    });

    it('is scheduled with SUPPORT_INQUIRIES_INACTIVE_CLOSE_CRON', () => {
      expect(t.platform.config.SUPPORT_INQUIRIES_INACTIVE_CLOSE_CRON).toBe('0 * * * *');
      expect(t.platform.config.SUPPORT_INQUIRIES_INACTIVE_CLOSE_DAYS).toBe(7);
    });
  });
});
