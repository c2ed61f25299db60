// Payments: one record per attempt to pay an order, the provider adapters behind the online
// gateways (the built-in sandbox, eSewa ePay v2 and Khalti KPG-2, chosen per gateway by the
// PAYMENT_GATEWAY_* settings), the public redirect and result routes, and the jobs that move a
// payment out of `pending` (redirect outcomes, retries, `payment.reconcile`).
//
// The contract with orders (which imports this file; payments never imports orders):
// - `initiatePayment(app, tx, { orderId, orderNumber, amount, gateway, returnUrl })` inside the
//   checkout transaction → `{ paymentId, gatewayTransactionId, initiationType, redirectUrl,
//   gatewayPayload }`; throws 400 PAYMENT_RETURN_URL_NOT_ALLOWED, 502 PAYMENT_GATEWAY_UNAVAILABLE.
// - `registerPaymentOutcomeHandlers(app, { onCompleted, onFailed })` once at start-up: each is called
//   once per payment, inside the transaction that moves it from `pending` (onCompleted also, with
//   `late: true`, for a payment completed after it was failed or cancelled).
// - `checkPaymentsBeforeCancel(app, orderId)`: the last question to the provider before
//   `order.auto_cancel` gives an order up.
import { paymentGatewayProviders } from '../../config';
import type { Db } from '../../platform/db/database';
import type { AfterCommit } from '../../platform/db/transaction';
import type { ApiApp, PasalModule } from '../../platform/module';
import { paymentJobs } from './payments.jobs';
import { type PosPaymentInput, recordPosPayment as recordPos } from './payments.pos';
import { paymentsRoutes } from './payments.routes';
import {
  checkOrderPaymentsBeforeCancel,
  type InitiatedPayment,
  type InitiatePaymentInput,
  initiatePayment as initiate,
  type PaymentOutcomeHandlers,
  type PaymentsDeps,
} from './payments.service';

export { DuplicatePosReference, type PosPaymentInput, type RecordedPosPayment } from './payments.pos';
export type { InitiatedPayment, InitiatePaymentInput, PaymentOutcomeHandlers } from './payments.service';
export { isAllowedReturnUrl } from './payments.service';
export {
  ONLINE_GATEWAYS,
  type OnlineGateway,
  PAYMENT_GATEWAYS,
  type PaymentGatewayName,
  type PaymentStatus,
  POS_GATEWAYS,
  type PosGateway,
} from './payments.table';

// Per API instance, never global: two apps in one process (tests, two processes of a test
// deployment) each keep their own database and handlers.
interface PaymentsRuntime {
  deps?: PaymentsDeps;
  handlers?: PaymentOutcomeHandlers;
}
const runtimes = new WeakMap<object, PaymentsRuntime>();
function runtimeOf(app: ApiApp): PaymentsRuntime {
  let runtime = runtimes.get(app);
  if (!runtime) {
    runtime = {};
    runtimes.set(app, runtime);
  }
  return runtime;
}

/** Records a counter payment as completed and emits the payment-completed event (POS). */
export const recordPosPayment = (app: ApiApp, tx: Db, afterCommit: AfterCommit, input: PosPaymentInput) =>
  recordPos(
    { clock: runtimeOf(app).deps!.clock, log: runtimeOf(app).deps!.log },
    runtimeOf(app).handlers,
    tx,
    afterCommit,
    input,
  );

/** Orders calls this at start-up with the API scope it was handed; a second call replaces them. */
export function registerPaymentOutcomeHandlers(app: ApiApp, next: PaymentOutcomeHandlers): void {
  runtimeOf(app).handlers = next;
}

/** Creates the pending payment of an order and asks its gateway how the customer pays. */
export function initiatePayment(app: ApiApp, tx: Db, input: InitiatePaymentInput): Promise<InitiatedPayment> {
  const deps = runtimeOf(app).deps;
  if (!deps) throw new Error('payments module is not registered');
  return initiate(deps, tx, input);
}

/**
 * Asks the provider once more about the order's pending payments, as a last check, right
 * before `order.auto_cancel` cancels it: a payment completed meanwhile pays the order instead.
 */
export async function checkPaymentsBeforeCancel(app: ApiApp, orderId: number): Promise<void> {
  const runtime = runtimeOf(app);
  if (!runtime.deps) return;
  await checkOrderPaymentsBeforeCancel(runtime.deps, runtime.handlers, orderId);
}

export const paymentsModule: PasalModule = {
  name: 'payments',
  tags: {
    payments: 'Payment gateway redirects (eSewa, Khalti, the sandbox) and the sandbox gateway.',
  },
  async register(ctx) {
    const deps: PaymentsDeps = {
      config: ctx.config,
      clock: ctx.clock,
      log: ctx.log,
      db: ctx.db,
      jobs: ctx.jobs,
    };
    const runtime = runtimeOf(ctx.app);
    runtime.deps = deps;
    const jobs = paymentJobs(deps, () => runtime.handlers);
    ctx.jobs.register(jobs.success);
    ctx.jobs.register(jobs.failed);
    ctx.jobs.register(jobs.retry);
    ctx.jobs.register(jobs.reconcile);
    await ctx.jobs.schedule(
      jobs.reconcile,
      { everySeconds: ctx.config.PAYMENT_RECONCILE_INTERVAL_SECONDS },
      {},
    );
    // Which provider takes the money for each gateway, for the operator (never a secret).
    ctx.log.info({ paymentGateways: paymentGatewayProviders(ctx.config) }, 'payment gateways');
    await paymentsRoutes(ctx, deps, jobs);
  },
};

/** The codes initiatePayment throws, for the routes of orders that call it to document. */
export { paymentErrors } from './payments.errors';
