// Payments: one record per attempt to pay an order, the provider adapters behind the online
// gateways (the built-in sandbox for now; eSewa and Khalti fit `gateways/payment-gateway.ts`),
// the public redirect and result routes, and the jobs that move a payment out of `pending`.
//
// The contract with orders (which imports this file; payments never imports orders):
// - `initiatePayment(tx, { orderId, orderNumber, amount, gateway, returnUrl })` inside the
//   checkout transaction → `{ paymentId, gatewayTransactionId, initiationType, redirectUrl,
//   gatewayPayload }`; throws 400 PAYMENT_RETURN_URL_NOT_ALLOWED, 502 PAYMENT_GATEWAY_UNAVAILABLE.
// - `registerPaymentOutcomeHandlers({ onCompleted, onFailed })` once at start-up: each is called
//   once per payment, inside the transaction that moves it from `pending`.
import type { Db } from '../../platform/db/database';
import type { PasalModule } from '../../platform/module';
import { paymentJobs } from './payments.jobs';
import { paymentsRoutes } from './payments.routes';
import {
  type InitiatedPayment,
  type InitiatePaymentInput,
  initiatePayment as initiate,
  type PaymentOutcomeHandlers,
  type PaymentsDeps,
} from './payments.service';

export type { InitiatedPayment, InitiatePaymentInput, PaymentOutcomeHandlers } from './payments.service';
export { isAllowedReturnUrl } from './payments.service';
export {
  ONLINE_GATEWAYS,
  type OnlineGateway,
  PAYMENT_GATEWAYS,
  type PaymentGatewayName,
  type PaymentStatus,
} from './payments.table';

let handlers: PaymentOutcomeHandlers | undefined;
let runtime: PaymentsDeps | undefined;

/** Orders calls this at start-up; a second call replaces the handlers. */
export function registerPaymentOutcomeHandlers(next: PaymentOutcomeHandlers): void {
  handlers = next;
}

/** Creates the pending payment of an order and asks its gateway how the customer pays. */
export function initiatePayment(tx: Db, input: InitiatePaymentInput): Promise<InitiatedPayment> {
  if (!runtime) throw new Error('payments module is not registered');
  return initiate(runtime, tx, input);
}

export const paymentsModule: PasalModule = {
  name: 'payments',
  async register(ctx) {
    const deps: PaymentsDeps = {
      config: ctx.config,
      clock: ctx.clock,
      log: ctx.log,
      db: ctx.db,
      jobs: ctx.jobs,
    };
    runtime = deps;
    const jobs = paymentJobs(deps, () => handlers);
    ctx.jobs.register(jobs.success);
    ctx.jobs.register(jobs.failed);
    ctx.jobs.register(jobs.retry);
    await paymentsRoutes(ctx, deps, jobs);
  },
};
