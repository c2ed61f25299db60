// The console's end-to-end tests (`npm run test:e2e`): Chromium from Debian (`apt-get install -y
// chromium`; browser downloads are impossible here) drives the console served by a real
// `npm start` on a fresh embedded store seeded with `npm run seed:demo`. With E2E_DATABASE_URL
// and E2E_REDIS_URL set, the same server runs on PostgreSQL + Redis instead (the smoke test).
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
  reporter: [['list']],
  use: {
    baseURL: e2eBaseUrl(),
    locale: 'en-US',
    timezoneId: 'Asia/Kathmandu',
    screenshot: 'only-on-failure',
    trace: 'retain-on-failure',
    launchOptions: { executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium' },
  },
});
