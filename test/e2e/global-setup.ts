// Starts the store the end-to-end tests drive, as an operator would: `npm run seed:demo` on an
// empty data directory (or a fresh PostgreSQL database), then `npm start`, which builds the
// server and the console when they are missing or stale. Returns the teardown.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { e2eBaseUrl, e2ePort } from './server';

async function freshDatabase(url: string): Promise<void> {
  const target = new URL(url);
  const name = target.pathname.slice(1);
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await client.query(`CREATE DATABASE "${name}"`);
  } finally {
    await client.end();
  }
}

async function waitUntilReady(server: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`npm start exited with ${server.exitCode}`);
    try {
      const answer = await fetch(`${e2eBaseUrl()}/ready`);
      if (answer.ok) return;
    } catch {
      // not listening yet
    }
    await sleep(250);
  }
  throw new Error(`the server did not become ready within ${timeoutMs} ms`);
}

export default async function globalSetup(): Promise<() => Promise<void>> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'pasal-e2e-'));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'development',
    LOG_LEVEL: 'warn',
    HOST: '127.0.0.1',
    PORT: String(e2ePort()),
    // File URLs the API hands out (uploads) carry this origin; it must be the page's own.
    PUBLIC_BASE_URL: e2eBaseUrl(),
    DATA_DIR: dataDir,
    // The webhooks spec's receiver listens on 127.0.0.1.
    WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
    // Nepal tax invoices, as seed:demo issues them (its demo seller PAN): the tax screens' spec
    // issues and returns documents at run time.
    TAX_INVOICES_ENABLED: 'true',
    SELLER_PAN: '600000001',
    // A spec that writes near a per-address limit (the blog's 10 writes a minute) sends each
    // try from its own X-Forwarded-For; everything else still comes from 127.0.0.1 itself.
    TRUST_PROXY: '127.0.0.1',
  };
  delete env.DATABASE_URL;
  delete env.REDIS_URL;
  if (process.env.E2E_DATABASE_URL) {
    await freshDatabase(process.env.E2E_DATABASE_URL);
    env.DATABASE_URL = process.env.E2E_DATABASE_URL;
  }
  if (process.env.E2E_REDIS_URL) {
    env.REDIS_URL = process.env.E2E_REDIS_URL;
    env.REDIS_PREFIX = `pasal-e2e-${process.pid}`;
  }
  execFileSync('npm', ['run', '--silent', 'seed:demo'], { env, stdio: 'inherit' });
  // Its own process group, so the teardown stops npm and the server under it together.
  const server = spawn('npm', ['start', '--silent'], {
    env,
    stdio: ['ignore', 'inherit', 'inherit'],
    detached: true,
  });
  try {
    await waitUntilReady(server, 180_000);
  } catch (error) {
    if (server.pid) process.kill(-server.pid, 'SIGKILL');
    throw error;
  }
  return async () => {
    if (server.pid && server.exitCode === null) {
      const exited = new Promise((resolve) => server.once('exit', resolve));
      process.kill(-server.pid, 'SIGTERM');
      await Promise.race([exited, sleep(15_000)]);
      if (server.exitCode === null) process.kill(-server.pid, 'SIGKILL');
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
}
