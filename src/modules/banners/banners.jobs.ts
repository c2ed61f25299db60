// The banner area's jobs: recording tracked events, the minutely schedule sync and the
// nightly statistics rollup (interface document 3, "Events").
import { z } from 'zod';
import { inTransaction } from '../../platform/db/transaction';
import { defineJob } from '../../platform/jobs/jobs';
import * as bannerRepo from './banners/banners.repository';
import { type BannerDeps, clearBannerCaches } from './banners.service';
import * as repo from './tracking/tracking.repository';
import {
  clickPayload,
  impressionPayload,
  recordClick,
  recordImpression,
  type TrackingJobs,
} from './tracking/tracking.service';

export const ROLLUP_BATCH_SIZE = 100;

export function trackingJobs(deps: BannerDeps): TrackingJobs {
  return {
    impression: defineJob({
      name: 'banner.record_impression',
      payload: impressionPayload,
      attempts: 5,
      handler: async (p) => {
        await recordImpression(deps, p);
      },
    }),
    click: defineJob({
      name: 'banner.record_click',
      payload: clickPayload,
      attempts: 5,
      handler: async (p) => {
        await recordClick(deps, p);
      },
    }),
  };
}

/**
 * The four condition-based updates (banners scheduled → active, → expired; campaigns
 * scheduled → active, → ended) in one transaction. Conditions compare with now, so a run that
 * was missed is caught up by the next. Returns how many rows changed.
 */
export async function syncScheduleStatus(deps: BannerDeps): Promise<number> {
  const changed = await inTransaction(deps.db, (tx) => bannerRepo.syncScheduleStatuses(tx, deps.clock.now()));
  // clearBannerCaches logs a failure and never throws: the status change stands.
  if (changed > 0) await clearBannerCaches(deps);
  return changed;
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** The UTC date before `now`, YYYY-MM-DD. */
export const previousUtcDate = (now: Date) => new Date(now.getTime() - 86_400_000).toISOString().slice(0, 10);

/**
 * Rolls up one UTC day: the day's rows become exactly the aggregate of its events with a
 * campaign (rows written in batches of 100, rows without events left over from an earlier run
 * removed), so running it again gives identical rows.
 */
export async function rollupStats(deps: BannerDeps, statDate: string): Promise<number> {
  const aggregates = await repo.aggregateDay(deps.db, statDate);
  const now = deps.clock.now();
  await inTransaction(deps.db, async (tx) => {
    await repo.deleteStaleDailyStats(tx, statDate, aggregates);
    for (let i = 0; i < aggregates.length; i += ROLLUP_BATCH_SIZE) {
      await repo.upsertDailyStats(tx, statDate, aggregates.slice(i, i + ROLLUP_BATCH_SIZE), now);
    }
  });
  return aggregates.length;
}

export function scheduleJobs(deps: BannerDeps) {
  const sync = defineJob({
    name: 'banner.sync_schedule_status',
    payload: z.object({ correlationId: z.string().optional() }),
    attempts: 1,
    handler: async () => {
      await syncScheduleStatus(deps);
    },
  });
  const rollup = defineJob({
    name: 'banner.rollup_stats',
    payload: z.object({
      statDate: z.string().regex(DATE).optional(),
      correlationId: z.string().optional(),
    }),
    attempts: 3,
    handler: async (p) => {
      if (p.statDate) {
        await rollupStats(deps, p.statDate);
        return;
      }
      // The nightly tick names no date: it queues yesterday's rollup under the date's job id.
      const statDate = previousUtcDate(deps.clock.now());
      await deps.jobs.enqueue(rollup, { statDate, correlationId: `rollup-${statDate}` }, { jobId: statDate });
    },
  });
  return { sync, rollup };
}
