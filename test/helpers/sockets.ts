// Socket.IO client helpers shared by the realtime tests.
import type { Socket as ClientSocket } from 'socket.io-client';

/** How the handshake ended: connected, or refused with the connect_error message. */
export function handshake(client: ClientSocket): Promise<{ connected: true } | { refused: string }> {
  return new Promise((resolve) => {
    client.once('connect', () => resolve({ connected: true }));
    client.once('connect_error', (error) => resolve({ refused: error.message }));
  });
}
