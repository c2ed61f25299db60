// A local Khalti KPG-2 (docs.khalti.com/khalti-epayment) for tests: `Authorization: Key <secret>`,
// initiate (amount in paisa, Rs 10 minimum) answering `pidx` and `payment_url`, lookup answering
// the documented bodies (HTTP 400 for `Expired` and `User canceled`), and the query string Khalti
// appends to `return_url`.
import { randomBytes } from 'node:crypto';
import { type FakeServer, sendJson, startFakeServer } from './fake-provider';

export type KhaltiStatus =
  | 'Completed'
  | 'Pending'
  | 'Initiated'
  | 'Refunded'
  | 'Expired'
  | 'User canceled'
  | 'Partially Refunded';

interface KhaltiPayment {
  pidx: string;
  amount: number;
  purchaseOrderId: string;
  purchaseOrderName: string;
  /** Answered by the next lookups, in turn; the last one stays. */
  statuses: KhaltiStatus[];
  paidAmount?: number;
  transactionId: string | null;
  returnUrl: string;
}

export interface FakeKhalti extends FakeServer {
  baseUrl: string;
  payments: Map<string, KhaltiPayment>;
  initiated: Array<Record<string, unknown>>;
  /** `up`; `error`: HTTP 503 everywhere; `unreachable`: socket closed. */
  mode: 'up' | 'error' | 'unreachable';
  /** The next lookups of `pidx` answer these statuses in turn (the last one stays). */
  answer(pidx: string, ...statuses: KhaltiStatus[]): void;
  /** A completed payment reports this amount (paisa) instead of the initiated one. */
  payAmount(pidx: string, paisa: number): void;
  /** The query string Khalti appends to `return_url` for `status`. */
  returnQuery(pidx: string, status: KhaltiStatus): string;
}

export async function startFakeKhalti(secret: string): Promise<FakeKhalti> {
  const payments = new Map<string, KhaltiPayment>();
  const initiated: Array<Record<string, unknown>> = [];
  const fake = {} as FakeKhalti;
  const server = await startFakeServer((req, res) => {
    if (fake.mode === 'unreachable') {
      res.socket?.destroy();
      return;
    }
    if (fake.mode === 'error') return sendJson(res, 503, { detail: 'Service unavailable' });
    if (req.headers.authorization !== `Key ${secret}`) {
      return sendJson(res, 401, { detail: 'Invalid token.', status_code: 401 });
    }
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(req.body || '{}');
    } catch {
      return sendJson(res, 400, { detail: 'JSON parse error', error_key: 'validation_error' });
    }
    if (req.method === 'POST' && req.path === '/api/v2/epayment/initiate/') {
      initiated.push(body);
      const errors: Record<string, string[]> = {};
      for (const name of [
        'return_url',
        'website_url',
        'amount',
        'purchase_order_id',
        'purchase_order_name',
      ]) {
        if (body[name] === undefined || body[name] === '') errors[name] = ['This field is required.'];
      }
      if (typeof body.amount === 'number' && (!Number.isInteger(body.amount) || body.amount < 1000)) {
        errors.amount = ['Amount should be greater than Rs. 10, that is 1000 paisa.'];
      }
      if (Object.keys(errors).length) return sendJson(res, 400, { ...errors, error_key: 'validation_error' });
      const pidx = randomBytes(11).toString('base64url');
      payments.set(pidx, {
        pidx,
        amount: body.amount as number,
        purchaseOrderId: String(body.purchase_order_id),
        purchaseOrderName: String(body.purchase_order_name),
        statuses: ['Initiated'],
        transactionId: null,
        returnUrl: String(body.return_url),
      });
      return sendJson(res, 200, {
        pidx,
        payment_url: `${server.origin}/pay/?pidx=${pidx}`,
        expires_at: new Date(Date.now() + 3_600_000).toISOString(),
        expires_in: 3600,
      });
    }
    if (req.method === 'POST' && req.path === '/api/v2/epayment/lookup/') {
      const payment = payments.get(String(body.pidx));
      if (!payment) return sendJson(res, 404, { detail: 'Not found.', error_key: 'validation_error' });
      const status = payment.statuses.length > 1 ? payment.statuses.shift()! : payment.statuses[0]!;
      const completed = status === 'Completed' || status === 'Refunded' || status === 'Partially Refunded';
      if (completed && !payment.transactionId) payment.transactionId = randomBytes(11).toString('base64url');
      const answer = {
        pidx: payment.pidx,
        total_amount: completed ? (payment.paidAmount ?? payment.amount) : payment.amount,
        status,
        transaction_id: completed ? payment.transactionId : null,
        fee: 0,
        refunded: status === 'Refunded',
      };
      return sendJson(res, status === 'Expired' || status === 'User canceled' ? 400 : 200, answer);
    }
    sendJson(res, 404, { detail: 'Not found.' });
  });
  return Object.assign(fake, server, {
    baseUrl: `${server.origin}/api/v2`,
    payments,
    initiated,
    mode: 'up' as const,
    answer(pidx: string, ...statuses: KhaltiStatus[]) {
      const payment = payments.get(pidx);
      if (!payment) throw new Error(`no Khalti payment ${pidx}`);
      payment.statuses = statuses;
    },
    payAmount(pidx: string, paisa: number) {
      payments.get(pidx)!.paidAmount = paisa;
    },
    returnQuery(pidx: string, status: KhaltiStatus) {
      const p = payments.get(pidx)!;
      const done = status === 'Completed';
      const query = new URLSearchParams({
        pidx,
        status,
        purchase_order_id: p.purchaseOrderId,
        purchase_order_name: p.purchaseOrderName,
        ...(done
          ? {
              transaction_id: 'GFq9PFS7b2iYvL8Lir9oXe',
              tidx: 'GFq9PFS7b2iYvL8Lir9oXe',
              txnId: 'GFq9PFS7b2iYvL8Lir9oXe',
              amount: String(p.amount),
              total_amount: String(p.amount),
              mobile: '98XXXXX904',
            }
          : {}),
      });
      return query.toString();
    },
  });
}
