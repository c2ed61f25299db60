// The demo store's orders, made the way a customer and the back office make them: through the
// API (in-process requests to the app), so every rule, stock movement, payment and history row
// is the real one. They give the back office something to show in each state:
//   - a COD order waiting for its cash,
//   - a COD order whose cash was collected and that is on its way (fulfilment `in_transit`),
//   - an online (sandbox) payment, delivered,
//   - a licence key bought online and sent,
//   - an order the customer cancelled,
//   - an online order whose payment is still open (the unpaid-order sweep cancels it later).
import type { ApiApp } from '../src/platform/module';

export interface DemoOrder {
  orderNumber: string;
  orderStatus: string;
  paymentStatus: string;
  fulfillmentStatus: string | null;
}

const LOCATION = {
  districtName: 'Kathmandu',
  addressLine1: 'Thamel Marg 12',
  city: 'Kathmandu',
  postalCode: '44600',
};
const DEVICE = { deviceId: 'seed-demo', deviceType: 'web', deviceName: 'seed:demo' };

export interface DemoOrderProducts {
  /** A singing bowl, a statue, a pendant, a laptop and a thangka: one order each. */
  physical: number[];
  /** A licence bought online and sent. */
  digital: number;
}

export async function seedDemoOrders(
  app: ApiApp,
  people: { admin: { email: string; password: string }; customer: { email: string; password: string } },
  products: DemoOrderProducts,
  /** Where the storefront takes the customer after paying: an entry of PAYMENT_RETURN_URL_ALLOWLIST. */
  returnUrl: string,
): Promise<DemoOrder[]> {
  const call = async (method: string, url: string, token?: string, payload?: unknown, expect = [200]) => {
    const res = await app.inject({
      method: method as 'GET',
      url,
      headers: token ? { authorization: `Bearer ${token}` } : {},
      ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
    });
    if (!expect.includes(res.statusCode)) {
      throw new Error(`${method} ${url} answered ${res.statusCode}: ${res.body.slice(0, 400)}`);
    }
    return res;
  };
  const json = async (method: string, url: string, token?: string, payload?: unknown, expect = [200]) =>
    (await call(method, url, token, payload, expect)).json().data;

  const admin = (await json('POST', '/api/auth/login/email', undefined, people.admin)).tokens
    .accessToken as string;
  const me = (
    await json('POST', '/api/mobile/auth/login/email', undefined, { ...people.customer, deviceInfo: DEVICE })
  ).tokens.accessToken as string;

  /** Waits for the jobs a change queued (payment verification, async commands) to show. */
  async function until(orderId: number, done: (order: Record<string, unknown>) => boolean) {
    for (let i = 0; i < 200; i++) {
      const order = await json('GET', `/api/admin/orders/${orderId}`, admin);
      if (done(order)) return order;
      await new Promise((r) => setTimeout(r, 25));
    }
    throw new Error(`order ${orderId} did not reach the expected state`);
  }
  // Set once: a new cart keeps the address of the one an order ended.
  await json('POST', '/api/cart/location', me, LOCATION);
  const checkout = async (productId: number, gateway: string, quantity = 1) => {
    await json('POST', '/api/cart/items', me, { productId, quantity });
    return json('POST', '/api/orders/checkout', me, { gateway, returnUrl }) as Promise<{
      orderId: number;
      paymentId: string;
    }>;
  };
  /** Presses "Pay" on the sandbox page and follows the redirect back, as a browser would. */
  const payInSandbox = async (paymentId: string) => {
    const pressed = await app.inject({
      method: 'POST',
      url: `/api/payments/sandbox/${paymentId}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'outcome=success',
    });
    await call(
      'GET',
      String(pressed.headers.location).replace(/^https?:\/\/[^/]+/, ''),
      undefined,
      undefined,
      [302],
    );
  };
  const moveFulfilment = async (orderId: number, steps: string[]) => {
    for (const status of steps) {
      await call('POST', `/api/admin/orders/${orderId}/fulfillment-status`, admin, { status }, [202]);
      await until(orderId, (o) => o.fulfillmentStatus === status);
    }
  };

  const [bowl, statue, pendant, laptop, thangka] = products.physical as [
    number,
    number,
    number,
    number,
    number,
  ];
  const ids: number[] = [];

  const waiting = await checkout(bowl, 'cod');
  ids.push(waiting.orderId);

  const collected = await checkout(statue, 'cod', 2);
  await call('PUT', `/api/admin/orders/${collected.orderId}/cod-collect`, admin, {
    remarks: 'Cash received by the rider',
  });
  await moveFulfilment(collected.orderId, ['ready', 'picked_up', 'in_transit']);
  ids.push(collected.orderId);

  const delivered = await checkout(laptop, 'gateway_card');
  await payInSandbox(delivered.paymentId);
  await until(delivered.orderId, (o) => o.orderStatus === 'paid');
  await moveFulfilment(delivered.orderId, ['ready', 'picked_up', 'in_transit', 'delivered']);
  ids.push(delivered.orderId);

  const licence = await json('POST', '/api/orders/buy-now', me, {
    productId: products.digital,
    gateway: 'gateway_wallet_a',
    returnUrl,
  });
  await payInSandbox(licence.paymentId);
  await until(licence.orderId, (o) => o.orderStatus === 'paid');
  await json('POST', `/api/admin/orders/${licence.orderId}/send-digital-delivery`, admin, {});
  ids.push(licence.orderId);

  const cancelled = await checkout(pendant, 'cod');
  await call(
    'POST',
    `/api/orders/${cancelled.orderId}/cancel`,
    me,
    { reason: 'Ordered the wrong size' },
    [202],
  );
  await until(cancelled.orderId, (o) => o.orderStatus === 'cancelled');
  ids.push(cancelled.orderId);

  // Last: an unpaid online order keeps its lines in the cart until it is paid or cancelled.
  const open = await checkout(thangka, 'gateway_wallet_b');
  ids.push(open.orderId);

  const orders: DemoOrder[] = [];
  for (const id of ids) {
    const o = await json('GET', `/api/admin/orders/${id}`, admin);
    orders.push({
      orderNumber: o.orderNumber,
      orderStatus: o.orderStatus,
      paymentStatus: o.paymentStatus,
      fulfillmentStatus: o.fulfillmentStatus,
    });
  }
  return orders;
}
