// The live channel: one Socket.IO connection per signed-in console to the API's realtime
// namespace, authenticated with the session's access token. Screens that show live data (the
// support inbox) use it; the connection opens with the first such screen and closes with the
// last one, or when the session ends.
//
//   const live = useLiveEvents();
//   useLiveEvent(live, 'support.inquiry_message.created', (envelope) => …);
//   // after every (re)connect: join the rooms again, and sync each from the last `seq` seen,
//   // so messages sent while the socket was away are replayed (`gap: true` → reload by REST).
//   useEffect(() => { if (live.connected) void liveCall(live.socket, 'support:join_inquiry_messages', { supportInquiryId }); }, [live.connected]);
//
// The API's rules (src/platform/realtime/realtime.ts): the token goes in the handshake's
// `auth.token`; a refused handshake fails with the errorCode as its message; a socket whose
// session ends or whose access token expires is closed by the server ("io server disconnect"),
// after which Socket.IO does not reconnect by itself. Here both cases refresh the tokens (as
// the HTTP client does) and connect again; a refused refresh ends the session.
import type { PasalClient } from '@pasal/client';
import { useEffect, useRef, useState } from 'react';
import { io, type Socket } from 'socket.io-client';
import { useSession } from '../session/session';

/** The API's WS_NAMESPACE (its default); Socket.IO's transport path is the default /socket.io. */
export const REALTIME_NAMESPACE = '/realtime';

export interface LiveConnection {
  /** Null until the session is signed in. */
  socket: Socket | null;
  connected: boolean;
  /** The errorCode of the last refused handshake, until a connection succeeds. */
  refusedWith: string | null;
}

/** The envelope of every server event (docs/decisions.md, "Realtime order" and "Realtime delivery"). */
export interface LiveEnvelope<Data = Record<string, unknown>> {
  eventId: string;
  eventType: string;
  occurredAt: string;
  seq?: number;
  data: Data;
}

/** The answer of a client call, through its acknowledgement. */
export type LiveCallAnswer<T = Record<string, unknown>> =
  | ({ ok: true } & T)
  | { ok: false; errorCode: string };

interface Shared {
  socket: Socket;
  users: number;
}
const connections = new WeakMap<PasalClient, Shared>();

function open(client: PasalClient): Socket {
  const socket = io(REALTIME_NAMESPACE, {
    // A function: every (re)connection sends the access token of that moment.
    auth: (send) => send({ token: client.tokens?.accessToken ?? '' }),
    // WebSocket only: long-polling would need sticky sessions across API processes.
    transports: ['websocket'],
  });
  // One refresh per failure: if the fresh token is refused too, Socket.IO's own retry takes over.
  let refreshedSinceConnect = false;
  const refreshAndReconnect = () => {
    if (refreshedSinceConnect || !client.tokens) return;
    refreshedSinceConnect = true;
    client.refresh().then(
      () => socket.connect(),
      // A refused refresh ends the session (the client forgets its tokens; the console shows
      // "Your session has ended"), which closes this socket.
      () => {},
    );
  };
  socket.on('connect', () => {
    refreshedSinceConnect = false;
  });
  socket.on('connect_error', (error) => {
    if (error.message === 'AUTH_UNAUTHORIZED') refreshAndReconnect();
  });
  socket.on('disconnect', (reason) => {
    if (reason === 'io server disconnect') refreshAndReconnect();
  });
  return socket;
}

function acquire(client: PasalClient): Socket {
  let shared = connections.get(client);
  if (!shared) {
    shared = { socket: open(client), users: 0 };
    connections.set(client, shared);
  }
  shared.users += 1;
  return shared.socket;
}

function release(client: PasalClient): void {
  const shared = connections.get(client);
  if (!shared) return;
  shared.users -= 1;
  if (shared.users === 0) {
    shared.socket.disconnect();
    connections.delete(client);
  }
}

export function useLiveEvents(): LiveConnection {
  const { client, status } = useSession();
  const [state, setState] = useState<LiveConnection>({ socket: null, connected: false, refusedWith: null });

  useEffect(() => {
    if (status !== 'signed-in') {
      setState({ socket: null, connected: false, refusedWith: null });
      return;
    }
    const socket = acquire(client);
    const onConnect = () => setState({ socket, connected: true, refusedWith: null });
    const onDisconnect = () => setState((s) => ({ ...s, socket, connected: false }));
    const onRefused = (error: Error) => setState({ socket, connected: false, refusedWith: error.message });
    socket.on('connect', onConnect);
    socket.on('disconnect', onDisconnect);
    socket.on('connect_error', onRefused);
    setState({ socket, connected: socket.connected, refusedWith: null });
    return () => {
      socket.off('connect', onConnect);
      socket.off('disconnect', onDisconnect);
      socket.off('connect_error', onRefused);
      release(client);
    };
  }, [client, status]);

  return state;
}

/** Calls `handler` for each `event` the server sends on the connection. */
export function useLiveEvent<Data = Record<string, unknown>>(
  connection: LiveConnection,
  event: string,
  handler: (envelope: LiveEnvelope<Data>) => void,
): void {
  // The latest handler, without re-subscribing on every render.
  const latest = useRef(handler);
  latest.current = handler;
  const { socket } = connection;
  useEffect(() => {
    if (!socket) return;
    const listener = (envelope: LiveEnvelope<Data>) => latest.current(envelope);
    socket.on(event, listener);
    return () => {
      socket.off(event, listener);
    };
  }, [socket, event]);
}

/** A client call (join, leave, sync) answered through the acknowledgement, within `timeoutMs`. */
export async function liveCall<T = Record<string, unknown>>(
  socket: Socket,
  event: string,
  payload: unknown,
  timeoutMs = 10_000,
): Promise<LiveCallAnswer<T>> {
  try {
    return (await socket.timeout(timeoutMs).emitWithAck(event, payload)) as LiveCallAnswer<T>;
  } catch {
    return { ok: false, errorCode: 'TIMEOUT' };
  }
}
