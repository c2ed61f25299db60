// Payment rules: which provider serves a gateway, initiation inside the caller's checkout
// transaction, what a redirect may do (verify, then queue; never change anything itself), and
// the one place a payment leaves `pending` (a conditional UPDATE plus the orders handler, in
// one transaction).
import type { Logger } from 'pino';
import type { Config } from '../../config';
import type { Clock } from '../../platform/clock';
import type { Db } from '../../platform/db/database';
import { type AfterCommit, inTransaction } from '../../platform/db/transaction';
import { crockfordCode, newUuid } from '../../platform/ids';
import type { JobDefinition, JobQueue } from '../../platform/jobs/jobs';
import type { PaymentGateway, RedirectKind, Verification } from './gateways/payment-gateway';
import { createSandboxGateway } from './gateways/sandbox';
import { paymentErrors } from './payments.errors';
import {
  completeIfPending,
  failIfPending,
  findPayment,
  insertPayment,
  recordInitiation,
} from './payments.repository';
import type { OnlineGateway, PaymentGatewayName, PaymentRow } from './payments.table';

export interface PaymentOutcomeHandlers {
  /** Called once per payment, in the transaction that marks it completed. */
  onCompleted(
    tx: Db,
    afterCommit: AfterCommit,
    event: { orderId: number; paymentId: string; paymentReference: string },
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

const GATEWAY_SETTING: Record<OnlineGateway, keyof Config> = {
  gateway_card: 'PAYMENT_GATEWAY_CARD',
  gateway_wallet_a: 'PAYMENT_GATEWAY_WALLET_A',
  gateway_wallet_b: 'PAYMENT_GATEWAY_WALLET_B',
  gateway_bank: 'PAYMENT_GATEWAY_BANK',
};

/** The adapter serving an online gateway, or undefined when none may serve it here. */
export function gatewayAdapter(config: Config, gateway: OnlineGateway): PaymentGateway | undefined {
  const provider = config[GATEWAY_SETTING[gateway]];
  if (provider === 'sandbox') {
    // A gateway left on the sandbox serves only where the sandbox is allowed.
    if (config.PAYMENTS_MODE !== 'sandbox') return undefined;
    return createSandboxGateway({ publicBaseUrl: config.PUBLIC_BASE_URL, secret: config.URL_SIGNING_SECRET });
  }
  return undefined;
}

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
  deps: Pick<PaymentsDeps, 'config' | 'clock'>,
  tx: Db,
  input: InitiatePaymentInput,
): Promise<InitiatedPayment> {
  if (!isAllowedReturnUrl(deps.config.PAYMENT_RETURN_URL_ALLOWLIST, input.returnUrl)) {
    throw paymentErrors.returnUrlNotAllowed();
  }
  const adapter = input.gateway === 'cod' ? undefined : gatewayAdapter(deps.config, input.gateway);
  if (input.gateway !== 'cod' && !adapter) throw paymentErrors.gatewayUnavailable(input.gateway);
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
  const initiation = adapter
    ? await adapter.initiate(payment, { orderNumber: input.orderNumber })
    : { initiationType: 'none' as const, redirectUrl: null, gatewayPayload: {} };
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
  const adapter =
    payment.method === 'online' ? gatewayAdapter(deps.config, payment.gateway as OnlineGateway) : undefined;
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
  if (payment.status !== 'pending') return resultPath(payment.id, payment.status, payment.orderId);
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
    return resultPath(payment.id, 'completed', payment.orderId);
  }
  await deps.jobs.enqueue(
    jobs.failed,
    { orderId: payment.orderId, paymentId: payment.id, reason: verification.reason, gatewayParams: params },
    { jobId: payment.id },
  );
  return resultPath(payment.id, 'failed', payment.orderId);
}

export type OutcomeResult = 'completed' | 'failed' | 'unchanged' | 'retry' | 'invalid';

/**
 * Moves a pending payment by a verified answer, once: the conditional UPDATE and the orders
 * handler share one transaction, so the order and the payment never disagree.
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
  if (verification.outcome === 'pending') return 'retry';
  const at = deps.clock.now();
  return inTransaction(
    deps.db,
    async (tx, afterCommit) => {
      if (verification.outcome === 'completed') {
        const row = await completeIfPending(tx, payment.id, {
          providerReference: verification.providerReference ?? null,
          providerPayload: payload,
          at,
        });
        if (!row) return 'unchanged';
        if (!handlers)
          deps.log.warn({ paymentId: row.id }, 'payment completed with no outcome handler registered');
        await handlers?.onCompleted(tx, afterCommit, {
          orderId: row.orderId,
          paymentId: row.id,
          paymentReference: row.gatewayTransactionId,
        });
        return 'completed';
      }
      const reason = verification.reason ?? 'payment_failed';
      const row = await failIfPending(tx, payment.id, { reason, providerPayload: payload, at });
      if (!row) return 'unchanged';
      if (!handlers)
        deps.log.warn({ paymentId: row.id }, 'payment failed with no outcome handler registered');
      await handlers?.onFailed(tx, afterCommit, { orderId: row.orderId, paymentId: row.id, reason });
      return 'failed';
    },
    (error) => deps.log.error({ err: error, paymentId: payment.id }, 'payment after-commit effect failed'),
  );
}

/** The job side of a redirect: verify again (the provider may be asked here), then apply. */
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
  if (payment.status !== 'pending') return 'unchanged';
  const adapter = gatewayAdapter(deps.config, payment.gateway as OnlineGateway);
  if (!adapter) {
    deps.log.warn({ paymentId, gateway: payment.gateway }, 'payment gateway not served here; will ask again');
    return 'retry';
  }
  const verification = await adapter.verifyRedirect(payment, kind, params);
  return applyVerification(deps, handlers, payment, verification, { redirect: kind, params });
}

/** A retry: ask the provider's status. */
export async function processStatusCheck(
  deps: PaymentsDeps,
  handlers: PaymentOutcomeHandlers | undefined,
  paymentId: string,
): Promise<OutcomeResult> {
  const payment = await getPayment(deps.db, paymentId);
  if (payment?.method !== 'online') return 'invalid';
  if (payment.status !== 'pending') return 'unchanged';
  const adapter = gatewayAdapter(deps.config, payment.gateway as OnlineGateway);
  if (!adapter) return 'retry';
  const verification = await adapter.status(payment);
  return applyVerification(deps, handlers, payment, verification, { status: verification });
}
