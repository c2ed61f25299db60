// Creating a new PGlite data folder: from the migrated template the build leaves in
// dist/pglite-template/ when it still fits this install, otherwise with PGlite's initdb and
// every migration in a short-lived child process.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  chmodSync,
  constants,
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { migrationsFolder as packageMigrationsFolder } from './migrations-folder';

/**
 * What a migrated data folder depends on, written beside the template by the build and
 * compared with this install's before a copy: the PGlite that made it (its on-disk format, its
 * initdb and default start parameters), the start parameters the migrations ran under (the
 * `shared_buffers` a run adds only sizes that run's page cache and is not stored in the folder),
 * and the migrations it holds.
 */
export interface PgliteTemplateStamp {
  pglite: string;
  startParams: string[];
  migrations: string;
}

const locate = createRequire(import.meta.url).resolve;

function packageVersion(name: string): string {
  let dir = path.dirname(locate(name));
  // Its package.json is not among its exports: found upwards from its entry file.
  for (;;) {
    const file = path.join(dir, 'package.json');
    if (existsSync(file)) {
      const pkg = JSON.parse(readFileSync(file, 'utf8')) as { name?: string; version?: string };
      if (pkg.name === name && pkg.version) return pkg.version;
    }
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`The version of ${name} was not found`);
    dir = parent;
  }
}

/** The journal and every migration's SQL, in the journal's order: a new or edited one changes it. */
function migrationsDigest(migrationsFolder: string): string {
  const journalText = readFileSync(path.join(migrationsFolder, 'meta', '_journal.json'), 'utf8');
  const journal = JSON.parse(journalText) as { entries: { tag: string }[] };
  const hash = createHash('sha256').update(journalText);
  for (const { tag } of journal.entries) {
    hash.update(`\0${tag}\0`).update(readFileSync(path.join(migrationsFolder, `${tag}.sql`)));
  }
  return hash.digest('hex');
}

export function pgliteTemplateStamp(migrationsFolder: string): PgliteTemplateStamp {
  return {
    pglite: packageVersion('@electric-sql/pglite'),
    startParams: [...PGlite.defaultStartParams],
    migrations: migrationsDigest(migrationsFolder),
  };
}

/** True when the template holds a complete folder made for this PGlite and these migrations. */
export function pgliteTemplateIsCurrent(templateDir: string, migrationsFolder: string): boolean {
  let stamp: unknown;
  try {
    stamp = JSON.parse(readFileSync(path.join(templateDir, 'stamp.json'), 'utf8'));
  } catch {
    return false; // no template (not built, or an API-only build)
  }
  return JSON.stringify(stamp) === JSON.stringify(pgliteTemplateStamp(migrationsFolder));
}

/**
 * The migrated data folder the build leaves in dist/ (scripts/build.mjs), whether this code runs
 * bundled in dist/ or from src/: beside the migrations, in the same package.
 */
export function defaultPgliteTemplate(): string {
  return path.join(path.dirname(packageMigrationsFolder()), 'dist', 'pglite-template');
}

/** The build's step: (re)makes the template when it does not fit these migrations and this PGlite. */
export async function refreshPgliteTemplate(opts: { always?: boolean } = {}): Promise<'built' | 'current'> {
  const template = defaultPgliteTemplate();
  if (!opts.always && pgliteTemplateIsCurrent(template, packageMigrationsFolder())) return 'current';
  await buildPgliteTemplate(template, packageMigrationsFolder());
  return 'built';
}

/**
 * Builds the template: a data folder made exactly as a first start makes one (the child below),
 * in `data/` beside its `stamp.json`, assembled in a sibling folder and renamed into place. The
 * template is only ever copied, never opened: PGlite writes to any folder it opens.
 */
export async function buildPgliteTemplate(templateDir: string, migrationsFolder: string): Promise<void> {
  const building = `${templateDir}.building`;
  rmSync(building, { recursive: true, force: true });
  const stamp = pgliteTemplateStamp(migrationsFolder);
  try {
    mkdirSync(building);
    await runInitdbChild(path.join(building, 'data'), undefined, migrationsFolder);
    // Readable by every user: an image builds it as root and runs the server as another user.
    // Each copy belongs to the user who made it, with the owner's write bit kept.
    makeReadable(building);
    writeFileSync(path.join(building, 'stamp.json'), `${JSON.stringify(stamp, null, 2)}\n`);
    rmSync(templateDir, { recursive: true, force: true });
    renameSync(building, templateDir);
  } catch (error) {
    rmSync(building, { recursive: true, force: true });
    throw error;
  }
}

function makeReadable(dir: string): void {
  chmodSync(dir, 0o755);
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const entryPath = path.join(dir, entry.name);
    if (entry.isDirectory()) makeReadable(entryPath);
    else chmodSync(entryPath, 0o644);
  }
}

/**
 * Creates `dataDir` (absent or empty) holding a new database, migrated when `migrationsFolder`
 * is given. A current template is copied (~0.2 s, against 2.5–4 s for initdb and the
 * migrations); a stale or missing one, or a copy that fails, falls back to the
 * child process. Either way the folder is assembled in a sibling `.initdb` folder renamed into
 * place when complete, so a stop during a first start never leaves a half-made folder.
 */
export async function createPgliteDataDir(
  dataDir: string,
  opts: {
    startParams?: string[];
    migrationsFolder?: string;
    template?: string;
    onTemplateError?: (error: unknown) => void;
  },
): Promise<void> {
  // One process opens a PGlite folder at a time, so a leftover of an interrupted start is stale.
  const building = `${dataDir}.initdb`;
  rmSync(building, { recursive: true, force: true });
  const copied =
    opts.migrationsFolder !== undefined &&
    opts.template !== undefined &&
    pgliteTemplateIsCurrent(opts.template, opts.migrationsFolder) &&
    copyTemplate(path.join(opts.template, 'data'), building, opts.onTemplateError);
  if (!copied) await runInitdbChild(building, opts.startParams, opts.migrationsFolder);
  try {
    renameSync(building, dataDir); // replaces the folder made by the caller: a rename may replace an empty one
  } catch (error) {
    rmSync(building, { recursive: true, force: true });
    throw new Error(`${dataDir} holds files but no PGlite database: move them away or set another DATA_DIR`, {
      cause: error,
    });
  }
}

function copyTemplate(from: string, to: string, onError: ((error: unknown) => void) | undefined): boolean {
  try {
    copyFolder(from, to);
    if (!existsSync(path.join(to, 'PG_VERSION'))) throw new Error(`${from} holds no PGlite database`);
    return true;
  } catch (error) {
    rmSync(to, { recursive: true, force: true });
    onError?.(error);
    return false;
  }
}

/**
 * A data folder is ~1,450 files, most of them small: copied one by one with the synchronous
 * calls, 0.15–0.25 s here, against 0.7–1 s for `fs.promises.cp` (a promise chain, stats and a
 * chmod per file) and 0.2–0.3 s for `fs.cpSync` on Node 20. Nothing else runs while a first
 * start copies, so blocking costs nothing. Each file keeps its mode; a data folder holds only
 * files and folders.
 */
function copyFolder(from: string, to: string): void {
  mkdirSync(to);
  for (const entry of readdirSync(from, { withFileTypes: true })) {
    const source = path.join(from, entry.name);
    const target = path.join(to, entry.name);
    if (entry.isDirectory()) copyFolder(source, target);
    else if (entry.isFile()) copyFileSync(source, target, constants.COPYFILE_EXCL);
    else throw new Error(`${source} is neither a file nor a folder`);
  }
}

/**
 * PGlite's initdb runs two more WebAssembly PostgreSQL instances next to the one it opens
 * (~700 MB at its peak), and WebAssembly memory never shrinks: in the server's own process the
 * memory that initdb and the first migrations (index builds) touched stayed resident, ~400 MB
 * idle after a first start instead of ~250 MB. So a short-lived child process creates the data
 * folder `dir` (and applies the migrations to it, when `migrationsFolder` is given: the caller
 * runs `migrate()` next anyway, which then finds nothing to do) and exits, which returns all of
 * it. The child ignores SIGINT and SIGTERM (Ctrl-C reaches the whole process group): the caller
 * decides what an interrupted start leaves.
 */
async function runInitdbChild(
  dir: string,
  startParams: string[] | undefined,
  migrationsFolder: string | undefined,
): Promise<void> {
  // The same packages this process uses, by path: the child runs from any working directory.
  const job = {
    dir,
    startParams,
    migrationsFolder,
    pglite: locate('@electric-sql/pglite'),
    pgTrgm: locate('@electric-sql/pglite/contrib/pg_trgm'),
    drizzle: locate('drizzle-orm/pglite'),
    migrator: locate('drizzle-orm/pglite/migrator'),
  };
  const script = `
    process.on('SIGINT', () => {});
    process.on('SIGTERM', () => {});
    const job = JSON.parse(process.argv[1]);
    (async () => {
      const { PGlite } = require(job.pglite);
      const { pg_trgm } = require(job.pgTrgm);
      const pg = await PGlite.create(job.dir, { extensions: { pg_trgm }, startParams: job.startParams });
      if (job.migrationsFolder) {
        const { drizzle } = require(job.drizzle);
        const { migrate } = require(job.migrator);
        await migrate(drizzle({ client: pg }), { migrationsFolder: job.migrationsFolder });
      }
      await pg.close();
    })().catch((error) => { console.error(error); process.exit(1); });`;
  // Liftoff only (V8's baseline WebAssembly compiler, no optimising tier-up): initdb and the
  // migrations run once, so optimising PostgreSQL's hot functions costs more than it saves; the
  // child is ~1.2 s faster and peaks ~100 MB lower. A Node whose V8 lacks the flag exits with
  // 9 (bad option) before doing anything: then the child runs again without it.
  const run = (flags: string[]) =>
    new Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>((resolve, reject) => {
      const child = spawn(process.execPath, [...flags, '-e', script, JSON.stringify(job)], {
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      let stderr = '';
      child.stderr.setEncoding('utf8').on('data', (text: string) => {
        stderr += text;
      });
      child.once('error', reject);
      child.once('exit', (code, signal) => resolve({ code, signal, stderr }));
    });
  let outcome = await run(['--liftoff-only']);
  if (outcome.code === 9) outcome = await run([]);
  if (outcome.code !== 0) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(
      `Creating a PGlite database in ${dir} failed (${outcome.code ?? outcome.signal}): ${outcome.stderr}`,
    );
  }
}
