import { z } from 'zod';
import type { Clock } from '../../platform/clock';
import type { Db } from '../../platform/db/database';
import { defineJob } from '../../platform/jobs/jobs';
import { purgeExpiredIdempotencyKeys } from './idempotency.service';

/** Hourly: keys older than 24 h are gone from the table (they already count as new). */
export const PURGE_IDEMPOTENCY_KEYS_CRON = '17 * * * *';

export const purgeIdempotencyKeysJob = (deps: { db: Db; clock: Clock }) =>
  defineJob({
    name: 'idempotency.purge',
    payload: z.object({}),
    attempts: 3,
    handler: async () => {
      await purgeExpiredIdempotencyKeys(deps.db, deps.clock.now());
    },
  });
