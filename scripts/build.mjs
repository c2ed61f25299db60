// Bundles the server's own code into dist/ (dependencies stay in node_modules), so
// `node dist/main.js` starts without a TypeScript toolchain at run time.
import { build } from 'esbuild';

await build({
  entryPoints: ['src/main.ts', 'src/cli.ts'],
  outdir: 'dist',
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  packages: 'external',
  sourcemap: true,
  logLevel: 'warning',
});
