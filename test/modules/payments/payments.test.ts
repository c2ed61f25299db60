// Payments through HTTP: the sandbox page and its buttons, the redirect routes (replays,
// tampering, forged signatures, a success racing a failure) and the result page. A recorder
// subscribed to payment.completed / payment.failed watches what the orders module hears.
import { eq } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { initiatePayment, type PaymentsDeps } from '../../../src/modules/payments';
import { processRedirectOutcome } from '../../../src/modules/payments/payments.service';
import { payments } from '../../../src/modules/payments/payments.table';
import type { Db } from '../../../src/platform/db/database';
import { createTestApp, type TestApp } from '../../helpers/app';
import { servicesTier } from '../../helpers/services';

const RETURN_URL = 'http://localhost:3001/checkout/result';
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

const completed: Array<{ orderId: number; paymentId: string; paymentReference: string }> = [];
const failed: Array<{ orderId: number; paymentId: string; reason: string }> = [];

let t: TestApp;
let deps: PaymentsDeps;
let nextOrderId = 1000;

beforeAll(async () => {
  t = await createTestApp({
    env: {
      PAYMENT_RETURN_URL_ALLOWLIST: `${RETURN_URL},https://shop.example.com/pay/`,
      PUBLIC_BASE_URL: 'http://api.test',
    },
  });
  deps = {
    config: t.platform.config,
    clock: t.platform.clock,
    log: pino({ level: 'silent' }),
    db: t.platform.database.db,
    jobs: t.platform.jobs,
  };
  // Each runs inside the transaction that moved the payment: it already reads the new status.
  t.platform.events.inTransaction('payment.completed', async (tx, event) => {
    expect(await statusIn(tx, event.paymentId)).toBe('completed');
    completed.push(event);
  });
  t.platform.events.inTransaction('payment.failed', async (tx, event) => {
    expect(await statusIn(tx, event.paymentId)).toBe('failed');
    failed.push(event);
  });
});
afterAll(() => t.close());

async function statusIn(tx: Db, paymentId: string) {
  const [row] = await tx.select({ status: payments.status }).from(payments).where(eq(payments.id, paymentId));
  return row?.status;
}
beforeEach(() => {
  completed.length = 0;
  failed.length = 0;
});

async function newPayment(
  opts: { amount?: number; gateway?: 'gateway_card' | 'gateway_wallet_a' | 'cod'; returnUrl?: string } = {},
) {
  const orderId = nextOrderId++;
  const result = await initiatePayment(deps, {
    orderId,
    orderNumber: `ORD-${orderId}`,
    amount: opts.amount ?? 1500,
    gateway: opts.gateway ?? 'gateway_card',
    returnUrl: opts.returnUrl ?? RETURN_URL,
  });
  return { orderId, ...result };
}

async function paymentRow(id: string) {
  const [row] = await t.platform.database.db.select().from(payments).where(eq(payments.id, id));
  return row!;
}

/** Presses a sandbox button; returns the signed redirect path it answers with. */
async function press(paymentId: string, outcome: 'success' | 'failure') {
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/payments/sandbox/${paymentId}`,
    headers: FORM,
    payload: `outcome=${outcome}`,
  });
  expect(res.statusCode).toBe(302);
  return res.headers.location as string;
}

describe('initiatePayment', () => {
  it('creates a pending online payment whose redirectUrl is the sandbox page', async () => {
    const p = await newPayment({ amount: 2499 });
    expect(p).toMatchObject({
      initiationType: 'redirect',
      redirectUrl: `http://api.test/api/payments/sandbox/${p.paymentId}`,
      gatewayPayload: { provider: 'sandbox' },
    });
    expect(p.gatewayTransactionId).toMatch(/^[A-Za-z0-9-]+$/);
    const row = await paymentRow(p.paymentId);
    expect(row).toMatchObject({
      orderId: p.orderId,
      method: 'online',
      gateway: 'gateway_card',
      provider: 'sandbox',
      amount: 2499,
      status: 'pending',
      returnUrl: RETURN_URL,
      gatewayTransactionId: p.gatewayTransactionId,
    });
  });

  it('a COD payment has initiationType none and no sandbox page', async () => {
    const p = await newPayment({ gateway: 'cod' });
    expect(p).toMatchObject({ initiationType: 'none', redirectUrl: null, gatewayPayload: {} });
    expect((await paymentRow(p.paymentId)).method).toBe('cod');
    const page = await t.app.inject({ method: 'GET', url: `/api/payments/sandbox/${p.paymentId}` });
    expect(page.statusCode).toBe(404);
    expect(page.json().errorCode).toBe('PAYMENT_NOT_FOUND');
  });

  it('refuses a returnUrl outside PAYMENT_RETURN_URL_ALLOWLIST (400 PAYMENT_RETURN_URL_NOT_ALLOWED) and writes nothing', async () => {
    for (const returnUrl of [
      'https://evil.example/checkout',
      'http://localhost:3001/other',
      'javascript:alert(1)',
    ]) {
      await expect(newPayment({ returnUrl })).rejects.toMatchObject({
        statusCode: 400,
        errorCode: 'PAYMENT_RETURN_URL_NOT_ALLOWED',
      });
    }
    const rows = await t.platform.database.db
      .select()
      .from(payments)
      .where(eq(payments.returnUrl, 'https://evil.example/checkout'));
    expect(rows).toHaveLength(0);
  });
});

describe('the sandbox page', () => {
  it('renders the order number, the amount and the Pay and Fail buttons posting to itself', async () => {
    const p = await newPayment({ amount: 1500 });
    const res = await t.app.inject({ method: 'GET', url: `/api/payments/sandbox/${p.paymentId}` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.body).toContain(`ORD-${p.orderId}`);
    expect(res.body).toContain('NPR 1,500');
    expect(res.body).toContain(`<form method="post" action="/api/payments/sandbox/${p.paymentId}">`);
    expect(res.body).toContain('name="outcome" value="success">Pay</button>');
    expect(res.body).toContain('name="outcome" value="failure">Fail</button>');
  });

  it('Pay answers 302 to the signed success redirect, Fail to the failure redirect', async () => {
    const p = await newPayment({ amount: 1500 });
    const pay = new URL(await press(p.paymentId, 'success'), 'http://x');
    expect(pay.pathname).toBe(`/api/payments/redirect/${p.paymentId}/success`);
    expect(pay.searchParams.get('amount')).toBe('1500');
    expect(pay.searchParams.get('outcome')).toBe('success');
    expect(pay.searchParams.get('reference')).toBe(p.gatewayTransactionId);
    expect(pay.searchParams.get('signature')).toMatch(/^[0-9a-f]{64}$/);
    const fail = new URL(await press(p.paymentId, 'failure'), 'http://x');
    expect(fail.pathname).toBe(`/api/payments/redirect/${p.paymentId}/failure`);
    expect(fail.searchParams.get('signature')).not.toBe(pay.searchParams.get('signature'));
  });

  it('an unknown or malformed payment id is 404 PAYMENT_NOT_FOUND; a bad outcome is 400', async () => {
    for (const id of ['00000000-0000-7000-8000-000000000000', 'not-a-uuid']) {
      const res = await t.app.inject({ method: 'GET', url: `/api/payments/sandbox/${id}` });
      expect(res.statusCode).toBe(404);
      expect(res.json().errorCode).toBe('PAYMENT_NOT_FOUND');
    }
    const p = await newPayment();
    const bad = await t.app.inject({
      method: 'POST',
      url: `/api/payments/sandbox/${p.paymentId}`,
      headers: FORM,
      payload: 'outcome=maybe',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errorCode).toBe('VALIDATION_ERROR');
  });
});

describe('redirects', () => {
  it('Pay then the success redirect: 302 to the result page, the job completes the payment and calls onCompleted once', async () => {
    const p = await newPayment({ amount: 1500 });
    const redirect = await t.app.inject({ method: 'GET', url: await press(p.paymentId, 'success') });
    expect(redirect.statusCode).toBe(302);
    const result = new URL(redirect.headers.location as string, 'http://x');
    expect(result.pathname).toBe('/api/payments/result');
    expect(result.searchParams.get('payment_id')).toBe(p.paymentId);
    expect(result.searchParams.get('reference_id')).toBe(String(p.orderId));
    await t.drainJobs();
    const row = await paymentRow(p.paymentId);
    expect(row.status).toBe('completed');
    expect(row.completedAt).toBeInstanceOf(Date);
    expect(completed).toEqual([
      {
        orderId: p.orderId,
        paymentId: p.paymentId,
        paymentReference: p.gatewayTransactionId,
        amount: row.amount,
        late: false,
      },
    ]);
    expect(failed).toEqual([]);
  });

  it('the success redirect replayed 10 times (GET and form POST) pays once', async () => {
    const p = await newPayment();
    const url = await press(p.paymentId, 'success');
    const [path, query] = url.split('?');
    for (let i = 0; i < 10; i++) {
      const res =
        i % 2 === 0
          ? await t.app.inject({ method: 'GET', url })
          : await t.app.inject({ method: 'POST', url: path!, headers: FORM, payload: query });
      expect(res.statusCode).toBe(302);
      if (i === 4) await t.drainJobs(); // some replays after the payment completed
    }
    await t.drainJobs();
    expect((await paymentRow(p.paymentId)).status).toBe('completed');
    expect(completed.filter((c) => c.paymentId === p.paymentId)).toHaveLength(1);
  });

  it('Fail then the failure redirect fails the payment and calls onFailed once', async () => {
    const p = await newPayment();
    const url = await press(p.paymentId, 'failure');
    for (let i = 0; i < 3; i++) expect((await t.app.inject({ method: 'GET', url })).statusCode).toBe(302);
    await t.drainJobs();
    const row = await paymentRow(p.paymentId);
    expect(row.status).toBe('failed');
    expect(row.failureReason).toBe('sandbox_failure');
    expect(failed).toEqual([{ orderId: p.orderId, paymentId: p.paymentId, reason: 'sandbox_failure' }]);
    expect(completed).toEqual([]);
    // A later success redirect changes nothing.
    await t.app.inject({ method: 'GET', url: await signedUrl(p.paymentId, 'success') });
    await t.drainJobs();
    expect((await paymentRow(p.paymentId)).status).toBe('failed');
    expect(completed).toEqual([]);
  });

  it('a tampered amount, a forged signature, a swapped outcome or missing parameters change nothing', async () => {
    const p = await newPayment({ amount: 1500 });
    const good = new URL(await press(p.paymentId, 'success'), 'http://x');
    const tamper = (changes: Record<string, string | null>, kind = 'success') => {
      const q = new URLSearchParams(good.search);
      for (const [k, v] of Object.entries(changes)) v === null ? q.delete(k) : q.set(k, v);
      return `/api/payments/redirect/${p.paymentId}/${kind}?${q}`;
    };
    const attempts = [
      tamper({ amount: '1' }),
      tamper({ signature: 'f'.repeat(64) }),
      tamper({ signature: null }),
      tamper({ reference: 'PSL-SOMEONE-ELSE' }),
      // The success signature does not fail a payment, nor does an unsigned failure.
      tamper({}, 'failure'),
      `/api/payments/redirect/${p.paymentId}/failure`,
      `/api/payments/redirect/${p.paymentId}/success`,
    ];
    for (const url of attempts) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(302);
      const result = new URL(res.headers.location as string, 'http://x');
      expect(result.pathname).toBe('/api/payments/result');
      expect(result.searchParams.get('payment_status')).toBe('pending');
    }
    await t.drainJobs();
    expect((await paymentRow(p.paymentId)).status).toBe('pending');
    expect(completed).toEqual([]);
    expect(failed).toEqual([]);
  });

  it("a signature for another payment's amount does not verify here", async () => {
    const cheap = await newPayment({ amount: 10 });
    const dear = await newPayment({ amount: 10_000 });
    const cheapUrl = new URL(await press(cheap.paymentId, 'success'), 'http://x');
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/payments/redirect/${dear.paymentId}/success${cheapUrl.search}`,
    });
    expect(res.statusCode).toBe(302);
    await t.drainJobs();
    expect((await paymentRow(dear.paymentId)).status).toBe('pending');
    expect(completed).toEqual([]);
  });

  it('an unknown payment id: 302 to the result page with payment_status failed, nothing written', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/payments/redirect/00000000-0000-7000-8000-000000000000/success?x=1',
    });
    expect(res.statusCode).toBe(302);
    const result = new URL(res.headers.location as string, 'http://x');
    expect(result.pathname).toBe('/api/payments/result');
    expect(result.searchParams.get('payment_status')).toBe('failed');
    const page = await t.app.inject({ method: 'GET', url: res.headers.location as string });
    expect(page.statusCode).toBe(404);
    expect(page.body).toContain('Payment not found');
  });

  it('a success and a failure racing for one payment end in one outcome', async () => {
    for (let round = 0; round < 5; round++) {
      const p = await newPayment();
      const success = await press(p.paymentId, 'success');
      const failure = await press(p.paymentId, 'failure');
      const answers = await Promise.all(
        [success, failure, success, failure].map((url) => t.app.inject({ method: 'GET', url })),
      );
      for (const a of answers) expect(a.statusCode).toBe(302);
      await t.drainJobs();
      const status = (await paymentRow(p.paymentId)).status;
      const done = completed.filter((c) => c.paymentId === p.paymentId).length;
      const gone = failed.filter((f) => f.paymentId === p.paymentId).length;
      expect(done + gone).toBe(1);
      expect(status).toBe(done ? 'completed' : 'failed');
    }
  });

  it('the outcome jobs themselves racing (concurrent transactions on PostgreSQL) move a payment once', async () => {
    const deps = {
      config: t.platform.config,
      clock: t.platform.clock,
      log: pino({ level: 'silent' }),
      db: t.platform.database.db,
      jobs: t.platform.jobs,
    };
    for (let round = 0; round < 5; round++) {
      const p = await newPayment();
      const ok = Object.fromEntries(new URL(await press(p.paymentId, 'success'), 'http://x').searchParams);
      const ko = Object.fromEntries(new URL(await press(p.paymentId, 'failure'), 'http://x').searchParams);
      const results = await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          i % 2 === 0
            ? processRedirectOutcome(deps, p.paymentId, 'success', ok)
            : processRedirectOutcome(deps, p.paymentId, 'failure', ko),
        ),
      );
      const moved = results.filter((r) => r === 'completed' || r === 'failed');
      expect(moved).toHaveLength(1);
      expect(results.filter((r) => r === 'unchanged')).toHaveLength(7);
      const row = await paymentRow(p.paymentId);
      expect(row.status).toBe(moved[0]);
      expect(completed.length + failed.length).toBe(round + 1);
    }
    if (servicesTier) expect(t.platform.database.driver).toBe('postgres');
  });
});

describe('the outcome transaction', () => {
  it('a throwing onCompleted rolls the payment back to pending (the job would retry)', async () => {
    const deps = {
      config: t.platform.config,
      clock: t.platform.clock,
      log: pino({ level: 'silent' }),
      db: t.platform.database.db,
      jobs: t.platform.jobs,
    };
    const p = await newPayment();
    const params = Object.fromEntries(new URL(await press(p.paymentId, 'success'), 'http://x').searchParams);
    const unsubscribe = t.platform.events.inTransaction('payment.completed', async () => {
      throw new Error('orders refused');
    });
    try {
      await expect(processRedirectOutcome(deps, p.paymentId, 'success', params)).rejects.toThrow(
        'orders refused',
      );
    } finally {
      unsubscribe();
    }
    expect((await paymentRow(p.paymentId)).status).toBe('pending');
  });
});

describe('the result page', () => {
  it("redirects to the payment's stored returnUrl with payment_status and order_id, ignoring next", async () => {
    const p = await newPayment({ returnUrl: 'https://shop.example.com/pay/done?cart=1' });
    await t.app.inject({ method: 'GET', url: await press(p.paymentId, 'success') });
    await t.drainJobs();
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/payments/result?payment_status=failed&payment_id=${p.paymentId}&next=${encodeURIComponent('https://evil.example/')}`,
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    const target = `https://shop.example.com/pay/done?cart=1&payment_status=completed&order_id=${p.orderId}&payment_id=${p.paymentId}`;
    expect(res.body).toContain(`content="0;url=${target.replaceAll('&', '&amp;')}"`);
    expect(res.body).toContain(`window.location.replace(${JSON.stringify(target)})`);
    expect(res.body).not.toContain('evil.example');
  });

  it('without a known payment id: 404 page, no redirect', async () => {
    for (const q of [
      '',
      '?payment_id=nope',
      '?payment_id=00000000-0000-7000-8000-000000000000&next=https://evil.example/',
    ]) {
      const res = await t.app.inject({ method: 'GET', url: `/api/payments/result${q}` });
      expect(res.statusCode).toBe(404);
      expect(res.body).not.toContain('http-equiv="refresh"');
      expect(res.body).not.toContain('evil.example');
      expect(res.headers['content-type']).toContain('text/html');
    }
  });

  it('the OpenAPI document says the result page and the sandbox page answer text/html', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/docs/openapi.json' })).json();
    const result = doc.paths['/api/payments/result'].get;
    expect(Object.keys(result.responses['200'].content)).toEqual(['text/html']);
    expect(Object.keys(result.responses['404'].content)).toEqual(['text/html']);
    expect(result.description).toContain('302');
    const sandbox = doc.paths['/api/payments/sandbox/{paymentId}'].get;
    expect(Object.keys(sandbox.responses['200'].content)).toEqual(['text/html']);
  });
});

async function signedUrl(paymentId: string, outcome: 'success' | 'failure') {
  const row = await paymentRow(paymentId);
  const { sandboxRedirectParams } = await import('../../../src/modules/payments/gateways/sandbox');
  const q = new URLSearchParams(sandboxRedirectParams(t.platform.config.URL_SIGNING_SECRET, row, outcome));
  return `/api/payments/redirect/${paymentId}/${outcome}?${q}`;
}

describe('order.payment_retry', () => {
  it('asks the adapter status again while inconclusive, attempt × delay apart, and stops after maxAttempts', async () => {
    const { paymentJobs, PAYMENT_RETRY_DELAY_MS } = await import(
      '../../../src/modules/payments/payments.jobs'
    );
    const queued: Array<{ name: string; payload: unknown; opts: unknown }> = [];
    const deps = {
      config: t.platform.config,
      clock: t.platform.clock,
      log: pino({ level: 'silent' }),
      db: t.platform.database.db,
      jobs: {
        ...t.platform.jobs,
        enqueue: async (def: { name: string }, payload: unknown, opts: unknown) => {
          queued.push({ name: def.name, payload, opts });
        },
      } as never,
    };
    const jobs = paymentJobs(deps);
    const p = await newPayment();
    // The sandbox keeps no status: its answer is inconclusive, so the next attempt is queued.
    await jobs.retry.handler(
      { orderId: p.orderId, paymentId: p.paymentId, attempt: 1, maxAttempts: 2 },
      { attempt: 1, jobId: 'x' },
    );
    expect(queued).toEqual([
      {
        name: 'order.payment_retry',
        payload: { orderId: p.orderId, paymentId: p.paymentId, attempt: 2, maxAttempts: 2 },
        opts: { jobId: `${p.paymentId}-retry-2`, delayMs: PAYMENT_RETRY_DELAY_MS * 2 },
      },
    ]);
    await jobs.retry.handler(
      { orderId: p.orderId, paymentId: p.paymentId, attempt: 2, maxAttempts: 2 },
      { attempt: 1, jobId: 'x' },
    );
    expect(queued).toHaveLength(1);
    expect((await paymentRow(p.paymentId)).status).toBe('pending');

    // A payment that already left pending is not asked about again.
    await t.app.inject({ method: 'GET', url: await press(p.paymentId, 'success') });
    await t.drainJobs();
    await jobs.retry.handler(
      { orderId: p.orderId, paymentId: p.paymentId, attempt: 1, maxAttempts: 5 },
      { attempt: 1, jobId: 'x' },
    );
    expect(queued).toHaveLength(1);
  });

  it('a success job whose gateway this process does not serve queues the first retry', async () => {
    const { paymentJobs } = await import('../../../src/modules/payments/payments.jobs');
    const queued: unknown[] = [];
    const jobs = paymentJobs({
      config: { ...t.platform.config, PAYMENTS_MODE: 'live' },
      clock: t.platform.clock,
      log: pino({ level: 'silent' }),
      db: t.platform.database.db,
      jobs: { enqueue: async (_d: unknown, payload: unknown) => void queued.push(payload) } as never,
    });
    const p = await newPayment();
    const params = Object.fromEntries(new URL(await press(p.paymentId, 'success'), 'http://x').searchParams);
    await jobs.success.handler(
      {
        orderId: p.orderId,
        paymentReference: p.paymentId,
        transactionId: p.gatewayTransactionId,
        gatewayParams: params,
      },
      { attempt: 1, jobId: p.paymentId },
    );
    expect(queued).toEqual([{ orderId: p.orderId, paymentId: p.paymentId, attempt: 1, maxAttempts: 5 }]);
    expect((await paymentRow(p.paymentId)).status).toBe('pending');
  });
});
