// A socket lives no longer than its session (docs/decisions.md, "Realtime revocation"): logout,
// refresh-token reuse, password reset, deactivation, account deletion (the request and the
// anonymising job) and the session's own expiry close the sockets opened with it at once,
// and they stop receiving room events. Over a real port with the real socket.io-client.
import { randomBytes, randomInt } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { type Socket as ClientSocket, io } from 'socket.io-client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createCustomerAccount, startSession } from '../../../src/modules/identity';
import { anonymizeDeletedAccountsJob } from '../../../src/modules/identity/auth/auth.jobs';
import { sessions, users } from '../../../src/modules/identity/identity.table';
import { createTestApp, type TestApp } from '../../helpers/app';
import { type SignedIn, signedInAdmin, signedInCustomer, TEST_PASSWORD } from '../../helpers/factories';
import { lastMailTo } from '../../helpers/mail';
import { handshake } from '../../helpers/sockets';

const unique = () => randomBytes(4).toString('hex');
const newIp = () => `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;
const device = { deviceId: 'dev-1', deviceType: 'android', deviceName: 'Pixel 8' };
const EVENT = 'support.request_message.created';

const clients = new Set<ClientSocket>();
afterEach(() => {
  for (const client of clients) client.disconnect();
  clients.clear();
});

describe('sockets end with their session', () => {
  let t: TestApp;
  let baseUrl: string;
  let staff: SignedIn;
  beforeAll(async () => {
    t = await createTestApp();
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    baseUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    staff = await signedInAdmin(t, { permissions: ['SupportRequests_READ', 'SupportRequests_UPDATE'] });
  });
  afterAll(() => t.close());

  const inject = (
    method: 'POST' | 'DELETE' | 'PATCH',
    url: string,
    opts: { headers?: object; payload?: object } = {},
  ) =>
    t.app.inject({
      method,
      url,
      headers: (opts.headers ?? {}) as Record<string, string>,
      payload: opts.payload,
      remoteAddress: newIp(),
    });

  interface Watched {
    client: ClientSocket;
    /** Resolves with the reason of the client's disconnect. */
    disconnected: Promise<string>;
    events: unknown[];
  }

  /** A socket of `token` joined to the ticket's room, recording its events. */
  async function joined(token: string, ticket: number): Promise<Watched> {
    const client = io(`${baseUrl}/realtime`, {
      auth: { token },
      transports: ['websocket'],
      reconnection: false,
      forceNew: true,
    });
    clients.add(client);
    expect(await handshake(client)).toEqual({ connected: true });
    const answer = await client.timeout(5000).emitWithAck('support:join_request_messages', {
      supportRequestId: ticket,
    });
    expect(answer).toMatchObject({ ok: true });
    const events: unknown[] = [];
    client.on(EVENT, (e) => events.push(e));
    const disconnected = new Promise<string>((resolve) => client.once('disconnect', resolve));
    return { client, disconnected, events };
  }

  async function openTicket(customer: SignedIn): Promise<number> {
    const res = await inject('POST', '/api/mobile/support-requests', {
      headers: customer.headers,
      payload: { category: 'technical', subject: `Screen ${unique()}`, message: 'It flickers' },
    });
    expect(res.statusCode).toBe(201);
    return res.json().data.id;
  }

  /** Closed promptly with the server's reason, and a reply written afterwards reaches only `control`. */
  async function expectClosed(watched: Watched, ticket: number, control: Watched) {
    const reason = await Promise.race([
      watched.disconnected,
      new Promise((resolve) => setTimeout(() => resolve('still connected after 2 s'), 2000)),
    ]);
    expect(reason).toBe('io server disconnect');
    const reply = await inject('POST', `/api/admin/support-requests/${ticket}/messages`, {
      headers: staff.headers,
      payload: { body: `after ${unique()}` },
    });
    expect(reply.statusCode).toBe(201);
    await expect.poll(() => control.events.length, { timeout: 5000 }).toBe(1);
    expect(watched.events).toHaveLength(0);
    expect(watched.client.connected).toBe(false);
  }

  /** A customer with a password and two sessions (two devices), and their ticket. */
  async function customerWithTwoSessions() {
    const customer = await signedInCustomer(t);
    const second = await startSession({
      db: t.platform.database.db,
      tokens: t.platform.tokens,
      clock: t.platform.clock,
      refreshTtlDays: 30,
      userId: customer.userId,
      actor: 'customer',
    });
    return { customer, second, ticket: await openTicket(customer) };
  }

  it('logout closes the sockets of that session only', async () => {
    const { customer, second, ticket } = await customerWithTwoSessions();
    const mine = await joined(customer.tokens.accessToken, ticket);
    const otherDevice = await joined(second.accessToken, ticket);
    const res = await inject('DELETE', '/api/mobile/auth/logout', { headers: customer.headers });
    expect(res.statusCode).toBe(200);
    await expectClosed(mine, ticket, otherDevice);
    expect(otherDevice.client.connected).toBe(true);
  });

  it('refresh-token reuse ends the session and closes its sockets', async () => {
    const { customer, second, ticket } = await customerWithTwoSessions();
    const mine = await joined(customer.tokens.accessToken, ticket);
    const otherDevice = await joined(second.accessToken, ticket);
    const refresh = (refreshToken: string) =>
      inject('POST', '/api/mobile/auth/refresh', { payload: { refreshToken } });
    const rotated = await refresh(customer.tokens.refreshToken);
    expect(rotated.statusCode).toBe(200);
    expect((await refresh(rotated.json().data.tokens.refreshToken)).statusCode).toBe(200);
    // The first token is now two rotations old: using it again is reuse, whatever the grace.
    const reused = await refresh(customer.tokens.refreshToken);
    expect(reused.statusCode).toBe(401);
    expect(reused.json().errorCode).toBe('AUTH_REFRESH_TOKEN_REUSED');
    await expectClosed(mine, ticket, otherDevice);
  });

  it('a password reset closes every socket of the account', async () => {
    const customer = await signedInCustomer(t);
    const ticket = await openTicket(customer);
    const mine = await joined(customer.tokens.accessToken, ticket);
    const control = await joined(staff.tokens.accessToken, ticket);
    expect(
      (await inject('POST', '/api/mobile/auth/password/forgot', { payload: { email: customer.email } }))
        .statusCode,
    ).toBe(200);
    const mail = await lastMailTo(t, customer.email);
    const reset = await inject('POST', '/api/mobile/auth/password/reset', {
      payload: { token: mail!.token, newPassword: 'a-brand-new-password' },
    });
    expect(reset.statusCode).toBe(200);
    await expectClosed(mine, ticket, control);
  });

  it('deactivating an admin closes its sockets', async () => {
    const customer = await signedInCustomer(t);
    const ticket = await openTicket(customer);
    const agent = await signedInAdmin(t, { permissions: ['SupportRequests_READ'] });
    const boss = await signedInAdmin(t, { superadmin: true });
    const theirs = await joined(agent.tokens.accessToken, ticket);
    const control = await joined(customer.tokens.accessToken, ticket);
    const res = await inject('PATCH', `/api/admin/users/${agent.userId}/deactivate`, {
      headers: boss.headers,
    });
    expect(res.statusCode).toBe(200);
    await expectClosed(theirs, ticket, control);
  });

  it('requesting account deletion closes every socket of the account', async () => {
    const customer = await signedInCustomer(t);
    const ticket = await openTicket(customer);
    const mine = await joined(customer.tokens.accessToken, ticket);
    const control = await joined(staff.tokens.accessToken, ticket);
    const res = await inject('POST', '/api/mobile/account/deletion', {
      headers: customer.headers,
      payload: { password: TEST_PASSWORD },
    });
    expect(res.statusCode).toBe(200);
    await expectClosed(mine, ticket, control);
  });

  it('the anonymising job closes the sockets of the sessions it deletes', async () => {
    // A session opened during the grace period (e.g. by the identity provider) with the
    // deletion still due: the job deletes it.
    const email = `leaving-${unique()}@example.com`;
    const user = await createCustomerAccount({
      db: t.platform.database.db,
      email,
      name: 'Leaving',
      password: TEST_PASSWORD,
      emailVerified: true,
    });
    const tokens = await startSession({
      db: t.platform.database.db,
      tokens: t.platform.tokens,
      clock: t.platform.clock,
      refreshTtlDays: 30,
      userId: user.id,
      actor: 'customer',
      deviceInfo: device,
    });
    const customer: SignedIn = {
      userId: user.id,
      email,
      tokens,
      headers: { authorization: `Bearer ${tokens.accessToken}` },
    };
    const ticket = await openTicket(customer);
    const mine = await joined(tokens.accessToken, ticket);
    const control = await joined(staff.tokens.accessToken, ticket);
    await t.platform.database.db
      .update(users)
      .set({ deletionScheduledAt: new Date(Date.now() - 1000) })
      .where(eq(users.id, user.id));
    await t.platform.jobs.enqueue(
      anonymizeDeletedAccountsJob({
        db: t.platform.database.db,
        clock: t.platform.clock,
        authenticator: t.platform.authenticator,
        realtime: t.platform.realtime,
      }),
      {},
    );
    await t.drainJobs();
    await expectClosed(mine, ticket, control);
  });

  it('a socket closes when its session expires', async () => {
    const customer = await signedInCustomer(t);
    const ticket = await openTicket(customer);
    // The session ends in 1.5 s (its refresh lifetime; the access token would outlive it).
    await t.platform.database.db
      .update(sessions)
      .set({ expiresAt: new Date(Date.now() + 1500) })
      .where(eq(sessions.id, customer.tokens.sessionId));
    const mine = await joined(customer.tokens.accessToken, ticket);
    const control = await joined(staff.tokens.accessToken, ticket);
    expect(mine.client.connected).toBe(true);
    const reason = await Promise.race([
      mine.disconnected,
      new Promise((resolve) => setTimeout(() => resolve('still connected after 5 s'), 5000)),
    ]);
    expect(reason).toBe('io server disconnect');
    await expectClosed(mine, ticket, control);
  });

  it('a login with the same account afterwards connects again (the account is not blocked)', async () => {
    const email = `back-${unique()}@example.com`;
    await createCustomerAccount({
      db: t.platform.database.db,
      email,
      name: 'Back',
      password: TEST_PASSWORD,
      emailVerified: true,
    });
    const login = async () => {
      const res = await inject('POST', '/api/mobile/auth/login/email', {
        payload: { email, password: TEST_PASSWORD, deviceInfo: device },
      });
      expect(res.statusCode).toBe(200);
      return res.json().data.tokens as { accessToken: string };
    };
    const first = await login();
    const logout = await inject('DELETE', '/api/mobile/auth/logout', {
      headers: { authorization: `Bearer ${first.accessToken}` },
    });
    expect(logout.statusCode).toBe(200);
    const again = io(`${baseUrl}/realtime`, {
      auth: { token: (await login()).accessToken },
      transports: ['websocket'],
      reconnection: false,
      forceNew: true,
    });
    clients.add(again);
    expect(await handshake(again)).toEqual({ connected: true });
  });
});
