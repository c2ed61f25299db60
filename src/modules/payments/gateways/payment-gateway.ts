// What every payment provider adapter does. The sandbox implements it now; the eSewa
// (form_post) and Khalti (redirect) adapters of the real-gateways issue fit the same shape:
// `initiate` may call the provider (Khalti) or only build a signed form (eSewa); `verifyRedirect`
// checks what came back on the documented redirect routes (signature, merchant, amount) and
// may ask the provider's status API; `status` is what reconciliation and retries ask.
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
 * (`order.payment_retry`). `invalid`: the redirect did not come from the provider (bad signature,
 * tampered amount, another payment's reference): nothing may change.
 */
export type VerificationOutcome = 'completed' | 'failed' | 'pending' | 'invalid';

export interface Verification {
  outcome: VerificationOutcome;
  /** The amount the provider reports (NPR), when it reports one. */
  amount?: number;
  /** Why: a failure reason to store, or (for `invalid`) what did not verify, for the log. */
  reason?: string;
  providerReference?: string;
}

export type RedirectKind = 'success' | 'failure';

export interface PaymentGateway {
  /** `sandbox`, later `esewa`, `khalti`. */
  readonly provider: string;
  initiate(payment: PaymentRow, context: { orderNumber: string }): Promise<Initiation>;
  /** Checks the parameters of a redirect to `/api/payments/redirect/:paymentId/{kind}`. */
  verifyRedirect(
    payment: PaymentRow,
    kind: RedirectKind,
    params: Record<string, string>,
  ): Promise<Verification>;
  /** Asks the provider about a payment (retries, reconciliation); `pending` when it cannot tell. */
  status(payment: PaymentRow): Promise<Verification>;
  /** Refunds `amount` NPR; adapters that cannot refund online leave it undefined. */
  refund?(payment: PaymentRow, amount: number): Promise<{ ok: boolean; reason?: string }>;
}
