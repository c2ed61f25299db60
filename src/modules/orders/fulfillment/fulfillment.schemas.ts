import { z } from 'zod';
import { FULFILLMENT_STATUSES } from './fulfillment.rules';

export const fulfillmentStatusBody = z.object({
  status: z.enum(FULFILLMENT_STATUSES),
  remarks: z.string().trim().min(1).max(1000).optional(),
});
export type FulfillmentStatusBody = z.output<typeof fulfillmentStatusBody>;

/** The 202 of the fulfilment-status command (interface: `{ requestId, status: pending, createdAt }`). */
export const fulfillmentRequested = z.object({
  requestId: z.string(),
  status: z.literal('pending'),
  createdAt: z.iso.datetime(),
});
export type FulfillmentRequestedView = z.infer<typeof fulfillmentRequested>;

/** What the `order.fulfillment_status` job is handed. */
export const fulfillmentStatusPayload = z.object({
  orderId: z.number().int(),
  status: z.enum(FULFILLMENT_STATUSES),
  remarks: z.string().nullish(),
  adminId: z.string(),
  requestId: z.string(),
});
export type FulfillmentStatusPayload = z.infer<typeof fulfillmentStatusPayload>;

export const digitalDelivery = z.object({
  orderId: z.number().int(),
  deliveredItems: z.array(
    z.object({
      orderItemId: z.number().int(),
      productId: z.number().int(),
      productTitle: z.string(),
      keyId: z.string(),
      assignedAt: z.iso.datetime(),
    }),
  ),
  emailSentTo: z.string().nullable(),
  /** `key_sent` for a digital order; a mixed order keeps its own (physical) status. */
  fulfillmentStatus: z.enum(FULFILLMENT_STATUSES),
});
export type DigitalDeliveryView = z.infer<typeof digitalDelivery>;

export const orderItemKeys = z.object({
  orderItemId: z.number().int(),
  productId: z.number().int(),
  productTitle: z.string(),
  quantity: z.number().int(),
  keys: z.array(
    z.object({
      keyId: z.string(),
      value: z
        .string()
        .nullable()
        .describe(
          "The full key; null unless the admin's role holds DigitalKeys_READ (maskedValue is shown then)",
        ),
      maskedValue: z.string().describe('`****` and the last characters, as the product key list shows it'),
      assignedAt: z.iso.datetime(),
    }),
  ),
});
export type OrderItemKeysView = z.infer<typeof orderItemKeys>;

export const carePackageActivation = z.object({
  orderId: z.number().int(),
  activatedCount: z.number().int(),
  fulfillmentStatus: z.literal('activated'),
});
export type CarePackageActivationView = z.infer<typeof carePackageActivation>;

/** An order item's care-package cover (`subscriptionInfo` of the order detail). */
export const subscriptionInfo = z.object({
  subscriptionId: z.string(),
  carePackageId: z.number().int(),
  tierId: z.number().int(),
  status: z.enum(['pending', 'active', 'expired', 'cancelled']),
  durationMonths: z.number().int(),
  startsAt: z.iso.datetime().nullable(),
  endsAt: z.iso.datetime().nullable(),
});
export type SubscriptionInfo = z.infer<typeof subscriptionInfo>;
