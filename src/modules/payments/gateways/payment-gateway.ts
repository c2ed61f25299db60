// What every payment provider adapter does. The sandbox, eSewa ePay v2 (form_post) and Khalti
// KPG-2 (redirect) implement it: `initiate` may call the provider (Khalti) or only build a
// signed form (eSewa); `verifyRedirect` checks what came back on the documented redirect routes
// (signature, merchant, amount, reference) without calling anyone; `status` asks the provider,
// and for the real providers it is the only answer that moves a payment.
import type { PaymentRow } from '../payments.table';

export type InitiationType = 'redirect' | 'form_post' | 'none';

export interface Initiation {
  initiationType: InitiationType;
  /** Where the client sends the customer (GET for `redirect`, the form's action for `form_post`). */
  redirectUrl: string | null;
  /** `form_post`: exactly the form's fields; `redirect`: provider data such as Khalti's `pidx`. */
  gatewayPayload: Record<string, unknown>;
  /** The provider's reference, when initiation already gives one (Khalti `pidx`). */
  providerReference?: string;
}

/**
 * `completed`/`failed`: the provider's answer is final. `pending`: inconclusive, ask again later
 * (after a redirect of a real provider: "verified, now ask the status API"). `invalid`: the
 * redirect did not come from the provider (bad signature, tampered amount, another payment's
 * reference): nothing may change.
 */
export type VerificationOutcome = 'completed' | 'failed' | 'pending' | 'invalid';

export interface Verification {
  outcome: VerificationOutcome;
  /** The amount the provider reports (NPR), when it reports one. */
  amount?: number;
  /** Why: a failure reason to store, or (for `invalid` and `pending`) what happened, for the log. */
  reason?: string;
  providerReference?: string;
  /** What the provider answered (stored on the payment as it was received). */
  answer?: unknown;
}

export type RedirectKind = 'success' | 'failure';

export interface InitiationContext {
  orderNumber: string;
  /** The customer, for providers that show or keep it (Khalti `customer_info`). */
  customer?: { name?: string | null; email?: string | null; phone?: string | null };
}

export interface StatusOptions {
  /**
   * The last question before a payment is given up (after a failure redirect, or right before
   * `order.auto_cancel`): an answer that only means "not started" counts as failed (eSewa
   * `NOT_FOUND`).
   */
  final: boolean;
}

export interface PaymentGateway {
  /** `sandbox`, `esewa`, `khalti`: stored on the payment. */
  readonly provider: string;
  /**
   * True when a verified redirect only says "ask me": the status answer decides (eSewa,
   * Khalti). False for the sandbox, whose signed redirect is the outcome itself.
   */
  readonly confirmsByStatus: boolean;
  /** The smallest amount (NPR) the provider takes, when it has one (Khalti: 10). */
  readonly minimumAmount?: number;
  /** Throws when the provider cannot be reached or refuses the payment (checkout answers 502). */
  initiate(payment: PaymentRow, context: InitiationContext): Promise<Initiation>;
  /** Checks the parameters of a redirect to `/api/payments/redirect/:paymentId/{kind}`, locally. */
  verifyRedirect(
    payment: PaymentRow,
    kind: RedirectKind,
    params: Record<string, string>,
  ): Promise<Verification>;
  /** Asks the provider about a payment; `pending` when it cannot tell (or cannot be reached). */
  status(payment: PaymentRow, options: StatusOptions): Promise<Verification>;
  /** Refunds `amount` NPR; adapters that cannot refund online leave it undefined. */
  refund?(payment: PaymentRow, amount: number): Promise<{ ok: boolean; reason?: string }>;
}

/** The documented redirect routes a provider sends the customer back to. */
export const redirectUrls = (publicBaseUrl: string, paymentId: string) => ({
  success: `${publicBaseUrl}/api/payments/redirect/${paymentId}/success`,
  failure: `${publicBaseUrl}/api/payments/redirect/${paymentId}/failure`,
});

/** Thrown by `initiate` when the provider cannot be reached or refuses; the reason is logged. */
export class ProviderError extends Error {
  override name = 'ProviderError';
}

/**
 * One call to a provider with a time limit. Answers the HTTP status and the parsed JSON body
 * (undefined when the body is not JSON); throws ProviderError when the provider cannot be
 * reached in time.
 */
export async function callProvider(
  url: string,
  init: RequestInit,
  timeoutMs: number,
): Promise<{ status: number; body: unknown }> {
  let response: Response;
  try {
    response = await fetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
  } catch (error) {
    throw new ProviderError(`${new URL(url).host} unreachable: ${(error as Error).message}`);
  }
  const text = await response.text().catch(() => '');
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = undefined;
  }
  return { status: response.status, body };
}

/**
 * A status or lookup call: `decide` reads the answer; a provider that cannot be reached is
 * `pending` (asked again later), with the reason for the log.
 */
export async function askProvider(
  url: string,
  init: RequestInit,
  timeoutMs: number,
  decide: (status: number, body: unknown) => Verification,
): Promise<Verification> {
  try {
    const { status, body } = await callProvider(url, init, timeoutMs);
    return decide(status, body);
  } catch (error) {
    if (error instanceof ProviderError) return { outcome: 'pending', reason: error.message };
    throw error;
  }
}

/** An answer that settles nothing yet (`<provider>_<status>`, or `<provider>_no_status`). */
export const waitFor = (provider: string, status: string | undefined, answer: unknown): Verification => ({
  outcome: 'pending',
  reason: status ? `${provider}_${status.toLowerCase()}` : `${provider}_no_status`,
  answer,
});

/** A provider's amount written as `"1,000.0"`, `100.0` or `100`: a number, or NaN. */
export function providerAmount(value: unknown): number {
  if (typeof value === 'number') return value;
  if (typeof value !== 'string' || !/^\s*[\d,]+(\.\d+)?\s*$/.test(value)) return Number.NaN;
  return Number(value.replace(/[,\s]/g, ''));
}
