// Builds every port once from the config: which engine each one uses is decided here and
// nowhere else. Tests pass overrides (a cloned database, a test clock, memory sinks).
import path from 'node:path';
import type { Redis } from 'ioredis';
import pino, { type Logger } from 'pino';
import type { Config } from '../config';
import { Authenticator } from './auth/authenticator';
import type { Cache } from './cache/cache';
import { createMemoryCache } from './cache/memory-cache';
import { createRedisCache } from './cache/redis-cache';
import { type Clock, systemClock } from './clock';
import { type Database, openDatabase } from './db/database';
import { type Outgoing, type PushOutgoing, queuedDelivery, type SmsOutgoing } from './delivery/delivery';
import { bindDomainEvents, createDomainEvents, type DomainEventBus } from './events/events';
import { createBullmqQueue } from './jobs/bullmq-queue';
import type { JobEvents, JobQueue } from './jobs/jobs';
import { createMemoryQueue } from './jobs/memory-queue';
import { lazyPackage } from './lazy';
import { createOutboxMailer, createSmtpMailer, type Mailer, type MailMessage } from './mail/mailer';
import { createMetrics, type Metrics } from './metrics/metrics';
import { createFcmPush } from './push/fcm';
import { createOutboxPush, type PushSender } from './push/push';
import { readServiceAccount } from './push/service-account';
import { createRealtime, type Realtime } from './realtime/realtime';
import { type AccessTokens, createAccessTokens } from './security/jwt';
import { createAakashSms } from './sms/aakash';
import { createOutboxSms, type SmsSender } from './sms/sms';
import { createSparrowSms } from './sms/sparrow';
import { createLocalStorage } from './storage/local-storage';
import { createS3Storage } from './storage/s3-storage';
import type { Storage } from './storage/storage';
import { tracingHooks } from './tracing/hooks';

export interface Platform {
  config: Config;
  log: Logger;
  clock: Clock;
  database: Database;
  redis: Redis | undefined;
  cache: Cache;
  /**
   * Security counters (login, code and registration throttles, lockouts, the cart's change
   * limit): never the evicting cache of pages (docs/decisions.md, "Security counters"). Redis when
   * configured; embedded, a bounded store that refuses new keys (429) when full.
   */
  counters: Cache;
  jobs: JobQueue;
  /** The mail adapter itself; modules send through `outgoing.mail`, which queues. */
  mailer: Mailer;
  sms: SmsSender;
  push: PushSender;
  outgoing: { mail: Outgoing<MailMessage>; sms: SmsOutgoing; push: PushOutgoing };
  tokens: AccessTokens;
  authenticator: Authenticator;
  realtime: Realtime;
  metrics: Metrics;
  /** Domain events published in this database's transactions (platform/events). */
  events: DomainEventBus;
  /** Uploaded files: local disk or S3. */
  storage: Storage;
  /** Closes every port, in the order that loses no work: jobs first, the database last. */
  close(): Promise<void>;
}

export type PlatformOverrides = Partial<
  Pick<
    Platform,
    | 'log'
    | 'clock'
    | 'database'
    | 'cache'
    | 'counters'
    | 'jobs'
    | 'mailer'
    | 'sms'
    | 'push'
    | 'metrics'
    | 'storage'
  >
>;

const ioredis = lazyPackage<typeof import('ioredis')>('ioredis');

export async function createPlatform(config: Config, overrides: PlatformOverrides = {}): Promise<Platform> {
  const tracing = tracingHooks();
  // With tracing on, each log line names the trace and span it was written in.
  const log =
    overrides.log ?? pino({ level: config.LOG_LEVEL, ...(tracing ? { mixin: tracing.logFields } : {}) });
  const clock = overrides.clock ?? systemClock;
  const metrics = overrides.metrics ?? createMetrics({ defaults: config.NODE_ENV !== 'test' });
  // Auto-pipelining: the commands a tick issues (a checkout's cache drops and their
  // announcements, concurrent requests' cache reads) leave in one write instead of one each:
  // under checkout load, socket writes were a third of the server's CPU (bench/README.md, "Issue
  // 33, round six"). Only this shared client pipelines: every connection duplicated from it
  // (BullMQ's, the subscribers) turns it off (`ownConnection`, redis-connection.ts).
  const redis = config.REDIS_URL
    ? new (ioredis().Redis)(config.REDIS_URL, { lazyConnect: false, enableAutoPipelining: true })
    : undefined;
  redis?.on('error', (error) => log.warn({ err: error }, 'redis connection error'));
  const database =
    overrides.database ??
    (await openDatabase({
      databaseUrl: config.DATABASE_URL,
      poolSize: config.DATABASE_POOL_SIZE,
      dataDir: config.DATA_DIR,
      pgliteSharedBuffersMb: config.PGLITE_SHARED_BUFFERS_MB,
      onPgliteTemplateError: (error) =>
        log.warn(
          { err: error },
          'the database template in dist/ could not be copied: running initdb instead',
        ),
    }));

  const jobEvents: JobEvents = {
    onCompleted: (name) => metrics.jobs.inc({ name, outcome: 'completed' }),
    onFailed: (name, error, willRetry) => {
      metrics.jobs.inc({ name, outcome: willRetry ? 'retrying' : 'failed' });
      log.error({ err: error, job: name, willRetry }, 'job failed');
    },
  };
  const jobs =
    overrides.jobs ??
    (redis
      ? createBullmqQueue({
          redis,
          prefix: config.REDIS_PREFIX,
          concurrency: config.JOBS_CONCURRENCY,
          events: jobEvents,
        })
      : createMemoryQueue({ concurrency: config.JOBS_CONCURRENCY, events: jobEvents }));
  const cache =
    overrides.cache ??
    (redis
      ? createRedisCache({
          redis,
          prefix: config.REDIS_PREFIX,
          commandTimeoutMs: config.CACHE_COMMAND_TIMEOUT_MS,
          localTtlMs: config.CACHE_LOCAL_TTL_MS,
        })
      : createMemoryCache({ maxEntries: config.CACHE_MAX_ENTRIES, clock }));
  const counters =
    overrides.counters ??
    (redis
      ? cache
      : createMemoryCache({ maxEntries: config.SECURITY_COUNTERS_MAX_ENTRIES, clock, whenFull: 'refuse' }));
  const outboxLog = (fields: Record<string, unknown>, msg: string) => log.info(fields, msg);
  const mailer =
    overrides.mailer ??
    (config.SMTP_URL
      ? createSmtpMailer({ url: config.SMTP_URL, from: config.MAIL_FROM })
      : createOutboxMailer({ dataDir: config.DATA_DIR, from: config.MAIL_FROM, log: outboxLog }));
  const sms = overrides.sms ?? createSms(config, outboxLog);
  const push = overrides.push ?? createPush(config, outboxLog);
  const outgoing = queuedDelivery({
    jobs,
    mailer,
    sms,
    push,
    retryBaseMs: config.DELIVERY_RETRY_BASE_SECONDS * 1000,
    counter: metrics.outgoing,
    log: (fields, msg) => log.info(fields, msg),
  });
  const tokens = createAccessTokens({
    secret: config.JWT_SECRET,
    ttlSeconds: config.JWT_ACCESS_TTL_SECONDS,
    now: () => clock.now(),
  });
  const authenticator = new Authenticator(tokens, {
    cache,
    ttlMs: config.SESSION_CACHE_MS,
    now: () => clock.now().getTime(),
  });
  const realtime = createRealtime({
    namespace: config.WS_NAMESPACE,
    authenticator,
    redis,
    redisPrefix: config.REDIS_PREFIX,
    corsOrigins: config.CORS_ORIGINS,
    recheckIntervalMs: config.REALTIME_RECHECK_SECONDS * 1000,
    clock,
    log,
  });

  const storage = overrides.storage ?? createStorage(config, clock);
  const events = createDomainEvents({
    onSubscriberError: (error, name) =>
      log.error({ err: error, event: name }, 'domain event subscriber failed'),
  });
  bindDomainEvents(database.db, events);

  return {
    config,
    log,
    clock,
    database,
    redis,
    cache,
    counters,
    jobs,
    mailer,
    sms,
    push,
    outgoing,
    tokens,
    authenticator,
    realtime,
    metrics,
    events,
    storage,
    async close() {
      await jobs.close();
      await realtime.close();
      await mailer.close();
      await cache.close();
      if (counters !== cache) await counters.close();
      await storage.close();
      await database.close();
      await redis?.quit().catch(() => {});
    },
  };
}

type OutboxLogger = (fields: Record<string, unknown>, msg: string) => void;

function createSms(config: Config, outboxLog: OutboxLogger): SmsSender {
  const timeoutMs = config.DELIVERY_TIMEOUT_SECONDS * 1000;
  // loadConfig has checked that each provider's credentials are set.
  if (config.SMS_PROVIDER === 'sparrow') {
    return createSparrowSms({
      token: config.SPARROW_SMS_TOKEN!,
      from: config.SPARROW_SMS_FROM!,
      url: config.SPARROW_SMS_URL,
      timeoutMs,
    });
  }
  if (config.SMS_PROVIDER === 'aakash') {
    return createAakashSms({ token: config.AAKASH_SMS_TOKEN!, url: config.AAKASH_SMS_URL, timeoutMs });
  }
  return createOutboxSms({ dataDir: config.DATA_DIR, log: outboxLog });
}

function createPush(config: Config, outboxLog: OutboxLogger): PushSender {
  if (config.PUSH_PROVIDER === 'fcm') {
    return createFcmPush({
      account: readServiceAccount({
        file: config.FCM_SERVICE_ACCOUNT_FILE,
        json: config.FCM_SERVICE_ACCOUNT_JSON,
      }),
      baseUrl: config.FCM_BASE_URL,
      timeoutMs: config.DELIVERY_TIMEOUT_SECONDS * 1000,
    });
  }
  return createOutboxPush({ dataDir: config.DATA_DIR, log: outboxLog });
}

function createStorage(config: Config, clock: Clock): Storage {
  if (config.STORAGE_DRIVER === 's3') {
    // loadConfig has checked that these are set when the driver is s3.
    return createS3Storage({
      endpoint: config.S3_ENDPOINT,
      region: config.S3_REGION,
      bucket: config.S3_BUCKET!,
      accessKeyId: config.S3_ACCESS_KEY_ID!,
      secretAccessKey: config.S3_SECRET_ACCESS_KEY!,
      forcePathStyle: config.S3_FORCE_PATH_STYLE,
      publicBaseUrl: config.STORAGE_PUBLIC_BASE_URL,
      tmpDir: path.join(config.DATA_DIR, 'tmp'),
      clock,
    });
  }
  return createLocalStorage({
    root: path.join(config.DATA_DIR, 'storage'),
    baseUrl: config.PUBLIC_BASE_URL,
    signingSecret: config.URL_SIGNING_SECRET,
    clock,
  });
}
