// eSewa ePay v2 and Khalti KPG-2 end to end through the real checkout, each provider played by
// a local fake server that follows its documented protocol (test/helpers/fake-esewa.ts,
// fake-khalti.ts): signing and verifying as documented, forged and replayed redirects, wrong
// amounts, a lookup Pending then Completed, reconciliation, the last check before auto-cancel,
// late payments, a provider that cannot be reached, Khalti's minimum, and /ready.
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { orderRefunds, orderStatusHistory, orders } from '../../../src/modules/orders/orders.table';
import { payments } from '../../../src/modules/payments/payments.table';
import type { JobDefinition } from '../../../src/platform/jobs/jobs';
import type { SignedIn } from '../../helpers/factories';
import { type FakeEsewa, startFakeEsewa } from '../../helpers/fake-esewa';
import { type FakeKhalti, startFakeKhalti } from '../../helpers/fake-khalti';
import { type OrdersTestApp, ordersTestApp, RETURN_URL } from '../orders/calls';

const KHALTI_KEY = 'sandbox-khalti-secret-of-this-test';
const API = 'http://api.test';

let c: OrdersTestApp;
let esewa: FakeEsewa;
let khalti: FakeKhalti;

beforeAll(async () => {
  esewa = await startFakeEsewa();
  khalti = await startFakeKhalti(KHALTI_KEY);
  c = await ordersTestApp({
    // The tests run `payment.reconcile` themselves: a scheduled tick (the first comes a second
    // after start) would ask the providers at moments the assertions count their calls.
    schedules: false,
    env: {
      PAYMENT_RETURN_URL_ALLOWLIST: RETURN_URL,
      PUBLIC_BASE_URL: API,
      PUBLIC_WEB_URL: 'https://shop.example',
      PAYMENT_GATEWAY_WALLET_A: 'esewa',
      ESEWA_FORM_URL: esewa.formUrl,
      ESEWA_STATUS_URL: esewa.statusUrl,
      PAYMENT_GATEWAY_WALLET_B: 'khalti',
      KHALTI_SECRET_KEY: KHALTI_KEY,
      KHALTI_BASE_URL: khalti.baseUrl,
      // Every pending payment is due at once.
      PAYMENT_RECONCILE_AFTER_SECONDS: '0',
      PAYMENT_PROVIDER_TIMEOUT_MS: '2000',
    },
  });
});
afterAll(async () => {
  await c?.t.close();
  await esewa?.close();
  await khalti?.close();
});

/** Runs a registered job by name, as the queue would, and waits for it and what it queues. */
async function runJob(name: string, payload: Record<string, unknown>) {
  const def: JobDefinition<unknown> = { name, payload: z.any(), handler: async () => {} };
  await c.t.platform.jobs.enqueue(def, payload);
  await c.t.drainJobs();
}
const reconcile = () => runJob('payment.reconcile', {});

async function paymentRow(id: string) {
  const [row] = await c.db.select().from(payments).where(eq(payments.id, id));
  return row!;
}
const statusCalls = () => esewa.requests.filter((r) => r.path === '/api/epay/transaction/status/').length;
const lookups = () => khalti.requests.filter((r) => r.path === '/api/v2/epayment/lookup/').length;

/** Opens a redirect route as the customer's browser would; answers where it sent them. */
async function redirect(paymentId: string, kind: 'success' | 'failure', query = '') {
  const res = await c.t.app.inject({
    method: 'GET',
    url: `/api/payments/redirect/${paymentId}/${kind}${query ? `?${query}` : ''}`,
  });
  expect(res.statusCode).toBe(302);
  await c.t.drainJobs();
  return String(res.headers.location);
}

async function checkoutWith(gateway: 'gateway_wallet_a' | 'gateway_wallet_b', onHand = 5) {
  const me = await c.customer();
  const productId = await c.product({ onHand });
  await c.cartWith(me, [{ productId, quantity: 1 }]);
  const res = await c.checkout(me, gateway);
  expect(res.statusCode, res.body).toBe(200);
  const init = res.json().data;
  return { me, productId, init, order: async () => c.order(me, init.orderId) };
}

/** The customer's browser posts the signed form to eSewa (which checks the signature). */
async function postEsewaForm(payload: Record<string, string>) {
  const res = await fetch(esewa.formUrl, { method: 'POST', body: new URLSearchParams(payload) });
  expect(res.status, await res.clone().text()).toBe(200);
}

describe('eSewa ePay v2', () => {
  it('checkout answers the signed form; the success redirect, verified, then COMPLETE from the status API pays once', async () => {
    const { init, order, productId } = await checkoutWith('gateway_wallet_a');
    const finalPayable = (await order()).finalPayable as number;
    expect(init).toMatchObject({ initiationType: 'form_post', redirectUrl: esewa.formUrl });
    expect(init.gatewayPayload).toMatchObject({
      amount: String(finalPayable),
      tax_amount: '0',
      total_amount: String(finalPayable),
      transaction_uuid: init.gatewayTransactionId,
      product_code: 'EPAYTEST',
      product_service_charge: '0',
      product_delivery_charge: '0',
      success_url: `${API}/api/payments/redirect/${init.paymentId}/success`,
      failure_url: `${API}/api/payments/redirect/${init.paymentId}/failure`,
      signed_field_names: 'total_amount,transaction_uuid,product_code',
    });
    await postEsewaForm(init.gatewayPayload);
    esewa.settle(init.gatewayTransactionId, 'COMPLETE');
    esewa.amountStyle = 'text'; // eSewa may write "1,000.0"
    try {
      const data = encodeURIComponent(esewa.successData(init.gatewayTransactionId));
      const before = statusCalls();
      const location = await redirect(init.paymentId, 'success', `data=${data}`);
      expect(location).toContain('/api/payments/result');
      expect(statusCalls()).toBe(before + 1);
      const asked = esewa.requests.at(-1)!;
      expect(asked.query).toEqual({
        product_code: 'EPAYTEST',
        total_amount: String(finalPayable),
        transaction_uuid: init.gatewayTransactionId,
      });
      expect(await order()).toMatchObject({ orderStatus: 'paid', paymentStatus: 'completed' });
      expect(await c.stockOf(productId)).toMatchObject({ onHand: 4, reserved: 0 });
      expect(await paymentRow(init.paymentId)).toMatchObject({ status: 'completed', provider: 'esewa' });

      // The completed redirect replayed: nothing is queued, nobody is asked, nothing changes.
      for (let i = 0; i < 3; i++) await redirect(init.paymentId, 'success', `data=${data}`);
      expect(statusCalls()).toBe(before + 1);
      expect(await order()).toMatchObject({ orderStatus: 'paid', paymentStatus: 'completed' });
      expect(await c.stockOf(productId)).toMatchObject({ onHand: 4, reserved: 0 });
    } finally {
      esewa.amountStyle = 'number';
    }
  });

  it('a tampered or wrongly signed success redirect changes nothing and asks nobody', async () => {
    const { init, order } = await checkoutWith('gateway_wallet_a');
    await postEsewaForm(init.gatewayPayload);
    esewa.settle(init.gatewayTransactionId, 'COMPLETE');
    const before = statusCalls();
    const genuine = JSON.parse(
      Buffer.from(esewa.successData(init.gatewayTransactionId), 'base64').toString(),
    );
    const forged = [
      // Amount changed after signing.
      Buffer.from(JSON.stringify({ ...genuine, total_amount: '1.0' })).toString('base64'),
      // Signed with another key.
      esewa.successData(init.gatewayTransactionId, { secret: 'not-the-merchant-key' }),
      // Another merchant's answer.
      esewa.successData(init.gatewayTransactionId, { productCode: 'SOMEONE-ELSE' }),
      'not-base64-json',
    ];
    for (const data of forged) await redirect(init.paymentId, 'success', `data=${encodeURIComponent(data)}`);
    await redirect(init.paymentId, 'success');
    expect(statusCalls()).toBe(before);
    expect(await order()).toMatchObject({ orderStatus: 'payment_pending', paymentStatus: 'pending' });
  });

  it('COMPLETE for another amount fails the payment with amount_mismatch and an activity entry by the server', async () => {
    const { init, order } = await checkoutWith('gateway_wallet_a');
    const amount = (await order()).finalPayable as number;
    await postEsewaForm(init.gatewayPayload);
    esewa.settle(init.gatewayTransactionId, 'COMPLETE', amount - 50);
    // The redirect itself carries the right amount: only the status answer tells.
    const data = esewa.successData(init.gatewayTransactionId, { totalAmount: amount });
    await redirect(init.paymentId, 'success', `data=${encodeURIComponent(data)}`);
    expect(await order()).toMatchObject({ orderStatus: 'payment_failed', paymentStatus: 'failed' });
    expect(await paymentRow(init.paymentId)).toMatchObject({
      status: 'failed',
      failureReason: 'amount_mismatch',
    });
    const trail = await c.http.call(
      'GET',
      `/api/admin/activity?entityType=payment&entityId=${init.paymentId}`,
      c.admin.headers,
    );
    expect(trail.statusCode, trail.body).toBe(200);
    expect(trail.json().data).toEqual([
      expect.objectContaining({ adminId: null, action: 'amount_mismatch', entityType: 'payment' }),
    ]);
  });

  it('the failure redirect asks the status API first: PENDING waits, NOT_FOUND fails', async () => {
    const waiting = await checkoutWith('gateway_wallet_a');
    await postEsewaForm(waiting.init.gatewayPayload); // eSewa now says PENDING
    const before = statusCalls();
    await redirect(waiting.init.paymentId, 'failure');
    expect(statusCalls()).toBe(before + 1);
    expect(await waiting.order()).toMatchObject({ orderStatus: 'payment_pending' });

    const abandoned = await checkoutWith('gateway_wallet_a'); // the form was never posted
    await redirect(abandoned.init.paymentId, 'failure');
    expect(await abandoned.order()).toMatchObject({ orderStatus: 'payment_failed', paymentStatus: 'failed' });
    expect((await c.stockOf(abandoned.productId)).reserved).toBe(0);

    // The waiting one completes later, with no redirect at all: reconciliation pays it.
    esewa.settle(waiting.init.gatewayTransactionId, 'COMPLETE');
    await reconcile();
    expect(await waiting.order()).toMatchObject({ orderStatus: 'paid', paymentStatus: 'completed' });
  });

  it('reconciliation: an order whose redirect never came is paid; eSewa down or NOT_FOUND is asked again next pass', async () => {
    const { init, order } = await checkoutWith('gateway_wallet_a');
    await reconcile(); // never posted: NOT_FOUND waits (not a last check)
    expect(await order()).toMatchObject({ orderStatus: 'payment_pending' });
    await postEsewaForm(init.gatewayPayload);
    esewa.settle(init.gatewayTransactionId, 'COMPLETE');
    for (const mode of ['down', 'error', 'unreachable'] as const) {
      esewa.mode = mode;
      try {
        await reconcile();
      } finally {
        esewa.mode = 'up';
      }
      expect(await order()).toMatchObject({ orderStatus: 'payment_pending' });
    }
    await reconcile();
    expect(await order()).toMatchObject({ orderStatus: 'paid', paymentStatus: 'completed' });
  });

  it('a success redirect and two reconciliation passes at once: the order is paid once, its stock taken once', async () => {
    const { init, order, productId } = await checkoutWith('gateway_wallet_a');
    await postEsewaForm(init.gatewayPayload);
    esewa.settle(init.gatewayTransactionId, 'COMPLETE');
    const data = encodeURIComponent(esewa.successData(init.gatewayTransactionId));
    const reconcileJob: JobDefinition<unknown> = {
      name: 'payment.reconcile',
      payload: z.any(),
      handler: async () => {},
    };
    // All three are queued before any runs, so the queue runs them side by side.
    await Promise.all([
      c.t.app.inject({ method: 'GET', url: `/api/payments/redirect/${init.paymentId}/success?data=${data}` }),
      c.t.platform.jobs.enqueue(reconcileJob, {}, { jobId: `race-a-${init.paymentId}` }),
      c.t.platform.jobs.enqueue(reconcileJob, {}, { jobId: `race-b-${init.paymentId}` }),
    ]);
    await c.t.drainJobs();
    expect(await order()).toMatchObject({ orderStatus: 'paid', paymentStatus: 'completed' });
    expect(await paymentRow(init.paymentId)).toMatchObject({ status: 'completed' });
    expect(await c.stockOf(productId)).toMatchObject({ onHand: 4, reserved: 0 });
    const paidRows = await c.db
      .select()
      .from(orderStatusHistory)
      .where(and(eq(orderStatusHistory.orderId, init.orderId), eq(orderStatusHistory.status, 'paid')));
    expect(paidRows).toHaveLength(1);
  });

  it('the last check before order.auto_cancel pays an order completed at eSewa instead of cancelling it', async () => {
    const { init, order } = await checkoutWith('gateway_wallet_a');
    await postEsewaForm(init.gatewayPayload);
    esewa.settle(init.gatewayTransactionId, 'COMPLETE');
    await runJob('order.auto_cancel', { orderId: init.orderId, reason: 'payment_timeout' });
    expect(await order()).toMatchObject({ orderStatus: 'paid', paymentStatus: 'completed' });
  });

  it('a payment completed after its order was auto-cancelled: the order stays cancelled, a late_payment refund is owed and the admins are told', async () => {
    const { init, order } = await checkoutWith('gateway_wallet_a');
    const amount = (await order()).finalPayable as number;
    await postEsewaForm(init.gatewayPayload); // still PENDING at the last check
    await runJob('order.auto_cancel', { orderId: init.orderId, reason: 'payment_timeout' });
    expect(await order()).toMatchObject({ orderStatus: 'cancelled' });

    esewa.settle(init.gatewayTransactionId, 'COMPLETE');
    const data = esewa.successData(init.gatewayTransactionId);
    await redirect(init.paymentId, 'success', `data=${encodeURIComponent(data)}`);
    await redirect(init.paymentId, 'success', `data=${encodeURIComponent(data)}`); // replayed
    await reconcile();
    expect(await order()).toMatchObject({ orderStatus: 'cancelled' });
    expect(await paymentRow(init.paymentId)).toMatchObject({ status: 'completed' });
    const refunds = await c.db.select().from(orderRefunds).where(eq(orderRefunds.orderId, init.orderId));
    expect(refunds).toEqual([expect.objectContaining({ status: 'pending', reason: 'late_payment', amount })]);
    const feed = await c.http.call('GET', '/api/admin/notifications?pagination=false', c.admin.headers);
    const late = feed.json().data.filter((n: { type: string }) => n.type === 'order.late_payment');
    expect(late).toEqual([
      expect.objectContaining({
        data: expect.objectContaining({ orderId: init.orderId, refundId: refunds[0]!.id }),
      }),
    ]);
  });
});

describe('Khalti KPG-2', () => {
  it('checkout initiates server-side in paisa with the documented fields; redirectUrl is payment_url', async () => {
    const { init, order, me } = await checkoutWith('gateway_wallet_b');
    const finalPayable = (await order()).finalPayable as number;
    const sent = khalti.initiated.at(-1)!;
    expect(sent).toMatchObject({
      amount: finalPayable * 100,
      purchase_order_id: init.gatewayTransactionId,
      purchase_order_name: (await order()).orderNumber,
      return_url: `${API}/api/payments/redirect/${init.paymentId}/success`,
      website_url: 'https://shop.example',
    });
    expect(sent.customer_info).toMatchObject({ email: me.email });
    const pidx = init.gatewayPayload.pidx as string;
    expect(init).toMatchObject({ initiationType: 'redirect', gatewayPayload: { pidx } });
    expect(init.redirectUrl).toBe(`${khalti.origin}/pay/?pidx=${pidx}`);
    expect(khalti.requests.at(-1)!.headers.authorization).toBe(`Key ${KHALTI_KEY}`);
  });

  it('a return with a lookup Pending, then Completed at the next pass, pays once', async () => {
    const { init, order } = await checkoutWith('gateway_wallet_b');
    const pidx = init.gatewayPayload.pidx as string;
    khalti.answer(pidx, 'Pending', 'Completed');
    await redirect(init.paymentId, 'success', khalti.returnQuery(pidx, 'Completed'));
    expect(await order()).toMatchObject({ orderStatus: 'payment_pending' });
    await reconcile();
    expect(await order()).toMatchObject({ orderStatus: 'paid', paymentStatus: 'completed' });
    const asked = lookups();
    await redirect(init.paymentId, 'success', khalti.returnQuery(pidx, 'Completed')); // replay
    expect(lookups()).toBe(asked);
  });

  it('User canceled (lookup answers HTTP 400 with a status) fails the payment and releases the stock', async () => {
    const { init, order, productId } = await checkoutWith('gateway_wallet_b');
    const pidx = init.gatewayPayload.pidx as string;
    khalti.answer(pidx, 'User canceled');
    await redirect(init.paymentId, 'success', khalti.returnQuery(pidx, 'User canceled'));
    expect(await order()).toMatchObject({ orderStatus: 'payment_failed', paymentStatus: 'failed' });
    expect(await paymentRow(init.paymentId)).toMatchObject({ failureReason: 'khalti_user_canceled' });
    expect(await c.stockOf(productId)).toMatchObject({ onHand: 5, reserved: 0 });

    // Completed later after all (money taken): a late payment, the order stays as it is.
    khalti.answer(pidx, 'Completed');
    await redirect(init.paymentId, 'success', khalti.returnQuery(pidx, 'Completed'));
    expect(await order()).toMatchObject({ orderStatus: 'payment_failed' });
    const refunds = await c.db.select().from(orderRefunds).where(eq(orderRefunds.orderId, init.orderId));
    expect(refunds).toEqual([expect.objectContaining({ status: 'pending', reason: 'late_payment' })]);
  });

  it('a forged return (another pidx, another amount, no pidx) changes nothing and asks nobody', async () => {
    const mine = await checkoutWith('gateway_wallet_b');
    const other = await checkoutWith('gateway_wallet_b');
    const pidx = mine.init.gatewayPayload.pidx as string;
    const otherPidx = other.init.gatewayPayload.pidx as string;
    khalti.answer(pidx, 'Completed');
    khalti.answer(otherPidx, 'Completed');
    const asked = lookups();
    await redirect(mine.init.paymentId, 'success', khalti.returnQuery(otherPidx, 'Completed'));
    const wrongAmount = new URLSearchParams(khalti.returnQuery(pidx, 'Completed'));
    wrongAmount.set('amount', '100');
    wrongAmount.set('total_amount', '100');
    await redirect(mine.init.paymentId, 'success', wrongAmount.toString());
    await redirect(mine.init.paymentId, 'failure', 'status=User%20canceled');
    expect(lookups()).toBe(asked);
    expect(await mine.order()).toMatchObject({ orderStatus: 'payment_pending' });
    expect(await other.order()).toMatchObject({ orderStatus: 'payment_pending' });
  });

  it('Completed for another amount fails with amount_mismatch', async () => {
    const { init, order } = await checkoutWith('gateway_wallet_b');
    const pidx = init.gatewayPayload.pidx as string;
    khalti.answer(pidx, 'Completed');
    khalti.payAmount(pidx, 1000);
    await redirect(init.paymentId, 'success', `pidx=${pidx}&status=Completed`);
    expect(await order()).toMatchObject({ orderStatus: 'payment_failed' });
    expect(await paymentRow(init.paymentId)).toMatchObject({ failureReason: 'amount_mismatch' });
  });

  it('Khalti unreachable or refusing at checkout: 502 PAYMENT_GATEWAY_UNAVAILABLE and no order holds stock', async () => {
    for (const mode of ['unreachable', 'error'] as const) {
      const me: SignedIn = await c.customer();
      const productId = await c.product({ onHand: 3 });
      await c.cartWith(me, [{ productId, quantity: 2 }]);
      // The cart's own hold on the units, before checkout.
      const held = await c.stockOf(productId);
      khalti.mode = mode;
      try {
        const res = await c.checkout(me, 'gateway_wallet_b');
        expect(res.statusCode, res.body).toBe(502);
        expect(res.json().errorCode).toBe('PAYMENT_GATEWAY_UNAVAILABLE');
      } finally {
        khalti.mode = 'up';
      }
      // The rolled-back order holds nothing: the stock is as the cart left it.
      expect(await c.stockOf(productId)).toEqual(held);
      expect(await c.db.select().from(orders).where(eq(orders.customerId, me.userId))).toEqual([]);
    }
  });

  it('an order under Rs 10 on a Khalti gateway: 400 PAYMENT_AMOUNT_BELOW_GATEWAY_MINIMUM before any order; 10 is accepted', async () => {
    await c.district('Kathmandu', 0);
    try {
      for (const [price, expected] of [
        [9, 400],
        [10, 200],
      ] as const) {
        const me = await c.customer();
        const productId = await c.product({ onHand: 2, mrp: price });
        await c.cartWith(me, [{ productId, quantity: 1 }]);
        const held = await c.stockOf(productId);
        const asked = khalti.initiated.length;
        const res = await c.checkout(me, 'gateway_wallet_b');
        expect(res.statusCode, res.body).toBe(expected);
        if (expected === 400) {
          expect(res.json().errorCode).toBe('PAYMENT_AMOUNT_BELOW_GATEWAY_MINIMUM');
          expect(khalti.initiated.length).toBe(asked);
          expect(await c.db.select().from(orders).where(eq(orders.customerId, me.userId))).toEqual([]);
          expect(await c.stockOf(productId)).toEqual(held);
        } else {
          expect(khalti.initiated.at(-1)!.amount).toBe(1000);
        }
      }
    } finally {
      await c.district('Kathmandu', 100);
    }
  });
});

it('/ready shows which provider backs which gateway, and no secret', async () => {
  const res = await c.t.app.inject({ method: 'GET', url: '/ready' });
  expect(res.statusCode).toBe(200);
  expect(res.json().data.paymentGateways).toEqual({
    gateway_card: 'sandbox',
    gateway_wallet_a: 'esewa',
    gateway_wallet_b: 'khalti',
    gateway_bank: 'sandbox',
  });
  expect(res.body).not.toContain(KHALTI_KEY);
  expect(res.body).not.toContain('8gBm');
});
