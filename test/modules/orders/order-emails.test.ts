// The interface's order notification events reach the customer by email too: one message per
// event, in the store's name (STORE_NAME), linking to the order; the keys email stands in for
// the "keys sent" one.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type OrdersTestApp, ordersTestApp, RETURN_URL } from './calls';
import { payInSandbox } from './sandbox';

describe('order emails', () => {
  let c: OrdersTestApp;
  beforeAll(async () => {
    c = await ordersTestApp({
      env: {
        PAYMENT_RETURN_URL_ALLOWLIST: RETURN_URL,
        STORE_NAME: 'Himalayan Crafts',
        PUBLIC_WEB_URL: 'https://shop.example.com',
      },
    });
  });
  afterAll(() => c?.t.close());

  const mailsTo = async (email: string) => {
    await c.t.drainJobs();
    return c.t.mail.filter((m) => m.to === email);
  };

  it('placed, paid, cancelled, refund asked: one email each, in the store’s name', async () => {
    const me = await c.customer();
    const { orderId } = await c.placed(me, 'cod');
    const placed = await mailsTo(me.email);
    expect(placed).toHaveLength(1);
    const order = await c.order(me, orderId);
    expect(placed[0]).toMatchObject({
      subject: `Himalayan Crafts: Order placed (${order.orderNumber})`,
    });
    expect(placed[0]!.text).toContain(`Your order ${order.orderNumber} has been placed.`);
    expect(placed[0]!.text).toContain(`https://shop.example.com/orders/${orderId}`);
    expect(placed[0]!.text.trim().endsWith('Himalayan Crafts')).toBe(true);

    const cancel = await c.http.call('POST', `/api/orders/${orderId}/cancel`, me.headers, {});
    expect(cancel.statusCode, cancel.body).toBe(202);
    await c.settled(me, cancel.json().data.requestId);
    expect((await mailsTo(me.email)).map((m) => m.subject)).toEqual([
      `Himalayan Crafts: Order placed (${order.orderNumber})`,
      `Himalayan Crafts: Order cancelled (${order.orderNumber})`,
    ]);

    // Paid online: "payment received"; then a refund request.
    const other = await c.customer();
    await c.cartWith(other, [{ productId: await c.product({ onHand: 3 }) }]);
    const init = (await c.checkout(other, 'gateway_card')).json().data;
    await payInSandbox(c.t, init.paymentId, 'success');
    const refund = await c.http.call('POST', `/api/orders/${init.orderId}/request-refund`, other.headers, {
      reason: 'Changed my mind',
    });
    expect(refund.statusCode, refund.body).toBe(200);
    const subjects = (await mailsTo(other.email)).map((m) => m.subject.replace(/ \(.*\)$/, ''));
    expect(subjects).toEqual([
      'Himalayan Crafts: Order placed',
      'Himalayan Crafts: Payment received',
      'Himalayan Crafts: Refund requested',
    ]);
  });

  it('a failed payment is emailed; nothing goes to another customer', async () => {
    const me = await c.customer();
    const bystander = await c.customer();
    await c.cartWith(me, [{ productId: await c.product({ onHand: 3 }) }]);
    const init = (await c.checkout(me, 'gateway_wallet_a')).json().data;
    await payInSandbox(c.t, init.paymentId, 'failure');
    expect((await mailsTo(me.email)).map((m) => m.subject.replace(/ \(.*\)$/, ''))).toEqual([
      'Himalayan Crafts: Order placed',
      'Himalayan Crafts: Payment failed',
    ]);
    expect(await mailsTo(bystander.email)).toEqual([]);
  });
});
