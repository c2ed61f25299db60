// Entry point: `node dist/main.js [api|worker|all]` (default all).
//   api    serves HTTP and websockets
//   worker runs jobs and schedules
//   all    both, in one process (the embedded default)
import { buildApp } from './app';
import { ConfigError, loadConfig, type Role } from './config';
import { ensureBootstrapAdmin } from './modules/identity';
import { createPlatform } from './platform/platform';

const ROLES: Role[] = ['api', 'worker', 'all'];

async function main() {
  const role = (process.argv[2] ?? 'all') as Role;
  if (!ROLES.includes(role)) {
    console.error(`Unknown role "${process.argv[2]}": use one of ${ROLES.join(', ')}`);
    process.exit(2);
  }
  const config = loadConfig();
  const platform = await createPlatform(config);
  const { log } = platform;

  await platform.database.migrate();
  if (config.BOOTSTRAP_ADMIN_EMAIL && config.BOOTSTRAP_ADMIN_PASSWORD) {
    const outcome = await ensureBootstrapAdmin({
      db: platform.database.db,
      email: config.BOOTSTRAP_ADMIN_EMAIL,
      password: config.BOOTSTRAP_ADMIN_PASSWORD,
    });
    log.info({ email: config.BOOTSTRAP_ADMIN_EMAIL, outcome }, 'bootstrap admin');
  }

  const app = await buildApp(platform, { role });
  if (role !== 'worker') {
    await app.listen({ port: config.PORT, host: config.HOST });
    const docs = config.DOCS_ENABLED ? `, API docs at ${config.PUBLIC_BASE_URL}/docs` : '';
    log.info(`Pasal API listening on ${config.PUBLIC_BASE_URL} (${platform.database.driver})${docs}`);
  } else {
    await app.ready();
  }
  if (role !== 'api') await platform.jobs.start();
  else if (platform.jobs.driver === 'memory') {
    log.warn('role "api" without REDIS_URL: jobs are queued in this process but no worker runs them');
  }

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down: finishing in-flight requests and jobs');
    setTimeout(() => {
      log.error('shutdown timed out, exiting');
      process.exit(1);
    }, config.SHUTDOWN_TIMEOUT_MS).unref();
    try {
      await app.close(); // stops accepting, waits for in-flight requests
      await platform.close(); // waits for running jobs, then closes pools
      log.info('stopped');
      process.exit(0);
    } catch (error) {
      log.error({ err: error }, 'error while shutting down');
      process.exit(1);
    }
  };
  process.once('SIGTERM', () => void stop('SIGTERM'));
  process.once('SIGINT', () => void stop('SIGINT'));
}

main().catch((error) => {
  if (error instanceof ConfigError) console.error(error.message);
  else console.error(error);
  process.exit(1);
});
