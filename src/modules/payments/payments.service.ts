// Payment rules: which provider serves a gateway, initiation in three steps around the
// provider's call (open the pending payment in the caller's transaction, ask the provider with
// no transaction open, record its answer), what a redirect may do (verify, then queue; never
// change anything itself), and the one place a payment leaves `pending` (a conditional UPDATE
// publishing `payment.completed` / `payment.failed`, whose subscribers share its transaction).
import type { Logger } from 'pino';
import { type Config, PAYMENT_GATEWAY_SETTINGS } from '../../config';
import type { Clock } from '../../platform/clock';
import type { Db } from '../../platform/db/database';
import { inTransaction } from '../../platform/db/transaction';
import { publishEvent } from '../../platform/events/events';
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
import './payments.events';
import type { OnlineGateway, PaymentGatewayName, PaymentRow } from './payments.table';

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

/** True when the return URL may be used: the one rule for checkout and payments alike. */
export function returnUrlAllowed(config: Pick<Config, 'PAYMENT_RETURN_URL_ALLOWLIST'>, url: string): boolean {
  return isAllowedReturnUrl(config.PAYMENT_RETURN_URL_ALLOWLIST, url);
}

/** A payment opened in the checkout's transaction, not yet shown to its provider. */
export interface OpenedPayment {
  paymentId: string;
  gatewayTransactionId: string;
  input: InitiatePaymentInput;
}

/**
 * Step 1 of initiation, in the caller's transaction (the checkout's reserve step): checks the
 * return URL, the gateway and its minimum, and writes the `pending` payment, so a crash before
 * the provider answers leaves a payment the order's timeout sweep gives up.
 */
export async function openPayment(
  deps: Pick<PaymentsDeps, 'config' | 'clock'>,
  tx: Db,
  input: InitiatePaymentInput,
): Promise<OpenedPayment> {
  if (!returnUrlAllowed(deps.config, input.returnUrl)) throw paymentErrors.returnUrlNotAllowed();
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
  return { paymentId: payment.id, gatewayTransactionId: payment.gatewayTransactionId, input };
}

/**
 * Steps 2 and 3 of initiation, with no transaction open: asks the provider how the customer
 * pays (for up to PAYMENT_PROVIDER_TIMEOUT_MS), then records its answer on the payment (one
 * statement). A provider that refuses or cannot be reached: 502 PAYMENT_GATEWAY_UNAVAILABLE,
 * and the caller gives the payment up (`abandonPayment`).
 */
export async function startPayment(
  deps: Pick<PaymentsDeps, 'config' | 'log' | 'db'>,
  opened: OpenedPayment,
): Promise<InitiatedPayment> {
  const { input } = opened;
  const adapter = input.gateway === 'cod' ? undefined : gatewayAdapter(deps.config, input.gateway);
  let initiation: Initiation = { initiationType: 'none', redirectUrl: null, gatewayPayload: {} };
  if (adapter) {
    const payment = await findPayment(deps.db, opened.paymentId);
    if (!payment) throw paymentErrors.gatewayUnavailable(input.gateway);
    try {
      initiation = await adapter.initiate(payment, {
        orderNumber: input.orderNumber,
        customer: input.customer,
      });
    } catch (error) {
      if (!(error instanceof ProviderError)) throw error;
      deps.log.warn(
        { paymentId: payment.id, gateway: input.gateway, provider: adapter.provider, reason: error.message },
        'payment provider refused or could not be reached at checkout',
      );
      throw paymentErrors.gatewayUnavailable(input.gateway);
    }
    await recordInitiation(deps.db, payment.id, {
      providerReference: initiation.providerReference ?? null,
      providerPayload: { initiation: initiation.gatewayPayload },
    });
  }
  return {
    paymentId: opened.paymentId,
    gatewayTransactionId: opened.gatewayTransactionId,
    initiationType: initiation.initiationType,
    redirectUrl: initiation.redirectUrl,
    gatewayPayload: initiation.gatewayPayload,
  };
}

/**
 * The compensation of a checkout whose provider refused, in the caller's transaction: the
 * payment that never started is failed quietly (no event: the order is being taken back).
 */
export async function abandonPayment(
  deps: Pick<PaymentsDeps, 'clock'>,
  tx: Db,
  opened: Pick<OpenedPayment, 'paymentId'>,
): Promise<void> {
  await failIfPending(tx, opened.paymentId, {
    reason: 'initiation_failed',
    providerPayload: {},
    at: deps.clock.now(),
  });
}

/**
 * The three steps at once, for a payment that no stock waits on (tests, scripts): opens it in
 * a short transaction of its own, then asks the provider with none open.
 */
export async function initiatePayment(
  deps: PaymentsDeps,
  input: InitiatePaymentInput,
): Promise<InitiatedPayment> {
  const opened = await inTransaction(deps.db, (tx) => openPayment(deps, tx, input));
  try {
    return await startPayment(deps, opened);
  } catch (error) {
    await inTransaction(deps.db, (tx) => abandonPayment(deps, tx, opened));
    throw error;
  }
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
 * Moves a payment by a verified answer, once: the conditional UPDATE and the subscribers of
 * `payment.completed` / `payment.failed` (orders) share one transaction, so the order and the payment never disagree. A pending payment may
 * complete or fail; one already failed or cancelled may only complete (a late payment).
 */
export async function applyVerification(
  deps: PaymentsDeps,
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
    async (tx) => {
      if (verification.outcome === 'completed') {
        const row = await completeIfStatus(tx, payment.id, payment.status, {
          providerReference: verification.providerReference ?? payment.providerReference,
          providerPayload: stored,
          at,
        });
        if (!row) return 'unchanged';
        if (late)
          deps.log.warn(
            { paymentId: row.id, was: payment.status },
            'late payment: completed after it was given up',
          );
        await publishEvent(tx, 'payment.completed', {
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
        // The server acts, not an admin: the entry has no adminId (docs/decisions.md, "Real gateways").
        await recordActivity(tx, {
          adminId: null,
          action: 'amount_mismatch',
          entityType: 'payment',
          entityId: row.id,
          summary: `Payment for order ${row.orderNumber} (${row.provider}) was confirmed for ${verification.amount} NPR instead of ${row.amount} NPR; the payment failed (amount_mismatch) and the money must be checked at the provider`,
          at,
        });
      }
      await publishEvent(tx, 'payment.failed', { orderId: row.orderId, paymentId: row.id, reason });
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
    return applyVerification(deps, payment, checked, { redirect: kind, params });
  }
  const answer = await adapter.status(payment, { final: kind === 'failure' });
  return applyVerification(deps, payment, answer, { redirect: kind, params });
}

/** A retry or a reconciliation pass: ask the provider's status. */
export async function processStatusCheck(
  deps: PaymentsDeps,
  paymentId: string,
  options: { final: boolean } = { final: false },
): Promise<OutcomeResult> {
  const payment = await getPayment(deps.db, paymentId);
  if (payment?.method !== 'online') return 'invalid';
  if (payment.status !== 'pending') return 'unchanged';
  const adapter = paymentAdapter(deps.config, payment);
  if (!adapter) return 'retry';
  const verification = await adapter.status(payment, options);
  return applyVerification(deps, payment, verification, { statusCheck: options });
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
export async function reconcilePayments(deps: PaymentsDeps): Promise<Record<OutcomeResult, number>> {
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
      counts[await processStatusCheck(deps, payment.id, { final })]++;
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
export async function checkOrderPaymentsBeforeCancel(deps: PaymentsDeps, orderId: number): Promise<void> {
  for (const payment of await pendingOnlinePaymentsOfOrder(deps.db, orderId)) {
    if (!paymentAdapter(deps.config, payment)?.confirmsByStatus) continue;
    try {
      await processStatusCheck(deps, payment.id, { final: true });
    } catch (error) {
      deps.log.error({ err: error, paymentId: payment.id }, 'last payment check before cancel failed');
    }
  }
}
