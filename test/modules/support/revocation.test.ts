// Guest tokens end, and their sockets with them (docs/decisions.md, "Realtime revocation"):
// `POST /api/admin/support-inquiries/:id/revoke-token`, the token's expiry, the periodic
// recheck that backs up both, and a revocation on one API process closing a socket on another.
import { randomInt } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { type Socket as ClientSocket, io } from 'socket.io-client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { endSession } from '../../../src/modules/identity';
import { supportInquiryAccessTokens } from '../../../src/modules/support/inquiries/inquiries.table';
import { createTestApp, type TestApp } from '../../helpers/app';
import { type SignedIn, signedInAdmin, signedInCustomer } from '../../helpers/factories';
import { servicesTier } from '../../helpers/services';
import { handshake } from '../../helpers/sockets';
import {
  activityOf,
  caller,
  createCustomerInquiry,
  createGuestInquiry,
  expectAdminGuarded,
  type GuestInquiry,
} from './support-helpers';

const EVENT = 'support.inquiry_message.created';
const newIp = () => `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;

const clients = new Set<ClientSocket>();
afterEach(() => {
  for (const client of clients) client.disconnect();
  clients.clear();
});

async function listen(t: TestApp): Promise<string> {
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
}

interface Watched {
  client: ClientSocket;
  disconnected: Promise<string>;
  events: unknown[];
}

/** A socket of `token` on `baseUrl`, joined to the inquiry's room, recording its events. */
async function joined(baseUrl: string, token: string, inquiryId: number): Promise<Watched> {
  const client = io(`${baseUrl}/realtime`, {
    auth: { token },
    transports: ['websocket'],
    reconnection: false,
    forceNew: true,
  });
  clients.add(client);
  expect(await handshake(client)).toEqual({ connected: true });
  const answer = await client
    .timeout(5000)
    .emitWithAck('support:join_inquiry_messages', { supportInquiryId: inquiryId });
  expect(answer).toMatchObject({ ok: true });
  const events: unknown[] = [];
  client.on(EVENT, (e) => events.push(e));
  const disconnected = new Promise<string>((resolve) => client.once('disconnect', resolve));
  return { client, disconnected, events };
}

/** The server's disconnect within `ms`. */
const closedWithin = (watched: Watched, ms: number) =>
  Promise.race([
    watched.disconnected,
    new Promise((resolve) => setTimeout(() => resolve(`still connected after ${ms} ms`), ms)),
  ]);

async function adminReply(t: TestApp, admin: SignedIn, inquiryId: number, body: string) {
  const res = await caller(t)('POST', `/api/admin/support-inquiries/${inquiryId}/messages`, {
    headers: admin.headers,
    payload: { body },
  });
  expect(res.statusCode).toBe(201);
}

describe('revoking and expiring guest tokens', () => {
  let t: TestApp;
  let baseUrl: string;
  let agent: SignedIn;
  let auditor: SignedIn;
  beforeAll(async () => {
    t = await createTestApp();
    baseUrl = await listen(t);
    agent = await signedInAdmin(t, { permissions: ['SupportInquiries_READ', 'SupportInquiries_UPDATE'] });
    auditor = await signedInAdmin(t, { permissions: ['ActivityLogs_READ'] });
  });
  afterAll(() => t.close());

  const revoke = (id: number, headers = agent.headers) =>
    caller(t)('POST', `/api/admin/support-inquiries/${id}/revoke-token`, { headers });

  it('needs SupportInquiries_UPDATE; an unknown inquiry is 404 SUPPORT_INQUIRY_NOT_FOUND', async () => {
    const guest = await createGuestInquiry(t);
    await expectAdminGuarded(
      t,
      await signedInCustomer(t),
      'POST',
      `/api/admin/support-inquiries/${guest.id}/revoke-token`,
      'SupportInquiries_UPDATE',
    );
    const reader = await signedInAdmin(t, { permissions: ['SupportInquiries_READ'] });
    expect((await revoke(guest.id, reader.headers)).statusCode).toBe(403);
    const unknown = await revoke(2_000_000_000);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().errorCode).toBe('SUPPORT_INQUIRY_NOT_FOUND');
    // Nothing of that was a revocation: the token still works.
    const still = await caller(t)('GET', `/api/support-inquiries/${guest.id}`, { headers: guest.headers });
    expect(still.statusCode).toBe(200);
  });

  it('revokes the token: its socket is closed at once, its requests and handshakes refused, activity recorded', async () => {
    const guest = await createGuestInquiry(t);
    const other = await createGuestInquiry(t);
    const socket = await joined(baseUrl, guest.token, guest.id);
    const staff = await joined(baseUrl, agent.tokens.accessToken, guest.id);
    const bystander = await joined(baseUrl, other.token, other.id);

    const res = await revoke(guest.id);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      message: 'Guest access token revoked',
      data: { supportInquiryId: guest.id, revokedTokens: 1 },
    });
    expect(await closedWithin(socket, 2000)).toBe('io server disconnect');

    // The room goes on for everyone else, without the revoked socket.
    await adminReply(t, agent, guest.id, 'Anyone there?');
    await expect.poll(() => staff.events.length, { timeout: 5000 }).toBe(1);
    expect(socket.events).toHaveLength(0);
    expect(bystander.client.connected).toBe(true);

    const rest = await caller(t)('GET', `/api/support-inquiries/${guest.id}`, { headers: guest.headers });
    expect(rest.statusCode).toBe(403);
    expect(rest.json().errorCode).toBe('SUPPORT_INQUIRY_TOKEN_INVALID');
    const again = io(`${baseUrl}/realtime`, {
      auth: { token: guest.token },
      transports: ['websocket'],
      reconnection: false,
      forceNew: true,
    });
    clients.add(again);
    expect(await handshake(again)).toEqual({ refused: 'SUPPORT_INQUIRY_TOKEN_INVALID' });

    const activity = await activityOf(t, auditor, 'support_inquiry', guest.id);
    expect(activity.filter((a) => a.action === 'revoke_token')).toEqual([
      expect.objectContaining({ adminId: agent.userId, action: 'revoke_token' }),
    ]);
    expect(activity[0]!.summary).toContain(guest.data.trackingCode);

    // Again: nothing left to revoke, nothing recorded.
    const twice = await revoke(guest.id);
    expect(twice.statusCode).toBe(200);
    expect(twice.json().data).toEqual({ supportInquiryId: guest.id, revokedTokens: 0 });
    const after = await activityOf(t, auditor, 'support_inquiry', guest.id);
    expect(after.filter((a) => a.action === 'revoke_token')).toHaveLength(1);
  });

  it("a customer's inquiry has no guest token: 200 with revokedTokens 0, and the customer's socket stays", async () => {
    const customer = await signedInCustomer(t);
    const inquiry = await createCustomerInquiry(t, customer);
    const socket = await joined(baseUrl, customer.tokens.accessToken, inquiry.id);
    const res = await revoke(inquiry.id);
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual({ supportInquiryId: inquiry.id, revokedTokens: 0 });
    await adminReply(t, agent, inquiry.id, 'Still here');
    await expect.poll(() => socket.events.length, { timeout: 5000 }).toBe(1);
    expect(socket.client.connected).toBe(true);
  });

  it('a guest socket is closed when its token expires', async () => {
    const guest: GuestInquiry = await createGuestInquiry(t);
    await t.platform.database.db
      .update(supportInquiryAccessTokens)
      .set({ expiresAt: new Date(Date.now() + 1500) })
      .where(eq(supportInquiryAccessTokens.supportInquiryId, guest.id));
    const socket = await joined(baseUrl, guest.token, guest.id);
    expect(socket.client.connected).toBe(true);
    expect(await closedWithin(socket, 5000)).toBe('io server disconnect');
  });
});

describe('the periodic recheck (REALTIME_RECHECK_SECONDS)', () => {
  let t: TestApp;
  let baseUrl: string;
  beforeAll(async () => {
    t = await createTestApp({ env: { REALTIME_RECHECK_SECONDS: '1' } });
    baseUrl = await listen(t);
  });
  afterAll(() => t.close());

  it('closes a socket whose credential was ended without a broadcast (here, straight in the database)', async () => {
    const customer = await signedInCustomer(t);
    const inquiry = await createCustomerInquiry(t, customer);
    const guest = await createGuestInquiry(t);
    const mine = await joined(baseUrl, customer.tokens.accessToken, inquiry.id);
    const theirs = await joined(baseUrl, guest.token, guest.id);

    await endSession({
      authenticator: t.platform.authenticator,
      db: t.platform.database.db,
      clock: t.platform.clock,
      sessionId: customer.tokens.sessionId,
    });
    await t.platform.database.db
      .update(supportInquiryAccessTokens)
      .set({ revokedAt: new Date() })
      .where(eq(supportInquiryAccessTokens.supportInquiryId, guest.id));
    expect(await closedWithin(mine, 4000)).toBe('io server disconnect');
    expect(await closedWithin(theirs, 4000)).toBe('io server disconnect');
  });
});

describe.runIf(servicesTier)('revocation across two API processes', () => {
  let a: TestApp;
  let b: TestApp;
  let baseUrlB: string;
  beforeAll(async () => {
    a = await createTestApp();
    // One deployment: the same database and Redis key space, two processes; sockets on B only.
    b = await createTestApp({
      database: a.platform.database,
      env: { REDIS_PREFIX: a.platform.config.REDIS_PREFIX },
    });
    baseUrlB = await listen(b);
  });
  afterAll(async () => {
    for (const c of clients) c.disconnect();
    await b?.close();
    await a?.close(); // b borrows a's database: a closes last
  });

  it('a logout on process A closes the socket of that session on process B', async () => {
    expect(b.platform.realtime.adapter).toBe('redis');
    const customer = await signedInCustomer(a);
    const inquiry = await createCustomerInquiry(a, customer);
    const socket = await joined(baseUrlB, customer.tokens.accessToken, inquiry.id);
    const res = await a.app.inject({
      method: 'DELETE',
      url: '/api/mobile/auth/logout',
      headers: customer.headers,
      remoteAddress: newIp(),
    });
    expect(res.statusCode).toBe(200);
    expect(await closedWithin(socket, 2000)).toBe('io server disconnect');
  });

  it('a guest token revoked on process A closes its socket on process B', async () => {
    const agent = await signedInAdmin(a, { permissions: ['SupportInquiries_UPDATE'] });
    const guest = await createGuestInquiry(a);
    const socket = await joined(baseUrlB, guest.token, guest.id);
    const res = await caller(a)('POST', `/api/admin/support-inquiries/${guest.id}/revoke-token`, {
      headers: agent.headers,
    });
    expect(res.statusCode).toBe(200);
    expect(await closedWithin(socket, 2000)).toBe('io server disconnect');
  });
});
