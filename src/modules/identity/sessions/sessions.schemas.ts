import { z } from 'zod';

export const signedInDevice = z
  .object({
    sessionId: z.uuid(),
    deviceName: z.string().nullable().describe('From the deviceInfo given at sign-in; null when none was'),
    deviceType: z.string().nullable(),
    createdAt: z.iso.datetime(),
    lastUsedAt: z.iso.datetime().describe('Recorded at most once a minute; the sign-in time until then'),
    current: z.boolean().describe('The session of the token making this request'),
  })
  .meta({ id: 'SignedInDevice' });
export type SignedInDevice = z.infer<typeof signedInDevice>;

export const sessionParams = z.object({ sessionId: z.uuid() });
export const revokedCount = z.object({ revokedCount: z.number().int() });
