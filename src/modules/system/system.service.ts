import packageJson from '../../../package.json' with { type: 'json' };
import { cached } from '../../platform/cache/cache';
import type { ModuleContext } from '../../platform/module';
import { HEARTBEAT, type heartbeatJob } from './system.jobs';
import { lastHeartbeat } from './system.repository';
import type { SystemInfo, SystemStatus } from './system.schemas';

type Deps = Pick<
  ModuleContext,
  'db' | 'cache' | 'config' | 'clock' | 'role' | 'jobs' | 'mail' | 'sms' | 'realtime'
> & {
  databaseDriver: string;
  startedAt: Date;
};

export async function getSystemInfo(deps: Deps): Promise<SystemInfo> {
  const beat = await lastHeartbeat(deps.db, HEARTBEAT);
  return {
    name: 'Pasal',
    version: packageJson.version,
    environment: deps.config.NODE_ENV,
    role: deps.role,
    startedAt: deps.startedAt.toISOString(),
    uptimeSeconds: Math.floor((deps.clock.now().getTime() - deps.startedAt.getTime()) / 1000),
    drivers: {
      database: deps.databaseDriver,
      cache: deps.cache.driver,
      jobs: deps.jobs.driver,
      mail: deps.mail.driver,
      sms: deps.sms.driver,
      realtime: deps.realtime.adapter,
    },
    lastJobHeartbeatAt: beat?.toISOString() ?? null,
  };
}

const STATUS_CACHE_KEY = 'system:status';
export const STATUS_CACHE_TTL_MS = 10_000;

/** The public status, read through the cache: storefronts poll it. */
export function getSystemStatus(deps: Pick<Deps, 'db' | 'cache'>): Promise<SystemStatus> {
  return cached(
    deps.cache,
    STATUS_CACHE_KEY,
    STATUS_CACHE_TTL_MS,
    async () => {
      const beat = await lastHeartbeat(deps.db, HEARTBEAT);
      return { name: 'Pasal', version: packageJson.version, lastJobHeartbeatAt: beat?.toISOString() ?? null };
    },
    { local: true },
  );
}

/** Queues one heartbeat now, e.g. to check that workers take jobs after a deploy. */
export async function requestHeartbeat(deps: Pick<Deps, 'jobs'>, job: ReturnType<typeof heartbeatJob>) {
  await deps.jobs.enqueue(job, {}, { jobId: 'manual' });
}
