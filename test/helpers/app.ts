// A real app on a real database for one test file. Tests talk to it through `app.inject`.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { type BuildAppOptions, buildApp } from '../../src/app';
import { loadConfig, type Role } from '../../src/config';
import { unlinkMatching } from '../../src/platform/cache/redis-cache';
import type { Clock } from '../../src/platform/clock';
import type { Database } from '../../src/platform/db/database';
import { createMemoryQueue } from '../../src/platform/jobs/memory-queue';
import { createMemoryMailer } from '../../src/platform/mail/mailer';
import type { ApiApp } from '../../src/platform/module';
import { createPlatform, type Platform } from '../../src/platform/platform';
import { createMemoryPush } from '../../src/platform/push/push';
import { ownConnection } from '../../src/platform/redis-connection';
import { createMemorySms } from '../../src/platform/sms/sms';
import { freshDatabase } from './database';
import { servicesTier, serviceUrls } from './services';

export const TEST_JWT_SECRET = 'test-jwt-secret-that-is-long-enough-0123456789';

export interface TestApp {
  app: ApiApp;
  platform: Platform;
  /** Mail sent by the app, newest last. */
  mail: ReturnType<typeof createMemoryMailer>['sent'];
  /** SMS sent by the app, newest last (empty when the test names an SMS_PROVIDER). */
  sms: ReturnType<typeof createMemorySms>['sent'];
  /** Push notifications delivered by the app's jobs, newest last (empty with a PUSH_PROVIDER). */
  push: ReturnType<typeof createMemoryPush>['sent'];
  /** Resolves once the in-process queue is idle (embedded tier); polls BullMQ otherwise. */
  drainJobs(): Promise<void>;
  close(): Promise<void>;
}

export interface TestAppOptions
  extends Pick<BuildAppOptions, 'testRoutes' | 'consoleDir' | 'replaceModules'> {
  env?: Record<string, string>;
  clock?: Clock;
  role?: Role;
  startJobs?: boolean;
  /**
   * false: the app's recurring jobs (reconciliation, expiry sweeps…) are never scheduled, so a
   * test that runs such a pass itself is not raced by the tick both queues fire at start-up.
   */
  schedules?: boolean;
  /**
   * Another test app's `platform.database`, for two processes of one deployment. This app
   * leaves it open when it closes: the app that created it owns it, so close that one last.
   */
  database?: Database;
}

export async function createTestApp(opts: TestAppOptions = {}): Promise<TestApp> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'pasal-data-'));
  const services = servicesTier ? serviceUrls() : undefined;
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATA_DIR: dataDir,
    JWT_SECRET: TEST_JWT_SECRET,
    URL_SIGNING_SECRET: 'test-url-signing-secret-long-enough-0123456789',
    REDIS_URL: services?.redisUrl,
    // Each file its own key space, so parallel files never see each other's counters or jobs.
    REDIS_PREFIX: `pasal-test-${randomBytes(4).toString('hex')}`,
    ...opts.env,
  });
  const database = opts.database ? borrowed(opts.database) : await freshDatabase();
  const mailer = createMemoryMailer();
  const sms = createMemorySms();
  const push = createMemoryPush();
  const memoryQueue = services ? undefined : createMemoryQueue({ concurrency: 2 });
  const platform = await createPlatform(config, {
    log: pino({ level: 'silent' }),
    database,
    mailer,
    // A test that names a real provider (pointed at a local fake) gets the real adapter.
    sms: config.SMS_PROVIDER === 'outbox' ? sms : undefined,
    push: config.PUSH_PROVIDER === 'outbox' ? push : undefined,
    clock: opts.clock,
    jobs: memoryQueue,
  });
  if (opts.schedules === false) platform.jobs.schedule = async () => {};
  let app: ApiApp;
  try {
    app = await buildApp(platform, {
      role: opts.role,
      testRoutes: opts.testRoutes,
      consoleDir: opts.consoleDir,
      replaceModules: opts.replaceModules,
    });
    await app.ready();
  } catch (error) {
    // A test that expects the build to fail must not leave its database (or Redis keys) behind.
    await platform.close().catch(() => {});
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
  if (opts.startJobs !== false) await platform.jobs.start();

  return {
    app,
    platform,
    mail: mailer.sent,
    sms: sms.sent,
    push: push.sent,
    async drainJobs() {
      if (memoryQueue) return memoryQueue.drain();
      // BullMQ: wait until nothing is waiting or active in this file's queue.
      const { Queue } = await import('bullmq');
      // BullMQ does not close a connection it is given: quit it ourselves below.
      const connection = ownConnection(platform.redis!);
      const queue = new Queue('jobs', { connection, prefix: config.REDIS_PREFIX });
      try {
        for (let i = 0; i < 200; i++) {
          const counts = await queue.getJobCounts('waiting', 'active', 'prioritized');
          if (Object.values(counts).every((n) => n === 0)) return;
          await new Promise((r) => setTimeout(r, 25));
        }
        throw new Error('jobs did not drain in 5 s');
      } finally {
        await queue.close();
        await connection.quit().catch(() => {});
      }
    },
    async close() {
      await app.close();
      if (platform.redis) await unlinkMatching(platform.redis, `${config.REDIS_PREFIX}*`);
      await platform.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The same connections, without the close: platform.close() must not end the owner's database. */
function borrowed(database: Database): Database {
  return {
    db: database.db,
    driver: database.driver,
    migrate: () => database.migrate(),
    ping: () => database.ping(),
    close: async () => {},
  };
}
