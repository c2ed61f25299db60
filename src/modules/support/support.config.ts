// Support's settings: guest inquiry tokens, closing inactive inquiries, and how long realtime
// events are kept. src/config.ts composes them with the others.
import { z } from 'zod';
import { int, setting } from '../../platform/settings';

export const supportSettings = {
  SUPPORT_INQUIRY_TOKEN_TTL_DAYS: setting({
    doc: 'Lifetime of the `si_` token a guest receives when opening a support inquiry.',
    schema: int(1, 365),
    default: '30',
  }),
  SUPPORT_INQUIRIES_INACTIVE_CLOSE_CRON: setting({
    doc: 'When the sweep that closes idle support inquiries runs (cron, UTC).',
    schema: z.string().min(1),
    default: '0 * * * *',
  }),
  SUPPORT_INQUIRIES_INACTIVE_CLOSE_DAYS: setting({
    doc: 'Days without a message or an update after which an `open`, `active`, `waiting` or `resolved` support inquiry is closed by the sweep.',
    schema: int(1, 3650),
    default: '7',
  }),
  SUPPORT_EVENTS_RETENTION_DAYS: setting({
    doc: 'Days support message events are kept for realtime `sync` replay; a client resuming from an older position gets `gap: true` and reloads through REST. Purged daily.',
    schema: int(1, 365),
    default: '7',
  }),
};
