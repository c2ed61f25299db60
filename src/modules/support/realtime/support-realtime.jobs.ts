import { z } from 'zod';
import type { Clock } from '../../../platform/clock';
import type { Db } from '../../../platform/db/database';
import { defineJob } from '../../../platform/jobs/jobs';
import { deleteEventsBefore } from './support-events.repository';

/** Daily, at a quiet hour (UTC). */
export const PURGE_SUPPORT_EVENTS_CRON = '45 3 * * *';

/** Deletes message events older than the retention; the room counters stay, so seqs never restart. */
export const purgeSupportEventsJob = (deps: { db: Db; clock: Clock; retentionDays: number }) =>
  defineJob({
    name: 'support.purge_events',
    payload: z.object({}),
    handler: async () => {
      await deleteEventsBefore(
        deps.db,
        new Date(deps.clock.now().getTime() - deps.retentionDays * 86_400_000),
      );
    },
  });
