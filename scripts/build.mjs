// Bundles the server's own code into dist/ (dependencies stay in node_modules), so
// `node dist/main.js` starts without a TypeScript toolchain at run time; makes the migrated
// PGlite data folder a new embedded database is copied from (dist/pglite-template/, ~45 MB:
// a first start then skips initdb and the migrations); and builds the admin console
// (console/, React + Vite) into console/dist, which the API serves at /admin.
//   node scripts/build.mjs              always builds all three
//   node scripts/build.mjs --if-stale   (npm start) builds each only when out of date: the bundle
//                                       and the console when a source is newer, the template when
//                                       its stamp no longer matches the migrations or PGlite
// CONSOLE_ENABLED=false (in the environment or .env) skips the console: an API-only deployment.
// DATABASE_URL set there skips the template, which only the embedded database uses.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseEnv } from 'node:util';
import { build } from 'esbuild';

const ifStale = process.argv.includes('--if-stale');

const server = {
  name: 'dist/',
  outputs: ['dist/main.js', 'dist/cli.js', 'dist/pglite-template.js'],
  inputs: ['src', 'package.json', 'package-lock.json', 'tsconfig.json', 'scripts/build.mjs'],
};
const adminConsole = {
  name: 'console/dist/',
  // Written by every build (Vite empties the folder first), after the sources it read.
  outputs: ['console/dist/index.html'],
  // What goes into the bundle: the app, its build settings and dependencies, and the typed
  // client every screen calls the API with (regenerated when the API changes).
  inputs: [
    'console/src',
    'console/public',
    'console/index.html',
    'console/vite.config.ts',
    'console/package.json',
    'console/tsconfig.json',
    'clients/typescript/src',
    'package-lock.json',
  ],
};

function newestChange(entry) {
  if (!existsSync(entry)) return 0; // an optional input (console/public) that is not there
  const stat = statSync(entry);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs; // a deleted file changes its folder
  for (const name of readdirSync(entry)) newest = Math.max(newest, newestChange(path.join(entry, name)));
  return newest;
}

function isCurrent({ outputs, inputs }) {
  try {
    const built = Math.min(...outputs.map((file) => statSync(file).mtimeMs));
    return inputs.every((input) => newestChange(input) < built);
  } catch {
    return false; // not built yet
  }
}

/** The server reads .env too (real environment variables win): so do these switches. */
function setting(name) {
  const value = process.env[name];
  if (value === undefined && existsSync('.env')) return parseEnv(readFileSync('.env', 'utf8'))[name];
  return value;
}

function consoleEnabled() {
  return !['false', '0'].includes((setting('CONSOLE_ENABLED') ?? '').trim());
}

if (ifStale && isCurrent(server)) {
  console.log('dist/ is current: not rebuilding');
} else {
  await build({
    entryPoints: ['src/main.ts', 'src/cli.ts', 'src/pglite-template.ts'],
    outdir: 'dist',
    bundle: true,
    platform: 'node',
    target: 'node22',
    format: 'esm',
    packages: 'external',
    sourcemap: true,
    logLevel: 'warning',
  });
}

if ((setting('DATABASE_URL') ?? '').trim()) {
  console.log('DATABASE_URL is set: not making the embedded database template');
} else {
  // The bundle's own code decides whether the template is current and makes it exactly as a
  // first start would (the same child process), so the two never disagree.
  const { refreshPgliteTemplate } = await import(pathToFileURL(path.resolve('dist/pglite-template.js')).href);
  const started = performance.now();
  if (!ifStale) console.log('making the embedded database template in dist/pglite-template/ …');
  const outcome = await refreshPgliteTemplate({ always: !ifStale });
  if (outcome === 'current') console.log('dist/pglite-template/ is current: not rebuilding');
  else console.log(`dist/pglite-template/ made in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

if (!consoleEnabled()) {
  console.log('CONSOLE_ENABLED=false: not building the admin console');
} else if (!existsSync('console/index.html')) {
  console.log(
    'console/ has no app to build (no console/index.html): /admin will answer 503 CONSOLE_NOT_BUILT',
  );
} else if (ifStale && isCurrent(adminConsole)) {
  console.log('console/dist/ is current: not rebuilding');
} else {
  console.log('building the admin console into console/dist/ …');
  // Vite is the console's own dev dependency, loaded only when the console is built.
  const vite = await import('vite');
  // Always the production bundle: `npm start` under NODE_ENV=development (a developer's shell, the
  // end-to-end tests) would otherwise get React's development build, half again as large.
  process.env.NODE_ENV = 'production';
  await vite.build({ root: path.resolve('console'), mode: 'production', logLevel: 'warn' });
}
