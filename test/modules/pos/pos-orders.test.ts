// In-store orders: creation (price math, order types, errors, the required idempotency key and
// its replay), payment recording (the payment-completed event making the order paid with
// fulfilment received, stock sold, the payment record; its own key and replay; every refusal;
// duplicate references), failure notes and pickup at the counter.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IDEMPOTENCY_HEADER } from '../../../src/modules/idempotency';
import { payments } from '../../../src/modules/payments/payments.table';
import type { SignedIn } from '../../helpers/factories';
import { recordStatements, statementListing } from '../../helpers/statements';
import { expectError } from '../cart/calls';
import { newKey, type PosTestApp, posTestApp } from './calls';

let c: PosTestApp;
let buyer: SignedIn;

beforeAll(async () => {
  c = await posTestApp();
  buyer = await c.customer({ name: 'Ram Bahadur' });
});
afterAll(() => c?.t.close());

const paymentsOf = (orderId: number) => c.db.select().from(payments).where(eq(payments.orderId, orderId));

describe('POST /api/admin/pos/orders', () => {
  // mrp, sp (0 = no sale price), quantity per line; coupon; shipping → the interface's totals.
  const cases: Array<{
    name: string;
    lines: Array<{ mrp: number; sp: number; quantity: number }>;
    couponDiscount?: number;
    shippingFee?: number;
    expected: {
      totalMrp: number;
      totalSp: number;
      couponDiscount: number;
      shippingFee: number;
      finalPayable: number;
    };
  }> = [
    {
      name: 'one line at MRP',
      lines: [{ mrp: 1000, sp: 0, quantity: 1 }],
      expected: { totalMrp: 1000, totalSp: 1000, couponDiscount: 0, shippingFee: 0, finalPayable: 1000 },
    },
    {
      name: 'sale prices and quantities',
      lines: [
        { mrp: 5000, sp: 4500, quantity: 2 },
        { mrp: 350, sp: 0, quantity: 3 },
      ],
      expected: { totalMrp: 11050, totalSp: 10050, couponDiscount: 0, shippingFee: 0, finalPayable: 10050 },
    },
    {
      name: 'counter discount and delivery fee',
      lines: [{ mrp: 2000, sp: 1800, quantity: 1 }],
      couponDiscount: 300,
      shippingFee: 150,
      expected: { totalMrp: 2000, totalSp: 1800, couponDiscount: 300, shippingFee: 150, finalPayable: 1650 },
    },
    {
      name: 'a discount above the total never goes below zero',
      lines: [{ mrp: 500, sp: 0, quantity: 1 }],
      couponDiscount: 800,
      shippingFee: 100,
      expected: { totalMrp: 500, totalSp: 500, couponDiscount: 800, shippingFee: 100, finalPayable: 0 },
    },
  ];

  for (const k of cases) {
    it(`prices from the products: ${k.name}`, async () => {
      const items = [];
      for (const line of k.lines) {
        items.push({
          productId: await c.product({ mrp: line.mrp, sp: line.sp, onHand: 10 }),
          quantity: line.quantity,
        });
      }
      const orderId = await c.posOrder(buyer.userId, items, {
        ...(k.couponDiscount === undefined ? {} : { couponDiscount: k.couponDiscount }),
        ...(k.shippingFee === undefined ? {} : { shippingFee: k.shippingFee }),
      });
      const order = await c.detail(orderId);
      expect(order).toMatchObject(k.expected);
      // discount = max(0, totalMrp - totalSp): the lines' savings add up to it.
      const saved = order.items.reduce((sum: number, i: { discount: number }) => sum + i.discount, 0);
      expect(saved).toBe(Math.max(0, k.expected.totalMrp - k.expected.totalSp));
    });
  }

  it('creates a payment_pending POS order, answers the async-style shape and reserves the units', async () => {
    const productId = await c.product({ title: 'Rice Cooker', mrp: 4000, sp: 3600, onHand: 4 });
    const res = await c.createOrder({
      customerId: buyer.userId,
      items: [
        { productId, quantity: 1 },
        { productId, quantity: 1 },
      ],
      shippingDistrict: 'lalitpur',
      shippingAddressLine1: 'Pulchowk',
      shippingCity: 'Lalitpur',
    });
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json().data;
    expect(Object.keys(data).sort()).toEqual(['createdAt', 'id', 'requestId', 'status']);
    expect(data.status).toBe('completed');
    expect(typeof data.requestId).toBe('string');
    const order = await c.detail(data.id);
    expect(order).toMatchObject({
      orderSource: 'pos_sale',
      paymentMethod: 'pos',
      orderStatus: 'payment_pending',
      paymentStatus: 'pending',
      fulfillmentStatus: null,
      orderType: 'physical',
      totalSp: 7200,
      finalPayable: 7200,
      receiver: 'Ram Bahadur',
      // Stored as the catalog spells it.
      shippingDistrict: 'Lalitpur',
      shippingAddressLine1: 'Pulchowk',
    });
    // The same product twice is one line of 2.
    expect(order.items).toHaveLength(1);
    expect(order.items[0]).toMatchObject({
      productId,
      quantity: 2,
      unitMrp: 4000,
      unitSp: 3600,
      finalValue: 7200,
    });
    // Written with the order, in the same statement: its first history entry, by the clerk.
    expect(order.statusHistory).toEqual([
      expect.objectContaining({ status: 'payment_pending', noteCode: 'in_store_sale', actorType: 'admin' }),
    ]);
    expect(await c.stockOf(productId)).toEqual({ onHand: 4, reserved: 2, available: 2 });
    // The customer sees it among their orders.
    const mine = await c.order(buyer, data.id);
    expect(mine.orderNumber).toBe(order.orderNumber);
  });

  it('writes the order, its lines and its first history entry in one statement, as checkout does', async () => {
    const productId = await c.product({ mrp: 900, onHand: 3 });
    const otherId = await c.product({ mrp: 500, onHand: 3 });
    const recorder = recordStatements(c.t.platform.database);
    recorder.start();
    const res = await c.createOrder({
      customerId: buyer.userId,
      items: [
        { productId, quantity: 1 },
        { productId: otherId, quantity: 2 },
      ],
    });
    const statements = recorder.stop();
    expect(res.statusCode, res.body).toBe(200);
    const writes = (table: string) =>
      statements.filter((st) => st.text.toLowerCase().includes(`insert into "${table}"`));
    const listing = statementListing(statements);
    expect(writes('orders'), listing).toHaveLength(1);
    expect(
      writes('order_items').map((st) => st.text),
      listing,
    ).toEqual(writes('orders').map((st) => st.text));
    expect(
      writes('order_status_history').map((st) => st.text),
      listing,
    ).toEqual(writes('orders').map((st) => st.text));
    const order = await c.detail(res.json().data.id);
    expect(
      order.items.map((i: { productId: number; quantity: number }) => [i.productId, i.quantity]),
    ).toEqual(
      expect.arrayContaining([
        [productId, 1],
        [otherId, 2],
      ]),
    );
  });

  it('order type: physical, digital, mixed (a care-package-only sale is mixed)', async () => {
    const phys = await c.product({ onHand: 5 });
    const digi = await c.product({ kind: 'digital' });
    const cover = await c.product({ kind: 'care_package' });
    const typeOf = async (items: number[]) =>
      (
        await c.detail(
          await c.posOrder(
            buyer.userId,
            items.map((productId) => ({ productId, quantity: 1 })),
          ),
        )
      ).orderType;
    expect(await typeOf([phys])).toBe('physical');
    expect(await typeOf([digi])).toBe('digital');
    expect(await typeOf([phys, digi])).toBe('mixed');
    expect(await typeOf([cover])).toBe('mixed');
    expect(await typeOf([phys, cover])).toBe('mixed');
  });

  it('requires the Idempotency-Key; a replay answers the same order and makes no second one', async () => {
    const productId = await c.product({ onHand: 5 });
    const body = { customerId: buyer.userId, items: [{ productId, quantity: 1 }] };
    const missing = await c.call('POST', '/orders', body);
    expectError(missing, 400, 'VALIDATION_ERROR');
    expect(missing.json().details[0].path).toBe(IDEMPOTENCY_HEADER);

    const key = newKey('create');
    const first = await c.createOrder(body, key);
    expect(first.statusCode, first.body).toBe(200);
    const again = await c.createOrder(body, key);
    expect(again.statusCode).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toBe(first.body);
    expect(await c.stockOf(productId)).toEqual({ onHand: 5, reserved: 1, available: 4 });
    // The same key with another body is refused.
    const other = await c.createOrder({ ...body, items: [{ productId, quantity: 2 }] }, key);
    expectError(other, 422, 'IDEMPOTENCY_KEY_MISMATCH');
  });

  it('refuses an unknown customer, an admin account, unknown and unsellable products, missing stock', async () => {
    const productId = await c.product({ onHand: 1 });
    const items = [{ productId, quantity: 1 }];
    expectError(
      await c.createOrder({ customerId: '0190a0a0-0000-7000-8000-000000000000', items }),
      404,
      'POS_CUSTOMER_NOT_FOUND',
    );
    expectError(await c.createOrder({ customerId: c.clerk.userId, items }), 404, 'POS_CUSTOMER_NOT_FOUND');
    const unknown = await c.createOrder({
      customerId: buyer.userId,
      items: [{ productId: 99_999_999, quantity: 1 }],
    });
    expectError(unknown, 404, 'ORDER_PRODUCT_NOT_FOUND');
    expect(unknown.json().productId).toBe(99_999_999);
    const draft = await c.product({ status: 'draft' });
    expectError(
      await c.createOrder({ customerId: buyer.userId, items: [{ productId: draft, quantity: 1 }] }),
      400,
      'ORDER_PRODUCT_NOT_AVAILABLE',
    );
    const notSellable = await c.product({ isSellable: false });
    expectError(
      await c.createOrder({ customerId: buyer.userId, items: [{ productId: notSellable, quantity: 1 }] }),
      400,
      'ORDER_PRODUCT_NOT_AVAILABLE',
    );
    expectError(
      await c.createOrder({ customerId: buyer.userId, items: [{ productId, quantity: 2 }] }),
      400,
      'CART_INSUFFICIENT_STOCK',
    );
    // Nothing was kept by the refusals.
    expect(await c.stockOf(productId)).toEqual({ onHand: 1, reserved: 0, available: 1 });
  });

  it('validates the body', async () => {
    const productId = await c.product({ onHand: 1 });
    for (const body of [
      { customerId: 'not-a-uuid', items: [{ productId, quantity: 1 }] },
      { customerId: buyer.userId, items: [] },
      { customerId: buyer.userId, items: [{ productId, quantity: 0 }] },
      { customerId: buyer.userId, items: [{ productId: 0, quantity: 1 }] },
      { customerId: buyer.userId, items: [{ productId, quantity: 1 }], couponDiscount: -1 },
      { customerId: buyer.userId, items: [{ productId, quantity: 1 }], shippingFee: 1.5 },
      { customerId: buyer.userId, items: [{ productId, quantity: 1 }], shippingLatitude: 'north' },
      { customerId: buyer.userId, items: [{ productId, quantity: 1 }], shippingDistrict: 'Atlantis' },
    ]) {
      expectError(await c.createOrder(body), 400, 'VALIDATION_ERROR');
    }
  });
});

describe('POST /api/admin/pos/orders/:orderId/payment', () => {
  it('records a completed payment; the order becomes paid, fulfilment received, units sold', async () => {
    const productId = await c.product({ mrp: 2500, sp: 2200, onHand: 3 });
    const orderId = await c.posOrder(buyer.userId, [{ productId, quantity: 2 }]);
    const res = await c.pay(orderId, {
      gateway: 'pos_card',
      amountNpr: 4400,
      transactionReference: ' SLIP-1001 ',
    });
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json().data;
    expect(data.orderId).toBe(orderId);
    const order = await c.detail(orderId);
    expect(order).toMatchObject({
      orderStatus: 'paid',
      paymentStatus: 'completed',
      fulfillmentStatus: 'received',
      gateway: 'pos_card',
    });
    expect(order.paidAt).not.toBeNull();
    expect(order.statusHistory.map((h: { status: string }) => h.status)).toEqual(['payment_pending', 'paid']);
    expect(await c.stockOf(productId)).toEqual({ onHand: 1, reserved: 0, available: 1 });
    const [payment] = await paymentsOf(orderId);
    expect(payment).toMatchObject({
      id: data.paymentId,
      method: 'pos',
      gateway: 'pos_card',
      status: 'completed',
      amount: 4400,
      providerReference: 'SLIP-1001',
    });
    // The customer is told, like an online payment.
    await c.t.drainJobs();
    const mail = c.t.mail.filter((m) => m.to === buyer.email && m.subject.includes(order.orderNumber));
    expect(mail.map((m) => m.subject)).toEqual([expect.stringContaining('Payment received')]);
  });

  it('generates a reference when none is given', async () => {
    const { orderId } = await c.paidPosOrder();
    const [payment] = await paymentsOf(orderId);
    expect(payment!.providerReference).toMatch(/^POS-\d{6}-[0-9A-Z]{8}$/);
  });

  it('requires its own Idempotency-Key; a replay answers the cached result; the creation key value does not replay the creation', async () => {
    const productId = await c.product({ onHand: 2 });
    const key = newKey('same');
    const created = await c.createOrder(
      { customerId: buyer.userId, items: [{ productId, quantity: 1 }] },
      key,
    );
    const orderId = created.json().data.id;
    const body = { gateway: 'pos_cash', amountNpr: 1000 };
    expectError(await c.call('POST', `/orders/${orderId}/payment`, body), 400, 'VALIDATION_ERROR');
    // Keys are kept per route: the creation's key value here is a new key of this route.
    const paid = await c.pay(orderId, body, key);
    expect(paid.statusCode, paid.body).toBe(200);
    expect(Object.keys(paid.json().data).sort()).toEqual(['orderId', 'paymentId']);
    const replay = await c.pay(orderId, body, key);
    expect(replay.statusCode).toBe(200);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.json().data).toEqual(paid.json().data);
    expect(await paymentsOf(orderId)).toHaveLength(1);
    // A new key is a new attempt: the order is paid already.
    expectError(await c.pay(orderId, body), 400, 'POS_ORDER_NOT_PAYMENT_PENDING');
  });

  it('refuses: unknown order, not a POS sale, not awaiting payment, bad gateway, wrong amount', async () => {
    expectError(await c.pay(99_999_999, { gateway: 'pos_cash', amountNpr: 1 }), 404, 'ORDER_NOT_FOUND');
    // An online checkout's COD order is no POS sale.
    const shopper = await c.customer();
    const { orderId: codOrder } = await c.placed(shopper, 'cod');
    expectError(
      await c.pay(codOrder, { gateway: 'pos_cash', amountNpr: 1000 }),
      400,
      'POS_ORDER_NOT_POS_SALE',
    );

    const productId = await c.product({ mrp: 1200, onHand: 3 });
    const orderId = await c.posOrder(buyer.userId, [{ productId, quantity: 1 }]);
    const bad = await c.pay(orderId, { gateway: 'gateway_card', amountNpr: 1200 });
    expectError(bad, 400, 'POS_INVALID_GATEWAY');
    expect(bad.json().gateways).toEqual(['pos_cash', 'pos_wallet_a', 'pos_wallet_b', 'pos_card']);
    const wrong = await c.pay(orderId, { gateway: 'pos_cash', amountNpr: 1100 });
    expectError(wrong, 400, 'POS_PAYMENT_AMOUNT_MISMATCH');
    expect(wrong.json().expected).toBe(1200);
    expect(await paymentsOf(orderId)).toHaveLength(0);
    expect((await c.detail(orderId)).orderStatus).toBe('payment_pending');

    // A cancelled POS order takes no payment.
    const cancel = await c.http.call('POST', `/api/admin/orders/${orderId}/cancel`, c.admin.headers, {});
    expect(cancel.statusCode, cancel.body).toBe(202);
    await c.adminSettled(cancel.json().data.requestId);
    expectError(
      await c.pay(orderId, { gateway: 'pos_cash', amountNpr: 1200 }),
      400,
      'POS_ORDER_NOT_PAYMENT_PENDING',
    );
    expect(await c.stockOf(productId)).toEqual({ onHand: 3, reserved: 0, available: 3 });
  });

  it('validates the body (amountNpr at least 1, reference at most 255)', async () => {
    const productId = await c.product({ onHand: 1 });
    const orderId = await c.posOrder(buyer.userId, [{ productId, quantity: 1 }]);
    for (const body of [
      { gateway: 'pos_cash', amountNpr: 0 },
      { gateway: 'pos_cash', amountNpr: '1000' },
      { gateway: '', amountNpr: 1000 },
      { gateway: 'pos_cash', amountNpr: 1000, transactionReference: 'x'.repeat(256) },
    ]) {
      expectError(await c.pay(orderId, body), 400, 'VALIDATION_ERROR');
    }
  });

  it('a transaction reference is taken once per gateway: POS_DUPLICATE_PAYMENT_REFERENCE, nothing changes', async () => {
    const first = await c.paidPosOrder();
    const [taken] = await paymentsOf(first.orderId);
    const productId = await c.product({ mrp: 1000, onHand: 2 });
    const orderId = await c.posOrder(buyer.userId, [{ productId, quantity: 1 }]);
    const dup = await c.pay(orderId, {
      gateway: 'pos_cash',
      amountNpr: 1000,
      transactionReference: taken!.providerReference,
    });
    expectError(dup, 400, 'POS_DUPLICATE_PAYMENT_REFERENCE');
    expect((await c.detail(orderId)).orderStatus).toBe('payment_pending');
    expect((await c.detail(orderId)).gateway).toBe('pos');
    expect(await paymentsOf(orderId)).toHaveLength(0);
    // The same slip number on another gateway is another payment.
    const other = await c.pay(orderId, {
      gateway: 'pos_wallet_a',
      amountNpr: 1000,
      transactionReference: taken!.providerReference,
    });
    expect(other.statusCode, other.body).toBe(200);
  });
});

describe('POST /api/admin/pos/orders/:orderId/payment-failure', () => {
  it('adds a marked admin note; the order stays payment_pending and can be paid afterwards', async () => {
    const productId = await c.product({ mrp: 800, onHand: 1 });
    const orderId = await c.posOrder(buyer.userId, [{ productId, quantity: 1 }]);
    const res = await c.write(`/orders/${orderId}/payment-failure`, {
      reason: '  Card declined by bank  ',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toBeNull();
    const order = await c.detail(orderId);
    expect(order.orderStatus).toBe('payment_pending');
    expect(order.adminNotes.map((n: { note: string }) => n.note)).toEqual([
      '[POS payment failure] Card declined by bank',
    ]);
    expect((await c.pay(orderId, { gateway: 'pos_cash', amountNpr: 800 })).statusCode).toBe(200);
  });

  it('refuses unknown orders, non-POS orders and a bad reason', async () => {
    expectError(await c.write('/orders/99999999/payment-failure', { reason: 'x' }), 404, 'ORDER_NOT_FOUND');
    const { orderId: codOrder } = await c.placed(await c.customer(), 'cod');
    expectError(
      await c.write(`/orders/${codOrder}/payment-failure`, { reason: 'x' }),
      400,
      'POS_ORDER_NOT_POS_SALE',
    );
    const productId = await c.product({ onHand: 1 });
    const orderId = await c.posOrder(buyer.userId, [{ productId, quantity: 1 }]);
    for (const reason of ['', '   ', 'x'.repeat(1001)]) {
      expectError(await c.write(`/orders/${orderId}/payment-failure`, { reason }), 400, 'VALIDATION_ERROR');
    }
    expect(
      (await c.write(`/orders/${orderId}/payment-failure`, { reason: 'x'.repeat(1000) })).statusCode,
    ).toBe(200);
  });
});

describe('POST /api/admin/pos/orders/:orderId/pickup-confirm', () => {
  const pickup = (orderId: number) => c.write(`/orders/${orderId}/pickup-confirm`);

  it('received → ready → picked_up in one call, two history rows', async () => {
    const { orderId } = await c.paidPosOrder();
    const res = await pickup(orderId);
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json().data;
    expect(data).toMatchObject({ status: 'completed', id: orderId });
    expect(data.requestId).toMatch(/^pos_pickup_(?!already_)/);
    const order = await c.detail(orderId);
    expect(order.fulfillmentStatus).toBe('picked_up');
    expect(
      order.fulfillmentHistory.map((h: { fromStatus: string; toStatus: string; actorType: string }) => [
        h.fromStatus,
        h.toStatus,
        h.actorType,
      ]),
    ).toEqual([
      ['received', 'ready', 'admin'],
      ['ready', 'picked_up', 'admin'],
    ]);
  });

  it('ready → picked_up in one step; again: pos_pickup_already_ and nothing written', async () => {
    const { orderId } = await c.paidPosOrder();
    expect((await c.fulfil(orderId, 'ready')).status).toBe('completed');
    expect((await pickup(orderId)).statusCode).toBe(200);
    expect((await c.detail(orderId)).fulfillmentHistory).toHaveLength(2);
    const again = await pickup(orderId);
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json().data.requestId).toMatch(/^pos_pickup_already_/);
    expect((await c.detail(orderId)).fulfillmentHistory).toHaveLength(2);
  });

  it('refuses: unknown, not a POS sale, unpaid, past pickup, digital', async () => {
    expectError(await pickup(99_999_999), 404, 'ORDER_NOT_FOUND');
    const { orderId: codOrder } = await c.placed(await c.customer(), 'cod');
    expectError(await pickup(codOrder), 400, 'POS_ORDER_NOT_POS_SALE');
    const productId = await c.product({ onHand: 1 });
    const unpaid = await c.posOrder(buyer.userId, [{ productId, quantity: 1 }]);
    expectError(await pickup(unpaid), 400, 'POS_PICKUP_NOT_IN_STORE');
    const { orderId: shipped } = await c.paidPosOrder();
    await c.fulfil(shipped, 'ready');
    await c.fulfil(shipped, 'picked_up');
    await c.fulfil(shipped, 'in_transit');
    const past = await pickup(shipped);
    expectError(past, 400, 'POS_PICKUP_NOT_IN_STORE');
    expect(past.json().fulfillmentStatus).toBe('in_transit');
    const digital = await c.product({ kind: 'digital', mrp: 700 });
    const digitalOrder = await c.posOrder(buyer.userId, [{ productId: digital, quantity: 1 }]);
    expect((await c.pay(digitalOrder, { gateway: 'pos_cash', amountNpr: 700 })).statusCode).toBe(200);
    expectError(await pickup(digitalOrder), 400, 'POS_PICKUP_NOT_IN_STORE');
  });
});
