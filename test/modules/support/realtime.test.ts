// The support rooms over a real port with the real socket.io-client: join, leave, live
// delivery of messages written through REST, sync replay and gap, and every refusal.
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { eq, sql } from 'drizzle-orm';
import { type Socket as ClientSocket, io } from 'socket.io-client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { endSession } from '../../../src/modules/identity';
import { rolePermissions, roles, users } from '../../../src/modules/identity/identity.table';
import { supportInquiryAccessTokens } from '../../../src/modules/support/inquiries/inquiries.table';
import {
  createSupportEvents,
  inquiryRoom,
  requestRoom,
} from '../../../src/modules/support/realtime/support-events';
import { supportEventRooms, supportEvents } from '../../../src/modules/support/realtime/support-events.table';
import { purgeSupportEventsJob } from '../../../src/modules/support/realtime/support-realtime.jobs';
import { TestClock } from '../../../src/platform/clock';
import { inTransaction } from '../../../src/platform/db/transaction';
import { createTestApp, type TestApp } from '../../helpers/app';
import { type SignedIn, signedInAdmin, signedInCustomer } from '../../helpers/factories';
import { handshake } from '../../helpers/sockets';

const DAY = 86_400_000;
const unique = () => randomBytes(4).toString('hex');

const clients = new Set<ClientSocket>();
afterEach(() => {
  for (const client of clients) client.disconnect();
  clients.clear();
});

interface Answer {
  ok: boolean;
  errorCode?: string;
  room?: string;
  events?: Envelope[];
  latestEventId?: string | null;
  latestSeq?: number | null;
  gap?: boolean;
  hasMore?: boolean;
}
interface Envelope {
  eventId: string;
  eventType: string;
  occurredAt: string;
  seq: number;
  data: Record<string, unknown>;
}

describe('support realtime rooms', () => {
  let t: TestApp;
  let baseUrl: string;
  const clock = new TestClock(new Date());
  beforeAll(async () => {
    t = await createTestApp({ clock });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    baseUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  });
  afterAll(() => t.close());

  // ----- socket helpers -----
  function connect(token: unknown, opts: { reconnection?: boolean } = {}): ClientSocket {
    const client = io(`${baseUrl}/realtime`, {
      auth: token === undefined ? undefined : { token },
      transports: ['websocket'],
      reconnection: opts.reconnection ?? false,
      reconnectionDelay: 50,
      forceNew: true,
    });
    clients.add(client);
    return client;
  }
  async function connected(token: string): Promise<ClientSocket> {
    const client = connect(token);
    expect(await handshake(client)).toEqual({ connected: true });
    return client;
  }
  const call = (client: ClientSocket, event: string, payload?: unknown): Promise<Answer> =>
    client.timeout(5000).emitWithAck(event, payload);
  /** Every envelope `client` receives under `eventType`, in arrival order. */
  function record(client: ClientSocket, eventType: string): Envelope[] {
    const got: Envelope[] = [];
    client.on(eventType, (e: Envelope) => got.push(e));
    return got;
  }
  const until = (check: () => boolean) => expect.poll(check, { timeout: 5000, interval: 20 }).toBe(true);

  // ----- REST helpers (the writes whose events the rooms carry) -----
  async function openTicket(customer: SignedIn): Promise<number> {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/mobile/support-requests',
      headers: customer.headers,
      payload: { category: 'technical', subject: `Screen ${unique()}`, message: 'It flickers' },
    });
    expect(res.statusCode).toBe(201);
    return res.json().data.id;
  }
  async function customerReply(customer: SignedIn, id: number, body: string) {
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/mobile/support-requests/${id}/messages`,
      headers: customer.headers,
      payload: { body },
    });
    expect(res.statusCode).toBe(201);
  }
  async function adminTicketReply(admin: SignedIn, id: number, body: string) {
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/admin/support-requests/${id}/messages`,
      headers: admin.headers,
      payload: { body },
    });
    expect(res.statusCode).toBe(201);
  }
  /** An inquiry opened by a guest (token) or a signed-in customer. */
  async function openInquiry(customer?: SignedIn): Promise<{ id: number; token: string | undefined }> {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/support-inquiries',
      headers: customer?.headers ?? {},
      remoteAddress: `10.1.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`,
      payload: {
        category: 'order',
        subject: `Where is it ${unique()}`,
        message: 'Hello',
        guestName: 'Guest',
      },
    });
    expect(res.statusCode).toBe(201);
    return { id: res.json().data.id, token: res.json().data.inquiryAccessToken ?? undefined };
  }
  async function visitorMessage(credential: string, id: number, body: string) {
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/support-inquiries/${id}/messages`,
      headers: { authorization: `Bearer ${credential}` },
      remoteAddress: `10.2.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`,
      payload: { body },
    });
    expect(res.statusCode).toBe(201);
  }
  async function adminInquiryReply(admin: SignedIn, id: number, body: string) {
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/admin/support-inquiries/${id}/messages`,
      headers: admin.headers,
      payload: { body },
    });
    expect(res.statusCode).toBe(201);
  }
  const lastMessage = async (url: string, headers: Record<string, string>) => {
    const res = await t.app.inject({ method: 'GET', url, headers });
    expect(res.statusCode).toBe(200);
    return res.json().data.messages.at(-1);
  };

  const supportAdmin = () =>
    signedInAdmin(t, {
      permissions: [
        'SupportRequests_READ',
        'SupportRequests_UPDATE',
        'SupportInquiries_READ',
        'SupportInquiries_UPDATE',
      ],
    });

  describe('ticket rooms', () => {
    it('join answers the room and the latest event id; a reply reaches the owner and an admin, each in their view', async () => {
      const customer = await signedInCustomer(t);
      const admin = await supportAdmin();
      const id = await openTicket(customer);
      const [first] = await t.platform.database.db
        .select()
        .from(supportEvents)
        .where(eq(supportEvents.room, requestRoom(id)));
      expect(first).toMatchObject({ seq: 1, eventType: 'support.request_message.created' });

      const owner = await connected(customer.tokens.accessToken);
      const staff = await connected(admin.tokens.accessToken);
      expect(await call(owner, 'support:join_request_messages', { supportRequestId: id })).toEqual({
        ok: true,
        room: `support:request:${id}:messages`,
        latestEventId: first!.id,
        latestSeq: 1,
      });
      expect(await call(staff, 'support:join_request_messages', { supportRequestId: id })).toMatchObject({
        ok: true,
        room: `support:request:${id}:messages`,
        latestEventId: first!.id,
      });
      const toOwner = record(owner, 'support.request_message.created');
      const toStaff = record(staff, 'support.request_message.created');

      await adminTicketReply(admin, id, 'Have you tried turning it off and on?');
      await until(() => toOwner.length === 1 && toStaff.length === 1);

      const customerView = await lastMessage(`/api/mobile/support-requests/${id}`, customer.headers);
      const adminView = await lastMessage(`/api/admin/support-requests/${id}`, admin.headers);
      expect(adminView.authorAdminId).toBe(admin.userId);
      expect(toOwner[0]).toEqual({
        eventId: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-/),
        eventType: 'support.request_message.created',
        occurredAt: clock.now().toISOString(),
        seq: 2,
        data: customerView,
      });
      expect(toOwner[0]!.data).toMatchObject({ supportRequestId: id });
      expect(toOwner[0]!.data).not.toHaveProperty('authorAdminId');
      expect(toStaff[0]).toEqual({ ...toOwner[0], data: adminView });

      await customerReply(customer, id, 'Yes, twice');
      await until(() => toOwner.length === 2 && toStaff.length === 2);
      expect(toOwner.map((e) => e.seq)).toEqual([2, 3]);
      expect(toStaff[1]!.data).toMatchObject({ body: 'Yes, twice', authorCustomerId: customer.userId });
    });

    it('an event reaches only the sockets joined to its room', async () => {
      const a = await signedInCustomer(t);
      const ticketA = await openTicket(a);
      const ticketB = await openTicket(a);
      const inA = await connected(a.tokens.accessToken);
      const inB = await connected(a.tokens.accessToken);
      expect(await call(inA, 'support:join_request_messages', { supportRequestId: ticketA })).toMatchObject({
        ok: true,
      });
      expect(await call(inB, 'support:join_request_messages', { supportRequestId: ticketB })).toMatchObject({
        ok: true,
      });
      const gotB = record(inB, 'support.request_message.created');
      const gotA = record(inA, 'support.request_message.created');
      await customerReply(a, ticketA, 'for A');
      await customerReply(a, ticketB, 'for B');
      // Events reach a socket in emit order: B's socket would have seen A's event first.
      await until(() => gotB.length === 1 && gotA.length === 1);
      expect(gotB[0]!.data).toMatchObject({ supportRequestId: ticketB, body: 'for B' });
      expect(gotA[0]!.data).toMatchObject({ supportRequestId: ticketA, body: 'for A' });
    });

    it('after leave, the room sends nothing more', async () => {
      const customer = await signedInCustomer(t);
      const left = await openTicket(customer);
      const kept = await openTicket(customer);
      const client = await connected(customer.tokens.accessToken);
      await call(client, 'support:join_request_messages', { supportRequestId: left });
      await call(client, 'support:join_request_messages', { supportRequestId: kept });
      expect(await call(client, 'support:leave_request_messages', { supportRequestId: left })).toEqual({
        ok: true,
        room: `support:request:${left}:messages`,
      });
      const got = record(client, 'support.request_message.created');
      await customerReply(customer, left, 'nobody listens');
      await customerReply(customer, kept, 'marker');
      await until(() => got.length === 1);
      expect(got[0]!.data).toMatchObject({ supportRequestId: kept, body: 'marker' });
    });
  });

  describe('inquiry rooms', () => {
    it('a guest joins its own inquiry and hears the admin; the admin hears the guest, each in their view', async () => {
      const admin = await supportAdmin();
      const inquiry = await openInquiry();
      const guest = await connected(inquiry.token!);
      const staff = await connected(admin.tokens.accessToken);
      expect(
        await call(guest, 'support:join_inquiry_messages', { supportInquiryId: inquiry.id }),
      ).toMatchObject({
        ok: true,
        room: `support:inquiry:${inquiry.id}:messages`,
        latestEventId: expect.any(String),
      });
      expect(
        await call(staff, 'support:join_inquiry_messages', { supportInquiryId: inquiry.id }),
      ).toMatchObject({
        ok: true,
      });
      const toGuest = record(guest, 'support.inquiry_message.created');
      const toStaff = record(staff, 'support.inquiry_message.created');

      await adminInquiryReply(admin, inquiry.id, 'We are on it');
      await visitorMessage(inquiry.token!, inquiry.id, 'Thanks');
      await until(() => toGuest.length === 2 && toStaff.length === 2);

      const guestView = await lastMessage(`/api/support-inquiries/${inquiry.id}`, {
        authorization: `Bearer ${inquiry.token}`,
      });
      const adminView = await lastMessage(`/api/admin/support-inquiries/${inquiry.id}`, admin.headers);
      expect(toGuest[1]).toMatchObject({ eventType: 'support.inquiry_message.created', data: guestView });
      expect(toStaff[1]).toMatchObject({
        eventId: toGuest[1]!.eventId,
        seq: toGuest[1]!.seq,
        data: adminView,
      });
      expect(toGuest[1]!.data).toMatchObject({ supportInquiryId: inquiry.id, body: 'Thanks' });
      expect(toGuest[0]!.seq + 1).toBe(toGuest[1]!.seq);
      // The admin's id is for admins only.
      expect(JSON.stringify(toGuest[0]!.data)).not.toContain(admin.userId);
      expect(JSON.stringify(toStaff[0]!.data)).toContain(admin.userId);
    });

    it('a customer joins an inquiry linked to them', async () => {
      const customer = await signedInCustomer(t);
      const inquiry = await openInquiry(customer);
      const client = await connected(customer.tokens.accessToken);
      expect(
        await call(client, 'support:join_inquiry_messages', { supportInquiryId: inquiry.id }),
      ).toMatchObject({
        ok: true,
        room: inquiryRoom(inquiry.id),
      });
      const got = record(client, 'support.inquiry_message.created');
      await visitorMessage(customer.tokens.accessToken, inquiry.id, 'from my phone');
      await until(() => got.length === 1);
      expect(got[0]!.data).toMatchObject({ body: 'from my phone', supportInquiryId: inquiry.id });
    });
  });

  describe('refusals', () => {
    it('refuses every join and sync the REST routes would refuse, with their errorCode, and delivers nothing', async () => {
      const owner = await signedInCustomer(t);
      const stranger = await signedInCustomer(t);
      const ticket = await openTicket(owner);
      const guestInquiry = await openInquiry();
      const otherGuestInquiry = await openInquiry();
      const noPermissions = await signedInAdmin(t, { permissions: [] });
      const ticketsOnly = await signedInAdmin(t, { permissions: ['SupportRequests_READ'] });
      const inquiriesOnly = await signedInAdmin(t, { permissions: ['SupportInquiries_READ'] });

      const cases: Array<[string, string, string, Record<string, number>, string]> = [
        [
          'guest → ticket room',
          guestInquiry.token!,
          'request',
          { supportRequestId: ticket },
          'SUPPORT_INQUIRY_ACCESS_DENIED',
        ],
        [
          'guest → another inquiry',
          guestInquiry.token!,
          'inquiry',
          { supportInquiryId: otherGuestInquiry.id },
          'SUPPORT_INQUIRY_TOKEN_INVALID',
        ],
        [
          "customer → another's ticket",
          stranger.tokens.accessToken,
          'request',
          { supportRequestId: ticket },
          'SUPPORT_REQUEST_NOT_FOUND',
        ],
        [
          'customer → an unlinked inquiry',
          stranger.tokens.accessToken,
          'inquiry',
          { supportInquiryId: guestInquiry.id },
          'SUPPORT_INQUIRY_ACCESS_DENIED',
        ],
        [
          'customer → an unknown ticket',
          owner.tokens.accessToken,
          'request',
          { supportRequestId: 2_000_000_000 },
          'SUPPORT_REQUEST_NOT_FOUND',
        ],
        [
          'customer → an unknown inquiry',
          owner.tokens.accessToken,
          'inquiry',
          { supportInquiryId: 2_000_000_000 },
          'SUPPORT_INQUIRY_NOT_FOUND',
        ],
        [
          'admin without permission → ticket',
          noPermissions.tokens.accessToken,
          'request',
          { supportRequestId: ticket },
          'AUTH_PERMISSION_DENIED',
        ],
        [
          'admin without permission → inquiry',
          noPermissions.tokens.accessToken,
          'inquiry',
          { supportInquiryId: guestInquiry.id },
          'AUTH_PERMISSION_DENIED',
        ],
        [
          'admin with tickets only → inquiry',
          ticketsOnly.tokens.accessToken,
          'inquiry',
          { supportInquiryId: guestInquiry.id },
          'AUTH_PERMISSION_DENIED',
        ],
        [
          'admin with inquiries only → ticket',
          inquiriesOnly.tokens.accessToken,
          'request',
          { supportRequestId: ticket },
          'AUTH_PERMISSION_DENIED',
        ],
      ];
      const listeners: Array<{ name: string; got: Envelope[] }> = [];
      for (const [name, token, kind, payload, errorCode] of cases) {
        const client = await connected(token);
        expect([name, await call(client, `support:join_${kind}_messages`, payload)]).toEqual([
          name,
          { ok: false, errorCode },
        ]);
        expect([name, await call(client, `support:sync_${kind}_messages`, payload)]).toEqual([
          name,
          { ok: false, errorCode },
        ]);
        listeners.push({ name, got: record(client, `support.${kind}_message.created`) });
      }
      // Nothing leaks into a refused socket: the owner's own socket, joined last, sees the
      // reply, and events reach every socket of this process in the same order.
      const ownerSocket = await connected(owner.tokens.accessToken);
      await call(ownerSocket, 'support:join_request_messages', { supportRequestId: ticket });
      const ownerGot = record(ownerSocket, 'support.request_message.created');
      await customerReply(owner, ticket, 'private');
      await visitorMessage(guestInquiry.token!, guestInquiry.id, 'private too');
      await until(() => ownerGot.length === 1);
      await new Promise((r) => setTimeout(r, 100));
      expect(listeners.filter((l) => l.got.length > 0).map((l) => l.name)).toEqual([]);
    });

    it.each([
      ['no payload', undefined],
      ['a string', 'support:request:1:messages'],
      ['a missing id', {}],
      ['the other kind of id', { supportInquiryId: 1 }],
      ['an id as a string', { supportRequestId: '1' }],
      ['a zero id', { supportRequestId: 0 }],
      ['a fractional id', { supportRequestId: 1.5 }],
      ['an id beyond integer range', { supportRequestId: 2 ** 31 }],
    ])('answers VALIDATION_ERROR to %s', async (_case, payload) => {
      const customer = await signedInCustomer(t);
      const client = await connected(customer.tokens.accessToken);
      for (const event of ['join', 'leave', 'sync']) {
        expect(await call(client, `support:${event}_request_messages`, payload)).toEqual({
          ok: false,
          errorCode: 'VALIDATION_ERROR',
        });
      }
    });

    it('answers VALIDATION_ERROR to a bad sync position', async () => {
      const customer = await signedInCustomer(t);
      const id = await openTicket(customer);
      const client = await connected(customer.tokens.accessToken);
      for (const position of [
        { afterSeq: -1 },
        { afterSeq: '1' },
        { afterEventId: 'not-a-uuid' },
        { afterSeq: 1, afterEventId: '0190f2b4-7c1a-7000-8000-000000000000' },
      ]) {
        expect(
          await call(client, 'support:sync_request_messages', { supportRequestId: id, ...position }),
        ).toEqual({
          ok: false,
          errorCode: 'VALIDATION_ERROR',
        });
      }
    });

    it.each([
      ['a bad JWT', 'not-a-jwt', 'AUTH_UNAUTHORIZED'],
      ['no token', undefined, 'AUTH_UNAUTHORIZED'],
      ['an unknown guest token', `si_${'x'.repeat(43)}`, 'SUPPORT_INQUIRY_TOKEN_INVALID'],
    ])('refuses the handshake with %s', async (_case, token, refused) => {
      expect(await handshake(connect(token))).toEqual({ refused });
    });

    it('authenticates a reconnecting socket again: a revoked session cannot come back', async () => {
      const customer = await signedInCustomer(t);
      const client = connect(customer.tokens.accessToken, { reconnection: true });
      expect(await handshake(client)).toEqual({ connected: true });
      await endSession({
        authenticator: t.platform.authenticator,
        db: t.platform.database.db,
        clock,
        sessionId: customer.tokens.sessionId,
      });
      const refusal = new Promise<string>((resolve) =>
        client.once('connect_error', (e) => resolve(e.message)),
      );
      client.io.engine.close(); // the network drops; the client reconnects on its own
      expect(await refusal).toBe('AUTH_UNAUTHORIZED');
    });

    it('a session revoked after the handshake joins and syncs nothing more', async () => {
      const customer = await signedInCustomer(t);
      const ticket = await openTicket(customer);
      const client = await connected(customer.tokens.accessToken);
      expect(await call(client, 'support:join_request_messages', { supportRequestId: ticket })).toMatchObject(
        {
          ok: true,
        },
      );
      await endSession({
        authenticator: t.platform.authenticator,
        db: t.platform.database.db,
        clock,
        sessionId: customer.tokens.sessionId,
      });
      for (const event of ['join', 'sync']) {
        expect(await call(client, `support:${event}_request_messages`, { supportRequestId: ticket })).toEqual(
          {
            ok: false,
            errorCode: 'AUTH_UNAUTHORIZED',
          },
        );
      }
    });

    it('a guest token revoked after the handshake joins nothing more', async () => {
      const inquiry = await openInquiry();
      const client = await connected(inquiry.token!);
      await t.platform.database.db
        .update(supportInquiryAccessTokens)
        .set({ revokedAt: clock.now() })
        .where(eq(supportInquiryAccessTokens.supportInquiryId, inquiry.id));
      expect(await call(client, 'support:join_inquiry_messages', { supportInquiryId: inquiry.id })).toEqual({
        ok: false,
        errorCode: 'SUPPORT_INQUIRY_TOKEN_INVALID',
      });
    });

    it("an admin's permissions are read at each join, not at the handshake", async () => {
      const customer = await signedInCustomer(t);
      const ticket = await openTicket(customer);
      const admin = await signedInAdmin(t, { permissions: ['SupportRequests_READ'] });
      const client = await connected(admin.tokens.accessToken);
      expect(await call(client, 'support:join_request_messages', { supportRequestId: ticket })).toMatchObject(
        {
          ok: true,
        },
      );
      // The admin's role loses the permission while the socket stays connected.
      const [role] = await t.platform.database.db
        .select({ id: roles.id })
        .from(roles)
        .innerJoin(users, eq(users.role, roles.name))
        .where(eq(users.id, admin.userId));
      await t.platform.database.db.delete(rolePermissions).where(eq(rolePermissions.roleId, role!.id));
      expect(await call(client, 'support:join_request_messages', { supportRequestId: ticket })).toEqual({
        ok: false,
        errorCode: 'AUTH_PERMISSION_DENIED',
      });
    });

    it('a reconnected socket is in no room until it joins again', async () => {
      const customer = await signedInCustomer(t);
      const ticket = await openTicket(customer);
      const client = connect(customer.tokens.accessToken, { reconnection: true });
      expect(await handshake(client)).toEqual({ connected: true });
      await call(client, 'support:join_request_messages', { supportRequestId: ticket });
      const reconnected = new Promise<void>((resolve) => client.io.once('reconnect', () => resolve()));
      client.io.engine.close();
      await reconnected;
      const got = record(client, 'support.request_message.created');
      await customerReply(customer, ticket, 'while away');
      await new Promise((r) => setTimeout(r, 150));
      expect(got).toEqual([]);
      // Sync is how it catches up.
      const answer = await call(client, 'support:sync_request_messages', {
        supportRequestId: ticket,
        afterSeq: 1,
      });
      expect(answer).toMatchObject({
        ok: true,
        gap: false,
        events: [{ seq: 2, data: { body: 'while away' } }],
      });
    });
  });

  describe('sync', () => {
    /** Makes the room's events look `ms` older (tokens keep working, unlike moving the clock). */
    const ageEvents = (ticketId: number, ms: number) =>
      t.platform.database.db
        .update(supportEvents)
        .set({ occurredAt: sql`${supportEvents.occurredAt} - make_interval(secs => ${ms / 1000})` })
        .where(eq(supportEvents.room, requestRoom(ticketId)));
    /** The daily purge job, run now through the app's queue with the app's retention. */
    const purge = async () => {
      const { database, config } = t.platform;
      const job = purgeSupportEventsJob({
        db: database.db,
        clock,
        retentionDays: config.SUPPORT_EVENTS_RETENTION_DAYS,
      });
      await t.platform.jobs.enqueue(job, {});
      await t.drainJobs();
    };

    it('replays what came after a seq or an event id, in order, in the reader’s view', async () => {
      const customer = await signedInCustomer(t);
      const admin = await supportAdmin();
      const id = await openTicket(customer);
      await adminTicketReply(admin, id, 'one');
      await customerReply(customer, id, 'two');
      await adminTicketReply(admin, id, 'three');
      const client = await connected(customer.tokens.accessToken);
      const staff = await connected(admin.tokens.accessToken);

      const all = await call(client, 'support:sync_request_messages', { supportRequestId: id });
      expect(all).toMatchObject({ ok: true, gap: false, hasMore: false, latestSeq: 4 });
      const events = all.events!;
      expect(events.map((e) => [e.seq, e.data.body])).toEqual([
        [1, 'It flickers'],
        [2, 'one'],
        [3, 'two'],
        [4, 'three'],
      ]);
      expect(all.latestEventId).toBe(events[3]!.eventId);
      expect(events[1]).toEqual({
        eventId: expect.any(String),
        eventType: 'support.request_message.created',
        occurredAt: expect.any(String),
        seq: 2,
        data: expect.not.objectContaining({ authorAdminId: expect.anything() }),
      });

      const afterSeq = await call(client, 'support:sync_request_messages', {
        supportRequestId: id,
        afterSeq: 2,
      });
      expect(afterSeq.events!.map((e) => e.seq)).toEqual([3, 4]);
      const afterId = await call(client, 'support:sync_request_messages', {
        supportRequestId: id,
        afterEventId: events[1]!.eventId,
      });
      expect(afterId).toEqual({ ...afterSeq });
      const upToDate = await call(client, 'support:sync_request_messages', {
        supportRequestId: id,
        afterSeq: 4,
      });
      expect(upToDate).toMatchObject({ ok: true, events: [], gap: false, latestSeq: 4 });

      const staffView = await call(staff, 'support:sync_request_messages', {
        supportRequestId: id,
        afterSeq: 1,
      });
      expect(staffView.events![0]!.data).toMatchObject({
        body: 'one',
        authorAdminId: admin.userId,
      });
    });

    it('reports a gap when the events after the position were purged, and replays what is kept', async () => {
      const customer = await signedInCustomer(t);
      const id = await openTicket(customer); // seq 1
      await customerReply(customer, id, 'old'); // seq 2
      const client = await connected(customer.tokens.accessToken);
      const before = (await call(client, 'support:sync_request_messages', { supportRequestId: id })) as {
        events: Envelope[];
      };
      const [oldest, old] = before.events;

      await ageEvents(id, t.platform.config.SUPPORT_EVENTS_RETENTION_DAYS * DAY + 60_000);
      await customerReply(customer, id, 'new'); // seq 3
      await purge();
      const kept = await t.platform.database.db
        .select()
        .from(supportEvents)
        .where(eq(supportEvents.room, requestRoom(id)));
      expect(kept.map((e) => e.seq)).toEqual([3]);

      const expectSync = async (position: Record<string, unknown>, gap: boolean) => {
        const answer = await call(client, 'support:sync_request_messages', {
          supportRequestId: id,
          ...position,
        });
        expect([position, answer]).toMatchObject([
          position,
          { ok: true, gap, events: [{ seq: 3, data: { body: 'new' } }] },
        ]);
        expect(answer.events).toHaveLength(1);
      };
      await expectSync({}, true);
      await expectSync({ afterSeq: 1 }, true);
      await expectSync({ afterEventId: oldest!.eventId }, true);
      // Right after the last purged event nothing is missing.
      await expectSync({ afterSeq: 2 }, false);
      expect(old!.seq).toBe(2);
      // A seq the room never reached, or an id it does not keep: the client cannot trust its state.
      const ahead = await call(client, 'support:sync_request_messages', {
        supportRequestId: id,
        afterSeq: 99,
      });
      expect(ahead).toMatchObject({ ok: true, gap: true, events: [{ seq: 3 }] });
      await expectSync({ afterEventId: '0190f2b4-7c1a-7000-8000-000000000000' }, true);

      // Join still answers the latest kept event; a room whose events are all purged keeps counting.
      expect(await call(client, 'support:join_request_messages', { supportRequestId: id })).toMatchObject({
        latestEventId: kept[0]!.id,
        latestSeq: 3,
      });
    });

    it('answers at most 200 events with hasMore, and the client pages on from the last seq', async () => {
      const customer = await signedInCustomer(t);
      const id = await openTicket(customer);
      const events = createSupportEvents({ realtime: t.platform.realtime, clock });
      await inTransaction(t.platform.database.db, async (tx, afterCommit) => {
        for (let i = 0; i < 250; i++) {
          await events.publishMessage(tx, afterCommit, {
            room: requestRoom(id),
            eventType: 'support.request_message.created',
            forAdmin: { n: i },
            forVisitor: { n: i },
          });
        }
      });
      const client = await connected(customer.tokens.accessToken);
      const first = await call(client, 'support:sync_request_messages', { supportRequestId: id });
      expect(first).toMatchObject({ ok: true, gap: false, hasMore: true, latestSeq: 251 });
      expect(first.events!.map((e) => e.seq)).toEqual(Array.from({ length: 200 }, (_, i) => i + 1));
      const rest = await call(client, 'support:sync_request_messages', {
        supportRequestId: id,
        afterSeq: 200,
      });
      expect(rest).toMatchObject({ ok: true, gap: false, hasMore: false });
      expect(rest.events!.map((e) => e.seq)).toEqual(Array.from({ length: 51 }, (_, i) => i + 201));
    });

    it('a room whose every event was purged reports the gap and continues its sequence', async () => {
      const customer = await signedInCustomer(t);
      const id = await openTicket(customer);
      await ageEvents(id, 8 * DAY);
      await purge();
      const client = await connected(customer.tokens.accessToken);
      expect(await call(client, 'support:sync_request_messages', { supportRequestId: id })).toEqual({
        ok: true,
        events: [],
        latestEventId: null,
        latestSeq: null,
        gap: true,
        hasMore: false,
      });
      expect(
        await call(client, 'support:sync_request_messages', { supportRequestId: id, afterSeq: 1 }),
      ).toMatchObject({
        gap: false,
        events: [],
      });
      await customerReply(customer, id, 'again');
      const answer = await call(client, 'support:sync_request_messages', {
        supportRequestId: id,
        afterSeq: 1,
      });
      expect(answer).toMatchObject({ gap: false, events: [{ seq: 2, data: { body: 'again' } }] });
    });
  });

  describe('publishing', () => {
    it('a write that rolls back emits nothing, stores nothing and consumes no seq', async () => {
      const customer = await signedInCustomer(t);
      const id = await openTicket(customer);
      const client = await connected(customer.tokens.accessToken);
      await call(client, 'support:join_request_messages', { supportRequestId: id });
      const got = record(client, 'support.request_message.created');
      const events = createSupportEvents({ realtime: t.platform.realtime, clock });
      await expect(
        inTransaction(t.platform.database.db, async (tx, afterCommit) => {
          await events.publishMessage(tx, afterCommit, {
            room: requestRoom(id),
            eventType: 'support.request_message.created',
            forAdmin: { body: 'never' },
            forVisitor: { body: 'never' },
          });
          throw new Error('the write fails after publishing');
        }),
      ).rejects.toThrow('the write fails');
      await customerReply(customer, id, 'marker');
      await until(() => got.length === 1);
      expect(got[0]).toMatchObject({ seq: 2, data: { body: 'marker' } });
      const [counter] = await t.platform.database.db
        .select()
        .from(supportEventRooms)
        .where(eq(supportEventRooms.room, requestRoom(id)));
      expect(counter!.lastSeq).toBe(2);
    });
  });
});
