// Bundles the server's own code into dist/ (dependencies stay in node_modules), so
// `node dist/main.js` starts without a TypeScript toolchain at run time.
//   node scripts/build.mjs              always builds
//   node scripts/build.mjs --if-stale   (npm start) builds only when a source is newer than dist/
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';

const OUTPUTS = ['dist/main.js', 'dist/cli.js'];
const INPUTS = ['src', 'package.json', 'package-lock.json', 'tsconfig.json', 'scripts/build.mjs'];

function newestChange(entry) {
  const stat = statSync(entry);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs; // a deleted file changes its folder
  for (const name of readdirSync(entry)) newest = Math.max(newest, newestChange(path.join(entry, name)));
  return newest;
}

function distIsCurrent() {
  try {
    const built = Math.min(...OUTPUTS.map((file) => statSync(file).mtimeMs));
    return INPUTS.every((input) => newestChange(input) < built);
  } catch {
    return false; // no dist/ yet
  }
}

if (process.argv.includes('--if-stale') && distIsCurrent()) {
  console.log('dist/ is current: not rebuilding');
  process.exit(0);
}

await build({
  entryPoints: ['src/main.ts', 'src/cli.ts'],
  outdir: 'dist',
  bundle: true,
  platform: 'node',
  target: 'node22',
  format: 'esm',
  packages: 'external',
  sourcemap: true,
  logLevel: 'warning',
});
