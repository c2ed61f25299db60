// Entry point: `node dist/main.js [api|worker|all]` (default all).
//   api    serves HTTP and websockets
//   worker runs jobs and schedules
//   all    both, in one process (the embedded default)
import type { Logger } from 'pino';
import { ConfigError, loadConfig, loadEnvFile, type Role } from './config';
import type { ApiApp } from './platform/module';
import type { Platform } from './platform/platform';
import { releaseStartupMemory } from './platform/startup-memory';
import { tracingConfigured } from './platform/tracing/configured';

const ROLES: Role[] = ['api', 'worker', 'all'];

async function main() {
  const role = (process.argv[2] ?? 'all') as Role;
  if (!ROLES.includes(role)) {
    console.error(`Unknown role "${process.argv[2]}": use one of ${ROLES.join(', ')}`);
    process.exit(2);
  }

  // Installed before anything slow: a SIGTERM while PGlite creates its data folder or the
  // migrations run would otherwise kill the process mid-write (the default action) and could
  // leave a data folder that never opens again.
  let platform: Platform | undefined;
  let app: ApiApp | undefined;
  let log: Logger | undefined;
  let control: { close(): Promise<void> } | undefined;
  let tracing: { shutdown(): Promise<void> } | undefined;
  let shutdownTimeoutMs = 15_000;
  let stopping = false;
  let startup: Promise<void> = Promise.resolve();
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    setTimeout(() => {
      (log ?? console).error('shutdown timed out, exiting');
      process.exit(1);
    }, shutdownTimeoutMs).unref();
    // Let the start-up step under way finish; it checks `stopping` before the next one.
    await startup.catch(() => {});
    log?.info({ signal }, 'shutting down: finishing in-flight requests and jobs');
    try {
      await control?.close();
      await app?.close(); // stops accepting, waits for in-flight requests
      await platform?.close(); // waits for running jobs, then closes pools
      await tracing?.shutdown(); // sends the spans still buffered
      log?.info('stopped');
      process.exit(0);
    } catch (error) {
      log?.error({ err: error }, 'error while shutting down');
      process.exit(1);
    }
  };
  process.once('SIGTERM', () => void stop('SIGTERM'));
  process.once('SIGINT', () => void stop('SIGINT'));

  loadEnvFile('.env');
  const config = loadConfig();
  shutdownTimeoutMs = config.SHUTDOWN_TIMEOUT_MS;
  // Traces only with an OTLP endpoint: the SDK is loaded, and patches the libraries, before the
  // app's modules are imported below; without one nothing of it is loaded.
  if (tracingConfigured()) tracing = await (await import('./platform/tracing/tracing')).startTracing(role);

  startup = (async () => {
    // Loaded once the role and the config are known to be good: run from source (tsx, as in
    // development and the tests), a mistake in either is then reported in a fraction of the time.
    const [{ buildApp }, { ensureBootstrapAdmin }, { createPlatform }] = await Promise.all([
      import('./app'),
      import('./modules/identity'),
      import('./platform/platform'),
    ]);
    platform = await createPlatform(config);
    log = platform.log;
    log.info({ sms: platform.sms.driver, push: platform.push.driver }, 'message providers');
    // In production the outbox reaches nobody: no verification code, no order update would arrive.
    if (config.NODE_ENV === 'production') {
      if (platform.sms.driver === 'outbox')
        log.warn('SMS_PROVIDER=outbox in production: no SMS reaches a phone');
      if (platform.push.driver === 'outbox')
        log.warn('PUSH_PROVIDER=outbox in production: no push reaches a device');
    }
    await platform.database.migrate();
    if (stopping) return;
    // The embedded database is this process's alone: `db:backup` asks it on DATA_DIR/control.sock.
    if (platform.database.pglite) {
      const { startBackupControl } = await import('./platform/db/db-commands');
      control = await startBackupControl(config, platform.database.pglite).catch((error: unknown) => {
        log?.warn({ err: error }, 'control socket not opened: db:backup cannot reach this server');
        return undefined;
      });
    }
    if (config.BOOTSTRAP_ADMIN_EMAIL && config.BOOTSTRAP_ADMIN_PASSWORD) {
      const outcome = await ensureBootstrapAdmin({
        db: platform.database.db,
        email: config.BOOTSTRAP_ADMIN_EMAIL,
        password: config.BOOTSTRAP_ADMIN_PASSWORD,
      });
      log.info({ email: config.BOOTSTRAP_ADMIN_EMAIL, outcome }, 'bootstrap admin');
    }

    app = await buildApp(platform, { role });
    await app.ready();
    if (stopping) return;
    // Everything start-up builds is built: give back what it left behind before the first request.
    releaseStartupMemory();
    if (role !== 'worker') {
      await app.listen({ port: config.PORT, host: config.HOST });
      const docs = config.DOCS_ENABLED ? `, API docs at ${config.PUBLIC_BASE_URL}/docs` : '';
      log.info(`Pasal API listening on ${config.PUBLIC_BASE_URL} (${platform.database.driver})${docs}`);
    }
    if (stopping) return;
    if (role !== 'api') {
      await platform.jobs.start();
      // The worker role does not listen, so this line is how an operator sees it is up.
      if (role === 'worker') log.info(`Pasal worker running (jobs: ${platform.jobs.driver})`);
    } else if (platform.jobs.driver === 'memory') {
      log.warn('role "api" without REDIS_URL: jobs are queued in this process but no worker runs them');
    }
  })();
  await startup;
}

main().catch((error) => {
  if (error instanceof ConfigError) console.error(error.message);
  else console.error(error);
  process.exit(1);
});
