// Socket.IO client helpers shared by the realtime tests.
import type { Socket as ClientSocket } from 'socket.io-client';

/**
 * How the handshake ended: connected, or refused with the connect_error message. A client that
 * has already connected (its handshake ended while the test awaited another one) counts as
 * connected: waiting for a `connect` that has already happened would hang the test.
 */
export function handshake(client: ClientSocket): Promise<{ connected: true } | { refused: string }> {
  return new Promise((resolve) => {
    if (client.connected) return resolve({ connected: true });
    client.once('connect', () => resolve({ connected: true }));
    client.once('connect_error', (error) => resolve({ refused: error.message }));
  });
}
