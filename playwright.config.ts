// The console's end-to-end tests (`npm run test:e2e`): Chromium from Debian (`apt-get install -y
// chromium`; browser downloads are impossible here) drives the console served by a real
// `npm start` on a fresh embedded store seeded with `npm run seed:demo`. With E2E_DATABASE_URL
// and E2E_REDIS_URL set, the same server runs on PostgreSQL + Redis instead (the smoke test).
import { existsSync } from 'node:fs';
import { defineConfig } from '@playwright/test';
import { e2eBaseUrl } from './test/e2e/server';

export default defineConfig({
  testDir: 'test/e2e',
  testMatch: '**/*.spec.ts',
  outputDir: 'test-results/e2e',
  globalSetup: './test/e2e/global-setup.ts',
  // One server and one database serve every test: each test makes the data it changes.
  fullyParallel: false,
  workers: 2,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  forbidOnly: Boolean(process.env.CI),
  // On CI one more try, reported as "flaky" in the list: a single slow moment on a loaded
  // 2-core machine should not refuse a whole submission, and the report still names the test.
  retries: process.env.CI ? 1 : 0,
  reporter: [['list']],
  use: {
    baseURL: e2eBaseUrl(),
    locale: 'en-US',
    timezoneId: 'Asia/Kathmandu',
    screenshot: 'only-on-failure',
    // The trace keeps the page's DOM at each step, not a screencast: the screencast was a
    // quarter of the suite's CPU on two cores.
    trace: { mode: 'retain-on-failure', screenshots: false },
    launchOptions: { executablePath: process.env.CHROMIUM_PATH ?? chromium() },
  },
});

/**
 * Debian's headless shell (`apt-get install chromium-headless-shell`, as .ci/run does) when it
 * is there: the same engine without the desktop browser's extra processes, about an eighth less
 * CPU per test than the full `chromium`, which is the fallback.
 */
function chromium(): string {
  const shell = '/usr/bin/chromium-headless-shell';
  return existsSync(shell) ? shell : '/usr/bin/chromium';
}
