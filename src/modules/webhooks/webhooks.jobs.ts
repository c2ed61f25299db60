// The worker's side of webhooks: one job per delivery attempt (the delivery's row says which
// attempt is due, so a job run twice attempts once), a sweep for deliveries whose job was lost
// (a crash between commit and queueing, a worker killed mid-attempt), and the daily clean-up.
import { z } from 'zod';
import { defineJob } from '../../platform/jobs/jobs';
import {
  attemptDelivery,
  removeOldDeliveries,
  sweepDueDeliveries,
  type WebhookDeps,
} from './webhooks.service';

/** How often the sweep looks for deliveries nobody is attempting. */
export const SWEEP_EVERY_SECONDS = 15;
/** The clean-up of old deliveries runs daily at 03:30 in the server's zone. */
export const RETENTION_CRON = '30 3 * * *';

export const deliveryJob = (deps: () => WebhookDeps) =>
  defineJob({
    name: 'webhooks.deliver',
    payload: z.object({ deliveryId: z.uuid() }),
    // Retries of a failed receiver are the delivery's own (WEBHOOK_RETRY_BASE_SECONDS, recorded
    // on the row); the queue retries only a job that itself failed (the database was away).
    attempts: 3,
    backoffMs: 5000,
    async handler({ deliveryId }) {
      await attemptDelivery(deps(), deliveryId);
    },
  });

export const sweepJob = (deps: () => WebhookDeps) =>
  defineJob({
    name: 'webhooks.sweep',
    payload: z.object({}),
    attempts: 1,
    async handler() {
      await sweepDueDeliveries(deps());
    },
  });

export const retentionJob = (deps: () => WebhookDeps) =>
  defineJob({
    name: 'webhooks.remove_old_deliveries',
    payload: z.object({}),
    attempts: 1,
    async handler() {
      await removeOldDeliveries(deps());
    },
  });
