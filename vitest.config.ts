import { defineConfig } from 'vitest/config';

// `npm test`: every API test on a fresh PGlite per file, in-process cache and queue.
// `npm run test:services` (TEST_SERVICES=1): the same tests on PostgreSQL + Redis.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/helpers/global-setup.ts'],
    testTimeout: 20_000,
    hookTimeout: 60_000,
    pool: 'forks',
    env: { NODE_ENV: 'test' },
  },
});
