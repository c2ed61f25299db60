// The embedded database lives in one process: PGlite takes no lock on its folder, and a second
// process opening it would corrupt it. So a server on the embedded database listens on a Unix
// socket in DATA_DIR (owner-only, like the data folder itself), and operator commands that need
// the database while it runs (`db:backup`) ask it there instead of opening the folder.
import { chmodSync, existsSync, rmSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';

export const controlSocketPath = (dataDir: string) => path.join(path.resolve(dataDir), 'control.sock');

export type ControlRequest = { command: 'backup'; out?: string; withFiles?: boolean };
export type ControlAnswer = { ok: true; result: unknown } | { ok: false; error: string };

export interface ControlServer {
  close(): Promise<void>;
}

/** One JSON request per connection, one JSON answer. */
export async function serveControlSocket(
  socketPath: string,
  handle: (request: ControlRequest) => Promise<unknown>,
): Promise<ControlServer> {
  // A socket file left by a process that died: nobody answers on it, so it can go.
  if (existsSync(socketPath) && !(await isAnswering(socketPath))) rmSync(socketPath, { force: true });
  const server = net.createServer((socket) => {
    let text = '';
    socket.setEncoding('utf8');
    socket.on('data', async (chunk: string) => {
      text += chunk;
      if (!text.includes('\n')) return;
      let answer: ControlAnswer;
      try {
        answer = { ok: true, result: await handle(JSON.parse(text) as ControlRequest) };
      } catch (error) {
        answer = { ok: false, error: error instanceof Error ? error.message : String(error) };
      }
      socket.end(`${JSON.stringify(answer)}\n`);
    });
    socket.on('error', () => {});
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(socketPath, () => resolve());
  });
  chmodSync(socketPath, 0o600);
  return {
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        rmSync(socketPath, { force: true });
      }),
  };
}

function isAnswering(socketPath: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(socketPath);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** Whether a server on this data folder is running (its socket answers). */
export const serverIsRunning = (dataDir: string) => {
  const socketPath = controlSocketPath(dataDir);
  return existsSync(socketPath) ? isAnswering(socketPath) : Promise.resolve(false);
};

/** Asks the running server; undefined when none answers on the socket. */
export async function askServer(
  dataDir: string,
  request: ControlRequest,
): Promise<ControlAnswer | undefined> {
  if (!(await serverIsRunning(dataDir))) return undefined;
  return new Promise((resolve, reject) => {
    const socket = net.connect(controlSocketPath(dataDir));
    let text = '';
    socket.setEncoding('utf8');
    socket.on('connect', () => socket.write(`${JSON.stringify(request)}\n`));
    socket.on('data', (chunk: string) => {
      text += chunk;
    });
    socket.on('end', () => {
      try {
        resolve(JSON.parse(text) as ControlAnswer);
      } catch {
        reject(new Error('The running server gave no answer'));
      }
    });
    socket.on('error', reject);
  });
}
