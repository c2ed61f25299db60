// Each event type of the catalogue fires once for its change, with the data of
// docs/decisions.md "Message", verified by a Standard Webhooks receiver; a rolled-back change
// (a checkout refused for stock, a payment whose transaction fails) makes no message.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { markOrderPaid, markOrderPaymentFailed } from '../../../src/modules/orders';
import { inTransaction } from '../../../src/platform/db/transaction';
import {
  fakeInitiator,
  ORDER_PREFIXES,
  type OrdersTestApp,
  ordersTestApp,
  RETURN_URL,
} from '../orders/calls';
import { type Received, type Receiver, startReceiver, verified } from './receiver';

let c: OrdersTestApp;
let receiver: Receiver;
let secret: string;

// biome-ignore lint/suspicious/noExplicitAny: each matcher reads the one record it knows from a message's data.
type Data = Record<string, any>;

/** Waits for exactly one message of `type` matching `match`, and checks that no second one follows. */
async function once(type: string, match: (data: Data) => boolean): Promise<Received['json']> {
  const find = () => receiver.ofType(type).filter((r) => match(r.json.data));
  const deadline = Date.now() + 10_000;
  while (find().length === 0) {
    if (Date.now() > deadline) throw new Error(`no ${type} message arrived`);
    await new Promise((r) => setTimeout(r, 25));
  }
  await c.t.drainJobs();
  await new Promise((r) => setTimeout(r, 200));
  const found = find();
  expect(found, type).toHaveLength(1);
  return verified(found[0]!, secret);
}

const none = (type: string, match: (data: Data) => boolean) =>
  receiver.ofType(type).filter((r) => match(r.json.data));

beforeAll(async () => {
  c = await ordersTestApp({
    initiator: fakeInitiator(),
    env: {
      WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
      CATALOG_LOW_STOCK_THRESHOLD: '5',
      TAX_INVOICES_ENABLED: 'true',
      SELLER_PAN: '601234567',
    },
  });
  receiver = await startReceiver();
  const types = (await c.http.call('GET', '/api/admin/webhooks/event-types', c.admin.headers))
    .json()
    .data.map((e: { type: string }) => e.type)
    .filter((t: string) => t !== 'webhook.test');
  const res = await c.http.call('POST', '/api/admin/webhooks', c.admin.headers, {
    url: receiver.url,
    events: types,
  });
  expect(res.statusCode, res.body).toBe(201);
  secret = res.json().data.secret;
});
afterAll(async () => {
  await receiver?.close();
  await c?.t.close();
});

describe('orders', () => {
  it('order.created once with the admin order detail; a checkout refused for stock makes none', async () => {
    const me = await c.customer();
    const p = await c.product({ onHand: 1 });
    // Buy-now needs a shipping location, which the cart holds.
    await c.cartWith(me, [{ productId: await c.product({ onHand: 10 }) }]);
    const buyNow = () =>
      c.http.call('POST', `${ORDER_PREFIXES[0]}/buy-now`, me.headers, {
        productId: p,
        gateway: 'cod',
        returnUrl: RETURN_URL,
      });
    const before = receiver.ofType('order.created').length;
    const first = await buyNow();
    expect(first.statusCode, first.body).toBe(200);
    const orderId = first.json().data.orderId;
    const body = await once('order.created', (d) => d.order.id === orderId);
    expect(body.data.order).toMatchObject({
      id: orderId,
      paymentMethod: 'cod',
      customer: expect.any(Object),
    });
    expect(body.data.order).toHaveProperty('statusHistory');
    const refused = await buyNow();
    expect(refused.json().errorCode).toBe('CART_INSUFFICIENT_STOCK');
    await c.t.drainJobs();
    await new Promise((r) => setTimeout(r, 200));
    expect(receiver.ofType('order.created').length).toBe(before + 1);
  });

  it('order.paid and invoice.issued once; a rolled-back payment makes neither', async () => {
    const me = await c.customer();
    const { orderId } = await c.placed(me, 'gateway_card');
    await expect(
      inTransaction(c.db, async (tx, ac) => {
        await markOrderPaid(c.deps, tx, ac, { orderId, paymentReference: 'rolled-back' });
        throw new Error('the payment record failed');
      }),
    ).rejects.toThrow('the payment record failed');
    await c.t.drainJobs();
    await new Promise((r) => setTimeout(r, 200));
    expect(none('order.paid', (d) => d.order.id === orderId)).toHaveLength(0);
    expect(none('invoice.issued', (d) => d.invoice.orderId === orderId)).toHaveLength(0);

    await c.markPaid(orderId);
    const paid = await once('order.paid', (d) => d.order.id === orderId);
    expect(paid.data.order).toMatchObject({ orderStatus: 'paid', paymentStatus: 'completed' });
    const invoice = await once('invoice.issued', (d) => d.invoice.orderId === orderId);
    expect(invoice.data.invoice).toMatchObject({
      orderId,
      documentType: expect.stringMatching(/tax_invoice/),
    });
  });

  it('order.payment_failed once', async () => {
    const me = await c.customer();
    const { orderId } = await c.placed(me, 'gateway_card');
    await inTransaction(c.db, (tx, ac) =>
      markOrderPaymentFailed(c.deps, tx, ac, { orderId, reason: 'declined' }),
    );
    const body = await once('order.payment_failed', (d) => d.order.id === orderId);
    expect(body.data.order).toMatchObject({ orderStatus: 'payment_failed' });
  });

  it('order.fulfillment_changed carries previousFulfillmentStatus', async () => {
    const me = await c.customer();
    const { orderId } = await c.placed(me, 'cod');
    const request = await c.fulfil(orderId, 'ready');
    expect(request.status).toBe('completed');
    const body = await once('order.fulfillment_changed', (d) => d.order.id === orderId);
    expect(body.data).toMatchObject({
      previousFulfillmentStatus: 'received',
      order: { fulfillmentStatus: 'ready' },
    });
  });

  it('order.fulfillment_changed also when paying starts fulfilment and when a cancel stops it', async () => {
    const me = await c.customer();
    const { orderId } = await c.placed(me, 'gateway_card');
    await c.markPaid(orderId);
    const started = await once('order.fulfillment_changed', (d) => d.order.id === orderId);
    expect(started.data).toMatchObject({
      previousFulfillmentStatus: null,
      order: { fulfillmentStatus: 'received' },
    });
    const asked = await c.http.call('POST', `/api/admin/orders/${orderId}/cancel`, c.admin.headers, {
      reason: 'Out of stock',
    });
    expect((await c.adminSettled(asked.json().data.requestId)).status).toBe('completed');
    await once('order.cancelled', (d) => d.order.id === orderId);
    const stopped = none(
      'order.fulfillment_changed',
      (d) => d.order.id === orderId && d.previousFulfillmentStatus === 'received',
    );
    expect(stopped).toHaveLength(1);
    expect(stopped[0]!.json.data.order).toMatchObject({ fulfillmentStatus: 'cancelled' });
  });

  it('order.cancelled once, and credit_note.issued for a paid order cancelled', async () => {
    const me = await c.customer();
    const { orderId } = await c.placed(me, 'gateway_card');
    await c.markPaid(orderId);
    await once('order.paid', (d) => d.order.id === orderId);
    const asked = await c.http.call('POST', `/api/admin/orders/${orderId}/cancel`, c.admin.headers, {
      reason: 'Out of stock',
    });
    expect(asked.statusCode, asked.body).toBe(202);
    expect((await c.adminSettled(asked.json().data.requestId)).status).toBe('completed');
    const body = await once('order.cancelled', (d) => d.order.id === orderId);
    expect(body.data.order).toMatchObject({ orderStatus: 'cancelled' });
    const note = await once('credit_note.issued', (d) => d.creditNote.orderId === orderId);
    expect(note.data.creditNote).toMatchObject({ documentType: 'credit_note' });
  });

  it('order.refund_requested, then refund.processed with the refund', async () => {
    const me = await c.customer();
    const { orderId } = await c.placed(me, 'gateway_card');
    await c.markPaid(orderId);
    const asked = await c.http.call('POST', `/api/orders/${orderId}/request-refund`, me.headers, {
      reason: 'Screen flickers',
    });
    expect(asked.statusCode, asked.body).toBe(200);
    const requested = await once('order.refund_requested', (d) => d.order.id === orderId);
    expect(requested.data.order).toMatchObject({ orderStatus: 'refund_requested' });
    const decided = await c.http.call(
      'POST',
      `/api/admin/orders/${orderId}/process-refund`,
      c.admin.headers,
      {
        action: 'approve',
        remarks: 'Refunded to wallet',
      },
    );
    expect(decided.statusCode, decided.body).toBe(202);
    await c.adminSettled(decided.json().data.requestId);
    const processed = await once('refund.processed', (d) => d.refund?.orderId === orderId);
    expect(processed.data.refund).toMatchObject({ status: 'approved', remarks: 'Refunded to wallet' });
  });
});

describe('catalog, support, repairs, reviews, customers', () => {
  it('product.stock_low once when available falls to the threshold, not again below it', async () => {
    const p = await c.product({ onHand: 6 });
    const a = await c.customer();
    await c.cartWith(a, [{ productId: p }]); // 6 → 5: crosses
    const body = await once('product.stock_low', (d) => d.product.id === p);
    expect(body.data).toMatchObject({ available: 5, threshold: 5, product: { id: p } });
    const b = await c.customer();
    await c.cartWith(b, [{ productId: p }], false); // 5 → 4: already low
    await c.t.drainJobs();
    await new Promise((r) => setTimeout(r, 200));
    expect(none('product.stock_low', (d) => d.product.id === p)).toHaveLength(1);
  });

  it('customer.registered once for a registration', async () => {
    const email = `hook-${Date.now()}@example.com`;
    const res = await c.t.app.inject({
      method: 'POST',
      url: '/api/mobile/auth/register',
      payload: {
        name: 'Sita',
        email,
        password: 'correct-horse-battery',
        deviceInfo: { deviceId: 'd', deviceType: 'android', deviceName: 'Pixel' },
      },
    });
    expect(res.statusCode, res.body).toBe(201);
    const body = await once('customer.registered', (d) => d.customer.email === email);
    expect(body.data.customer).toMatchObject({ name: 'Sita', email });
  });

  it('inquiry.created and ticket.created once each', async () => {
    const res = await c.t.app.inject({
      method: 'POST',
      url: '/api/support-inquiries',
      payload: {
        category: 'order',
        subject: 'Late delivery',
        message: 'Where is it?',
        guestName: 'Ram',
        guestEmail: 'ram@example.com',
      },
    });
    expect(res.statusCode, res.body).toBe(201);
    const inquiryId = res.json().data.id;
    const inquiry = await once('inquiry.created', (d) => d.inquiry.id === inquiryId);
    expect(inquiry.data.inquiry).toMatchObject({ subject: 'Late delivery', guestName: 'Ram' });

    const me = await c.customer();
    const ticket = await c.http.call('POST', '/api/mobile/support-requests', me.headers, {
      category: 'payment',
      subject: 'Charged twice',
      message: 'Please check',
    });
    expect(ticket.statusCode, ticket.body).toBe(201);
    const ticketId = ticket.json().data.id;
    const body = await once('ticket.created', (d) => d.ticket.id === ticketId);
    expect(body.data.ticket).toMatchObject({ subject: 'Charged twice' });
  });

  it('repair.status_changed once per move, with the previous status', async () => {
    const me = await c.customer();
    const created = await c.http.call('POST', '/api/repair-requests', me.headers, {
      devices: [{ customBrandName: 'Acer', laptopModel: 'Aspire 5', problemDescription: 'No power' }],
      collectionMethod: 'pickup',
      sourceType: 'direct_booking',
      sharedDescription: 'Handle with care',
    });
    expect(created.statusCode, created.body).toBe(201);
    const list = await c.http.call('GET', '/api/admin/repair-requests?size=1', c.admin.headers);
    const id = list.json().data[0].id as number;
    const moved = await c.http.call('PATCH', `/api/admin/repair-requests/${id}/status`, c.admin.headers, {
      status: 'picked_up',
    });
    expect(moved.statusCode, moved.body).toBe(200);
    const body = await once('repair.status_changed', (d) => d.repairRequest.id === id);
    expect(body.data).toMatchObject({
      previousStatus: 'request_received',
      repairRequest: { id, status: 'picked_up' },
    });
  });

  it('review.submitted once', async () => {
    const me = await c.customer();
    const p = await c.product({ onHand: 5 });
    const { orderId } = await c.placed(me, 'cod', { productId: p });
    for (const step of ['ready', 'picked_up', 'in_transit', 'delivered']) {
      expect((await c.fulfil(orderId, step)).status).toBe('completed');
    }
    const orderItemId = (await c.order(me, orderId)).items[0].id as number;
    const res = await c.http.call('POST', '/api/mobile/reviews', me.headers, {
      orderItemId,
      rating: 4,
      comment: 'Good',
    });
    expect(res.statusCode, res.body).toBe(201);
    const reviewId = res.json().data.id;
    const body = await once('review.submitted', (d) => d.review.id === reviewId);
    expect(body.data.review).toMatchObject({ rating: 4, status: 'pending' });
    // The walk to delivered fired one fulfilment message per step.
    expect(none('order.fulfillment_changed', (d) => d.order.id === orderId)).toHaveLength(4);
  });
});

describe('a slow receiver', () => {
  it('slows no checkout: the delivery waits on the worker, never in the request or its transaction', async () => {
    const timeCheckouts = async (n: number) => {
      const started = performance.now();
      for (let i = 0; i < n; i++) await c.placed(await c.customer(), 'cod');
      return (performance.now() - started) / n;
    };
    const baseline = await timeCheckouts(5);
    const slow = await startReceiver();
    slow.answer = () => ({ status: 200, afterMs: 5000 });
    try {
      const res = await c.http.call('POST', '/api/admin/webhooks', c.admin.headers, {
        url: slow.url,
        events: ['order.created'],
      });
      expect(res.statusCode, res.body).toBe(201);
      const withSlowEndpoint = await timeCheckouts(5);
      // Every message reached the receiver, which is still holding them when the checkouts are done.
      await slow.waitFor(5, 'order.created', 30_000);
      // Each checkout with the endpoint takes about what one without does: nowhere near the 5 s
      // the receiver takes to answer.
      expect(withSlowEndpoint).toBeLessThan(Math.max(baseline * 3, baseline + 500));
      await c.http.call('DELETE', `/api/admin/webhooks/${res.json().data.id}`, c.admin.headers);
    } finally {
      await slow.close();
    }
  }, 60_000);
});
