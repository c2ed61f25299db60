// Khalti web checkout, KPG-2 (docs.khalti.com/khalti-epayment): Pasal initiates the payment
// server-side (amount in paisa) and sends the customer to the returned `payment_url`; Khalti
// sends the customer back to `return_url` for every outcome (a cancel arrives with
// `status=User canceled`). The lookup API decides; it answers HTTP 400 for `Expired` and
// `User canceled`, with the same body as a 200.
import type { PaymentRow } from '../payments.table';
import {
  askProvider,
  callProvider,
  type PaymentGateway,
  ProviderError,
  providerAmount,
  redirectUrls,
  type Verification,
  waitFor,
} from './payment-gateway';

export interface KhaltiSettings {
  secretKey: string;
  baseUrl: string;
  publicBaseUrl: string;
  websiteUrl: string;
  timeoutMs: number;
}

/** Khalti takes nothing under Rs 10 (1000 paisa); 10 itself is accepted. */
export const KHALTI_MINIMUM_NPR = 10;

/** NPR (Pasal's unit everywhere) to Khalti's paisa, at the adapter's edge. */
export const toPaisa = (npr: number) => npr * 100;

const headers = (secretKey: string) => ({
  authorization: `Key ${secretKey}`,
  'content-type': 'application/json',
  accept: 'application/json',
});

/** docs/decisions.md "Real gateways": how each lookup status moves a payment. */
export function khaltiOutcome(payment: Pick<PaymentRow, 'amount'>, answer: unknown): Verification {
  const body = (answer && typeof answer === 'object' ? answer : {}) as Record<string, unknown>;
  const status = typeof body.status === 'string' ? body.status : undefined;
  const reference = typeof body.transaction_id === 'string' ? body.transaction_id : undefined;
  switch (status) {
    case 'Completed': {
      const paisa = providerAmount(body.total_amount);
      const amount = paisa / 100;
      if (paisa !== toPaisa(payment.amount)) {
        return { outcome: 'failed', reason: 'amount_mismatch', amount, providerReference: reference, answer };
      }
      return { outcome: 'completed', amount, providerReference: reference, answer };
    }
    case 'Expired':
    case 'User canceled':
    case 'Refunded':
    case 'Partially Refunded':
      return { outcome: 'failed', reason: `khalti_${status.toLowerCase().replace(/\s+/g, '_')}`, answer };
    default:
      // Pending, Initiated, or an answer without a status: ask again.
      return waitFor('khalti', status, answer);
  }
}

export function createKhaltiGateway(settings: KhaltiSettings): PaymentGateway {
  return {
    provider: 'khalti',
    confirmsByStatus: true,
    minimumAmount: KHALTI_MINIMUM_NPR,
    async initiate(payment, context) {
      const customer = context.customer;
      const customerInfo = Object.fromEntries(
        Object.entries({ name: customer?.name, email: customer?.email, phone: customer?.phone }).filter(
          ([, v]) => typeof v === 'string' && v.trim() !== '',
        ),
      );
      const { status, body } = await callProvider(
        `${settings.baseUrl}/epayment/initiate/`,
        {
          method: 'POST',
          headers: headers(settings.secretKey),
          body: JSON.stringify({
            return_url: redirectUrls(settings.publicBaseUrl, payment.id).success,
            website_url: settings.websiteUrl,
            amount: toPaisa(payment.amount),
            purchase_order_id: payment.gatewayTransactionId,
            purchase_order_name: context.orderNumber,
            ...(Object.keys(customerInfo).length ? { customer_info: customerInfo } : {}),
          }),
        },
        settings.timeoutMs,
      );
      const answer = (body && typeof body === 'object' ? body : {}) as Record<string, unknown>;
      if (status !== 200 || typeof answer.pidx !== 'string' || typeof answer.payment_url !== 'string') {
        throw new ProviderError(
          `khalti refused the initiation (HTTP ${status}): ${JSON.stringify(body ?? null)}`,
        );
      }
      return {
        initiationType: 'redirect',
        redirectUrl: answer.payment_url,
        gatewayPayload: { pidx: answer.pidx },
        providerReference: answer.pidx,
      };
    },
    async verifyRedirect(payment, _kind, params) {
      // No signature in Khalti's return: the parameters must name this payment, then the
      // lookup API decides (anyone can call the route).
      if (!params.pidx) return { outcome: 'invalid', reason: 'missing_pidx' };
      if (params.pidx !== payment.providerReference)
        return { outcome: 'invalid', reason: 'reference_mismatch' };
      if (
        params.purchase_order_id !== undefined &&
        params.purchase_order_id !== payment.gatewayTransactionId
      ) {
        return { outcome: 'invalid', reason: 'reference_mismatch' };
      }
      for (const name of ['amount', 'total_amount'] as const) {
        if (params[name] !== undefined && providerAmount(params[name]) !== toPaisa(payment.amount)) {
          return { outcome: 'invalid', reason: 'amount_mismatch' };
        }
      }
      return { outcome: 'pending', reason: 'verified_redirect', answer: params };
    },
    async status(payment) {
      if (!payment.providerReference) return { outcome: 'pending', reason: 'khalti_no_pidx' };
      return askProvider(
        `${settings.baseUrl}/epayment/lookup/`,
        {
          method: 'POST',
          headers: headers(settings.secretKey),
          body: JSON.stringify({ pidx: payment.providerReference }),
        },
        settings.timeoutMs,
        // 200, and 400 for Expired / User canceled: the body's status decides. Anything else
        // (401 bad key, 404 unknown pidx, 5xx) is a provider error: asked again later.
        (status, body) =>
          status === 200 || status === 400
            ? khaltiOutcome(payment, body)
            : { outcome: 'pending', reason: `khalti_http_${status}`, answer: body },
      );
    },
  };
}
