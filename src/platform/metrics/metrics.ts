// Prometheus metrics: process defaults, HTTP request durations by route, job outcomes, and
// outgoing mail, SMS and push by provider and outcome.
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';

export interface Metrics {
  registry: Registry;
  httpDuration: Histogram<'method' | 'route' | 'status_code'>;
  jobs: Counter<'name' | 'outcome'>;
  outgoing: Counter<'channel' | 'provider' | 'outcome'>;
  /** Unix time of the last scheduled backup that succeeded (unset until one does, in this process). */
  backupLastSuccess: Gauge;
  webhookDeliveries: Counter<'event_type' | 'outcome'>;
}

export function createMetrics(opts: { defaults: boolean }): Metrics {
  const registry = new Registry();
  if (opts.defaults) collectDefaultMetrics({ register: registry });
  return {
    registry,
    httpDuration: new Histogram({
      name: 'http_request_duration_seconds',
      help: 'HTTP request duration by route pattern',
      labelNames: ['method', 'route', 'status_code'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
      registers: [registry],
    }),
    jobs: new Counter({
      name: 'jobs_total',
      help: 'Jobs run, by name and outcome (completed, retrying, failed)',
      labelNames: ['name', 'outcome'],
      registers: [registry],
    }),
    outgoing: new Counter({
      name: 'outgoing_messages_total',
      help: 'Delivery tries of mail, SMS and push, by channel, provider and outcome (sent, retrying, failed, refused, token_removed)',
      labelNames: ['channel', 'provider', 'outcome'],
      registers: [registry],
    }),
    backupLastSuccess: new Gauge({
      name: 'backup_last_success_timestamp_seconds',
      help: 'Unix time of the last scheduled backup (BACKUP_CRON) that succeeded in this process',
      registers: [registry],
    }),
    webhookDeliveries: new Counter({
      name: 'webhook_deliveries_total',
      help: 'Webhook delivery attempts, by event type and outcome (succeeded, retrying, failed, disabled, url_not_allowed)',
      labelNames: ['event_type', 'outcome'],
      registers: [registry],
    }),
  };
}
