// Socket.IO on the API's HTTP server, one namespace (WS_NAMESPACE). The handshake takes the
// credential from `auth.token` (admin JWT, customer JWT or a guest token) and refuses a bad
// one with `connect_error` whose message is the errorCode. With Redis, the adapter carries
// room emits between processes, so a write on one API process reaches sockets on another.
//
// A socket lives no longer than its credential (docs/decisions.md, "Realtime revocation"): each
// socket sits in the room of its credential (`credential:session:<sid>`,
// `credential:guest:<id>`), which `disconnectCredentials` empties on every process when the
// credential is revoked; a timer closes it when the credential expires; and a periodic
// recheck (REALTIME_RECHECK_SECONDS) catches whatever a lost broadcast missed.
import type { Server as HttpServer } from 'node:http';
import type { Redis } from 'ioredis';
import { type Namespace, Server, type Socket } from 'socket.io';
import type { Authenticator } from '../auth/authenticator';
import { credentialExpiryOf, credentialKeyOf, type Principal } from '../auth/principal';
import { type Clock, systemClock } from '../clock';
import { AppError, httpErrors } from '../http/errors';
import { lazyPackage } from '../lazy';
import { ownConnection } from '../redis-connection';

const redisAdapter = lazyPackage<typeof import('@socket.io/redis-adapter')>('@socket.io/redis-adapter');

export interface SocketData {
  principal: Principal;
}

export type RealtimeSocket = Socket<
  Record<string, never>,
  Record<string, never>,
  Record<string, never>,
  SocketData
>;

/**
 * Room kinds → the names their rooms have, and event names → payloads: modules extend both
 * by declaration merging in their own `*.events.ts`, like the domain events:
 *
 *   declare module '../../platform/realtime/realtime' {
 *     interface RealtimeRooms { 'admin-notifications': `admin-notifications:${string}` }
 *     interface RealtimeEvents { 'admin.notification': NotificationView }
 *   }
 *
 * so `emitToRoom` takes only a room some module declared, and each event with its own payload.
 */
// biome-ignore lint/suspicious/noEmptyInterface: filled by declaration merging in the modules.
export interface RealtimeRooms {}
// biome-ignore lint/suspicious/noEmptyInterface: filled by declaration merging in the modules.
export interface RealtimeEvents {}

export type RealtimeRoomKind = keyof RealtimeRooms;
export type RealtimeRoom = RealtimeRooms[RealtimeRoomKind];
export type RealtimeEventName = keyof RealtimeEvents;

export interface Realtime {
  readonly adapter: 'memory' | 'redis';
  /**
   * Modules add their event handlers to each authenticated socket here. A handler that throws
   * (or rejects) is logged and its socket disconnected, rather than taking the process down.
   */
  onConnection(handler: (socket: RealtimeSocket) => void | Promise<void>): void;
  /** Sends `event` to every socket in `room`, on every process (the Redis adapter). */
  emitToRoom<E extends RealtimeEventName>(room: RealtimeRoom, event: E, payload: RealtimeEvents[E]): void;
  /**
   * The socket's principal as it stands now (session still alive, permissions re-read, guest
   * token still valid), kept on the socket; throws the handshake's errorCode when it is gone.
   * Calls that grant access (joining a room) ask this rather than trust the handshake.
   */
  currentPrincipal(socket: RealtimeSocket): Promise<Principal>;
  /**
   * Ends, at once and on every process, the sockets opened with these credentials (named by
   * `credentialKeys`). Call it after the commit that revoked them. Clients see `disconnect`
   * with reason "io server disconnect", after which Socket.IO does not reconnect by itself.
   */
  disconnectCredentials(keys: string[]): void;
  /**
   * Resolves once this process hears the emits of the others (the Redis adapter's
   * subscriptions are in place). An API that served sockets before that would miss the
   * events emitted meanwhile, so the app waits for it before it listens.
   */
  ready(): Promise<void>;
  /** Starts serving sockets on the HTTP server (API roles only). */
  attach(server: HttpServer): void;
  /**
   * At shutdown, before the HTTP server closes: ends every connection of this process and
   * refuses new ones. Clients see a transport close, so they reconnect (to another process).
   */
  disconnectLocal(): void;
  close(): Promise<void>;
}

export function createRealtime(opts: {
  namespace: string;
  authenticator: Authenticator;
  redis?: Redis;
  /**
   * Prefix of the adapter's pub/sub channels (REDIS_PREFIX). Without it the channels are the
   * adapter's default `socket.io#…`, shared by every deployment on the same Redis.
   */
  redisPrefix?: string;
  corsOrigins: string[];
  /**
   * How often open sockets have their credential checked again (0: never). Revocations
   * disconnect sockets at once through `disconnectCredentials`; this is the backstop for a
   * broadcast a process missed (its Redis connection was down) or a revocation made outside
   * the API (by hand in the database).
   */
  recheckIntervalMs?: number;
  /** Decides when an expiring credential's socket is closed (the platform's clock). */
  clock?: Clock;
  /** Where failed handshakes and connection handlers are reported (the platform's logger). */
  log?: { error(fields: Record<string, unknown>, message: string): void };
}): Realtime {
  const io = new Server({
    serveClient: false,
    cors: opts.corsOrigins.length
      ? { origin: opts.corsOrigins.includes('*') ? true : opts.corsOrigins }
      : undefined,
  });
  const log = opts.log ?? console;
  const redisClients: Redis[] = [];
  let sub: Redis | undefined;
  if (opts.redis) {
    const pub = ownConnection(opts.redis);
    sub = ownConnection(opts.redis);
    redisClients.push(pub, sub);
    // The adapter publishes without awaiting: while Redis is unreachable each emit's promise
    // rejects with nobody to catch it, and an unhandled rejection ends the process. The event
    // is lost either way (other processes cannot hear it), so it is logged, not fatal.
    const publish = pub.publish.bind(pub) as (channel: string, message: string | Buffer) => Promise<number>;
    (pub as unknown as { publish: typeof publish }).publish = (channel, message) =>
      publish(channel, message).catch((error: unknown) => {
        log.error({ err: error, channel: String(channel) }, 'realtime publish to Redis failed');
        return 0;
      });
    io.adapter(
      redisAdapter().createAdapter(
        pub,
        sub,
        opts.redisPrefix ? { key: `${opts.redisPrefix}:socket.io` } : {},
      ),
    );
  }
  const nsp = io.of(opts.namespace) as unknown as Namespace<
    Record<string, never>,
    Record<string, never>,
    Record<string, never>,
    SocketData
  >;
  const handlers: Array<(socket: RealtimeSocket) => void | Promise<void>> = [];

  // Runs on every connection, a reconnection included: nothing is trusted from before.
  nsp.use(async (socket, next) => {
    try {
      const raw = socket.handshake.auth?.token;
      const token = typeof raw === 'string' ? raw.replace(/^Bearer\s+/i, '') : undefined;
      const result = await opts.authenticator.authenticate(token);
      if (result.kind === 'user') {
        socket.data.principal = result.principal;
        return next();
      }
      if (result.kind === 'guest') {
        if (result.principal) {
          socket.data.principal = result.principal;
          return next();
        }
        return next(new Error(opts.authenticator.guestDeniedCode(result.prefix)));
      }
      next(new Error('AUTH_UNAUTHORIZED'));
    } catch (error) {
      // The client only learns INTERNAL_ERROR; the cause (say, the database is down) goes to the log.
      log.error({ err: error, socketId: socket.id }, 'realtime handshake failed');
      next(new Error('INTERNAL_ERROR'));
    }
  });
  // Socket.IO runs these outside any caller that could catch: a throw would be uncaught and
  // end the process, so one faulty connection handler could be used to stop the API.
  const handlerFailed = (socket: RealtimeSocket, error: unknown) => {
    log.error({ err: error, socketId: socket.id }, 'realtime connection handler failed');
    // Its handlers may be half-registered: a clean refusal beats a socket that half works.
    socket.disconnect(true);
  };
  nsp.on('connection', (socket) => {
    watchCredential(socket);
    for (const handler of handlers) {
      try {
        const result: unknown = handler(socket);
        if (result instanceof Promise) result.catch((error) => handlerFailed(socket, error));
      } catch (error) {
        return handlerFailed(socket, error);
      }
    }
  });
  // Socket.IO always serves the main namespace `/`, without this namespace's handshake: left
  // open, any client could hold a connection there with no credential at all.
  if (opts.namespace !== '/') io.of('/').use((_socket, next) => next(new Error('Invalid namespace')));

  // ----- a socket lives no longer than its credential -----
  const clock = opts.clock ?? systemClock;
  const credentialRoom = (key: string) => `credential:${key}`;
  const expiryTimers = new Map<string, NodeJS.Timeout>();
  // setTimeout takes at most 2^31-1 ms (24.8 days); a later expiry is re-armed on the way.
  const MAX_TIMER_MS = 2 ** 31 - 1;

  /** Closes the socket when its credential expires; re-armed after each recheck. */
  const armExpiry = (socket: RealtimeSocket) => {
    clearTimeout(expiryTimers.get(socket.id));
    expiryTimers.delete(socket.id);
    const expiresAt = credentialExpiryOf(socket.data.principal);
    if (!expiresAt || !socket.connected) return;
    const delay = Math.min(Math.max(expiresAt.getTime() - clock.now().getTime(), 0), MAX_TIMER_MS);
    const timer = setTimeout(() => {
      expiryTimers.delete(socket.id);
      void recheckSocket(socket);
    }, delay);
    timer.unref();
    expiryTimers.set(socket.id, timer);
  };

  /**
   * Reads the socket's credential again: gone (revoked, expired, account deactivated), the
   * socket is disconnected; the client sees `disconnect` with reason "io server disconnect"
   * and, rightly, does not reconnect by itself. A check that fails (say, the database is
   * briefly down) keeps the socket: the next one tries again.
   */
  async function recheckSocket(socket: RealtimeSocket): Promise<void> {
    if (!socket.connected) return;
    try {
      const now = await opts.authenticator.recheck(socket.data.principal);
      if (!socket.connected) return;
      if (!now) {
        socket.disconnect(true);
        return;
      }
      socket.data.principal = now;
      armExpiry(socket);
    } catch (error) {
      log.error({ err: error, socketId: socket.id }, 'realtime credential recheck failed');
      // An expiry that could not be confirmed is tried again a little later.
      if (!expiryTimers.has(socket.id)) {
        const retry = setTimeout(() => {
          expiryTimers.delete(socket.id);
          void recheckSocket(socket);
        }, 5_000);
        retry.unref();
        expiryTimers.set(socket.id, retry);
      }
    }
  }

  function watchCredential(socket: RealtimeSocket) {
    socket.on('disconnect', () => {
      clearTimeout(expiryTimers.get(socket.id));
      expiryTimers.delete(socket.id);
    });
    const key = credentialKeyOf(socket.data.principal);
    if (key) {
      // The room is local to this process (the Redis adapter's join is), so it is joined at once.
      void socket.join(credentialRoom(key));
      // A revocation committed between the handshake's check and this join found no socket in
      // the room: reading the credential once more now closes that window.
      void recheckSocket(socket);
    } else {
      armExpiry(socket);
    }
  }

  let recheckTimer: NodeJS.Timeout | undefined;
  let rechecking = false;
  const recheckSockets = async () => {
    for (const socket of [...nsp.sockets.values()]) {
      if (socket.data.principal) await recheckSocket(socket);
    }
  };
  const stopRechecks = () => {
    if (recheckTimer) clearInterval(recheckTimer);
    recheckTimer = undefined;
  };

  let attached = false;
  return {
    adapter: opts.redis ? 'redis' : 'memory',
    onConnection: (handler) => handlers.push(handler),
    emitToRoom: (room, event, payload) => {
      nsp.to(room).emit(event as never, payload as never);
    },
    disconnectCredentials: (keys) => {
      if (!keys.length) return;
      const rooms = keys.map(credentialRoom);
      // This process's sockets first, without waiting for Redis; then every process's (this
      // one's again, through the adapter, which finds them gone).
      nsp.local.in(rooms).disconnectSockets(true);
      if (opts.redis) nsp.in(rooms).disconnectSockets(true);
    },
    async currentPrincipal(socket) {
      const before = socket.data.principal;
      const now = await opts.authenticator.recheck(before);
      if (!now) {
        if (before.actor !== 'guest') throw httpErrors.unauthorized();
        const prefix = opts.authenticator.guestPrefixOf(before.token);
        throw new AppError(
          403,
          opts.authenticator.guestDeniedCode(prefix ?? ''),
          'The guest token is no longer valid',
        );
      }
      socket.data.principal = now;
      armExpiry(socket);
      return now;
    },
    // The adapter subscribed when the namespace was created; a connection answers its commands
    // in order, so the PING's answer comes after the subscriptions' (PING is allowed in
    // subscriber mode).
    ready: async () => {
      await sub?.ping();
    },
    attach: (server) => {
      io.attach(server);
      attached = true;
      if (opts.recheckIntervalMs && opts.recheckIntervalMs > 0) {
        recheckTimer = setInterval(() => {
          if (rechecking) return; // a slow round is not overtaken by the next one
          rechecking = true;
          void recheckSockets().finally(() => {
            rechecking = false;
          });
        }, opts.recheckIntervalMs);
        recheckTimer.unref();
      }
    },
    disconnectLocal: () => {
      stopRechecks();
      for (const timer of expiryTimers.values()) clearTimeout(timer);
      expiryTimers.clear();
      // Not `disconnectSockets()`: a server-side disconnect tells clients not to reconnect, so a
      // rolling restart would leave them offline. Closing the engine ends every connection,
      // those still in their handshake included, and refuses new upgrades.
      io.engine?.close();
    },
    async close() {
      stopRechecks();
      for (const timer of expiryTimers.values()) clearTimeout(timer);
      expiryTimers.clear();
      // io.close() also closes the HTTP server, which Fastify may have closed already. Without
      // an attached server (worker role) it has no engine and would throw: quitting the adapter's
      // Redis clients below is all there is to close.
      if (attached) await new Promise<void>((resolve) => io.close(() => resolve()));
      await Promise.all(redisClients.map((c) => c.quit().catch(() => {})));
    },
  };
}
