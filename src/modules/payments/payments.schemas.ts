import { z } from 'zod';

export const paymentIdParams = z.object({ paymentId: z.string().max(64) });

/** Gateway parameters arrive as a query string or a form body; repeated keys keep the first value. */
export const gatewayParamsInput = z.record(z.string(), z.union([z.string(), z.array(z.string())])).optional();

export const flattenParams = (input: Record<string, string | string[]> | undefined): Record<string, string> =>
  Object.fromEntries(
    Object.entries(input ?? {}).map(([key, value]) => [key, Array.isArray(value) ? (value[0] ?? '') : value]),
  );

export const sandboxOutcomeBody = z.object({ outcome: z.enum(['success', 'failure']) });

export const resultQuery = z.object({
  payment_status: z.string().max(32).optional(),
  payment_id: z.string().max(64).optional(),
  reference_type: z.string().max(32).optional(),
  reference_id: z.string().max(32).optional(),
  /** Accepted and ignored: the page goes only to the payment's stored return URL. */
  next: z.string().max(2048).optional(),
});
