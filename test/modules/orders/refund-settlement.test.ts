// An owed refund settled by hand (POST /api/admin/orders/:id/refunds/:refundId/settle): the
// COD cash collected, the order then cancelled by the shop, the money given back in cash.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInAdmin } from '../../helpers/factories';
import { expectError } from '../cart/calls';
import { type OrdersTestApp, ordersTestApp, RETURN_URL } from './calls';

describe('settling an owed refund', () => {
  let c: OrdersTestApp;
  beforeAll(async () => {
    c = await ordersTestApp({ env: { PAYMENT_RETURN_URL_ALLOWLIST: RETURN_URL } });
  });
  afterAll(() => c?.t.close());

  const settle = (orderId: number, refundId: number, body: Record<string, unknown>, who = c.admin) =>
    c.http.call('POST', `/api/admin/orders/${orderId}/refunds/${refundId}/settle`, who.headers, body);

  /** A COD order whose cash was collected, then cancelled by the shop: a refund owed. */
  async function owedOrder() {
    const me = await c.customer();
    const { orderId } = await c.placed(me, 'cod');
    const collected = await c.http.call('PUT', `/api/admin/orders/${orderId}/cod-collect`, c.admin.headers, {
      remarks: 'Cash received by the rider',
    });
    expect(collected.statusCode, collected.body).toBe(200);
    const cancel = await c.http.call('POST', `/api/admin/orders/${orderId}/cancel`, c.admin.headers, {
      reason: 'Damaged in the store',
    });
    expect((await c.adminSettled(cancel.json().data.requestId)).status).toBe('completed');
    const [refund] = (await c.adminOrder(orderId)).refunds;
    expect(refund).toMatchObject({ status: 'pending', reason: 'admin_cancel', settlement: null });
    return { me, orderId, refund: refund as { id: number; amount: number } };
  }

  it('records how the money went back, once: activity, the customer told, a repeat answers the same', async () => {
    const { me, orderId, refund } = await owedOrder();
    const res = await settle(orderId, refund.id, { method: 'cash', remarks: 'Handed over at the counter' });
    expect(res.statusCode, res.body).toBe(200);
    const settled = res.json().data;
    expect(settled).toMatchObject({
      id: refund.id,
      status: 'pending',
      settlement: {
        method: 'cash',
        reference: null,
        remarks: 'Handed over at the counter',
        settledByAdminId: c.admin.userId,
        settledAt: expect.any(String),
      },
    });
    expect((await c.adminOrder(orderId)).refunds[0]).toEqual(settled);
    const again = await settle(orderId, refund.id, { method: 'wallet', reference: 'X', remarks: 'again' });
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json().data).toEqual(settled);

    const trail = await c.http.activityOf(c.admin, 'order', orderId);
    const settles = trail.filter((a: { action: string }) => a.action === 'refund_settle');
    expect(settles).toHaveLength(1);
    expect(settles[0]!.summary).toContain(`Gave back ${refund.amount} NPR`);
    await c.t.drainJobs();
    const inbox = await c.http.call('GET', '/api/mobile/notifications?pagination=false', me.headers);
    expect(inbox.json().data.map((n: { type: string }) => n.type)).toContain('ORDER_REFUND_SETTLED');
  });

  it('two admins settling the same refund at once make one settlement and one activity record', async () => {
    const { me, orderId, refund } = await owedOrder();
    const other = await signedInAdmin(c.t, { permissions: ['Orders_READ', 'Orders_UPDATE'] });
    const [first, second] = await Promise.all([
      settle(orderId, refund.id, { method: 'cash', remarks: 'At the counter' }),
      settle(orderId, refund.id, { method: 'wallet', reference: 'KH-1', remarks: 'By Khalti' }, other),
    ]);
    expect([first.statusCode, second.statusCode], `${first.body} ${second.body}`).toEqual([200, 200]);
    // Whoever came second was answered with the settlement the first made.
    expect(second.json().data.settlement).toEqual(first.json().data.settlement);
    const trail = await c.http.activityOf(c.admin, 'order', orderId);
    expect(trail.filter((a: { action: string }) => a.action === 'refund_settle')).toHaveLength(1);
    await c.t.drainJobs();
    const inbox = await c.http.call('GET', '/api/mobile/notifications?pagination=false', me.headers);
    const told = inbox.json().data.filter((n: { type: string }) => n.type === 'ORDER_REFUND_SETTLED');
    expect(told).toHaveLength(1);
  });

  it('a wallet or bank transfer keeps its reference', async () => {
    const { orderId, refund } = await owedOrder();
    const res = await settle(orderId, refund.id, {
      method: 'bank_transfer',
      reference: 'NIC-ASIA-88231',
      remarks: 'Sent to the account on file',
    });
    expect(res.json().data.settlement).toMatchObject({
      method: 'bank_transfer',
      reference: 'NIC-ASIA-88231',
    });
  });

  it("refuses what is not owed, unknown ids, another order's refund, bad bodies and staff without Orders_UPDATE", async () => {
    const { orderId, refund } = await owedOrder();
    const other = await owedOrder();
    expectError(
      await settle(orderId, 999_999, { method: 'cash', remarks: 'x' }),
      404,
      'ORDER_REFUND_NOT_FOUND',
    );
    expectError(
      await settle(orderId, other.refund.id, { method: 'cash', remarks: 'x' }),
      404,
      'ORDER_REFUND_NOT_FOUND',
    );
    expectError(
      await settle(99_999_999, refund.id, { method: 'cash', remarks: 'x' }),
      404,
      'ORDER_NOT_FOUND',
    );
    for (const body of [
      { method: 'cheque', remarks: 'x' },
      { method: 'cash' },
      { method: 'cash', remarks: '  ' },
    ]) {
      expectError(await settle(orderId, refund.id, body), 400, 'VALIDATION_ERROR');
    }
    const reader = await signedInAdmin(c.t, { permissions: ['Orders_READ'] });
    expectError(
      await settle(orderId, refund.id, { method: 'cash', remarks: 'x' }, reader),
      403,
      'AUTH_PERMISSION_DENIED',
    );
    expect((await c.adminOrder(orderId)).refunds[0].settlement).toBeNull();

    // A refund the customer asked for and nobody decided yet is not owed.
    const me = await c.customer();
    const orderId2 = await c.paidOrder(me, [{ productId: await c.product({ onHand: 3 }) }]);
    const asked = await c.http.call('POST', `/api/orders/${orderId2}/request-refund`, me.headers, {
      reason: 'x',
    });
    expect(asked.statusCode, asked.body).toBe(200);
    const requested = (await c.adminOrder(orderId2)).refunds[0];
    const refused = await settle(orderId2, requested.id, { method: 'cash', remarks: 'x' });
    expectError(refused, 400, 'ORDER_REFUND_NOT_OWED');
    expect(refused.json().status).toBe('requested');
  });
});
