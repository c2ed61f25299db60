// eSewa ePay v2 (developer.esewa.com.np/pages/Epay): the customer's browser posts a form signed
// with HMAC-SHA256 (base64) over `signed_field_names`; eSewa sends the customer back to
// `success_url` with a base64 JSON `data` signed the same way, or to `failure_url` (also for a
// payment still pending). Only the status-check API moves a payment
// (docs/decisions.md, "Real gateways"): the redirect is checked here so a forged one is not
// even queued.
import { createHmac } from 'node:crypto';
import { constantTimeEqual } from '../../../platform/security/tokens';
import type { PaymentRow } from '../payments.table';
import {
  askProvider,
  type PaymentGateway,
  providerAmount,
  redirectUrls,
  type Verification,
  waitFor,
} from './payment-gateway';

export interface EsewaSettings {
  productCode: string;
  secretKey: string;
  formUrl: string;
  statusUrl: string;
  publicBaseUrl: string;
  timeoutMs: number;
}

/** The fields eSewa requires to be signed, in this order. */
export const ESEWA_SIGNED_FIELD_NAMES = 'total_amount,transaction_uuid,product_code';

/** HMAC-SHA256, base64, over `name=value` pairs of `signedFieldNames` joined by commas. */
export function esewaSignature(
  secretKey: string,
  fields: Record<string, unknown>,
  signedFieldNames: string,
): string {
  const message = signedFieldNames
    .split(',')
    .map(
      (name) => `${name}=${fields[name] === undefined || fields[name] === null ? '' : String(fields[name])}`,
    )
    .join(',');
  return createHmac('sha256', secretKey).update(message, 'utf8').digest('base64');
}

/** The form the customer's browser posts to ESEWA_FORM_URL: exactly eSewa's fields. */
export function esewaForm(settings: EsewaSettings, payment: PaymentRow): Record<string, string> {
  const urls = redirectUrls(settings.publicBaseUrl, payment.id);
  // Amounts in rupees (docs/decisions.md, "Money"); Pasal adds no tax or charges of its own here:
  // the order's finalPayable already holds shipping and every charge.
  const fields: Record<string, string> = {
    amount: String(payment.amount),
    tax_amount: '0',
    total_amount: String(payment.amount),
    transaction_uuid: payment.gatewayTransactionId,
    product_code: settings.productCode,
    product_service_charge: '0',
    product_delivery_charge: '0',
    success_url: urls.success,
    failure_url: urls.failure,
    signed_field_names: ESEWA_SIGNED_FIELD_NAMES,
  };
  fields.signature = esewaSignature(settings.secretKey, fields, ESEWA_SIGNED_FIELD_NAMES);
  return fields;
}

/** Decodes and checks the success redirect's `data`; answers why it does not verify, or null. */
export function checkEsewaData(
  settings: Pick<EsewaSettings, 'productCode' | 'secretKey'>,
  payment: Pick<PaymentRow, 'amount' | 'gatewayTransactionId'>,
  data: string | undefined,
): { reason: string } | { decoded: Record<string, unknown> } {
  if (!data) return { reason: 'missing_data' };
  let decoded: Record<string, unknown>;
  try {
    const parsed: unknown = JSON.parse(Buffer.from(data, 'base64').toString('utf8'));
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return { reason: 'bad_data' };
    decoded = parsed as Record<string, unknown>;
  } catch {
    return { reason: 'bad_data' };
  }
  const names = typeof decoded.signed_field_names === 'string' ? decoded.signed_field_names : '';
  const signed = names.split(',');
  // The three fields that tie the answer to this payment must be among the signed ones.
  if (!['total_amount', 'transaction_uuid', 'product_code'].every((n) => signed.includes(n))) {
    return { reason: 'unsigned_fields' };
  }
  const signature = typeof decoded.signature === 'string' ? decoded.signature : '';
  if (!signature || !constantTimeEqual(signature, esewaSignature(settings.secretKey, decoded, names))) {
    return { reason: 'bad_signature' };
  }
  if (decoded.product_code !== settings.productCode) return { reason: 'merchant_mismatch' };
  if (decoded.transaction_uuid !== payment.gatewayTransactionId) return { reason: 'reference_mismatch' };
  if (providerAmount(decoded.total_amount) !== payment.amount) return { reason: 'amount_mismatch' };
  return { decoded };
}

/** docs/decisions.md "Real gateways": how each status-check answer moves a payment. */
export function esewaOutcome(
  payment: Pick<PaymentRow, 'amount'>,
  answer: unknown,
  final: boolean,
): Verification {
  const body = (answer && typeof answer === 'object' ? answer : {}) as Record<string, unknown>;
  const status = typeof body.status === 'string' ? body.status : undefined;
  const reference = typeof body.ref_id === 'string' ? body.ref_id : undefined;
  switch (status) {
    case 'COMPLETE': {
      const amount = providerAmount(body.total_amount);
      if (amount !== payment.amount) {
        return { outcome: 'failed', reason: 'amount_mismatch', amount, providerReference: reference, answer };
      }
      return { outcome: 'completed', amount, providerReference: reference, answer };
    }
    case 'CANCELED':
    case 'FULL_REFUND':
    case 'PARTIAL_REFUND':
      return { outcome: 'failed', reason: `esewa_${status.toLowerCase()}`, answer };
    case 'NOT_FOUND':
      // Also what eSewa says before the customer has posted the form: only a last check fails.
      return final
        ? { outcome: 'failed', reason: 'esewa_not_found', answer }
        : { outcome: 'pending', reason: 'esewa_not_found', answer };
    default:
      // PENDING, AMBIGUOUS, or `{ code: 0, error_message }` when eSewa is down: ask again.
      return waitFor('esewa', status, answer);
  }
}

export function createEsewaGateway(settings: EsewaSettings): PaymentGateway {
  return {
    provider: 'esewa',
    confirmsByStatus: true,
    async initiate(payment) {
      return {
        initiationType: 'form_post',
        redirectUrl: settings.formUrl,
        gatewayPayload: esewaForm(settings, payment),
      };
    },
    async verifyRedirect(payment, kind, params) {
      // The failure redirect carries nothing signed: it only makes Pasal ask the status API.
      if (kind === 'failure') return { outcome: 'pending', reason: 'failure_redirect' };
      const checked = checkEsewaData(settings, payment, params.data);
      if ('reason' in checked) return { outcome: 'invalid', reason: checked.reason };
      return { outcome: 'pending', reason: 'verified_redirect', answer: checked.decoded };
    },
    async status(payment, { final }) {
      const url = new URL(settings.statusUrl);
      url.searchParams.set('product_code', settings.productCode);
      url.searchParams.set('total_amount', String(payment.amount));
      url.searchParams.set('transaction_uuid', payment.gatewayTransactionId);
      return askProvider(
        url.toString(),
        { method: 'GET', headers: { accept: 'application/json' } },
        settings.timeoutMs,
        (status, body) =>
          status >= 500
            ? { outcome: 'pending', reason: `esewa_http_${status}`, answer: body }
            : esewaOutcome(payment, body, final),
      );
    },
  };
}
