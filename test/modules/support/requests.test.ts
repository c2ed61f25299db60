// Support requests (tickets): the customer's routes, the back office's routes, status
// coupling, notifications of admin replies.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { supportEvents } from '../../../src/modules/support/realtime/support-events.table';
import { supportRequests } from '../../../src/modules/support/requests/requests.table';
import { TestClock } from '../../../src/platform/clock';
import { createTestApp, type TestApp } from '../../helpers/app';
import { type SignedIn, signedInAdmin, signedInCustomer } from '../../helpers/factories';
import { activityOf, caller, createGuestInquiry, expectAdminGuarded } from './support-helpers';

describe('support requests', () => {
  let t: TestApp;
  let call: ReturnType<typeof caller>;
  let customer: SignedIn;
  let other: SignedIn;
  let reader: SignedIn;
  let agent: SignedIn;
  let auditor: SignedIn;
  const clock = new TestClock(new Date());
  beforeAll(async () => {
    t = await createTestApp({ clock });
    call = caller(t);
    customer = await signedInCustomer(t, { name: 'Bikash' });
    other = await signedInCustomer(t);
    reader = await signedInAdmin(t, { permissions: ['SupportRequests_READ'] });
    agent = await signedInAdmin(t, { permissions: ['SupportRequests_READ', 'SupportRequests_UPDATE'] });
    auditor = await signedInAdmin(t, { superadmin: true });
  });
  afterAll(() => t.close());
  const db = () => t.platform.database.db;
  const admin = (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: unknown) =>
    call(method, url, { headers: agent.headers, payload });

  async function openTicket(who: SignedIn = customer, body: Record<string, unknown> = {}) {
    const res = await call('POST', '/api/mobile/support-requests', {
      headers: who.headers,
      payload: { category: 'technical', subject: 'App crashes', message: 'On launch', ...body },
    });
    expect(res.statusCode).toBe(201);
    return res.json().data as { id: number; status: string };
  }
  const setStatus = (id: number, body: Record<string, unknown>) =>
    admin('PATCH', `/api/admin/support-requests/${id}/status`, body);

  describe('customer routes', () => {
    it('POST creates the ticket with its first message (201), customer view without admin ids', async () => {
      const res = await call('POST', '/api/mobile/support-requests', {
        headers: customer.headers,
        payload: { category: 'payment', subject: ' Double charge ', message: ' twice ' },
      });
      expect(res.statusCode).toBe(201);
      const data = res.json().data;
      expect(data).toMatchObject({
        customerId: customer.userId,
        category: 'payment',
        subject: 'Double charge',
        status: 'open',
        isAssigned: false,
        resolutionNote: null,
        resolvedAt: null,
        closedAt: null,
        lastAdminMessageAt: null,
        lastCustomerMessageAt: data.createdAt,
      });
      expect(data).not.toHaveProperty('assignedAdminId');
      expect(data.messages).toEqual([
        {
          id: expect.any(Number),
          supportRequestId: data.id,
          authorType: 'customer',
          authorName: 'Bikash',
          body: 'twice',
          createdAt: data.createdAt,
        },
      ]);
      const events = await db()
        .select()
        .from(supportEvents)
        .where(eq(supportEvents.room, `support:request:${data.id}:messages`));
      expect(events).toHaveLength(1);
      expect(events[0]!.eventType).toBe('support.request_message.created');
    });

    it('validates the body; needs a customer JWT', async () => {
      for (const payload of [
        { category: 'product', subject: 'x', message: 'y' },
        { category: 'other', subject: ' ', message: 'y' },
        { category: 'other', subject: 'x' },
      ]) {
        const res = await call('POST', '/api/mobile/support-requests', {
          headers: customer.headers,
          payload,
        });
        expect(res.statusCode).toBe(400);
        expect(res.json().errorCode).toBe('VALIDATION_ERROR');
      }
      const payload = { category: 'other', subject: 'x', message: 'y' };
      expect((await call('POST', '/api/mobile/support-requests', { payload })).statusCode).toBe(401);
      const asAdmin = await call('POST', '/api/mobile/support-requests', { headers: agent.headers, payload });
      expect(asAdmin.statusCode).toBe(403);
      expect(asAdmin.json().errorCode).toBe('AUTH_FORBIDDEN');
      const g = await createGuestInquiry(t);
      const asGuest = await call('GET', '/api/mobile/support-requests', { headers: g.headers });
      expect(asGuest.statusCode).toBe(401);
    });

    it('lists only own tickets with status filter and pagination', async () => {
      const me = await signedInCustomer(t);
      const a = await openTicket(me);
      const b = await openTicket(me);
      await openTicket(other);
      await setStatus(b.id, { status: 'in_progress' });
      const res = await call('GET', '/api/mobile/support-requests?size=1', { headers: me.headers });
      expect(res.statusCode).toBe(200);
      expect(res.json().meta).toEqual({ count: 2, page: 1, size: 1 });
      const filtered = await call('GET', '/api/mobile/support-requests?status=in_progress&pagination=false', {
        headers: me.headers,
      });
      expect(filtered.json()).toMatchObject({ meta: { count: 1 }, data: [{ id: b.id, isAssigned: false }] });
      const asc = await call('GET', '/api/mobile/support-requests?sort=createdAt&order=asc', {
        headers: me.headers,
      });
      expect(asc.json().data.map((r: { id: number }) => r.id)).toEqual([a.id, b.id]);
      const bad = await call('GET', '/api/mobile/support-requests?status=pending', { headers: me.headers });
      expect(bad.statusCode).toBe(400);
    });

    it("another customer's or an unknown ticket: 404 SUPPORT_REQUEST_NOT_FOUND (detail and reply)", async () => {
      const theirs = await openTicket(other);
      for (const [method, url, payload] of [
        ['GET', `/api/mobile/support-requests/${theirs.id}`],
        ['POST', `/api/mobile/support-requests/${theirs.id}/messages`, { body: 'hi' }],
        ['GET', '/api/mobile/support-requests/999999'],
      ] as const) {
        const res = await call(method, url, { headers: customer.headers, payload });
        expect(res.statusCode, url).toBe(404);
        expect(res.json().errorCode).toBe('SUPPORT_REQUEST_NOT_FOUND');
      }
      for (const [method, url, payload] of [
        ['GET', '/api/mobile/support-requests/0'],
        ['POST', '/api/mobile/support-requests/abc/messages', { body: 'hi' }],
      ] as const) {
        const badId = await call(method, url, { headers: customer.headers, payload });
        expect(badId.statusCode, url).toBe(400);
        expect(badId.json().errorCode).toBe('VALIDATION_ERROR');
      }
    });

    it('a reply (201) reopens a resolved ticket, clearing resolvedAt and the note; other statuses stay', async () => {
      const ticket = await openTicket();
      await setStatus(ticket.id, { status: 'resolved', resolutionNote: 'Reinstall' });
      clock.advance(1000);
      const res = await call('POST', `/api/mobile/support-requests/${ticket.id}/messages`, {
        headers: customer.headers,
        payload: { body: 'Still broken' },
      });
      expect(res.statusCode).toBe(201);
      expect(res.json().data).toMatchObject({
        status: 'open',
        resolvedAt: null,
        resolutionNote: null,
        lastCustomerMessageAt: clock.now().toISOString(),
      });
      expect(res.json().data.messages).toHaveLength(2);

      await setStatus(ticket.id, { status: 'in_progress' });
      const again = await call('POST', `/api/mobile/support-requests/${ticket.id}/messages`, {
        headers: customer.headers,
        payload: { body: 'any news?' },
      });
      expect(again.json().data.status).toBe('in_progress');
    });

    it('a closed ticket refuses replies: 400 SUPPORT_REQUEST_CLOSED; a blank body is 400', async () => {
      const ticket = await openTicket();
      const blank = await call('POST', `/api/mobile/support-requests/${ticket.id}/messages`, {
        headers: customer.headers,
        payload: { body: '  ' },
      });
      expect(blank.statusCode).toBe(400);
      expect(blank.json().errorCode).toBe('VALIDATION_ERROR');
      await setStatus(ticket.id, { status: 'closed' });
      const res = await call('POST', `/api/mobile/support-requests/${ticket.id}/messages`, {
        headers: customer.headers,
        payload: { body: 'hello?' },
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().errorCode).toBe('SUPPORT_REQUEST_CLOSED');
    });
  });

  describe('admin routes', () => {
    it('guards every route', async () => {
      const ticket = await openTicket();
      await expectAdminGuarded(t, customer, 'GET', '/api/admin/support-requests', 'SupportRequests_READ');
      await expectAdminGuarded(
        t,
        customer,
        'GET',
        `/api/admin/support-requests/${ticket.id}`,
        'SupportRequests_READ',
      );
      for (const [method, path, payload] of [
        ['PATCH', 'status', { status: 'in_progress' }],
        ['PATCH', 'assign', { assignedAdminId: null }],
        ['POST', 'messages', { body: 'x' }],
      ] as const) {
        const url = `/api/admin/support-requests/${ticket.id}/${path}`;
        await expectAdminGuarded(t, customer, method, url, 'SupportRequests_UPDATE', payload);
        const readOnly = await call(method, url, { headers: reader.headers, payload });
        expect(readOnly.statusCode).toBe(403);
      }
    });

    it('unknown ids are 404 SUPPORT_REQUEST_NOT_FOUND', async () => {
      for (const [method, path, payload] of [
        ['GET', '', undefined],
        ['PATCH', '/status', { status: 'in_progress' }],
        ['PATCH', '/assign', { assignedAdminId: null }],
        ['POST', '/messages', { body: 'x' }],
      ] as const) {
        const res = await admin(method, `/api/admin/support-requests/999999${path}`, payload);
        expect(res.statusCode, path).toBe(404);
        expect(res.json().errorCode).toBe('SUPPORT_REQUEST_NOT_FOUND');
        const badId = await admin(method, `/api/admin/support-requests/x${path}`, payload);
        expect(badId.statusCode, path).toBe(400);
        expect(badId.json().errorCode).toBe('VALIDATION_ERROR');
      }
    });

    it('lists with status, category, customerId, assignedAdminId and subject search', async () => {
      const tag = `tk${Date.now()}`;
      const a = await openTicket(customer, { subject: `Login ${tag}`, category: 'account' });
      const b = await openTicket(other, { subject: `Pay ${tag}`, category: 'payment' });
      await admin('PATCH', `/api/admin/support-requests/${b.id}/assign`, { assignedAdminId: agent.userId });
      await setStatus(a.id, { status: 'in_progress' });
      const ids = async (query: string) => {
        const res = await call('GET', `/api/admin/support-requests?${query}`, { headers: reader.headers });
        expect(res.statusCode, query).toBe(200);
        return res.json().data.map((r: { id: number }) => r.id);
      };
      expect(await ids(`search=${tag}&sort=createdAt&order=asc`)).toEqual([a.id, b.id]);
      expect(await ids(`search=${tag}&status=in_progress`)).toEqual([a.id]);
      expect(await ids(`search=${tag}&category=payment`)).toEqual([b.id]);
      expect(await ids(`search=${tag}&customerId=${other.userId}`)).toEqual([b.id]);
      expect(await ids(`search=${tag}&assignedAdminId=${agent.userId}`)).toEqual([b.id]);
      expect(await ids(`search=LOGIN ${tag}`)).toEqual([a.id]);
      const page = await call('GET', `/api/admin/support-requests?search=${tag}&size=1&page=2`, {
        headers: reader.headers,
      });
      expect(page.json().meta).toEqual({ count: 2, page: 2, size: 1 });
      expect(page.json().data[0]).toHaveProperty('assignedAdminId');
      const all = await call('GET', `/api/admin/support-requests?search=${tag}&pagination=false`, {
        headers: reader.headers,
      });
      expect(all.json().meta).toEqual({ count: 2 });
      const bad = await call('GET', '/api/admin/support-requests?category=product', {
        headers: reader.headers,
      });
      expect(bad.statusCode).toBe(400);
    });

    it("names each ticket's customer by the account's current name (customerName), list and detail", async () => {
      const tag = `nm${Date.now()}`;
      const ticket = await openTicket(customer, { subject: `Name ${tag}` });
      const list = await call('GET', `/api/admin/support-requests?search=${tag}`, {
        headers: reader.headers,
      });
      expect(list.json().data).toMatchObject([{ id: ticket.id, customerName: 'Bikash' }]);
      const detail = await call('GET', `/api/admin/support-requests/${ticket.id}`, {
        headers: reader.headers,
      });
      expect(detail.json().data).toMatchObject({ customerId: customer.userId, customerName: 'Bikash' });
      const mine = await call('GET', `/api/mobile/support-requests/${ticket.id}`, {
        headers: customer.headers,
      });
      expect(mine.statusCode, mine.body).toBe(200);
      expect(mine.json().data).not.toHaveProperty('customerName');
    });

    it('detail shows the assigned admin and internal author ids', async () => {
      const ticket = await openTicket();
      await admin('POST', `/api/admin/support-requests/${ticket.id}/messages`, { body: 'Looking' });
      const res = await call('GET', `/api/admin/support-requests/${ticket.id}`, { headers: reader.headers });
      expect(res.statusCode).toBe(200);
      expect(res.json().data.messages).toMatchObject([
        { authorType: 'customer', authorCustomerId: customer.userId, authorAdminId: null },
        {
          authorType: 'admin',
          authorCustomerId: null,
          authorAdminId: agent.userId,
          authorName: 'Test Admin',
        },
      ]);
      const mine = await call('GET', `/api/mobile/support-requests/${ticket.id}`, {
        headers: customer.headers,
      });
      expect(JSON.stringify(mine.json().data)).not.toContain(agent.userId);
    });

    it('status couples resolvedAt, closedAt and the resolution note', async () => {
      const ticket = await openTicket();
      const at = () => clock.now().toISOString();
      clock.advance(1000);
      let res = await setStatus(ticket.id, { status: 'resolved', resolutionNote: 'Fixed in 2.1' });
      expect(res.statusCode).toBe(200);
      const resolvedAt = at();
      expect(res.json().data).toMatchObject({
        status: 'resolved',
        resolvedAt,
        closedAt: null,
        resolutionNote: 'Fixed in 2.1',
      });
      clock.advance(1000);
      res = await setStatus(ticket.id, { status: 'closed' });
      expect(res.json().data).toMatchObject({
        status: 'closed',
        resolvedAt,
        closedAt: at(),
        resolutionNote: 'Fixed in 2.1',
      });
      clock.advance(1000);
      res = await setStatus(ticket.id, { status: 'closed', resolutionNote: 'Closed for good' });
      expect(res.json().data.resolutionNote).toBe('Closed for good');
      res = await setStatus(ticket.id, { status: 'open' });
      expect(res.json().data).toMatchObject({
        status: 'open',
        resolvedAt: null,
        closedAt: null,
        resolutionNote: null,
      });
      clock.advance(1000);
      res = await setStatus(ticket.id, { status: 'closed' });
      expect(res.json().data).toMatchObject({ resolvedAt: null, closedAt: at() });
      clock.advance(1000);
      res = await setStatus(ticket.id, { status: 'resolved' });
      expect(res.json().data).toMatchObject({
        status: 'resolved',
        resolvedAt: at(),
        closedAt: null,
        resolutionNote: null,
      });
      res = await setStatus(ticket.id, { status: 'in_progress' });
      expect(res.json().data).toMatchObject({ closedAt: null, resolvedAt: null });
      const activity = await activityOf(t, auditor, 'support_request', ticket.id);
      expect(activity).toHaveLength(7);
      expect(activity[0]).toMatchObject({
        adminId: agent.userId,
        action: 'update_status',
        summary: `Support request #${ticket.id}: status resolved → in_progress`,
      });
    });

    it('a resolution note with another status is 400 SUPPORT_REQUEST_RESOLUTION_NOTE_INVALID', async () => {
      const ticket = await openTicket();
      for (const status of ['open', 'in_progress']) {
        const res = await setStatus(ticket.id, { status, resolutionNote: 'nope' });
        expect(res.statusCode).toBe(400);
        expect(res.json().errorCode).toBe('SUPPORT_REQUEST_RESOLUTION_NOTE_INVALID');
      }
      const bad = await setStatus(ticket.id, { status: 'pending' });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().errorCode).toBe('VALIDATION_ERROR');
      const [row] = await db().select().from(supportRequests).where(eq(supportRequests.id, ticket.id));
      expect(row!.status).toBe('open');
    });

    it('assign sets or clears the admin (customer sees isAssigned), refuses non-admins', async () => {
      const ticket = await openTicket();
      const res = await admin('PATCH', `/api/admin/support-requests/${ticket.id}/assign`, {
        assignedAdminId: reader.userId,
      });
      expect(res.statusCode).toBe(200);
      expect(res.json().data.assignedAdminId).toBe(reader.userId);
      const mine = await call('GET', `/api/mobile/support-requests/${ticket.id}`, {
        headers: customer.headers,
      });
      expect(mine.json().data.isAssigned).toBe(true);
      const cleared = await admin('PATCH', `/api/admin/support-requests/${ticket.id}/assign`, {
        assignedAdminId: null,
      });
      expect(cleared.json().data.assignedAdminId).toBeNull();
      for (const payload of [{ assignedAdminId: customer.userId }, { assignedAdminId: 'x' }, {}]) {
        const bad = await admin('PATCH', `/api/admin/support-requests/${ticket.id}/assign`, payload);
        expect(bad.statusCode).toBe(400);
        expect(bad.json().errorCode).toBe('VALIDATION_ERROR');
      }
      const activity = await activityOf(t, auditor, 'support_request', ticket.id);
      expect(activity.map((a) => a.action)).toEqual(['unassign', 'assign']);
      expect(activity.map((a) => a.summary)).toEqual([
        `Support request #${ticket.id} unassigned`,
        expect.stringMatching(new RegExp(`^Support request #${ticket.id} assigned to [0-9a-f-]{36}$`)),
      ]);
    });

    it('reply (201) stamps lastAdminMessageAt, notifies the customer, records activity; closed refuses', async () => {
      const ticket = await openTicket();
      clock.advance(1000);
      const res = await admin('POST', `/api/admin/support-requests/${ticket.id}/messages`, {
        body: 'Try again now',
      });
      expect(res.statusCode).toBe(201);
      expect(res.json().data).toMatchObject({
        status: 'open',
        lastAdminMessageAt: clock.now().toISOString(),
      });
      const inbox = await call('GET', '/api/mobile/notifications', { headers: customer.headers });
      expect(inbox.statusCode).toBe(200);
      expect(inbox.json().data[0]).toMatchObject({
        type: 'support.request_reply',
        data: { supportRequestId: ticket.id },
      });
      const activity = await activityOf(t, auditor, 'support_request', ticket.id);
      expect(activity[0]).toMatchObject({ action: 'reply', adminId: agent.userId });
      const events = await db()
        .select()
        .from(supportEvents)
        .where(eq(supportEvents.room, `support:request:${ticket.id}:messages`));
      expect(events.map((e) => e.seq)).toEqual([1, 2]);
      expect(events[1]!.dataForVisitor).not.toHaveProperty('authorAdminId');

      await setStatus(ticket.id, { status: 'closed' });
      const refused = await admin('POST', `/api/admin/support-requests/${ticket.id}/messages`, {
        body: 'late',
      });
      expect(refused.statusCode).toBe(400);
      expect(refused.json().errorCode).toBe('SUPPORT_REQUEST_CLOSED');
      const blank = await admin('POST', `/api/admin/support-requests/${ticket.id}/messages`, { body: '' });
      expect(blank.statusCode).toBe(400);
      expect(blank.json().errorCode).toBe('VALIDATION_ERROR');
    });
  });
});
