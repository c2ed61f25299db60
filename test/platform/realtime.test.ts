// The realtime port over a real port with the real client: the handshake contract
// (decisions.md, "Realtime handshake"), room delivery, delivery between two API processes
// through Redis, and shutdown.
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { io, type Socket as ClientSocket } from 'socket.io-client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { endSession } from '../../src/modules/identity';
import type { GuestPrincipal, Principal } from '../../src/platform/auth/principal';
import { createTestApp, type TestApp } from '../helpers/app';
import { signedInAdmin, signedInCustomer } from '../helpers/factories';
import { servicesTier } from '../helpers/services';

const GOOD_GUEST_TOKEN = 'tg_good-guest-token';
const unique = () => randomBytes(5).toString('hex');

const clients = new Set<ClientSocket>();
afterEach(() => {
  for (const client of clients) client.disconnect();
  clients.clear();
});

function connect(baseUrl: string, namespace: string, auth?: Record<string, unknown>): ClientSocket {
  const client = io(`${baseUrl}${namespace}`, {
    auth,
    transports: ['websocket'],
    reconnection: false,
    forceNew: true,
  });
  clients.add(client);
  return client;
}

/** How the handshake ended: connected, or refused with the connect_error message. */
function handshake(client: ClientSocket): Promise<{ connected: true } | { refused: string }> {
  return new Promise((resolve) => {
    client.once('connect', () => resolve({ connected: true }));
    client.once('connect_error', (error) => resolve({ refused: error.message }));
  });
}

async function connected(client: ClientSocket): Promise<ClientSocket> {
  expect(await handshake(client)).toEqual({ connected: true });
  return client;
}

function nextEvent<T>(client: ClientSocket, event: string): Promise<T> {
  return new Promise((resolve) => client.once(event, (payload: T) => resolve(payload)));
}

async function listen(t: TestApp): Promise<string> {
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
}

/**
 * What the tests' "module" does on each socket: remembers the principal the handshake put
 * on it and lets the client join a room, acknowledging like the realtime calls do.
 */
function installTestModule(t: TestApp, principals: Map<string, Principal>) {
  t.platform.realtime.onConnection((socket) => {
    principals.set(socket.id, socket.data.principal);
    socket.on('test.join', async (room: unknown, ack: (answer: unknown) => void) => {
      if (typeof room !== 'string') return ack({ ok: false, errorCode: 'VALIDATION_ERROR' });
      await socket.join(room);
      ack({ ok: true, room });
    });
  });
}

async function join(client: ClientSocket, room: string) {
  expect(await client.timeout(5000).emitWithAck('test.join', room)).toEqual({ ok: true, room });
}

describe('realtime port', () => {
  let t: TestApp;
  let baseUrl: string;
  const principals = new Map<string, Principal>();

  beforeAll(async () => {
    t = await createTestApp();
    t.platform.authenticator.registerGuestResolver(
      'tg_',
      async (token): Promise<GuestPrincipal | null> =>
        token === GOOD_GUEST_TOKEN ? { actor: 'guest', token, subject: { inquiryId: 'inq-1' } } : null,
      'TEST_GUEST_TOKEN_INVALID',
    );
    installTestModule(t, principals);
    baseUrl = await listen(t);
  });
  afterAll(() => t?.close());

  describe('handshake', () => {
    it('accepts an admin JWT and gives the socket the admin principal', async () => {
      const admin = await signedInAdmin(t, { permissions: ['System_READ'] });
      const client = await connected(connect(baseUrl, '/realtime', { token: admin.tokens.accessToken }));
      expect(principals.get(client.id!)).toMatchObject({
        actor: 'admin',
        userId: admin.userId,
        sessionId: admin.tokens.sessionId,
        permissions: new Set(['System_READ']),
      });
    });

    it('accepts a customer JWT and gives the socket the customer principal', async () => {
      const customer = await signedInCustomer(t);
      const client = await connected(connect(baseUrl, '/realtime', { token: customer.tokens.accessToken }));
      expect(principals.get(client.id!)).toMatchObject({
        actor: 'customer',
        userId: customer.userId,
        sessionId: customer.tokens.sessionId,
      });
    });

    it('accepts the token in its `Bearer <jwt>` form', async () => {
      const customer = await signedInCustomer(t);
      const client = await connected(connect(baseUrl, '/realtime', { token: customer.headers.authorization }));
      expect(principals.get(client.id!)).toMatchObject({ actor: 'customer', userId: customer.userId });
    });

    it.each([
      ['no auth at all', undefined],
      ['no token', {}],
      ['an empty token', { token: '' }],
      ['a token that is not a string', { token: 12345 }],
      ['a garbage token', { token: 'not-a-jwt' }],
      ['a bare "Bearer"', { token: 'Bearer ' }],
    ])('refuses %s with AUTH_UNAUTHORIZED', async (_case, auth) => {
      const client = connect(baseUrl, '/realtime', auth);
      expect(await handshake(client)).toEqual({ refused: 'AUTH_UNAUTHORIZED' });
    });

    it('refuses a JWT signed with another secret', async () => {
      const customer = await signedInCustomer(t);
      const [header, payload] = customer.tokens.accessToken.split('.');
      const forged = `${header}.${payload}.${Buffer.from('x'.repeat(32)).toString('base64url')}`;
      expect(await handshake(connect(baseUrl, '/realtime', { token: forged }))).toEqual({
        refused: 'AUTH_UNAUTHORIZED',
      });
    });

    it('refuses the still-unexpired JWT of a revoked session', async () => {
      const customer = await signedInCustomer(t);
      // The same token connects before the revocation, so the refusal below is the revocation's.
      await connected(connect(baseUrl, '/realtime', { token: customer.tokens.accessToken }));
      const { db } = t.platform.database;
      expect(await endSession({ db, clock: t.platform.clock, sessionId: customer.tokens.sessionId })).toBe(true);
      expect(await handshake(connect(baseUrl, '/realtime', { token: customer.tokens.accessToken }))).toEqual({
        refused: 'AUTH_UNAUTHORIZED',
      });
    });

    it('accepts a guest token its resolver knows and gives the socket the guest principal', async () => {
      const client = await connected(connect(baseUrl, '/realtime', { token: GOOD_GUEST_TOKEN }));
      expect(principals.get(client.id!)).toEqual({
        actor: 'guest',
        token: GOOD_GUEST_TOKEN,
        subject: { inquiryId: 'inq-1' },
      });
    });

    it("refuses a guest token its resolver does not know with the resolver's errorCode", async () => {
      expect(await handshake(connect(baseUrl, '/realtime', { token: 'tg_unknown' }))).toEqual({
        refused: 'TEST_GUEST_TOKEN_INVALID',
      });
    });

    it('serves only the configured namespace', async () => {
      const admin = await signedInAdmin(t);
      expect(await handshake(connect(baseUrl, '/other', { token: admin.tokens.accessToken }))).toEqual({
        refused: 'Invalid namespace',
      });
    });
  });

  describe('delivery', () => {
    it('emitToRoom reaches the sockets in the room and no other', async () => {
      const customer = await signedInCustomer(t);
      const { accessToken: token } = customer.tokens;
      const inRoom = await connected(connect(baseUrl, '/realtime', { token }));
      const outside = await connected(connect(baseUrl, '/realtime', { token }));
      const room = `room-${unique()}`;
      const otherRoom = `room-${unique()}`;
      await join(inRoom, room);
      await join(outside, otherRoom);

      const received = nextEvent(inRoom, 'test.event');
      const outsideFirst = nextEvent(outside, 'test.event');
      t.platform.realtime.emitToRoom(room, 'test.event', { n: 1, text: 'héllo' });
      // Events reach one socket in emit order: if `outside` had got the first one, it
      // would see it before this marker.
      t.platform.realtime.emitToRoom(otherRoom, 'test.event', { marker: true });

      expect(await received).toEqual({ n: 1, text: 'héllo' });
      expect(await outsideFirst).toEqual({ marker: true });
    });
  });
});

describe('realtime port on a custom WS_NAMESPACE', () => {
  let t: TestApp;
  let baseUrl: string;
  beforeAll(async () => {
    t = await createTestApp({ env: { WS_NAMESPACE: '/custom' } });
    baseUrl = await listen(t);
  });
  afterAll(() => t?.close());

  it('serves the handshake there and not on /realtime', async () => {
    const admin = await signedInAdmin(t);
    const auth = { token: admin.tokens.accessToken };
    expect(await handshake(connect(baseUrl, '/custom', auth))).toEqual({ connected: true });
    expect(await handshake(connect(baseUrl, '/realtime', auth))).toEqual({ refused: 'Invalid namespace' });
    expect(await handshake(connect(baseUrl, '/custom', { token: 'bad' }))).toEqual({
      refused: 'AUTH_UNAUTHORIZED',
    });
  });
});

describe('realtime port at shutdown', () => {
  let t: TestApp | undefined;
  afterAll(() => t?.close());

  it('app.close() disconnects the connected sockets and returns promptly', async () => {
    t = await createTestApp();
    const baseUrl = await listen(t);
    const customer = await signedInCustomer(t);
    const client = await connected(connect(baseUrl, '/realtime', { token: customer.tokens.accessToken }));
    const disconnected = new Promise<string>((resolve) => client.once('disconnect', resolve));

    const started = Date.now();
    const closing = t.close();
    t = undefined;
    await closing;
    expect(Date.now() - started).toBeLessThan(5000);
    // The server ended the connection; a client that left itself would say "io client disconnect".
    expect(await disconnected).toMatch(/^(transport close|io server disconnect)$/);
  });
});

describe.runIf(servicesTier)('realtime port across two API processes (Redis adapter)', () => {
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => {
    a = await createTestApp();
    // One deployment: the same database and the same Redis key space.
    b = await createTestApp({
      database: a.platform.database,
      env: { REDIS_PREFIX: a.platform.config.REDIS_PREFIX },
    });
    installTestModule(b, new Map());
  });
  // b borrows a's database, so a closes last.
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  it('an emit through process A reaches a socket connected to process B', async () => {
    expect(a.platform.realtime.adapter).toBe('redis');
    expect(b.platform.realtime.adapter).toBe('redis');
    const baseUrlB = await listen(b);
    // A session started on A is valid on B: they share the database.
    const customer = await signedInCustomer(a);
    const client = await connected(connect(baseUrlB, '/realtime', { token: customer.tokens.accessToken }));
    const room = `room-${unique()}`;
    await join(client, room);

    const received = nextEvent(client, 'test.event');
    a.platform.realtime.emitToRoom(room, 'test.event', { from: 'a' });
    expect(await received).toEqual({ from: 'a' });
  });
});
