// Admins acting on the same order at once (really at once on PostgreSQL; PGlite serialises
// them): one COD collection, one cancellation, one refund decision; the status history, the
// refund records, the activity log and the stock each change exactly once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cancelOrder } from '../../../src/modules/orders';
import { processRefund } from '../../../src/modules/orders/orders.commands';
import { type SignedIn, signedInAdmin } from '../../helpers/factories';
import { fakeInitiator, type OrdersTestApp, ordersTestApp } from './calls';

describe('admins racing on one order', () => {
  let c: OrdersTestApp;
  let admins: SignedIn[];
  beforeAll(async () => {
    c = await ordersTestApp({ initiator: fakeInitiator() });
    admins = await Promise.all(
      Array.from({ length: 6 }, () => signedInAdmin(c.t, { permissions: ['Orders_READ', 'Orders_UPDATE'] })),
    );
  });
  afterAll(() => c?.t.close());

  const statuses = async (orderId: number) =>
    ((await c.adminOrder(orderId)).statusHistory as Array<{ status: string }>).map((h) => h.status);

  it('six admins collect the same COD cash at once: one collection, the same answer for all', async () => {
    const { orderId, productId } = await c.placed(await c.customer(), 'cod', { onHand: 3 });
    const answers = await Promise.all(
      admins.map((a, i) =>
        c.http.call('PUT', `/api/admin/orders/${orderId}/cod-collect`, a.headers, { remarks: `rider ${i}` }),
      ),
    );
    for (const res of answers) expect(res.statusCode, res.body).toBe(200);
    const first = answers[0]!.json().data;
    for (const res of answers) expect(res.json().data).toEqual(first);
    expect(admins.map((a) => a.userId)).toContain(first.collectedByAdminId);
    expect(await statuses(orderId)).toEqual(['payment_pending', 'paid']);
    expect(await c.http.activityOf(c.admin, 'order', orderId)).toHaveLength(1);
    expect(await c.stockOf(productId)).toEqual({ onHand: 2, reserved: 0, available: 2 });
  });

  it('six admins cancel the same paid order at once: one cancellation, one refund, units back once', async () => {
    const who = await c.customer();
    const { orderId, productId } = await c.placed(who, 'gateway_card', { onHand: 5 });
    await c.markPaid(orderId);
    expect(await c.stockOf(productId)).toEqual({ onHand: 4, reserved: 0, available: 4 });
    const asked = await Promise.all(
      admins.map((a) => c.http.call('POST', `/api/admin/orders/${orderId}/cancel`, a.headers, {})),
    );
    const ended = [];
    for (const res of asked) {
      expect(res.statusCode, res.body).toBe(202);
      ended.push(await c.adminSettled(res.json().data.requestId));
    }
    expect(ended.filter((r) => r.status === 'completed')).toHaveLength(1);
    expect(ended.filter((r) => r.status === 'failed' && r.error === 'invalid_transition')).toHaveLength(5);
    // The commands themselves, side by side on separate connections: nobody wins twice.
    const direct = await Promise.all(
      admins.map((a) => cancelOrder(c.deps, { orderId, actorType: 'admin', actorId: a.userId })),
    );
    expect(direct).toEqual(admins.map(() => 'invalid_transition'));
    const detail = await c.adminOrder(orderId);
    expect(await statuses(orderId)).toEqual(['payment_pending', 'paid', 'cancelled']);
    expect(detail.refunds).toHaveLength(1);
    expect(detail.refunds[0]).toMatchObject({ status: 'pending', amount: detail.finalPayable });
    expect(await c.http.activityOf(c.admin, 'order', orderId)).toHaveLength(1);
    expect(await c.stockOf(productId)).toEqual({ onHand: 5, reserved: 0, available: 5 });
  });

  it('approve and reject of one refund request at once: one decision, the stock back at most once', async () => {
    const who = await c.customer();
    const { orderId, productId } = await c.placed(who, 'gateway_card', { onHand: 5 });
    await c.markPaid(orderId);
    const asked = await c.http.call('POST', `/api/orders/${orderId}/request-refund`, who.headers, {
      reason: 'wrong colour',
    });
    expect(asked.statusCode, asked.body).toBe(200);
    const outcomes = await Promise.all(
      admins.map((a, i) =>
        processRefund(c.deps, {
          orderId,
          adminId: a.userId,
          action: i % 2 ? 'reject' : 'approve',
          remarks: `decision ${i}`,
        }),
      ),
    );
    const detail = await c.adminOrder(orderId);
    const decided = detail.orderStatus as 'refund_approved' | 'refund_rejected';
    expect(['refund_approved', 'refund_rejected']).toContain(decided);
    // The three who asked for the same decision succeed (one wrote, two found it done); the other three fail.
    expect(outcomes.filter((o) => o === null)).toHaveLength(3);
    expect(outcomes.filter((o) => o === 'invalid_transition')).toHaveLength(3);
    expect(await statuses(orderId)).toEqual(['payment_pending', 'paid', 'refund_requested', decided]);
    expect(detail.refunds).toHaveLength(1);
    expect(detail.refunds[0].status).toBe(decided === 'refund_approved' ? 'approved' : 'rejected');
    expect(await c.http.activityOf(c.admin, 'order', orderId)).toHaveLength(1);
    expect(await c.stockOf(productId)).toEqual(
      decided === 'refund_approved'
        ? { onHand: 5, reserved: 0, available: 5 }
        : { onHand: 4, reserved: 0, available: 4 },
    );
  });
});
