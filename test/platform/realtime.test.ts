// The realtime port over a real port with the real client: the handshake contract
// (docs/decisions.md, "Realtime handshake"), room delivery, delivery between two API processes
// through Redis, and shutdown; then, on the port alone, a failing connection handler, client
// calls answered through their ack (onCall), and two deployments sharing one Redis.
import { randomBytes } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Redis } from 'ioredis';
import {
  type Socket as ClientSocket,
  io,
  Manager,
  type ManagerOptions,
  type SocketOptions,
} from 'socket.io-client';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { endSession } from '../../src/modules/identity';
import { Authenticator } from '../../src/platform/auth/authenticator';
import type { GuestPrincipal, Principal } from '../../src/platform/auth/principal';
import { AppError } from '../../src/platform/http/errors';
import { onCall } from '../../src/platform/realtime/calls';
import { createRealtime, type Realtime } from '../../src/platform/realtime/realtime';
import { createAccessTokens } from '../../src/platform/security/jwt';
import { createTestApp, TEST_JWT_SECRET, type TestApp } from '../helpers/app';
import { signedInAdmin, signedInCustomer } from '../helpers/factories';
import { servicesTier, serviceUrls } from '../helpers/services';
import { handshake } from '../helpers/sockets';

// The rooms and the event these tests emit, typed like a module's (platform/realtime).
declare module '../../src/platform/realtime/realtime' {
  interface RealtimeRooms {
    'test-room': `room-${string}`;
  }
  interface RealtimeEvents {
    'test.event': Record<string, unknown>;
  }
}

const GOOD_GUEST_TOKEN = 'tg_good-guest-token';
const FAILING_GUEST_TOKEN = 'tg_lookup-fails';
const unique = () => randomBytes(5).toString('hex');

const clients = new Set<ClientSocket>();
const managers = new Set<Manager>();
afterEach(() => {
  for (const client of clients) client.disconnect();
  clients.clear();
  for (const manager of managers) manager.engine?.close();
  managers.clear();
});

function connect(
  baseUrl: string,
  namespace: string,
  auth?: Record<string, unknown>,
  options: Partial<ManagerOptions & SocketOptions> = {},
): ClientSocket {
  const client = io(`${baseUrl}${namespace}`, {
    auth,
    transports: ['websocket'],
    reconnection: false,
    forceNew: true,
    ...options,
  });
  clients.add(client);
  return client;
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
function installTestModule(realtime: Realtime, principals = new Map<string, Principal>()) {
  realtime.onConnection((socket) => {
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
    installTestModule(t.platform.realtime, principals);
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
      const client = await connected(
        connect(baseUrl, '/realtime', { token: customer.headers.authorization }),
      );
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
      expect(
        await endSession({
          authenticator: t.platform.authenticator,
          db,
          clock: t.platform.clock,
          sessionId: customer.tokens.sessionId,
        }),
      ).toBe(true);
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

    it('serves only the configured namespace, the main namespace `/` included', async () => {
      const admin = await signedInAdmin(t);
      const auth = { token: admin.tokens.accessToken };
      expect(await handshake(connect(baseUrl, '/other', auth))).toEqual({ refused: 'Invalid namespace' });
      // Socket.IO serves `/` on its own unless told not to, without this port's handshake.
      expect(await handshake(connect(baseUrl, '/'))).toEqual({ refused: 'Invalid namespace' });
      expect(await handshake(connect(baseUrl, '/', auth))).toEqual({ refused: 'Invalid namespace' });
    });
  });

  describe('delivery', () => {
    it('emitToRoom reaches the sockets in the room and no other', async () => {
      const customer = await signedInCustomer(t);
      const { accessToken: token } = customer.tokens;
      const inRoom = await connected(connect(baseUrl, '/realtime', { token }));
      const outside = await connected(connect(baseUrl, '/realtime', { token }));
      const room = `room-${unique()}` as const;
      const otherRoom = `room-${unique()}` as const;
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

  it('app.close() ends the connections promptly, and clients are left free to reconnect', async () => {
    t = await createTestApp();
    const baseUrl = await listen(t);
    const customer = await signedInCustomer(t);
    // Reconnection on, as real clients have it, to see whether they would try again.
    const client = await connected(
      connect(baseUrl, '/realtime', { token: customer.tokens.accessToken }, { reconnection: true }),
    );
    const disconnected = new Promise<{ reason: string; willReconnect: boolean }>((resolve) =>
      client.once('disconnect', (reason) => resolve({ reason, willReconnect: client.active })),
    );
    // An engine connection that never joined a namespace: Socket.IO keeps it for 45 s.
    const bare = new Manager(baseUrl, { transports: ['websocket'], reconnection: false, autoConnect: false });
    managers.add(bare);
    await new Promise<void>((resolve, reject) => bare.open((error) => (error ? reject(error) : resolve())));

    const started = Date.now();
    const closing = t.close();
    t = undefined;
    await closing;
    expect(Date.now() - started).toBeLessThan(5000);
    // A restart must not look like a kick ("io server disconnect"), after which clients stay off.
    expect(await disconnected).toEqual({ reason: 'transport close', willReconnect: true });
  });
});

/** The port alone on a bare HTTP server, for what the app does not let a test reach. */
async function startPort(opts: {
  redis?: Redis;
  redisPrefix?: string;
  log?: { error(fields: Record<string, unknown>, message: string): void };
}): Promise<{ realtime: Realtime; baseUrl: string; close(): Promise<void> }> {
  const tokens = createAccessTokens({ secret: TEST_JWT_SECRET, ttlSeconds: 600, now: () => new Date() });
  const authenticator = new Authenticator(tokens);
  authenticator.registerGuestResolver(
    'tg_',
    async (token) => {
      if (token === FAILING_GUEST_TOKEN) throw new Error('guest store unreachable');
      return token === GOOD_GUEST_TOKEN ? { actor: 'guest', token, subject: null } : null;
    },
    'TEST_GUEST_TOKEN_INVALID',
  );
  const realtime = createRealtime({
    namespace: '/realtime',
    authenticator,
    redis: opts.redis,
    redisPrefix: opts.redisPrefix,
    corsOrigins: [],
    log: opts.log,
  });
  const server = createServer();
  realtime.attach(server);
  await realtime.ready();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    realtime,
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async close() {
      realtime.disconnectLocal();
      await new Promise((resolve) => server.close(resolve));
      await realtime.close();
    },
  };
}

describe('realtime port when its own code fails', () => {
  const log = { error: vi.fn() };
  let port: Awaited<ReturnType<typeof startPort>>;
  beforeAll(async () => {
    port = await startPort({ log });
    port.realtime.onConnection((socket) => {
      const fail = (socket.handshake.auth as { fail?: string }).fail;
      if (fail === 'throw') throw new Error('handler bug');
    });
    port.realtime.onConnection(async (socket) => {
      const fail = (socket.handshake.auth as { fail?: string }).fail;
      if (fail === 'reject') throw new Error('async handler bug');
    });
  });
  afterAll(() => port?.close());

  // Uncaught, either would end the process: vitest fails the run on an uncaught error.
  it.each(['throw', 'reject'])(
    'a handler that fails (%s) disconnects its socket and is logged',
    async (fail) => {
      log.error.mockClear();
      const client = connect(port.baseUrl, '/realtime', { token: GOOD_GUEST_TOKEN, fail });
      const reason = await new Promise<string>((resolve) => client.once('disconnect', resolve));
      expect(reason).toBe('io server disconnect');
      expect(log.error).toHaveBeenCalledOnce();
      expect(log.error.mock.calls[0]?.[0]).toMatchObject({
        err: expect.objectContaining({ message: expect.stringMatching(/handler bug/) }),
      });

      // Other sockets are served as before.
      await connected(connect(port.baseUrl, '/realtime', { token: GOOD_GUEST_TOKEN }));
    },
  );

  it('a credential check that throws refuses the handshake with INTERNAL_ERROR and is logged', async () => {
    log.error.mockClear();
    expect(await handshake(connect(port.baseUrl, '/realtime', { token: FAILING_GUEST_TOKEN }))).toEqual({
      refused: 'INTERNAL_ERROR',
    });
    expect(log.error).toHaveBeenCalledOnce();
    expect(log.error.mock.calls[0]?.[0]).toMatchObject({
      err: expect.objectContaining({ message: 'guest store unreachable' }),
    });
  });
});

describe('client calls (onCall)', () => {
  const log = { error: vi.fn() };
  let port: Awaited<ReturnType<typeof startPort>>;
  const seen: unknown[] = [];
  beforeAll(async () => {
    port = await startPort({ log });
    port.realtime.onConnection((socket) => {
      onCall(
        socket,
        'test.call',
        z.object({ n: z.number().int() }),
        async ({ n }) => {
          seen.push(n);
          if (n === 403) throw new AppError(403, 'TEST_DENIED', 'no');
          if (n === 500) throw new Error('handler bug');
          if (n === 501) return Promise.reject('not even an Error');
          return { doubled: n * 2 };
        },
        log,
      );
    });
  });
  afterAll(() => port?.close());

  const callWith = async (payload: unknown) => {
    const client = await connected(connect(port.baseUrl, '/realtime', { token: GOOD_GUEST_TOKEN }));
    return client.timeout(5000).emitWithAck('test.call', payload);
  };

  it("answers ok: true with the handler's result", async () => {
    expect(await callWith({ n: 21 })).toEqual({ ok: true, doubled: 42 });
  });

  it.each([
    ['no payload', undefined],
    ['a payload of the wrong shape', { n: 'x' }],
    ['a scalar', 7],
  ])('answers VALIDATION_ERROR to %s without running the handler', async (_case, payload) => {
    seen.length = 0;
    expect(await callWith(payload)).toEqual({ ok: false, errorCode: 'VALIDATION_ERROR' });
    expect(seen).toEqual([]);
  });

  it("answers an AppError's errorCode", async () => {
    expect(await callWith({ n: 403 })).toEqual({ ok: false, errorCode: 'TEST_DENIED' });
  });

  it.each([500, 501])(
    'answers INTERNAL_ERROR to an unexpected failure (%s), logs it, and keeps serving the socket',
    async (n) => {
      log.error.mockClear();
      const client = await connected(connect(port.baseUrl, '/realtime', { token: GOOD_GUEST_TOKEN }));
      expect(await client.timeout(5000).emitWithAck('test.call', { n })).toEqual({
        ok: false,
        errorCode: 'INTERNAL_ERROR',
      });
      expect(log.error).toHaveBeenCalledOnce();
      expect(log.error.mock.calls[0]?.[0]).toMatchObject({
        event: 'test.call',
        socketId: expect.any(String),
      });
      expect(await client.timeout(5000).emitWithAck('test.call', { n: 1 })).toEqual({ ok: true, doubled: 2 });
    },
  );

  it('runs a call sent without an ack', async () => {
    seen.length = 0;
    const client = await connected(connect(port.baseUrl, '/realtime', { token: GOOD_GUEST_TOKEN }));
    client.emit('test.call', { n: 5 });
    await expect.poll(() => seen, { timeout: 5000 }).toEqual([5]);
    // A failing call without an ack is answered to nobody, and harms nothing.
    client.emit('test.call', { n: 500 });
    expect(await client.timeout(5000).emitWithAck('test.call', { n: 2 })).toEqual({ ok: true, doubled: 4 });
  });
});

describe('realtime port while Redis is unreachable', () => {
  it('an emit whose publish fails is logged instead of ending the process', async () => {
    // A Redis client whose subscriptions answer but whose PUBLISH fails, as during an outage:
    // the adapter publishes without awaiting, so an uncaught failure would be an unhandled
    // rejection (vitest fails the run on one; Node ends the process).
    const fakeRedis = (): Redis =>
      Object.assign(new EventEmitter(), {
        duplicate: () => fakeRedis(),
        psubscribe: async () => 1,
        subscribe: async () => 1,
        punsubscribe: async () => 1,
        unsubscribe: async () => 1,
        ping: async () => 'PONG',
        quit: async () => 'OK',
        publish: async () => {
          throw new Error('Connection is closed.');
        },
      }) as unknown as Redis;
    const log = { error: vi.fn() };
    const tokens = createAccessTokens({ secret: TEST_JWT_SECRET, ttlSeconds: 600, now: () => new Date() });
    const realtime = createRealtime({
      namespace: '/realtime',
      authenticator: new Authenticator(tokens),
      redis: fakeRedis(),
      corsOrigins: [],
      log,
    });
    await realtime.ready();
    realtime.emitToRoom('room-outage', 'test.event', { n: 1 });
    await expect.poll(() => log.error.mock.calls.length).toBe(1);
    expect(log.error.mock.calls[0]?.[1]).toBe('realtime publish to Redis failed');
    await realtime.close();
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
    installTestModule(b.platform.realtime);
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
    const room = `room-${unique()}` as const;
    await join(client, room);

    const received = nextEvent(client, 'test.event');
    a.platform.realtime.emitToRoom(room, 'test.event', { from: 'a' });
    expect(await received).toEqual({ from: 'a' });
  });
});

describe.runIf(servicesTier)('realtime port on a Redis shared by two deployments', () => {
  let redis: Redis;
  const ports: Array<Awaited<ReturnType<typeof startPort>>> = [];
  beforeAll(() => {
    redis = new Redis(serviceUrls().redisUrl);
  });
  afterAll(async () => {
    for (const port of ports) await port.close();
    await redis?.quit();
  });

  it('ready() resolves once the process is subscribed, so no emit made after it is missed', async () => {
    const prefix = `pasal-test-${unique()}`;
    const port = await startPort({ redis, redisPrefix: prefix });
    ports.push(port);
    // startPort awaited ready(): the adapter's channels are already subscribed on Redis.
    const channels = (await redis.pubsub('CHANNELS', `${prefix}:socket.io*`)) as string[];
    expect(channels.length).toBeGreaterThan(0);
    expect(channels.every((channel) => channel.startsWith(`${prefix}:socket.io-`))).toBe(true);
  });

  it('an emit reaches the processes of its own REDIS_PREFIX and not another deployment', async () => {
    const own = `pasal-test-${unique()}`;
    const [ownA, ownB, other] = await Promise.all([
      startPort({ redis, redisPrefix: own }),
      startPort({ redis, redisPrefix: own }),
      startPort({ redis, redisPrefix: `pasal-test-${unique()}` }),
    ]);
    ports.push(ownA, ownB, other);
    installTestModule(ownB.realtime);
    const client = await connected(connect(ownB.baseUrl, '/realtime', { token: GOOD_GUEST_TOKEN }));
    const room = `room-${unique()}` as const;
    await join(client, room);

    const events: unknown[] = [];
    client.on('test.event', (payload) => events.push(payload));
    const first = nextEvent(client, 'test.event');
    other.realtime.emitToRoom(room, 'test.event', { from: 'other deployment' });
    ownA.realtime.emitToRoom(room, 'test.event', { from: 'own deployment' });
    expect(await first).toEqual({ from: 'own deployment' });
    // The two emits went through different connections, so a leaked one could come second.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(events).toEqual([{ from: 'own deployment' }]);
  });
});
