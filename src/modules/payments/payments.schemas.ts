import { z } from 'zod';
import { booleanQuery } from '../../platform/http/fields';
import { paginationQuery } from '../../platform/http/pagination';
import { PAYMENT_GATEWAYS, PAYMENT_METHODS, PAYMENT_STATUSES, POS_GATEWAYS } from './payments.table';

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

// ---------- the back office's list of payments (GET /api/admin/payments) ----------

const storeDate = z.iso.date({ error: 'must be a date YYYY-MM-DD' });

/** Payments across orders, newest first (the admin order list's pagination). */
export const adminPaymentListQuery = paginationQuery
  .extend({
    gateway: z.enum([...PAYMENT_GATEWAYS, ...POS_GATEWAYS]).optional(),
    status: z.enum(PAYMENT_STATUSES).optional(),
    stale: booleanQuery
      .optional()
      .describe(
        '`true`: only online payments still pending after PAYMENT_RECONCILE_AFTER_SECONDS; `false`: every other payment',
      ),
    search: z
      .string()
      .trim()
      .max(100)
      .optional()
      .describe(
        "Part of the order number or of the payment's reference (ours or the provider's); blank searches nothing",
      ),
    fromDate: storeDate.optional().describe('First store-local day the payment was made (inclusive)'),
    toDate: storeDate.optional().describe('Last store-local day the payment was made (inclusive)'),
  })
  .superRefine((q, ctx) => {
    if (q.fromDate && q.toDate && q.fromDate > q.toDate)
      ctx.addIssue({ code: 'custom', path: ['toDate'], message: 'must not be before fromDate' });
  });
export type AdminPaymentListQuery = z.output<typeof adminPaymentListQuery>;

export const adminPaymentItem = z.object({
  id: z.uuid(),
  orderId: z.number().int(),
  orderNumber: z.string(),
  method: z.enum(PAYMENT_METHODS),
  gateway: z.enum([...PAYMENT_GATEWAYS, ...POS_GATEWAYS]),
  provider: z.string().describe('Who took the money: sandbox, esewa, khalti, cod or pos'),
  status: z.enum(PAYMENT_STATUSES),
  amount: z.number().int().describe('Whole NPR'),
  reference: z.string().describe("Our reference sent to the provider (the payment's gatewayTransactionId)"),
  providerReference: z.string().nullable().describe("The provider's own reference once known"),
  failureReason: z.string().nullable(),
  stale: z
    .boolean()
    .describe(
      'An online payment still pending after PAYMENT_RECONCILE_AFTER_SECONDS: reconciliation should have settled it by now',
    ),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
  completedAt: z.iso.datetime().nullable(),
});
export type AdminPaymentItem = z.infer<typeof adminPaymentItem>;
