// Two in-store sales of the demo store, made through the POS API as a counter makes them: the
// demo customer looked up by email, an order per sale (its own idempotency key), the payment
// recorded (cash, then card with a slip reference), and the first one collected at the counter.
import { randomUUID } from 'node:crypto';
import type { ApiApp } from '../src/platform/module';
import type { DemoOrder } from './seed-demo-orders';

export async function seedDemoPos(
  app: ApiApp,
  people: { admin: { email: string; password: string }; customer: { email: string } },
  /** A product for each sale (physical, in stock). */
  productIds: [number, number],
): Promise<DemoOrder[]> {
  const call = async (method: string, url: string, token?: string, payload?: unknown, idempotent = false) => {
    const res = await app.inject({
      method: method as 'GET',
      url,
      headers: {
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(idempotent ? { 'idempotency-key': randomUUID() } : {}),
      },
      ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
    });
    if (res.statusCode !== 200)
      throw new Error(`${method} ${url} answered ${res.statusCode}: ${res.body.slice(0, 400)}`);
    return res.json().data;
  };
  const admin = (await call('POST', '/api/auth/login/email', undefined, people.admin)).tokens
    .accessToken as string;
  const customer = await call(
    'GET',
    `/api/admin/pos/customers/lookup?email=${encodeURIComponent(people.customer.email)}`,
    admin,
  );
  if (!customer) throw new Error(`no customer ${people.customer.email} for the demo POS sales`);

  const sale = async (productId: number, payment: { gateway: string; transactionReference?: string }) => {
    const { id } = await call(
      'POST',
      '/api/admin/pos/orders',
      admin,
      { customerId: customer.customerId, items: [{ productId, quantity: 1 }] },
      true,
    );
    const order = await call('GET', `/api/admin/orders/${id}`, admin);
    await call(
      'POST',
      `/api/admin/pos/orders/${id}/payment`,
      admin,
      { ...payment, amountNpr: order.finalPayable },
      true,
    );
    return id as number;
  };
  const collected = await sale(productIds[0], { gateway: 'pos_cash' });
  await call('POST', `/api/admin/pos/orders/${collected}/pickup-confirm`, admin, undefined, true);
  const waiting = await sale(productIds[1], {
    gateway: 'pos_card',
    transactionReference: `DEMO-SLIP-${Date.now()}`,
  });

  const orders: DemoOrder[] = [];
  for (const id of [collected, waiting]) {
    const o = await call('GET', `/api/admin/orders/${id}`, admin);
    orders.push({
      orderNumber: o.orderNumber,
      orderStatus: o.orderStatus,
      paymentStatus: o.paymentStatus,
      fulfillmentStatus: o.fulfillmentStatus,
    });
  }
  return orders;
}
