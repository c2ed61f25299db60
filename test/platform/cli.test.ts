// The operator CLI (`src/cli.ts`) in a child process, on an embedded PGlite data folder that
// the test opens afterwards to check what the command wrote.
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, inject, it, type TestContext } from 'vitest';
import { openPglite, pgliteExtensions } from '../../src/platform/db/database';
import { servicesTier } from '../helpers/services';

const root = path.resolve(import.meta.dirname, '../..');
const tsxLoader = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
// Generous: a child spends seconds loading and creating a PGlite data folder, and several
// times that on a busy machine (the whole suite runs files side by side).
const CHILD_TEST_TIMEOUT = 120_000;

const tempDirs: string[] = [];
afterAll(() => {
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
});
function tempDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'pasal-cli-'));
  tempDirs.push(dir);
  return dir;
}

interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
  /** stdout's pino lines. */
  logs: Array<Record<string, unknown>>;
}

/** Runs the CLI to its end, in a temporary working folder so no `.env` leaks in. */
function cli(ctx: Pick<TestContext, 'onTestFinished'>, dataDir: string, args: string[]): Promise<CliResult> {
  const child = spawn(process.execPath, ['--import', tsxLoader, path.join(root, 'src/cli.ts'), ...args], {
    cwd: tempDir(),
    env: {
      PATH: process.env.PATH ?? '',
      TSX_TSCONFIG_PATH: path.join(root, 'tsconfig.json'),
      DATA_DIR: dataDir,
      LOG_LEVEL: 'info',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  ctx.onTestFinished(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => {
      const logs = stdout
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line));
      resolve({ code, stdout, stderr, logs });
    });
  });
}

/**
 * A data folder whose database is as new (no schema, no migration applied), without the
 * seconds PGlite spends creating one: the suite's migrated template, emptied.
 */
async function emptyDatabaseDir(): Promise<string> {
  const dir = tempDir();
  const client = await PGlite.create(path.join(dir, 'db'), {
    loadDataDir: new Blob([readFileSync(inject('pgliteSnapshot'))]),
    extensions: pgliteExtensions,
  });
  await client.exec('drop schema drizzle cascade; drop schema public cascade; create schema public;');
  await client.close();
  return dir;
}

async function query<T>(dataDir: string, sql: string, params: unknown[] = []): Promise<T[]> {
  // The CLI has exited: PGlite allows one process per data folder.
  const client = await openPglite(path.join(dataDir, 'db'));
  try {
    return (await client.query<T>(sql, params)).rows;
  } finally {
    await client.close();
  }
}

describe.skipIf(servicesTier)('cli (node src/cli.ts)', { timeout: CHILD_TEST_TIMEOUT }, () => {
  // One data folder for the file: db:migrate fills it, then the admin commands use it.
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await emptyDatabaseDir();
  });

  it('db:migrate on an empty database exits 0 and applies every migration', async (ctx) => {
    const result = await cli(ctx, dataDir, ['db:migrate']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.logs).toContainEqual(
      expect.objectContaining({ msg: 'migrations applied', driver: 'pglite' }),
    );

    const journal = JSON.parse(readFileSync(path.join(root, 'drizzle/meta/_journal.json'), 'utf8'));
    const [applied] = await query<{ count: number }>(
      dataDir,
      'select count(*)::int as count from drizzle.__drizzle_migrations',
    );
    expect(applied!.count).toBe(journal.entries.length);
  });

  it('admin:create creates a superadmin with an argon2id hash; the same email again exits 1 with AUTH_EMAIL_ALREADY_EXISTS', async (ctx) => {
    const args = ['admin:create', '--email', 'a@example.com', '--password', 'longpassword'];
    const created = await cli(ctx, dataDir, args);
    expect(created.code, created.stderr).toBe(0);
    const line = created.logs.find((entry) => entry.msg === 'admin created');
    expect(line).toMatchObject({ email: 'a@example.com', role: 'superadmin' });
    expect(line?.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(created.stdout).not.toContain('longpassword');

    const again = await cli(ctx, dataDir, args);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('AUTH_EMAIL_ALREADY_EXISTS');

    const rows = await query<{ id: string; role: string; password_hash: string; email_verified: boolean }>(
      dataDir,
      'select id, role, password_hash, email_verified from users where email = $1',
      ['a@example.com'],
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ id: line?.id, role: 'superadmin', email_verified: true });
    expect(rows[0]!.password_hash).toMatch(/^\$argon2id\$/);
  });

  it('admin:create with an unknown --role exits 1 with ROLE_NOT_FOUND and creates nobody', async (ctx) => {
    const result = await cli(ctx, dataDir, [
      'admin:create',
      '--email',
      'b@example.com',
      '--password',
      'longpassword',
      '--role',
      'no-such-role',
    ]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('ROLE_NOT_FOUND');
    expect(await query(dataDir, 'select id from users where email = $1', ['b@example.com'])).toEqual([]);
  });

  describe('bad arguments exit 1 with the usage, before touching DATA_DIR', () => {
    const cases: Array<[string, string[], RegExp]> = [
      [
        'missing --password',
        ['admin:create', '--email', 'a@example.com'],
        /--email and --password are required/,
      ],
      [
        'a bad email',
        ['admin:create', '--email', 'not-an-email', '--password', 'longpassword'],
        /not an email/,
      ],
      [
        'a 5-character password',
        ['admin:create', '--email', 'a@example.com', '--password', 'short'],
        /8 to 128/,
      ],
      ['an unknown option', ['admin:create', '--email', 'a@example.com', '--pasword', 'x'], /--pasword/],
    ];
    it.concurrent.for(cases)('%s', async ([, args, message], ctx) => {
      const empty = tempDir();
      const result = await cli(ctx, empty, args);
      ctx.expect(result.code).toBe(1);
      ctx.expect(result.stderr).toMatch(message);
      ctx.expect(result.stderr).toContain('Usage:');
      ctx.expect(readdirSync(empty)).toEqual([]);
    });
  });
});
