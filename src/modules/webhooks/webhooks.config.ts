import { bool, int, setting } from '../../platform/settings';

export const webhookSettings = {
  WEBHOOK_TIMEOUT_MS: setting({
    doc: 'One webhook delivery attempt must be answered with a 2xx within this many milliseconds; otherwise it counts as failed and is tried again.',
    schema: int(100, 120_000),
    default: '10000',
  }),
  WEBHOOK_RETRY_BASE_SECONDS: setting({
    doc: 'A failed webhook delivery is tried again after this many seconds, then twice as long each time, up to `WEBHOOK_MAX_ATTEMPTS` attempts.',
    schema: int(1, 86_400),
    default: '30',
  }),
  WEBHOOK_MAX_ATTEMPTS: setting({
    doc: 'Attempts of one webhook delivery (the first included) before it is marked `failed`.',
    schema: int(1, 20),
    default: '8',
  }),
  WEBHOOK_DISABLE_AFTER_FAILURES: setting({
    doc: 'After this many failed webhook deliveries in a row an endpoint is set inactive and the admins holding `Webhooks_UPDATE` are notified in-app.',
    schema: int(1, 10_000),
    default: '20',
  }),
  WEBHOOK_DELIVERY_RETENTION_DAYS: setting({
    doc: 'Webhook deliveries (with their attempt log and payload) are kept this many days, then removed by a daily job.',
    schema: int(1, 3650),
    default: '30',
  }),
  WEBHOOK_ALLOW_PRIVATE_URLS: setting({
    doc: 'true: webhook URLs may point at loopback, private, link-local, unique-local or unspecified addresses (development and tests only; keep false in production, where it guards against server-side request forgery).',
    schema: bool,
    default: 'false',
  }),
} as const;
