// Socket.IO on the API's HTTP server, one namespace (WS_NAMESPACE). The handshake takes the
// credential from `auth.token` (admin JWT, customer JWT or a guest token) and refuses a bad
// one with `connect_error` whose message is the errorCode. With Redis, the adapter carries
// room emits between processes, so a write on one API process reaches sockets on another.
import type { Server as HttpServer } from 'node:http';
import { createAdapter } from '@socket.io/redis-adapter';
import type { Redis } from 'ioredis';
import { type Namespace, Server, type Socket } from 'socket.io';
import type { Authenticator } from '../auth/authenticator';
import type { Principal } from '../auth/principal';

export interface SocketData {
  principal: Principal;
}

export type RealtimeSocket = Socket<
  Record<string, never>,
  Record<string, never>,
  Record<string, never>,
  SocketData
>;

export interface Realtime {
  readonly adapter: 'memory' | 'redis';
  /** Modules add their event handlers to each authenticated socket here. */
  onConnection(handler: (socket: RealtimeSocket) => void): void;
  emitToRoom(room: string, event: string, payload: unknown): void;
  /** Starts serving sockets on the HTTP server (API roles only). */
  attach(server: HttpServer): void;
  /** Disconnects this process's sockets (at shutdown, before the HTTP server closes). */
  disconnectLocal(): void;
  close(): Promise<void>;
}

export function createRealtime(opts: {
  namespace: string;
  authenticator: Authenticator;
  redis?: Redis;
  corsOrigins: string[];
}): Realtime {
  const io = new Server({
    serveClient: false,
    cors: opts.corsOrigins.length
      ? { origin: opts.corsOrigins.includes('*') ? true : opts.corsOrigins }
      : undefined,
  });
  const redisClients: Redis[] = [];
  if (opts.redis) {
    const pub = opts.redis.duplicate();
    const sub = opts.redis.duplicate();
    redisClients.push(pub, sub);
    io.adapter(createAdapter(pub, sub));
  }
  const nsp = io.of(opts.namespace) as unknown as Namespace<
    Record<string, never>,
    Record<string, never>,
    Record<string, never>,
    SocketData
  >;
  const handlers: Array<(socket: RealtimeSocket) => void> = [];

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
    } catch {
      next(new Error('INTERNAL_ERROR'));
    }
  });
  nsp.on('connection', (socket) => {
    for (const handler of handlers) handler(socket);
  });

  return {
    adapter: opts.redis ? 'redis' : 'memory',
    onConnection: (handler) => handlers.push(handler),
    emitToRoom: (room, event, payload) => {
      nsp.to(room).emit(event as never, payload as never);
    },
    attach: (server) => {
      io.attach(server);
    },
    disconnectLocal: () => {
      nsp.local.disconnectSockets(true);
    },
    async close() {
      // io.close() also closes the HTTP server, which Fastify may have closed already.
      await new Promise<void>((resolve) => io.close(() => resolve()));
      await Promise.all(redisClients.map((c) => c.quit().catch(() => {})));
    },
  };
}
