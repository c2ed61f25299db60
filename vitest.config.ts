import { defineConfig } from 'vitest/config';

// Test files that replace a module with vi.mock: they need a module registry of their own.
const MOCKING = ['test/modules/support/tracking-code.test.ts'];

// `npm test`: every API test on a fresh PGlite per file, in-process cache and queue.
// `npm run test:services` (TEST_SERVICES=1): the same tests on PostgreSQL + Redis.
export default defineConfig({
  test: {
    globalSetup: ['test/helpers/global-setup.ts'],
    testTimeout: 20_000,
    hookTimeout: 60_000,
    pool: 'forks',
    env: { NODE_ENV: 'test' },
    projects: [
      {
        extends: true,
        // Each file still builds its own app and database; sharing the worker's module registry
        // spares every file the import of the whole app (about a second each).
        test: { name: 'api', include: ['test/**/*.test.ts'], exclude: MOCKING, isolate: false },
      },
      { extends: true, test: { name: 'mocking', include: MOCKING } },
    ],
  },
});
