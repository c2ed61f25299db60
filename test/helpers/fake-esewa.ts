// A local eSewa ePay v2 (developer.esewa.com.np/pages/Epay) for tests: the form endpoint
// checks the signature the way eSewa does; the customer's outcome is set by the test; the
// success redirect's `data` is signed as the documentation shows; the status-check API answers
// the documented shapes (amounts written `100.0` or `"1,000.0"`, `{ code: 0, error_message }`
// when eSewa is down).
import { createHmac } from 'node:crypto';
import { type FakeServer, sendJson, startFakeServer } from './fake-provider';

export const ESEWA_TEST_SECRET = '8gBm/:&EnhH.1/q';
export const ESEWA_TEST_PRODUCT = 'EPAYTEST';

export type EsewaStatus =
  | 'COMPLETE'
  | 'PENDING'
  | 'AMBIGUOUS'
  | 'NOT_FOUND'
  | 'CANCELED'
  | 'FULL_REFUND'
  | 'PARTIAL_REFUND';

interface Transaction {
  totalAmount: number;
  status: EsewaStatus;
  refId: string | null;
}

/** eSewa's signature: HMAC-SHA256 base64 over `name=value` of the signed fields, comma-joined. */
export function esewaSign(secret: string, fields: Record<string, unknown>, names: string): string {
  const message = names
    .split(',')
    .map((n) => `${n}=${String(fields[n])}`)
    .join(',');
  return createHmac('sha256', secret).update(message).digest('base64');
}

/** eSewa writes amounts with a decimal and thousands separators, e.g. `"1,000.0"`. */
export const esewaAmountText = (npr: number) =>
  `${npr.toLocaleString('en-US', { minimumFractionDigits: 1, maximumFractionDigits: 2 })}`;

export interface FakeEsewa extends FakeServer {
  formUrl: string;
  statusUrl: string;
  transactions: Map<string, Transaction>;
  /** `up`; `down`: 200 `{ code: 0, error_message }`; `error`: HTTP 503; `unreachable`: socket closed. */
  mode: 'up' | 'down' | 'error' | 'unreachable';
  /** How the status API writes `total_amount`: a JSON number `100.0` or a string `"1,000.0"`. */
  amountStyle: 'number' | 'text';
  /** The customer finished on eSewa: the transaction now has this status (and amount paid). */
  settle(uuid: string, status: EsewaStatus, totalAmount?: number): void;
  /** The base64 `data` eSewa appends to `success_url`, signed with `secret`. */
  successData(uuid: string, opts?: { secret?: string; totalAmount?: number; productCode?: string }): string;
}

export async function startFakeEsewa(
  opts: { productCode?: string; secret?: string } = {},
): Promise<FakeEsewa> {
  const productCode = opts.productCode ?? ESEWA_TEST_PRODUCT;
  const secret = opts.secret ?? ESEWA_TEST_SECRET;
  const transactions = new Map<string, Transaction>();
  let refs = 0;
  const fake = {} as FakeEsewa;
  const server = await startFakeServer((req, res) => {
    if (fake.mode === 'unreachable') {
      res.socket?.destroy();
      return;
    }
    if (req.method === 'POST' && req.path === '/api/epay/main/v2/form') {
      // What eSewa checks before showing its login page: every field present, the signature.
      const form = Object.fromEntries(new URLSearchParams(req.body));
      const required = [
        'amount',
        'tax_amount',
        'total_amount',
        'transaction_uuid',
        'product_code',
        'product_service_charge',
        'product_delivery_charge',
        'success_url',
        'failure_url',
        'signed_field_names',
        'signature',
      ];
      const missing = required.filter((n) => !form[n]);
      const sum =
        Number(form.amount) +
        Number(form.tax_amount) +
        Number(form.product_service_charge) +
        Number(form.product_delivery_charge);
      if (
        missing.length ||
        form.product_code !== productCode ||
        form.signed_field_names !== 'total_amount,transaction_uuid,product_code' ||
        form.signature !== esewaSign(secret, form, form.signed_field_names!) ||
        sum !== Number(form.total_amount) ||
        !/^[A-Za-z0-9-]+$/.test(form.transaction_uuid!)
      ) {
        return sendJson(res, 400, { error_message: 'Invalid payload signature.', missing });
      }
      transactions.set(form.transaction_uuid!, {
        totalAmount: Number(form.total_amount),
        status: 'PENDING',
        refId: null,
      });
      res.writeHead(200, { 'content-type': 'text/html' });
      return res.end('<html><body>eSewa login</body></html>');
    }
    if (req.method === 'GET' && req.path === '/api/epay/transaction/status/') {
      if (fake.mode === 'error') return sendJson(res, 503, 'Service Unavailable');
      if (fake.mode === 'down') {
        return sendJson(res, 200, { code: 0, error_message: 'Service is currently unavailable' });
      }
      const { product_code, total_amount, transaction_uuid } = req.query;
      const tx = transaction_uuid ? transactions.get(transaction_uuid) : undefined;
      // Found by merchant and reference; the answer carries the amount eSewa actually recorded.
      const known = tx && product_code === productCode;
      const amount = known ? tx.totalAmount : Number(total_amount);
      const amountJson = fake.amountStyle === 'text' ? `"${esewaAmountText(amount)}"` : amount.toFixed(1);
      const status = known ? tx.status : 'NOT_FOUND';
      const ref = known && tx.refId ? `"${tx.refId}"` : 'null';
      // Written by hand: JSON.stringify cannot write `100.0`.
      return sendJson(
        res,
        200,
        `{"product_code":${JSON.stringify(product_code ?? '')},"transaction_uuid":${JSON.stringify(transaction_uuid ?? '')},"total_amount":${amountJson},"status":"${status}","ref_id":${ref}}`,
      );
    }
    sendJson(res, 404, { detail: 'Not found.' });
  });
  return Object.assign(fake, server, {
    formUrl: `${server.origin}/api/epay/main/v2/form`,
    statusUrl: `${server.origin}/api/epay/transaction/status/`,
    transactions,
    mode: 'up' as const,
    amountStyle: 'number' as const,
    settle(uuid: string, status: EsewaStatus, totalAmount?: number) {
      const tx = transactions.get(uuid);
      if (!tx) throw new Error(`the customer never posted the form of ${uuid}`);
      tx.status = status;
      if (totalAmount !== undefined) tx.totalAmount = totalAmount;
      if (status === 'COMPLETE') tx.refId = `000${(++refs).toString(36).toUpperCase().padStart(4, '0')}`;
    },
    successData(uuid: string, o: { secret?: string; totalAmount?: number; productCode?: string } = {}) {
      const tx = transactions.get(uuid);
      const names = 'transaction_code,status,total_amount,transaction_uuid,product_code,signed_field_names';
      const fields: Record<string, string> = {
        transaction_code: tx?.refId ?? '000AWEO',
        status: tx?.status ?? 'COMPLETE',
        total_amount: (o.totalAmount ?? tx?.totalAmount ?? 0).toFixed(1),
        transaction_uuid: uuid,
        product_code: o.productCode ?? productCode,
        signed_field_names: names,
      };
      fields.signature = esewaSign(o.secret ?? secret, fields, names);
      return Buffer.from(JSON.stringify(fields)).toString('base64');
    },
  });
}
