import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// Test files that need a module registry of their own: one replaces a module with vi.mock; the
// OpenAPI test must build the document as `npm run client:generate` does, in a fresh process (after
// other files' apps in the same registry, zod's schema ids turn inlined schemas into components).
const ISOLATED = ['test/modules/support/tracking-code.test.ts', 'test/platform/openapi.test.ts'];

// `npm test`: every API test on a fresh PGlite per file, in-process cache and queue.
// `npm run test:services` (TEST_SERVICES=1): the same tests on PostgreSQL + Redis.
export default defineConfig({
  test: {
    globalSetup: ['test/helpers/global-setup.ts'],
    testTimeout: 20_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // One test file per core. Vitest's default leaves a core to its main process, which here
    // mostly waits: on a 2-core machine that halved the suite's speed.
    maxWorkers: availableParallelism(),
    env: { NODE_ENV: 'test' },
    projects: [
      {
        extends: true,
        // Each file still builds its own app and database; sharing the worker's module registry
        // spares every file the import of the whole app (about a second each).
        test: { name: 'api', include: ['test/**/*.test.ts'], exclude: ISOLATED, isolate: false },
      },
      { extends: true, test: { name: 'isolated', include: ISOLATED } },
    ],
  },
});
