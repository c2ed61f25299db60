// The server as an operator runs it: `node src/main.ts [role]` in a child process, read through
// its JSON log lines and exit code. The children use PGlite, so this runs in the embedded tier;
// the in-process shutdown test at the end runs in both.
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, expect, it, onTestFinished } from 'vitest';
import { access } from '../../src/platform/auth/access';
import { ok } from '../../src/platform/http/envelope';
import { createTestApp } from '../helpers/app';
import {
  freePort,
  type LogEntry,
  removeTempDirs,
  type ServerProcess,
  START_TIMEOUT,
  startServer,
  tempDir,
} from '../helpers/server-process';
import { servicesTier } from '../helpers/services';

const CHILD_TEST_TIMEOUT = 180_000;
afterAll(removeTempDirs);

async function baseEnv(dataDir: string) {
  const port = await freePort();
  return {
    port,
    env: {
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      // Far above the "promptly" bound below: an exit that waited for the timeout fails.
      SHUTDOWN_TIMEOUT_MS: '60000',
    },
  };
}

/** SIGTERM, then the exit; `ms` is how long the shutdown took. */
async function terminate(server: ServerProcess) {
  const started = Date.now();
  server.child.kill('SIGTERM');
  const result = await server.exited;
  return { ...result, ms: Date.now() - started };
}

const listeningLine = (entry: LogEntry) => /^Pasal API listening on /.test(entry.msg ?? '');

describe.skipIf(servicesTier)('server process (node src/main.ts)', { timeout: CHILD_TEST_TIMEOUT }, () => {
  // One data folder through its life, in order: each test starts from the folder the test
  // before left (creating a PGlite folder costs seconds, so it is made once).
  describe('one DATA_DIR, from empty to restarts', () => {
    let dataDir: string | undefined;
    const previous = () => {
      expect(dataDir, 'needs the first start above').toBeDefined();
      return dataDir!;
    };

    it('on an empty DATA_DIR: migrates, logs the docs URL, answers /health and /ready, creates the bootstrap admin, exits 0 on SIGTERM', async (ctx) => {
      dataDir = tempDir();
      const { port, env } = await baseEnv(dataDir);
      const server = startServer(ctx, ['all'], {
        ...env,
        BOOTSTRAP_ADMIN_EMAIL: 'owner@example.com',
        BOOTSTRAP_ADMIN_PASSWORD: 'a long enough password',
      });

      await server.waitForLog(listeningLine);
      const docsUrl = `http://localhost:${port}/docs`;
      const docsLines = server.logs.filter((entry) => entry.msg?.includes(docsUrl));
      expect(docsLines).toHaveLength(1);
      expect((await fetch(docsUrl)).status).toBe(200);

      const health = await fetch(`http://127.0.0.1:${port}/health`);
      expect(health.status).toBe(200);
      expect(await health.json()).toEqual({ message: 'OK', data: { status: 'ok' } });
      const ready = await fetch(`http://127.0.0.1:${port}/ready`);
      expect(ready.status).toBe(200);
      expect(await ready.json()).toEqual({
        message: 'OK',
        data: {
          database: 'up',
          redis: 'not_configured',
          paymentGateways: {
            gateway_card: 'sandbox',
            gateway_wallet_a: 'sandbox',
            gateway_wallet_b: 'sandbox',
            gateway_bank: 'sandbox',
          },
          sms: 'outbox',
          push: 'outbox',
        },
      });
      expect(server.logs.find((entry) => entry.msg === 'message providers')).toMatchObject({
        sms: 'outbox',
        push: 'outbox',
      });

      // The start-up line names the provider of each payment gateway (never a secret).
      expect(server.logs.find((entry) => entry.msg === 'payment gateways')).toMatchObject({
        paymentGateways: { gateway_card: 'sandbox', gateway_wallet_a: 'sandbox' },
      });
      const bootstrap = server.logs.find((entry) => entry.msg === 'bootstrap admin');
      expect(bootstrap).toMatchObject({ email: 'owner@example.com', outcome: 'created' });

      const stopped = await terminate(server);
      expect(stopped).toMatchObject({ code: 0, signal: null });
      expect(stopped.ms).toBeLessThan(5_000);
      expect(server.logs.map((entry) => entry.msg)).toContain('stopped');
    });

    it('restarted on the same DATA_DIR: the data survived (the bootstrap admin exists)', async (ctx) => {
      const { port, env } = await baseEnv(previous());
      const server = startServer(ctx, [], {
        ...env,
        BOOTSTRAP_ADMIN_EMAIL: 'owner@example.com',
        BOOTSTRAP_ADMIN_PASSWORD: 'a long enough password',
      });

      await server.waitForLog(listeningLine);
      const bootstrap = server.logs.find((entry) => entry.msg === 'bootstrap admin');
      expect(bootstrap).toMatchObject({ email: 'owner@example.com', outcome: 'exists' });
      expect((await fetch(`http://127.0.0.1:${port}/ready`)).status).toBe(200);

      expect(await terminate(server)).toMatchObject({ code: 0, signal: null });
    });

    it('a SIGTERM during start-up lets the step under way finish, then exits 0', async (ctx) => {
      const dir = previous();
      // Its re-creation, while the config loads (after the signal handlers are in place and
      // before the app and the database are loaded), tells that the start-up is under way.
      const secrets = path.join(dir, 'secrets.json');
      rmSync(secrets);
      const { env } = await baseEnv(dir);
      const server = startServer(ctx, ['all'], env);

      const deadline = Date.now() + START_TIMEOUT;
      while (!existsSync(secrets) && server.child.exitCode === null && Date.now() < deadline) await sleep(10);
      expect(existsSync(secrets), server.stderr()).toBe(true);

      const stopped = await terminate(server);
      expect(stopped, server.stderr()).toMatchObject({ code: 0, signal: null });
      expect(server.logs.map((entry) => entry.msg)).toContain('stopped');
      expect(server.logs.some(listeningLine)).toBe(false);
    });

    it('the worker role does not listen on PORT, stays up until SIGTERM, then exits 0', async (ctx) => {
      const { port, env } = await baseEnv(previous());
      const server = startServer(ctx, ['worker'], env);

      await server.waitForLog((entry) => /^Pasal worker running/.test(entry.msg ?? ''));
      const refused = await new Promise<string | undefined>((resolve) => {
        const socket = net.connect(port, '127.0.0.1');
        socket.once('connect', () => {
          socket.destroy();
          resolve(undefined);
        });
        socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code));
      });
      expect(refused).toBe('ECONNREFUSED');
      expect(server.logs.some(listeningLine)).toBe(false);

      // Nothing to serve, so only its jobs and schedules keep it running: it must not just end.
      await sleep(500);
      expect(server.child.exitCode).toBeNull();

      const stopped = await terminate(server);
      expect(stopped, server.stderr()).toMatchObject({ code: 0, signal: null });
      expect(server.logs.map((entry) => entry.msg)).toContain('stopped');
    });
  });

  // Each of these stops before opening anything: cheap children, run side by side.
  describe.concurrent('refusing to start', () => {
    it('an unknown role exits 2 and names the allowed roles', async (ctx) => {
      const server = startServer(ctx, ['web'], { DATA_DIR: tempDir() });
      ctx.expect(await server.exited).toEqual({ code: 2, signal: null });
      ctx.expect(server.stderr()).toContain('Unknown role "web"');
      ctx.expect(server.stderr()).toMatch(/api, worker, all/);
    });

    it('PORT=abc exits 1 naming PORT', async (ctx) => {
      const server = startServer(ctx, [], { DATA_DIR: tempDir(), PORT: 'abc' });
      ctx.expect(await server.exited).toEqual({ code: 1, signal: null });
      ctx.expect(server.stderr()).toMatch(/^\s*PORT: /m);
    });

    it('NODE_ENV=production without JWT_SECRET exits 1 naming JWT_SECRET', async (ctx) => {
      const server = startServer(ctx, [], {
        DATA_DIR: tempDir(),
        NODE_ENV: 'production',
        URL_SIGNING_SECRET: 'a-url-signing-secret-that-is-long-enough',
      });
      ctx.expect(await server.exited).toEqual({ code: 1, signal: null });
      ctx.expect(server.stderr()).toMatch(/^\s*JWT_SECRET: .*production/m);
      ctx.expect(server.stderr()).not.toContain('URL_SIGNING_SECRET');
    });

    it('reads .env in the working directory, and a real environment variable wins over it', async (ctx) => {
      const cwd = tempDir();
      writeFileSync(path.join(cwd, '.env'), 'JOBS_CONCURRENCY=many\nWS_NAMESPACE=no-leading-slash\n');
      // The bad PORT makes the child exit even if .env were ignored, so a regression fails fast.
      const server = startServer(
        ctx,
        [],
        { DATA_DIR: tempDir(), PORT: 'abc', WS_NAMESPACE: '/realtime' },
        cwd,
      );
      ctx.expect(await server.exited).toEqual({ code: 1, signal: null });
      ctx.expect(server.stderr()).toMatch(/^\s*PORT: /m);
      ctx.expect(server.stderr()).toMatch(/^\s*JOBS_CONCURRENCY: /m);
      ctx.expect(server.stderr()).not.toContain('WS_NAMESPACE');
    });
  });
});

describe('graceful shutdown (in process)', () => {
  // Over a real socket: app.inject bypasses the HTTP server, so app.close() would not wait for
  // an injected request and the test could not tell a graceful close from an abrupt one.
  it('app.close() waits for an in-flight request, which completes with 200', async () => {
    let entered!: () => void;
    const inHandler = new Promise<void>((resolve) => {
      entered = resolve;
    });
    const order: string[] = [];
    const t = await createTestApp({
      testRoutes: (app) => {
        // Server side, so the order against close() does not depend on when fetch reads the body.
        app.addHook('onResponse', async () => {
          order.push('response sent');
        });
        app.get('/api/test/slow', { config: { access: access.public() } }, async () => {
          entered();
          await sleep(300);
          return ok({ done: true });
        });
      },
    });
    onTestFinished(async () => {
      // When the close hangs, this ends it now instead of after the keep-alive timeout.
      t.app.server.closeAllConnections();
      await t.close();
    });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as net.AddressInfo;

    const inFlight = fetch(`http://127.0.0.1:${port}/api/test/slow`).then(async (res) => ({
      status: res.status,
      body: await res.json(),
    }));
    await inHandler;
    const closed = t.app.close().then(() => order.push('closed'));

    expect(await inFlight).toEqual({ status: 200, body: { message: 'OK', data: { done: true } } });
    // The client keeps its connection alive: close() must not wait for the keep-alive timeout
    // (72 s), far beyond SHUTDOWN_TIMEOUT_MS, once the response is out.
    const outcome = await Promise.race([closed.then(() => 'closed'), sleep(5_000).then(() => 'still open')]);
    expect(outcome).toBe('closed');
    expect(order).toEqual(['response sent', 'closed']);
  });
});
