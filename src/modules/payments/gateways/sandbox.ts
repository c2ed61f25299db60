// The built-in sandbox provider (PAYMENTS_MODE=sandbox): a page of ours stands in for the
// provider's checkout. Its Pay and Fail buttons come back on the documented redirect routes
// with a reference signed by URL_SIGNING_SECRET over the payment id, the amount and the
// outcome, so a redirect typed by hand (or with another amount) does not verify.
import { constantTimeEqual, hmacSha256Hex } from '../../../platform/security/tokens';
import type { PaymentRow } from '../payments.table';
import type { PaymentGateway, RedirectKind, Verification } from './payment-gateway';

export const SANDBOX_OUTCOMES = ['success', 'failure'] as const;
export type SandboxOutcome = (typeof SANDBOX_OUTCOMES)[number];

export const sandboxSignature = (
  secret: string,
  paymentId: string,
  amount: number,
  outcome: SandboxOutcome,
) => hmacSha256Hex(secret, `pasal-sandbox-payment:${paymentId}:${amount}:${outcome}`);

/** The query string the sandbox sends to a redirect route. */
export function sandboxRedirectParams(secret: string, payment: PaymentRow, outcome: SandboxOutcome) {
  return {
    reference: payment.gatewayTransactionId,
    amount: String(payment.amount),
    outcome,
    signature: sandboxSignature(secret, payment.id, payment.amount, outcome),
  };
}

export function createSandboxGateway(opts: { publicBaseUrl: string; secret: string }): PaymentGateway {
  return {
    provider: 'sandbox',
    confirmsByStatus: false,
    async initiate(payment) {
      return {
        initiationType: 'redirect',
        redirectUrl: `${opts.publicBaseUrl}/api/payments/sandbox/${payment.id}`,
        gatewayPayload: { provider: 'sandbox' },
      };
    },
    async verifyRedirect(payment, kind: RedirectKind, params): Promise<Verification> {
      const expectedOutcome: SandboxOutcome = kind === 'success' ? 'success' : 'failure';
      const { reference, amount, outcome, signature } = params;
      if (!signature || !amount || !outcome) return { outcome: 'invalid', reason: 'missing_parameters' };
      if (outcome !== expectedOutcome) return { outcome: 'invalid', reason: 'outcome_route_mismatch' };
      if (!/^\d{1,12}$/.test(amount)) return { outcome: 'invalid', reason: 'bad_amount' };
      const reported = Number(amount);
      const expected = sandboxSignature(opts.secret, payment.id, reported, expectedOutcome);
      if (!constantTimeEqual(signature, expected)) return { outcome: 'invalid', reason: 'bad_signature' };
      if (reference !== payment.gatewayTransactionId)
        return { outcome: 'invalid', reason: 'reference_mismatch' };
      if (reported !== payment.amount)
        return { outcome: 'invalid', reason: 'amount_mismatch', amount: reported };
      return kind === 'success'
        ? { outcome: 'completed', amount: reported, providerReference: signature.slice(0, 32) }
        : {
            outcome: 'failed',
            amount: reported,
            reason: 'sandbox_failure',
            providerReference: signature.slice(0, 32),
          };
    },
    async status() {
      // The sandbox keeps no state of its own: only its signed redirects decide.
      return { outcome: 'pending', reason: 'sandbox_has_no_status' };
    },
  };
}
