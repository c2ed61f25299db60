import { z } from 'zod';
import type { Clock } from '../../platform/clock';
import type { Db } from '../../platform/db/database';
import { defineJob } from '../../platform/jobs/jobs';
import { recordHeartbeat } from './system.repository';

export const HEARTBEAT = 'jobs';
/** Every minute: proves to operators (system info) that a worker takes jobs. */
export const HEARTBEAT_CRON = '* * * * *';

export const heartbeatJob = (deps: { db: Db; clock: Clock }) =>
  defineJob({
    name: 'system.heartbeat',
    payload: z.object({}),
    attempts: 1,
    handler: async () => recordHeartbeat(deps.db, HEARTBEAT, deps.clock.now()),
  });
