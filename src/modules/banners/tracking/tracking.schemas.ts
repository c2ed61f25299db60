// Request and response schemas of impression and click tracking.
import { z } from 'zod';
import { safeUrl } from '../../../platform/http/fields';

const trackingFields = {
  bannerPublicId: z.uuid(),
  placementPublicId: z.uuid(),
  campaignPublicId: z.uuid().optional(),
  sessionId: z.string().min(1).max(128).optional(),
  userId: z.uuid().optional(),
  deviceType: z.string().min(1).max(20).optional(),
  countryCode: z
    .string()
    .regex(/^[A-Za-z]{1,2}$/, 'must be a country code of at most 2 letters')
    .transform((c) => c.toUpperCase())
    .optional(),
  pageUrl: z.string().min(1).max(2048).optional(),
  occurredAt: z.iso.datetime({ offset: true }),
  correlationId: z.string().trim().min(1).max(128),
};
export const impressionBody = z.object({
  ...trackingFields,
  referrerUrl: z.string().min(1).max(2048).optional(),
});
export type ImpressionBody = z.output<typeof impressionBody>;
export const clickBody = z.object({ ...trackingFields, destinationUrl: safeUrl });
export type ClickBody = z.output<typeof clickBody>;

export const trackingAccepted = z.object({ message: z.string(), data: z.null() });
