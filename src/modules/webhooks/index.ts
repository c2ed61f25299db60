// Webhooks: other systems of the shop (a courier portal, the accountant's software, a chat
// channel) are told what happened, as Standard Webhooks messages: signed, retried, logged.
// Messages are made from domain events inside the publisher's transaction (an outbox), and
// delivered by jobs on the worker (docs/architecture.md, "Webhooks").
import type { DomainEventName } from '../../platform/events/events';
import type { PasalModule } from '../../platform/module';
import { createNotifier } from '../notifications';
import { systemResolver } from './webhooks.addresses';
import { deliveryJob, RETENTION_CRON, retentionJob, SWEEP_EVERY_SECONDS, sweepJob } from './webhooks.jobs';
import { TRANSLATIONS, webhookMessageOf } from './webhooks.payloads';
import { webhookPermissions } from './webhooks.permissions';
import { webhookRoutes } from './webhooks.routes';
import { sendWebhook } from './webhooks.sender';
import { listenedTypes, recordMessage, type WebhookDeps } from './webhooks.service';

export { webhookPermissions } from './webhooks.permissions';

export const webhooksModule: PasalModule = {
  name: 'webhooks',
  // Every event a webhook message is made from (`TRANSLATIONS`), heard in its transaction.
  events: { publishes: [], subscribes: Object.keys(TRANSLATIONS) as DomainEventName[] },
  tags: { webhooks: 'Outgoing webhooks (Standard Webhooks): endpoints, event types, the delivery log.' },
  permissions: [{ module: webhookPermissions.module, codes: webhookPermissions.codes }],
  async register(ctx) {
    const deps: WebhookDeps = {
      ...ctx,
      notifier: createNotifier(ctx),
      resolve: systemResolver,
      send: sendWebhook,
      queueDelivery: ({ deliveryId, attempts, delayMs, sweep }) =>
        ctx.jobs.enqueue(
          deliver,
          { deliveryId },
          // One job per attempt; a sweep's own id, so a job stuck with a dead worker does not block it.
          { jobId: `${deliveryId}-${attempts}${sweep ? '-sweep' : ''}`, delayMs },
        ),
    };
    // Tests swap the resolver or the sender through this object (`webhookDeliveryDeps`).
    depsByDatabase.set(ctx.db, deps);
    const current = () => deps;
    const deliver = deliveryJob(current);
    ctx.jobs.register(deliver);
    const sweep = sweepJob(current);
    ctx.jobs.register(sweep);
    await ctx.jobs.schedule(sweep, { everySeconds: SWEEP_EVERY_SECONDS }, {});
    const retention = retentionJob(current);
    ctx.jobs.register(retention);
    await ctx.jobs.schedule(retention, RETENTION_CRON, {}, { timezone: ctx.config.STORE_TIMEZONE });

    // The outbox: each domain event an endpoint may hear becomes messages in its own transaction.
    for (const name of Object.keys(TRANSLATIONS) as DomainEventName[]) {
      ctx.events.inTransaction(name, async (tx, payload, { afterCommit }) => {
        const message = webhookMessageOf(deps, tx, name, payload);
        if (!message || !(await listenedTypes(deps, tx)).includes(message.type)) return;
        await recordMessage(deps, tx, afterCommit, message);
      });
    }
    webhookRoutes(ctx.app, deps);
  },
};

const depsByDatabase = new WeakMap<object, WebhookDeps>();

/** The live delivery dependencies of the app on a database (tests replace `resolve` or `send`). */
export const webhookDeliveryDeps = (db: object): WebhookDeps | undefined => depsByDatabase.get(db);
