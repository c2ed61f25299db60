// Payments: one record per attempt to pay an order, the provider adapters behind the online
// gateways (the built-in sandbox, eSewa ePay v2 and Khalti KPG-2, chosen per gateway by the
// PAYMENT_GATEWAY_* settings), the public redirect and result routes, and the jobs that move a
// payment out of `pending` (redirect outcomes, retries, `payment.reconcile`).
//
// What other modules use (payments imports neither orders nor pos):
// - checkout (orders) opens a payment in its reserve transaction (`openPayment`), asks the
//   provider with no transaction open (`startPayment`), and gives it up if the provider refused
//   (`abandonPayment`); `returnUrlAllowed` is the one rule for return URLs.
// - the counter (pos) records money taken in store (`recordPosPayment`).
// - `checkPaymentsBeforeCancel`: the last question to the provider before `order.auto_cancel`.
// - the back office (routes served by orders, under Orders_READ): `listPaymentsForStaff`, the
//   payments across orders with the overdue (`stale`) flag; `completedPaymentsOf` orders.
// - Events: publishes `payment.completed` and `payment.failed` in the transaction that moves
//   the payment; orders subscribes in that transaction (docs/architecture.md).
import { paymentGatewayProviders } from '../../config';
import type { PasalModule } from '../../platform/module';
import { paymentJobs } from './payments.jobs';
import { paymentsRoutes } from './payments.routes';
import { checkOrderPaymentsBeforeCancel, type PaymentsDeps } from './payments.service';

export {
  type CompletedPayment,
  completedPaymentsOf,
  listPaymentsForStaff,
} from './payments.admin';
export {
  DuplicatePosReference,
  type PosPaymentInput,
  type RecordedPosPayment,
  recordPosPayment,
} from './payments.pos';
export {
  type AdminPaymentItem,
  type AdminPaymentListQuery,
  adminPaymentItem,
  adminPaymentListQuery,
} from './payments.schemas';
export {
  abandonPayment,
  type InitiatedPayment,
  type InitiatePaymentInput,
  initiatePayment,
  isAllowedReturnUrl,
  type OpenedPayment,
  openPayment,
  type PaymentsDeps,
  returnUrlAllowed,
  startPayment,
} from './payments.service';
export {
  ONLINE_GATEWAYS,
  type OnlineGateway,
  PAYMENT_GATEWAYS,
  type PaymentGatewayName,
  type PaymentStatus,
  POS_GATEWAYS,
  type PosGateway,
} from './payments.table';

/**
 * Asks the provider once more about the order's pending payments, as a last check, right
 * before `order.auto_cancel` cancels it: a payment completed meanwhile pays the order instead.
 */
export const checkPaymentsBeforeCancel = (deps: PaymentsDeps, orderId: number): Promise<void> =>
  checkOrderPaymentsBeforeCancel(deps, orderId);

export const paymentsModule: PasalModule = {
  name: 'payments',
  tags: {
    payments: 'Payment gateway redirects (eSewa, Khalti, the sandbox) and the sandbox gateway.',
  },
  events: { publishes: ['payment.completed', 'payment.failed'], subscribes: [] },
  async register(ctx) {
    const deps: PaymentsDeps = {
      config: ctx.config,
      clock: ctx.clock,
      log: ctx.log,
      db: ctx.db,
      jobs: ctx.jobs,
    };
    const jobs = paymentJobs(deps);
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

/** The codes initiation throws, for the routes of orders that call it to document. */
export { paymentErrors } from './payments.errors';
