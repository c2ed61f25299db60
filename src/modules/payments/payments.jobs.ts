import { z } from 'zod';
import { defineJob } from '../../platform/jobs/jobs';
import {
  type OutcomeResult,
  type PaymentsDeps,
  processRedirectOutcome,
  processStatusCheck,
  reconcilePayments,
} from './payments.service';

/** Inconclusive answers are asked again this many times, `RETRY_DELAY_MS` × attempt apart. */
export const PAYMENT_RETRY_MAX_ATTEMPTS = 5;
export const PAYMENT_RETRY_DELAY_MS = 60_000;

const gatewayParams = z.record(z.string(), z.string()).default({});

export function paymentJobs(deps: PaymentsDeps) {
  const retry = defineJob({
    name: 'order.payment_retry',
    payload: z.object({
      orderId: z.number().int(),
      paymentId: z.string(),
      attempt: z.number().int().min(1),
      maxAttempts: z.number().int().min(1),
    }),
    handler: async (p) => {
      const result = await processStatusCheck(deps, p.paymentId);
      if (result === 'retry') await scheduleRetry(p.orderId, p.paymentId, p.attempt + 1, p.maxAttempts);
    },
  });

  async function scheduleRetry(orderId: number, paymentId: string, attempt: number, maxAttempts: number) {
    if (attempt > maxAttempts) {
      deps.log.warn({ paymentId, orderId }, 'payment still unverified after the last retry; left pending');
      return;
    }
    await deps.jobs.enqueue(
      retry,
      { orderId, paymentId, attempt, maxAttempts },
      { jobId: `${paymentId}-retry-${attempt}`, delayMs: PAYMENT_RETRY_DELAY_MS * attempt },
    );
  }

  const afterRedirect = async (orderId: number, paymentId: string, result: OutcomeResult) => {
    if (result === 'retry') await scheduleRetry(orderId, paymentId, 1, PAYMENT_RETRY_MAX_ATTEMPTS);
  };

  const success = defineJob({
    name: 'order.payment_success',
    payload: z.object({
      orderId: z.number().int(),
      /** The payment id. */
      paymentReference: z.string(),
      transactionId: z.string().optional(),
      /** What the provider sent to the success redirect, verified again here. */
      gatewayParams,
    }),
    handler: async (p) =>
      afterRedirect(
        p.orderId,
        p.paymentReference,
        await processRedirectOutcome(deps, p.paymentReference, 'success', p.gatewayParams),
      ),
  });

  const failed = defineJob({
    name: 'order.payment_failed',
    payload: z.object({
      orderId: z.number().int(),
      reason: z.string().optional(),
      paymentId: z.string(),
      gatewayParams,
    }),
    handler: async (p) =>
      afterRedirect(
        p.orderId,
        p.paymentId,
        await processRedirectOutcome(deps, p.paymentId, 'failure', p.gatewayParams),
      ),
  });

  /** `payment.reconcile`, every PAYMENT_RECONCILE_INTERVAL_SECONDS (scheduled at start-up). */
  const reconcile = defineJob({
    name: 'payment.reconcile',
    payload: z.object({}),
    // The next pass is the retry: a provider error is asked again then.
    attempts: 1,
    handler: async () => {
      await reconcilePayments(deps);
    },
  });

  return { success, failed, retry, reconcile };
}
export type PaymentJobs = ReturnType<typeof paymentJobs>;
