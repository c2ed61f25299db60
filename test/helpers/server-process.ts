// Pasal as an operator runs it: `node src/main.ts [role]` in a child process (through tsx, the
// same code `node dist/main.js` runs bundled), read through its JSON log lines and exit code.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { TestContext } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const tsxLoader = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
// Generous: a child spends seconds loading the app and creating a PGlite data folder, and
// several times that on a busy machine (the whole suite runs files side by side; Node 24 creates
// a PGlite data folder more slowly than Node 20 here).
export const START_TIMEOUT = 90_000;

export type LogEntry = Record<string, unknown> & { msg?: string };

export interface ServerProcess {
  child: ChildProcess;
  logs: LogEntry[];
  stderr(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  waitForLog(match: (entry: LogEntry) => boolean, timeoutMs?: number): Promise<LogEntry>;
}

const tempDirs: string[] = [];
/** Removes the folders tempDir() made; call it in the test file's afterAll. */
export function removeTempDirs(): void {
  for (const dir of tempDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
}
export function tempDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'pasal-process-'));
  tempDirs.push(dir);
  return dir;
}

export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * Starts `src/main.ts` with only the given environment, in `cwd` (a temporary folder by
 * default, so a developer's `.env` in the repository does not leak in). The child is killed
 * when the test ends, whatever happened.
 */
export function startServer(
  ctx: Pick<TestContext, 'onTestFinished'>,
  args: string[],
  env: Record<string, string>,
  cwd = tempDir(),
): ServerProcess {
  const child = spawn(process.execPath, ['--import', tsxLoader, path.join(root, 'src/main.ts'), ...args], {
    cwd,
    env: { PATH: process.env.PATH ?? '', TSX_TSCONFIG_PATH: path.join(root, 'tsconfig.json'), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logs: LogEntry[] = [];
  const listeners = new Set<() => void>();
  let stderr = '';
  let pending = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
    pending += chunk;
    const lines = pending.split('\n');
    pending = lines.pop()!;
    for (const line of lines) {
      try {
        logs.push(JSON.parse(line));
      } catch {
        logs.push({ msg: line });
      }
    }
    for (const listener of listeners) listener();
  });
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );

  ctx.onTestFinished(async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL');
      await exited;
    }
  });

  const waitForLog = (match: (entry: LogEntry) => boolean, timeoutMs = START_TIMEOUT) =>
    new Promise<LogEntry>((resolve, reject) => {
      const done = (fn: () => void) => {
        clearTimeout(timer);
        listeners.delete(check);
        fn();
      };
      const check = () => {
        const found = logs.find(match);
        if (found) done(() => resolve(found));
      };
      const timer = setTimeout(
        () => done(() => reject(new Error(`no such log line in ${timeoutMs} ms; stderr:\n${stderr}`))),
        timeoutMs,
      );
      listeners.add(check);
      void exited.then(({ code, signal }) => {
        check();
        done(() => reject(new Error(`exited (${code ?? signal}) before the log line; stderr:\n${stderr}`)));
      });
      check();
    });

  return { child, logs, stderr: () => stderr, exited, waitForLog };
}
