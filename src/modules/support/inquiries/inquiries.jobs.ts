import { z } from 'zod';
import type { Clock } from '../../../platform/clock';
import type { Db } from '../../../platform/db/database';
import { defineJob } from '../../../platform/jobs/jobs';
import { closeInactiveInquiries } from './inquiries.service';

/**
 * The inactivity sweep. It is one conditional UPDATE: two runs at once (two workers picking
 * up the same tick) cannot close an inquiry twice or in a different way, so no lock is taken;
 * the jobs port also runs each cron tick once for the whole fleet.
 */
export const closeInactiveInquiriesJob = (deps: { db: Db; clock: Clock; days: number }) =>
  defineJob({
    name: 'support.close_inactive_inquiries',
    payload: z.object({}),
    attempts: 3,
    handler: async () => {
      await closeInactiveInquiries(deps, deps.days);
    },
  });
