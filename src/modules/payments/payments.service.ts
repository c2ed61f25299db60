// Payment rules: which provider serves a gateway, initiation inside the caller's checkout
// transaction, what a redirect may do (verify, then queue; never change anything itself), and
// the one place a payment leaves `pending` (a conditional UPDATE plus the orders handler, in
// one transaction).
import type { Logger } from 'pino';
import { type Config, PAYMENT_GATEWAY_SETTINGS } from '../../config';
import type { Clock } from '../../platform/clock';
import type { Db } from '../../platform/db/database';
import { type AfterCommit, inTransaction } from '../../platform/db/transaction';
import { crockfordCode, newUuid } from '../../platform/ids';
import type { JobDefinition, JobQueue } from '../../platform/jobs/jobs';
import { recordActivity } from '../activity';
import { createEsewaGateway } from './gateways/esewa';
import { createKhaltiGateway } from './gateways/khalti';
import {
  type Initiation,
  type InitiationContext,
  type PaymentGateway,
  ProviderError,
  type RedirectKind,
  type Verification,
} from './gateways/payment-gateway';
import { createSandboxGateway } from './gateways/sandbox';
import { paymentErrors } from './payments.errors';
import {
  completeIfStatus,
  failIfPending,
  findPayment,
  insertPayment,
  paymentsToReconcile,
  pendingOnlinePaymentsOfOrder,
  recordInitiation,
} from './payments.repository';
import type { OnlineGateway, PaymentGatewayName, PaymentRow } from './payments.table';

export interface PaymentOutcomeHandlers {
  /** Called once per payment, in the transaction that marks it completed. */
  onCompleted(
    tx: Db,
    afterCommit: AfterCommit,
    event: {
      orderId: number;
      paymentId: string;
      paymentReference: string;
      /** NPR the provider confirmed. */
      amount: number;
      /**
       * True when the payment had already been failed or cancelled (money taken for an order
       * given up): the order stays as it is and the money is owed back (decisions.md).
       */
      late: boolean;
    },
  ): Promise<void>;
  /** Called once per payment, in the transaction that marks it failed. */
  onFailed(
    tx: Db,
    afterCommit: AfterCommit,
    event: { orderId: number; paymentId: string; reason: string },
  ): Promise<void>;
}

/** The outcome jobs a verified redirect queues (defined in payments.jobs.ts). */
export interface RedirectJobs {
  success: JobDefinition<{
    orderId: number;
    paymentReference: string;
    transactionId?: string | undefined;
    gatewayParams: Record<string, string>;
  }>;
  failed: JobDefinition<{
    orderId: number;
    reason?: string | undefined;
    paymentId: string;
    gatewayParams: Record<string, string>;
  }>;
}

export interface PaymentsDeps {
  config: Config;
  clock: Clock;
  log: Logger;
  db: Db;
  jobs: JobQueue;
}

/** The adapter of a provider, or undefined when it may not serve here. */
export function adapterFor(config: Config, provider: string): PaymentGateway | undefined {
  switch (provider) {
    case 'sandbox':
      // A gateway left on the sandbox serves only where the sandbox is allowed.
      if (config.PAYMENTS_MODE !== 'sandbox') return undefined;
      return createSandboxGateway({
        publicBaseUrl: config.PUBLIC_BASE_URL,
        secret: config.URL_SIGNING_SECRET,
      });
    case 'esewa':
      return createEsewaGateway({
        productCode: config.ESEWA_PRODUCT_CODE,
        secretKey: config.ESEWA_SECRET_KEY,
        formUrl: config.ESEWA_FORM_URL,
        statusUrl: config.ESEWA_STATUS_URL,
        publicBaseUrl: config.PUBLIC_BASE_URL,
        timeoutMs: config.PAYMENT_PROVIDER_TIMEOUT_MS,
      });
    case 'khalti':
      // Start-up refuses a gateway on khalti without a key; a payment made before the operator
      // moved every gateway off khalti (and dropped the key) cannot be asked about any more.
      if (!config.KHALTI_SECRET_KEY) return undefined;
      return createKhaltiGateway({
        secretKey: config.KHALTI_SECRET_KEY,
        baseUrl: config.KHALTI_BASE_URL,
        publicBaseUrl: config.PUBLIC_BASE_URL,
        websiteUrl: config.PUBLIC_WEB_URL,
        timeoutMs: config.PAYMENT_PROVIDER_TIMEOUT_MS,
      });
    default:
      return undefined;
  }
}

/** The adapter serving an online gateway now, or undefined when none may serve it here. */
export function gatewayAdapter(config: Config, gateway: OnlineGateway): PaymentGateway | undefined {
  return adapterFor(config, config[PAYMENT_GATEWAY_SETTINGS[gateway]]);
}

/** The adapter of the provider a payment was made with (a gateway may have moved since). */
const paymentAdapter = (config: Config, payment: PaymentRow) =>
  payment.method === 'online' ? adapterFor(config, payment.provider) : undefined;

/** True when `url` starts with an entry of PAYMENT_RETURN_URL_ALLOWLIST (and is http or https). */
export function isAllowedReturnUrl(allowlist: readonly string[], url: string): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return false;
  return allowlist.some((prefix) => url.startsWith(prefix));
}

export interface InitiatePaymentInput {
  orderId: number;
  orderNumber: string;
  /** NPR, whole rupees. */
  amount: number;
  gateway: PaymentGatewayName;
  returnUrl: string;
  /** Shown to providers that take it (Khalti `customer_info`). */
  customer?: InitiationContext['customer'];
}

export interface InitiatedPayment {
  paymentId: string;
  gatewayTransactionId: string;
  initiationType: 'redirect' | 'form_post' | 'none';
  redirectUrl: string | null;
  gatewayPayload: Record<string, unknown>;
}

/** Letters, digits and hyphens (eSewa's transaction_uuid rule), unique per payment. */
export const newGatewayTransactionId = () => `PSL-${crockfordCode(20)}`;

export async function initiatePayment(
  deps: Pick<PaymentsDeps, 'config' | 'clock' | 'log'>,
  tx: Db,
  input: InitiatePaymentInput,
): Promise<InitiatedPayment> {
  if (!isAllowedReturnUrl(deps.config.PAYMENT_RETURN_URL_ALLOWLIST, input.returnUrl)) {
    throw paymentErrors.returnUrlNotAllowed();
  }
  const adapter = input.gateway === 'cod' ? undefined : gatewayAdapter(deps.config, input.gateway);
  if (input.gateway !== 'cod' && !adapter) throw paymentErrors.gatewayUnavailable(input.gateway);
  if (adapter?.minimumAmount !== undefined && input.amount < adapter.minimumAmount) {
    throw paymentErrors.amountBelowMinimum(input.gateway, adapter.minimumAmount);
  }
  const now = deps.clock.now();
  const payment = await insertPayment(tx, {
    id: newUuid(),
    orderId: input.orderId,
    orderNumber: input.orderNumber,
    method: input.gateway === 'cod' ? 'cod' : 'online',
    gateway: input.gateway,
    provider: adapter?.provider ?? 'cod',
    amount: input.amount,
    status: 'pending',
    gatewayTransactionId: newGatewayTransactionId(),
    returnUrl: input.returnUrl,
    createdAt: now,
    updatedAt: now,
  });
  let initiation: Initiation = { initiationType: 'none', redirectUrl: null, gatewayPayload: {} };
  if (adapter) {
    try {
      initiation = await adapter.initiate(payment, {
        orderNumber: input.orderNumber,
        customer: input.customer,
      });
    } catch (error) {
      if (!(error instanceof ProviderError)) throw error;
      // The caller's transaction rolls back: no order is left holding stock.
      deps.log.warn(
        { paymentId: payment.id, gateway: input.gateway, provider: adapter.provider, reason: error.message },
        'payment provider refused or could not be reached at checkout',
      );
      throw paymentErrors.gatewayUnavailable(input.gateway);
    }
  }
  if (adapter) {
    await recordInitiation(tx, payment.id, {
      providerReference: initiation.providerReference ?? null,
      providerPayload: { initiation: initiation.gatewayPayload },
    });
  }
  return {
    paymentId: payment.id,
    gatewayTransactionId: payment.gatewayTransactionId,
    initiationType: initiation.initiationType,
    redirectUrl: initiation.redirectUrl,
    gatewayPayload: initiation.gatewayPayload,
  };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export async function getPayment(db: Db, paymentId: string): Promise<PaymentRow | undefined> {
  return UUID.test(paymentId) ? findPayment(db, paymentId) : undefined;
}

export async function getPendingOnlinePayment(deps: Pick<PaymentsDeps, 'db' | 'config'>, paymentId: string) {
  const payment = await getPayment(deps.db, paymentId);
  if (payment?.method !== 'online' || payment.provider !== 'sandbox') throw paymentErrors.notFound();
  return payment;
}

/** Where the result page is, with what a redirect learnt (the page itself reads the payment). */
export function resultPath(paymentId: string, status: string, orderId?: number) {
  const query = new URLSearchParams({ payment_status: status, payment_id: paymentId });
  if (orderId !== undefined) {
    query.set('reference_type', 'order');
    query.set('reference_id', String(orderId));
  }
  return `/api/payments/result?${query}`;
}

/**
 * A redirect from the provider. It changes nothing itself: a verified one queues the job that
 * moves the payment (jobId = payment id, so replays collapse); one that does not verify is
 * logged and only sent on to the result page. Returns the 302 target.
 */
export async function handleRedirect(
  deps: PaymentsDeps,
  jobs: RedirectJobs,
  paymentId: string,
  kind: RedirectKind,
  params: Record<string, string>,
): Promise<string> {
  const payment = await getPayment(deps.db, paymentId);
  if (!payment) {
    deps.log.warn({ paymentId, kind, reason: 'unknown_payment' }, 'payment redirect ignored');
    return resultPath(paymentId, 'failed');
  }
  const adapter = paymentAdapter(deps.config, payment);
  const verification: Verification = adapter
    ? await adapter.verifyRedirect(payment, kind, params)
    : { outcome: 'invalid', reason: 'not_an_online_payment' };
  if (verification.outcome === 'invalid') {
    deps.log.warn(
      { paymentId, kind, reason: verification.reason },
      'payment redirect did not verify; nothing changed',
    );
    return resultPath(payment.id, payment.status, payment.orderId);
  }
  if (!redirectMayMove(adapter!, payment, kind))
    return resultPath(payment.id, payment.status, payment.orderId);
  if (kind === 'success') {
    await deps.jobs.enqueue(
      jobs.success,
      {
        orderId: payment.orderId,
        paymentReference: payment.id,
        transactionId: payment.gatewayTransactionId,
        gatewayParams: params,
      },
      { jobId: payment.id },
    );
  } else {
    await deps.jobs.enqueue(
      jobs.failed,
      { orderId: payment.orderId, paymentId: payment.id, reason: verification.reason, gatewayParams: params },
      { jobId: payment.id },
    );
  }
  // A real provider's answer is not known yet: the result page reads the payment itself.
  if (adapter!.confirmsByStatus) return resultPath(payment.id, payment.status, payment.orderId);
  return resultPath(payment.id, kind === 'success' ? 'completed' : 'failed', payment.orderId);
}

/**
 * Whether a verified redirect may still move the payment: a pending one, or (real providers
 * only) a success redirect for a payment already failed or cancelled, whose money may have been
 * taken late. A completed payment never moves again.
 */
function redirectMayMove(adapter: PaymentGateway, payment: PaymentRow, kind: RedirectKind): boolean {
  if (payment.status === 'pending') return true;
  return payment.status !== 'completed' && adapter.confirmsByStatus && kind === 'success';
}

export type OutcomeResult = 'completed' | 'failed' | 'unchanged' | 'retry' | 'invalid';

/**
 * Moves a payment by a verified answer, once: the conditional UPDATE and the orders handler
 * share one transaction, so the order and the payment never disagree. A pending payment may
 * complete or fail; one already failed or cancelled may only complete (a late payment).
 */
export async function applyVerification(
  deps: PaymentsDeps,
  handlers: PaymentOutcomeHandlers | undefined,
  payment: PaymentRow,
  verification: Verification,
  payload: Record<string, unknown>,
): Promise<OutcomeResult> {
  if (verification.outcome === 'invalid') {
    deps.log.warn(
      { paymentId: payment.id, reason: verification.reason },
      'payment answer did not verify; nothing changed',
    );
    return 'invalid';
  }
  if (verification.outcome === 'pending') {
    if (verification.reason) {
      deps.log.info({ paymentId: payment.id, reason: verification.reason }, 'payment not settled yet');
    }
    return 'retry';
  }
  const late = payment.status !== 'pending';
  if (late && verification.outcome !== 'completed') return 'unchanged';
  const at = deps.clock.now();
  const stored = { ...payload, answer: verification.answer ?? null };
  return inTransaction(
    deps.db,
    async (tx, afterCommit) => {
      if (verification.outcome === 'completed') {
        const row = await completeIfStatus(tx, payment.id, payment.status, {
          providerReference: verification.providerReference ?? payment.providerReference,
          providerPayload: stored,
          at,
        });
        if (!row) return 'unchanged';
        if (!handlers)
          deps.log.warn({ paymentId: row.id }, 'payment completed with no outcome handler registered');
        if (late)
          deps.log.warn(
            { paymentId: row.id, was: payment.status },
            'late payment: completed after it was given up',
          );
        await handlers?.onCompleted(tx, afterCommit, {
          orderId: row.orderId,
          paymentId: row.id,
          paymentReference: row.gatewayTransactionId,
          amount: verification.amount ?? row.amount,
          late,
        });
        return 'completed';
      }
      const reason = verification.reason ?? 'payment_failed';
      const row = await failIfPending(tx, payment.id, { reason, providerPayload: stored, at });
      if (!row) return 'unchanged';
      if (reason === 'amount_mismatch') {
        deps.log.warn(
          { paymentId: row.id, expected: row.amount, reported: verification.amount },
          'provider completed a payment for another amount; failed',
        );
        // The server acts, not an admin: the entry has no adminId (decisions.md, "Real gateways").
        await recordActivity(tx, {
          adminId: null,
          action: 'amount_mismatch',
          entityType: 'payment',
          entityId: row.id,
          summary: `Payment for order ${row.orderNumber} (${row.provider}) was confirmed for ${verification.amount} NPR instead of ${row.amount} NPR; the payment failed (amount_mismatch) and the money must be checked at the provider`,
          at,
        });
      }
      if (!handlers)
        deps.log.warn({ paymentId: row.id }, 'payment failed with no outcome handler registered');
      await handlers?.onFailed(tx, afterCommit, { orderId: row.orderId, paymentId: row.id, reason });
      return 'failed';
    },
    (error) => deps.log.error({ err: error, paymentId: payment.id }, 'payment after-commit effect failed'),
  );
}

/**
 * The job side of a redirect: check it again, then, for a real provider, ask its status API
 * (after a failure redirect as a last check: eSewa also sends pending payments there).
 */
export async function processRedirectOutcome(
  deps: PaymentsDeps,
  handlers: PaymentOutcomeHandlers | undefined,
  paymentId: string,
  kind: RedirectKind,
  params: Record<string, string>,
): Promise<OutcomeResult> {
  const payment = await getPayment(deps.db, paymentId);
  if (payment?.method !== 'online') {
    deps.log.warn({ paymentId, kind }, 'payment job for an unknown payment; nothing changed');
    return 'invalid';
  }
  if (payment.status === 'completed') return 'unchanged';
  const adapter = paymentAdapter(deps.config, payment);
  if (!adapter) {
    deps.log.warn(
      { paymentId, provider: payment.provider },
      'payment provider not served here; will ask again',
    );
    return payment.status === 'pending' ? 'retry' : 'unchanged';
  }
  if (!redirectMayMove(adapter, payment, kind)) return 'unchanged';
  const checked = await adapter.verifyRedirect(payment, kind, params);
  if (checked.outcome === 'invalid' || !adapter.confirmsByStatus) {
    return applyVerification(deps, handlers, payment, checked, { redirect: kind, params });
  }
  const answer = await adapter.status(payment, { final: kind === 'failure' });
  return applyVerification(deps, handlers, payment, answer, { redirect: kind, params });
}

/** A retry or a reconciliation pass: ask the provider's status. */
export async function processStatusCheck(
  deps: PaymentsDeps,
  handlers: PaymentOutcomeHandlers | undefined,
  paymentId: string,
  options: { final: boolean } = { final: false },
): Promise<OutcomeResult> {
  const payment = await getPayment(deps.db, paymentId);
  if (payment?.method !== 'online') return 'invalid';
  if (payment.status !== 'pending') return 'unchanged';
  const adapter = paymentAdapter(deps.config, payment);
  if (!adapter) return 'retry';
  const verification = await adapter.status(payment, options);
  return applyVerification(deps, handlers, payment, verification, { statusCheck: options });
}

/** Reconciliation stops asking about a payment this long after checkout (it stays pending). */
export const RECONCILE_WATCH_MS = 24 * 60 * 60_000;
const RECONCILE_BATCH = 200;

/**
 * `payment.reconcile`: asks the provider about every payment of a real provider still pending
 * PAYMENT_RECONCILE_AFTER_SECONDS after checkout (the customer may have closed the browser
 * before the redirect). A provider error is simply asked again at the next pass. Past the
 * order's payment timeout the answer is a last check (eSewa `NOT_FOUND` fails).
 */
export async function reconcilePayments(
  deps: PaymentsDeps,
  handlers: PaymentOutcomeHandlers | undefined,
): Promise<Record<OutcomeResult, number>> {
  const now = deps.clock.now().getTime();
  const counts: Record<OutcomeResult, number> = {
    completed: 0,
    failed: 0,
    unchanged: 0,
    retry: 0,
    invalid: 0,
  };
  const due = await paymentsToReconcile(deps.db, {
    createdBefore: new Date(now - deps.config.PAYMENT_RECONCILE_AFTER_SECONDS * 1000),
    createdAfter: new Date(now - RECONCILE_WATCH_MS),
    providers: ['esewa', 'khalti'],
    limit: RECONCILE_BATCH,
  });
  const timeoutMs = deps.config.ORDER_PAYMENT_TIMEOUT_MINUTES * 60_000;
  for (const payment of due) {
    try {
      const final = now - payment.createdAt.getTime() >= timeoutMs;
      counts[await processStatusCheck(deps, handlers, payment.id, { final })]++;
    } catch (error) {
      counts.retry++;
      deps.log.error(
        { err: error, paymentId: payment.id },
        'payment reconciliation failed; asked again next pass',
      );
    }
  }
  if (due.length) deps.log.info({ counts }, 'payment reconciliation pass');
  return counts;
}

/**
 * The last check right before `order.auto_cancel` gives an order up: its pending payments of a
 * real provider are asked once more, as a final question. A provider that cannot be reached
 * leaves the payment pending (reconciliation keeps asking; a late completion is refunded).
 */
export async function checkOrderPaymentsBeforeCancel(
  deps: PaymentsDeps,
  handlers: PaymentOutcomeHandlers | undefined,
  orderId: number,
): Promise<void> {
  for (const payment of await pendingOnlinePaymentsOfOrder(deps.db, orderId)) {
    if (!paymentAdapter(deps.config, payment)?.confirmsByStatus) continue;
    try {
      await processStatusCheck(deps, handlers, payment.id, { final: true });
    } catch (error) {
      deps.log.error({ err: error, paymentId: payment.id }, 'last payment check before cancel failed');
    }
  }
}
