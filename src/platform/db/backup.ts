// Backups of either database as gzip-compressed plain SQL that `psql` loads: the embedded one
// through PGlite's own pg_dump build (@electric-sql/pglite-tools, inside the process that holds
// the data folder), PostgreSQL through the machine's `pg_dump`. Rows are written as multi-row
// INSERTs rather than COPY, so one file loads into either database (PGlite has no COPY FROM stdin).
import { spawn, spawnSync } from 'node:child_process';
import {
  createReadStream,
  createWriteStream,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip, createGzip, gunzipSync, gzipSync } from 'node:zlib';
import type { PGlite } from '@electric-sql/pglite';
import pg from 'pg';

/** `pasal-YYYYMMDD-HHmmss.sql.gz`, UTC: names sort by age, and retention counts only these. */
export const BACKUP_FILE = /^pasal-\d{8}-\d{6}\.sql\.gz$/;
/** The uploads archive `--with-files` writes beside a dump: `<dump name without .sql.gz>.files.tar.gz`. */
export const filesArchiveOf = (dumpFile: string) => `${dumpFile.replace(/\.sql\.gz$/, '')}.files.tar.gz`;

export function backupFileName(at: Date): string {
  const iso = at.toISOString(); // 2026-11-29T01:48:56.123Z
  return `pasal-${iso.slice(0, 10).replaceAll('-', '')}-${iso.slice(11, 19).replaceAll(':', '')}.sql.gz`;
}

export type BackupSource = { driver: 'pglite'; client: PGlite } | { driver: 'postgres'; url: string };

export interface BackupResult {
  file: string;
  bytes: number;
  tables: number;
  filesArchive?: string;
  ms: number;
}

export class BackupError extends Error {
  override name = 'BackupError';
}

// Options both dumps take: no owners or grants (the target's role differs: PGlite's postgres,
// a hosting provider's user), rows as INSERTs of up to 1000 rows (loadable by PGlite, fast in psql).
const DUMP_ARGS = ['--no-owner', '--no-privileges', '--rows-per-insert=1000'];

/** A pg_dump newer than 16 writes this setting, which PostgreSQL 15 and older refuse. */
const dropNewerSettings = (line: string) => line !== 'SET transaction_timeout = 0;';
const countsTable = (line: string) => line.startsWith('CREATE TABLE ');

/** A simple-query protocol message, for statements sent while PGlite's own mutexes are held. */
function simpleQuery(text: string): Uint8Array {
  const body = Buffer.from(`${text}\0`, 'utf8');
  const message = Buffer.alloc(5 + body.length);
  message.write('Q', 0);
  message.writeInt32BE(4 + body.length, 1);
  body.copy(message, 5);
  return new Uint8Array(message);
}

/**
 * The embedded database as SQL, one snapshot. pg_dump's wasm build talks to this PGlite through
 * its single session, so the dump holds PGlite's transaction mutex: no request's transaction is
 * open while it runs (it would otherwise see that transaction's uncommitted rows), and requests
 * wait for it. Afterwards the session is put back as pg_dump found it: its transaction rolled
 * back (pg_dump leaves it open), its settings (an empty search_path) reset.
 */
export async function dumpPglite(client: PGlite): Promise<string> {
  const { pgDump } = await import('@electric-sql/pglite-tools/pg_dump');
  const internal = client as unknown as {
    _runExclusiveTransaction<T>(fn: () => Promise<T>): Promise<T>;
    execProtocolRaw(message: Uint8Array): Promise<Uint8Array>;
  };
  const searchPath = (await client.query<{ search_path: string }>('show search_path')).rows[0]?.search_path;
  // What pgDump calls on the instance besides the wire protocol, answered without the mutex it
  // would otherwise wait for: the search_path read above, and its own clean-up (done below).
  const session = {
    query: async () => ({ rows: [{ search_path: searchPath }] }),
    exec: async () => [],
    execProtocolRawStream: client.execProtocolRawStream.bind(client),
  } as unknown as PGlite;
  const file = await internal._runExclusiveTransaction(async () => {
    try {
      return await pgDump({ pg: session, args: DUMP_ARGS });
    } finally {
      for (const statement of ['ROLLBACK', 'RESET ALL', 'DEALLOCATE ALL']) {
        await internal.execProtocolRaw(simpleQuery(statement));
      }
    }
  });
  return (await file.text()).split('\n').filter(dropNewerSettings).join('\n');
}

/** The major version of the machine's `pg_dump`, or undefined when there is none. */
export function pgToolVersion(tool: 'pg_dump' | 'psql'): number | undefined {
  const run = spawnSync(tool, ['--version'], { encoding: 'utf8' });
  const match = run.status === 0 ? /(\d+)(?:\.\d+)?/.exec(run.stdout) : null;
  return match ? Number(match[1]) : undefined;
}

/** Lines of a text stream, filtered, with the `CREATE TABLE`s counted. */
function sqlLines(counter: { tables: number }): Transform {
  let rest = '';
  const keep = (line: string) => {
    if (countsTable(line)) counter.tables += 1;
    return dropNewerSettings(line);
  };
  return new Transform({
    transform(chunk: Buffer, _enc, done) {
      const lines = (rest + chunk.toString('utf8')).split('\n');
      rest = lines.pop() ?? '';
      done(
        null,
        lines
          .filter(keep)
          .map((l) => `${l}\n`)
          .join(''),
      );
    },
    flush(done) {
      done(null, rest && keep(rest) ? rest : '');
    },
  });
}

async function dumpPostgresTo(url: string, partial: string): Promise<number> {
  if (pgToolVersion('pg_dump') === undefined) {
    throw new BackupError(
      'pg_dump was not found: install the PostgreSQL client tools of your server version (or newer), e.g. `apt-get install postgresql-client-15`',
    );
  }
  // pg_dump reads one snapshot of the whole database (its transaction is REPEATABLE READ).
  const child = spawn('pg_dump', [...DUMP_ARGS, '--dbname', url], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  const exited = new Promise<number>((resolve) => child.on('close', (code) => resolve(code ?? 1)));
  const counter = { tables: 0 };
  await pipeline(child.stdout, sqlLines(counter), createGzip(), createWriteStream(partial));
  const code = await exited;
  if (code !== 0) throw new BackupError(`pg_dump failed (exit ${code}): ${stderr.trim().slice(0, 2000)}`);
  return counter.tables;
}

/**
 * Writes a backup: `out`, or a new `pasal-….sql.gz` in `dir`. The file appears only complete
 * (written beside it, then renamed), so a crash never leaves a dump that looks whole.
 */
export async function makeBackup(opts: {
  source: BackupSource;
  dir: string;
  out?: string;
  /** The local uploads folder, archived beside the dump. */
  filesDir?: string;
  now: Date;
}): Promise<BackupResult> {
  const started = performance.now();
  const file = path.resolve(opts.out ?? path.join(opts.dir, backupFileName(opts.now)));
  mkdirSync(path.dirname(file), { recursive: true });
  const partial = `${file}.partial`;
  let tables: number;
  try {
    if (opts.source.driver === 'pglite') {
      const sql = await dumpPglite(opts.source.client);
      tables = sql.split('\n').filter(countsTable).length;
      writeFileSync(partial, gzipSync(sql));
    } else {
      tables = await dumpPostgresTo(opts.source.url, partial);
    }
    renameSync(partial, file);
  } finally {
    rmSync(partial, { force: true });
  }
  let filesArchive: string | undefined;
  if (opts.filesDir) filesArchive = archiveFiles(opts.filesDir, filesArchiveOf(file));
  return {
    file,
    bytes: statSync(file).size,
    tables,
    filesArchive,
    ms: Math.round(performance.now() - started),
  };
}

/** `tar -czf` of the uploads folder (its contents, at the archive's top). */
function archiveFiles(filesDir: string, archive: string): string {
  mkdirSync(filesDir, { recursive: true });
  const run = spawnSync('tar', ['-czf', archive, '-C', filesDir, '.'], { encoding: 'utf8' });
  if (run.status !== 0) throw new BackupError(`tar failed: ${(run.stderr || run.error?.message) ?? ''}`);
  return archive;
}

/** Unpacks an uploads archive into the uploads folder (files of the same name are replaced). */
export function restoreFiles(archive: string, filesDir: string): void {
  mkdirSync(filesDir, { recursive: true });
  const run = spawnSync('tar', ['-xzf', archive, '-C', filesDir], { encoding: 'utf8' });
  if (run.status !== 0) throw new BackupError(`tar failed: ${(run.stderr || run.error?.message) ?? ''}`);
}

/** Keeps the `keep` newest `pasal-….sql.gz` in `dir` (and their uploads archives); returns the removed. */
export function pruneBackups(dir: string, keep: number): string[] {
  if (!existsSync(dir)) return [];
  const dumps = readdirSync(dir)
    .filter((name) => BACKUP_FILE.test(name))
    .sort()
    .reverse();
  const removed = dumps.slice(keep).map((name) => path.join(dir, name));
  for (const file of removed) {
    rmSync(file, { force: true });
    rmSync(filesArchiveOf(file), { force: true });
  }
  return removed;
}

/** A dump's SQL, for a loader that cannot run psql's meta-commands (`\restrict`). */
export function readBackupSql(file: string): string {
  const raw = readFileSyncMaybeGz(file);
  return raw
    .split('\n')
    .filter((line) => !line.startsWith('\\'))
    .join('\n');
}

function readFileSyncMaybeGz(file: string): string {
  const bytes = readFileSync(file);
  return (file.endsWith('.gz') ? gunzipSync(bytes) : bytes).toString('utf8');
}

/** Pasal's own schemas: what "a database that holds Pasal tables" looks for. */
export const PASAL_SCHEMAS = ['public', 'drizzle'];

const TABLES_SQL = `select n.nspname || '.' || c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
  where c.relkind in ('r', 'p') and n.nspname in ('public', 'drizzle') order by 1`;
const SEQUENCES_SQL = `select schemaname || '.' || sequencename as name, coalesce(last_value, 0)::text as value
  from pg_sequences where schemaname in ('public', 'drizzle') order by 1`;
// Emptied for a forced restore: the extensions in them go too, and the dump creates them again.
const DROP_SQL =
  'drop schema if exists drizzle cascade; drop schema if exists public cascade; create schema public;';

/** What a backup in this process dumps: its own PGlite instance, or the PostgreSQL at `url`. */
export function backupSourceOf(db: unknown, url: string | undefined): BackupSource {
  if (url) return { driver: 'postgres', url };
  // drizzle keeps the client it was given: on the embedded database, the process's PGlite.
  return { driver: 'pglite', client: (db as { $client: PGlite }).$client };
}

/** The few statements backup, restore and move need, on either driver. */
export interface SqlSession {
  rows<T>(text: string): Promise<T[]>;
  exec(text: string): Promise<void>;
  close(): Promise<void>;
}

export function pgliteSession(client: PGlite): SqlSession {
  return {
    rows: async <T>(text: string) => (await client.query<T>(text)).rows,
    exec: async (text) => {
      await client.exec(text);
    },
    close: () => client.close(),
  };
}

export async function postgresSession(url: string): Promise<SqlSession> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  return {
    rows: async <T>(text: string) => (await client.query(text)).rows as T[],
    exec: async (text) => {
      await client.query(text);
    },
    close: () => client.end(),
  };
}

export const pasalTables = async (s: SqlSession) =>
  (await s.rows<{ name: string }>(TABLES_SQL)).map((r) => r.name);
export const dropPasalSchemas = (s: SqlSession) => s.exec(DROP_SQL);

export async function rowCounts(s: SqlSession): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  for (const table of await pasalTables(s)) {
    const [schema, name] = table.split('.');
    const [row] = await s.rows<{ n: string | number }>(`select count(*) as n from "${schema}"."${name}"`);
    counts.set(table, Number(row?.n ?? 0));
  }
  return counts;
}

export async function sequenceValues(s: SqlSession): Promise<Map<string, string>> {
  return new Map(
    (await s.rows<{ name: string; value: string }>(SEQUENCES_SQL)).map((r) => [r.name, String(r.value)]),
  );
}

/**
 * Loads a dump into PostgreSQL in one transaction: through `psql` when the machine has it
 * (streamed, so any size), otherwise as one multi-statement query.
 */
export async function loadIntoPostgres(url: string, file: string): Promise<void> {
  if (pgToolVersion('psql') !== undefined) {
    const child = spawn('psql', ['-X', '-q', '-v', 'ON_ERROR_STOP=1', '--single-transaction', '-d', url], {
      stdio: ['pipe', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    const exited = new Promise<number>((resolve) => child.on('close', (code) => resolve(code ?? 1)));
    const source = createReadStream(file);
    await pipeline(file.endsWith('.gz') ? source.pipe(createGunzip()) : source, child.stdin);
    const code = await exited;
    if (code !== 0) throw new BackupError(`psql could not load ${file}: ${stderr.trim().slice(0, 2000)}`);
    return;
  }
  const session = await postgresSession(url);
  try {
    await session.exec(`begin;\n${readBackupSql(file)}\ncommit;`);
  } finally {
    await session.close();
  }
}
