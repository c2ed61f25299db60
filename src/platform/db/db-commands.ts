// The operator's database commands (`npm run cli -- db:backup | db:restore | db:move-to-postgres`),
// apart from the CLI's argument parsing so tests can run them in-process.
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import type { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import type { Config } from '../../config';
import {
  BackupError,
  type BackupResult,
  dropPasalSchemas,
  dumpPglite,
  filesArchiveOf,
  loadIntoPostgres,
  makeBackup,
  pasalTables,
  pgliteSession,
  postgresSession,
  readBackupSql,
  restoreFiles,
  rowCounts,
  type SqlSession,
  sequenceValues,
} from './backup';
import { askServer, controlSocketPath, serveControlSocket, serverIsRunning } from './control-socket';
import { openDatabase, openPglite } from './database';

type DbConfig = Pick<Config, 'DATABASE_URL' | 'DATA_DIR' | 'BACKUP_DIR' | 'STORAGE_DRIVER'>;

/** A refusal the operator can act on: the CLI prints the message and exits 1. */
export class CommandRefused extends Error {
  override name = 'CommandRefused';
}

export const backupDir = (config: Pick<Config, 'DATA_DIR' | 'BACKUP_DIR'>) =>
  path.resolve(config.BACKUP_DIR ?? path.join(config.DATA_DIR, 'backups'));
export const uploadsDir = (config: Pick<Config, 'DATA_DIR'>) => path.resolve(config.DATA_DIR, 'storage');
const pgliteDir = (config: Pick<Config, 'DATA_DIR'>) => path.join(config.DATA_DIR, 'db');

function filesDirFor(config: DbConfig, withFiles: boolean | undefined): string | undefined {
  if (!withFiles) return undefined;
  if (config.STORAGE_DRIVER !== 'local') {
    throw new CommandRefused(
      '--with-files archives local uploads; with STORAGE_DRIVER=s3 keep uploads with bucket versioning',
    );
  }
  return uploadsDir(config);
}

/** A backup of the configured database; on the embedded one, made by the server when it runs. */
export async function backupCommand(
  config: DbConfig,
  opts: { out?: string; withFiles?: boolean; now?: Date },
): Promise<BackupResult & { by: 'server' | 'cli' }> {
  const base = {
    dir: backupDir(config),
    out: opts.out ? path.resolve(opts.out) : undefined,
    filesDir: filesDirFor(config, opts.withFiles),
    now: opts.now ?? new Date(),
  };
  if (config.DATABASE_URL) {
    return {
      ...(await makeBackup({ ...base, source: { driver: 'postgres', url: config.DATABASE_URL } })),
      by: 'cli',
    };
  }
  const answer = await askServer(config.DATA_DIR, {
    command: 'backup',
    out: base.out,
    withFiles: opts.withFiles,
  });
  if (answer) {
    if (!answer.ok) throw new BackupError(`The running server could not make the backup: ${answer.error}`);
    return { ...(answer.result as BackupResult), by: 'server' };
  }
  if (!existsSync(path.join(pgliteDir(config), 'PG_VERSION'))) {
    throw new CommandRefused(`There is no embedded database in ${path.resolve(pgliteDir(config))}`);
  }
  const client = await openPglite(pgliteDir(config));
  try {
    return { ...(await makeBackup({ ...base, source: { driver: 'pglite', client } })), by: 'cli' };
  } finally {
    await client.close();
  }
}

/**
 * The running server's side of `db:backup` on the embedded database: asked on its control socket,
 * it dumps through its own PGlite instance.
 */
export function startBackupControl(config: DbConfig, client: PGlite) {
  return serveControlSocket(controlSocketPath(config.DATA_DIR), async (request) => {
    if (request.command !== 'backup') throw new Error(`Unknown control command ${String(request.command)}`);
    return makeBackup({
      source: { driver: 'pglite', client },
      dir: backupDir(config),
      out: request.out,
      filesDir: filesDirFor(config, request.withFiles),
      now: new Date(),
    });
  });
}

async function refuseRunningServer(config: Pick<Config, 'DATA_DIR'>, what: string): Promise<void> {
  if (await serverIsRunning(config.DATA_DIR)) {
    throw new CommandRefused(
      `A Pasal server is running on ${path.resolve(config.DATA_DIR)}: stop it before ${what}`,
    );
  }
}

async function refuseOrEmpty(session: SqlSession, force: boolean | undefined, where: string): Promise<void> {
  const tables = await pasalTables(session);
  if (tables.length === 0) return;
  if (!force) {
    throw new CommandRefused(
      `${where} already holds ${tables.length} Pasal tables; restore into an empty database, or add --force to replace everything in it`,
    );
  }
  await dropPasalSchemas(session);
}

/** Loads a backup into the configured database, then applies the migrations it is behind on. */
export async function restoreCommand(
  config: DbConfig,
  opts: { file: string; force?: boolean; withFiles?: boolean },
): Promise<{ tables: number; filesRestored: boolean }> {
  const file = path.resolve(opts.file);
  if (!existsSync(file)) throw new CommandRefused(`No such file: ${file}`);
  const archive = filesArchiveOf(file);
  if (opts.withFiles && !existsSync(archive))
    throw new CommandRefused(`No uploads archive beside the dump: ${archive}`);
  if (config.DATABASE_URL) {
    const session = await postgresSession(config.DATABASE_URL);
    try {
      await refuseOrEmpty(session, opts.force, 'The database at DATABASE_URL');
    } finally {
      await session.close();
    }
    await loadIntoPostgres(config.DATABASE_URL, file);
  } else {
    await refuseRunningServer(config, 'restoring');
    // Opened as it is, without the migrations a new folder would get: the dump brings its own.
    const session = pgliteSession(await openPglite(pgliteDir(config)));
    try {
      await refuseOrEmpty(session, opts.force, `The embedded database in ${path.resolve(pgliteDir(config))}`);
      await session.exec(readBackupSql(file));
    } finally {
      await session.close();
    }
  }
  const database = await openDatabase({
    databaseUrl: config.DATABASE_URL,
    poolSize: 1,
    dataDir: config.DATA_DIR,
  });
  let tables: number;
  try {
    await database.migrate(); // a backup made by an older release comes up to this one
    const result = (await database.db.execute(
      sql`select count(*)::int as n from pg_tables where schemaname in ('public', 'drizzle')`,
    )) as unknown as { rows: { n: number }[] };
    tables = Number(result.rows[0]?.n ?? 0);
  } finally {
    await database.close();
  }
  if (opts.withFiles) restoreFiles(archive, uploadsDir(config));
  return { tables, filesRestored: Boolean(opts.withFiles) };
}

export interface MoveReport {
  tables: { name: string; embedded: number; postgres: number }[];
  sequences: { name: string; embedded: string; postgres: string }[];
  ok: boolean;
  databaseUrl: string;
}

/**
 * Copies the embedded database into an empty PostgreSQL database and compares every table's
 * row count and every sequence's value. The embedded folder is only read.
 */
export async function moveToPostgresCommand(config: DbConfig, opts: { to: string }): Promise<MoveReport> {
  if (!existsSync(path.join(pgliteDir(config), 'PG_VERSION'))) {
    throw new CommandRefused(`There is no embedded database in ${path.resolve(pgliteDir(config))}`);
  }
  // Orders taken after the copy would stay behind in the embedded database.
  await refuseRunningServer(config, 'moving its database');
  const target = await postgresSession(opts.to);
  try {
    const existing = await pasalTables(target);
    if (existing.length > 0) {
      throw new CommandRefused(
        `The target database is not empty (${existing.length} tables in public/drizzle): create an empty database for the move`,
      );
    }
  } finally {
    await target.close();
  }
  const client = await openPglite(pgliteDir(config));
  const source = pgliteSession(client);
  const work = mkdtempSync(path.join(os.tmpdir(), 'pasal-move-'));
  try {
    const before = { counts: await rowCounts(source), sequences: await sequenceValues(source) };
    const dumpFile = path.join(work, 'move.sql.gz');
    writeFileSync(dumpFile, gzipSync(await dumpPglite(client)));
    await loadIntoPostgres(opts.to, dumpFile);
    const moved = await postgresSession(opts.to);
    let after: { counts: Map<string, number>; sequences: Map<string, string> };
    try {
      after = { counts: await rowCounts(moved), sequences: await sequenceValues(moved) };
    } finally {
      await moved.close();
    }
    const tables = [...before.counts].map(([name, embedded]) => ({
      name,
      embedded,
      postgres: after.counts.get(name) ?? -1,
    }));
    const sequences = [...before.sequences].map(([name, embedded]) => ({
      name,
      embedded,
      postgres: after.sequences.get(name) ?? 'missing',
    }));
    const ok =
      tables.every((t) => t.embedded === t.postgres) &&
      sequences.every((s) => s.embedded === s.postgres) &&
      after.counts.size === before.counts.size;
    return { tables, sequences, ok, databaseUrl: opts.to };
  } finally {
    rmSync(work, { recursive: true, force: true });
    await source.close();
  }
}

const megabytes = (bytes: number) => `${(bytes / 1_048_576).toFixed(1)} MB`;

/** The CLI's side: runs one command and prints what an operator needs; returns the exit code. */
export async function runDbCommand(
  config: DbConfig,
  command:
    | { name: 'db:backup'; out?: string; withFiles?: boolean }
    | { name: 'db:restore'; file: string; force?: boolean; withFiles?: boolean }
    | { name: 'db:move-to-postgres'; to: string },
): Promise<number> {
  if (command.name === 'db:backup') {
    const r = await backupCommand(config, command);
    console.log(`Backup written: ${r.file}`);
    console.log(
      `Size: ${megabytes(r.bytes)} (${r.bytes} bytes), tables: ${r.tables}, took ${r.ms} ms${r.by === 'server' ? ' (made by the running server)' : ''}`,
    );
    if (r.filesArchive) console.log(`Uploads: ${r.filesArchive}`);
    console.log(
      'Secrets (JWT_SECRET, DIGITAL_KEYS_SECRET, …) are not in the backup: keep them apart, safely.',
    );
    return 0;
  }
  if (command.name === 'db:restore') {
    const started = performance.now();
    const r = await restoreCommand(config, command);
    console.log(
      `Restored ${command.file} (${r.tables} tables, migrated forward) in ${Math.round(performance.now() - started)} ms`,
    );
    if (r.filesRestored) console.log(`Uploads unpacked into ${uploadsDir(config)}`);
    return 0;
  }
  const report = await moveToPostgresCommand(config, command);
  const width = Math.max(
    ...report.tables.map((t) => t.name.length),
    ...report.sequences.map((s) => s.name.length),
    10,
  );
  console.log(`${'table'.padEnd(width)}  embedded  postgres`);
  for (const t of report.tables) {
    console.log(
      `${t.name.padEnd(width)}  ${String(t.embedded).padStart(8)}  ${String(t.postgres).padStart(8)}${t.embedded === t.postgres ? '' : '  MISMATCH'}`,
    );
  }
  console.log(`${'sequence'.padEnd(width)}  embedded  postgres`);
  for (const s of report.sequences) {
    console.log(
      `${s.name.padEnd(width)}  ${s.embedded.padStart(8)}  ${s.postgres.padStart(8)}${s.embedded === s.postgres ? '' : '  MISMATCH'}`,
    );
  }
  if (!report.ok) {
    console.error(
      'The copy does not match the embedded database: do not switch; the embedded data folder is unchanged.',
    );
    return 1;
  }
  console.log('\nEvery table and sequence matches. The embedded data folder is unchanged. Next:');
  console.log(`  set DATABASE_URL=${report.databaseUrl}`);
  console.log('  (and REDIS_URL to run separate api and worker processes), then start the server.');
  return 0;
}
