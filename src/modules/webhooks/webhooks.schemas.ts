import { z } from 'zod';
import { paginationQuery } from '../../platform/http/pagination';
import { uuidId } from '../../platform/http/params';
import { WEBHOOK_EVENT_TYPES } from './webhooks.catalogue';

const webhookUrl = z
  .url({ protocol: /^https?$/, error: 'must be an http or https URL' })
  .max(2000)
  .refine((u) => !/[\s\\]/.test(u), 'must not contain spaces or backslashes');
const eventType = z.enum(WEBHOOK_EVENT_TYPES);
const events = z
  .array(eventType)
  .min(1, 'at least one event type')
  .max(WEBHOOK_EVENT_TYPES.length)
  .transform((list) => [...new Set(list)]);

export const createWebhookBody = z
  .object({
    url: webhookUrl,
    events,
    description: z.string().trim().max(500).nullable().optional(),
    isActive: z.boolean().optional(),
  })
  .strict();
export type CreateWebhookBody = z.output<typeof createWebhookBody>;

export const updateWebhookBody = z
  .object({
    url: webhookUrl.optional(),
    events: events.optional(),
    description: z.string().trim().max(500).nullable().optional(),
    isActive: z.boolean().optional(),
  })
  .strict();
export type UpdateWebhookBody = z.output<typeof updateWebhookBody>;

const endpointFields = {
  id: z.uuid(),
  url: z.string(),
  events: z.array(z.string()),
  description: z.string().nullable(),
  isActive: z.boolean(),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
};

/** The endpoint as listed and read; its health is what the console's list shows. */
export const webhookEndpoint = z
  .object({
    ...endpointFields,
    consecutiveFailures: z.number().int().describe('Deliveries that ended failed since the last success'),
    lastDeliveryAt: z.iso.datetime().nullable(),
    lastDeliveryStatus: z.enum(['succeeded', 'failed']).nullable(),
    disabledReason: z
      .enum(['gone', 'failures'])
      .nullable()
      .describe('Why the system set it inactive: a 410 answer, or too many failed deliveries in a row'),
    secretRotatedUntil: z.iso
      .datetime()
      .nullable()
      .describe('While set, messages carry the previous secret’s signature too'),
  })
  .meta({ id: 'WebhookEndpoint' });
export type WebhookEndpointView = z.infer<typeof webhookEndpoint>;

export const createdWebhookEndpoint = webhookEndpoint
  .extend({ secret: z.string().describe('whsec_… : shown only in this answer') })
  .meta({ id: 'WebhookEndpointWithSecret' });

export const webhookSecret = z.object({ secret: z.string() }).meta({ id: 'WebhookSecret' });

export const webhookEventTypeView = z
  .object({ type: z.string(), description: z.string(), area: z.string() })
  .meta({ id: 'WebhookEventType' });

export const deliveryStatus = z.enum(['pending', 'succeeded', 'failed']);

export const webhookDelivery = z
  .object({
    id: z.uuid(),
    messageId: z.string(),
    eventType: z.string(),
    status: deliveryStatus,
    attempts: z.number().int(),
    lastStatusCode: z.number().int().nullable(),
    lastError: z.string().nullable(),
    lastAttemptAt: z.iso.datetime().nullable(),
    nextAttemptAt: z.iso.datetime().nullable(),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: 'WebhookDelivery' });
export type WebhookDeliveryView = z.infer<typeof webhookDelivery>;

export const webhookDeliveryDetail = webhookDelivery
  .extend({
    payload: z.record(z.string(), z.unknown()).describe('The message body: { type, timestamp, data }'),
    attemptLog: z.array(
      z.object({
        at: z.iso.datetime(),
        statusCode: z.number().int().nullable(),
        durationMs: z.number().int(),
        error: z.string().nullable(),
      }),
    ),
  })
  .meta({ id: 'WebhookDeliveryDetail' });
export type WebhookDeliveryDetailView = z.infer<typeof webhookDeliveryDetail>;

export const webhookListQuery = paginationQuery;
export type WebhookListQuery = z.output<typeof webhookListQuery>;

export const deliveryListQuery = paginationQuery.extend({ status: deliveryStatus.optional() });
export type DeliveryListQuery = z.output<typeof deliveryListQuery>;

export const deliveryParams = z.object({ id: uuidId, deliveryId: uuidId });

export const acceptedDelivery = z.object({ deliveryId: z.uuid() }).meta({ id: 'WebhookDeliveryAccepted' });
