// What the order tests ask the API directly: a fresh order to work on, and the demo admin's
// token for setting up what a screen should show.
import { DEMO_ADMIN } from './console';

const DEMO_CUSTOMER = { email: 'customer@pasal.demo', password: 'pasal-demo-customer' };
// An entry of PAYMENT_RETURN_URL_ALLOWLIST's default (the development storefront).
const RETURN_URL = 'http://localhost:3001/orders';

export async function api<T>(
  baseURL: string,
  method: string,
  path: string,
  token?: string,
  body?: unknown,
): Promise<T> {
  const answer = await fetch(`${baseURL}${path}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await answer.json()) as { data: T };
  if (!answer.ok) throw new Error(`${method} ${path} answered ${answer.status}: ${JSON.stringify(json)}`);
  return json.data;
}

/** The demo customer's access token (the mobile sign-in, which answers the token itself). */
export async function customerToken(baseURL: string): Promise<string> {
  const { tokens } = await api<{ tokens: { accessToken: string } }>(
    baseURL,
    'POST',
    '/api/mobile/auth/login/email',
    undefined,
    {
      ...DEMO_CUSTOMER,
      deviceInfo: { deviceId: 'e2e-orders', deviceType: 'web', deviceName: 'orders.spec' },
    },
  );
  return tokens.accessToken;
}

/** The demo customer buys one Silver Om Pendant now on `gateway`; answers the checkout's answer. */
async function buyPendant(baseURL: string, token: string, gateway: string) {
  const products = await api<{ id: number; title: string }[]>(
    baseURL,
    'GET',
    `/api/products?search=${encodeURIComponent('Silver Om Pendant')}`,
  );
  const pendant = products.find((p) => p.title === 'Silver Om Pendant');
  if (!pendant) throw new Error('the demo store has no Silver Om Pendant');
  return api<{ orderId: number; paymentId: string }>(baseURL, 'POST', '/api/orders/buy-now', token, {
    productId: pendant.id,
    gateway,
    returnUrl: RETURN_URL,
  });
}

/**
 * A fresh cash-on-delivery order of the demo customer that only this test touches: buy-now
 * (it leaves the customer's cart alone, which other tests may use) of a well-stocked item.
 * COD starts fulfilment at once (`received`).
 */
export async function placeCodOrder(baseURL: string): Promise<{ id: number; orderNumber: string }> {
  const token = await customerToken(baseURL);
  const placed = await buyPendant(baseURL, token, 'cod');
  const order = await api<{ id: number; orderNumber: string }>(
    baseURL,
    'GET',
    `/api/orders/${placed.orderId}`,
    token,
  );
  return { id: order.id, orderNumber: order.orderNumber };
}

/**
 * A fresh order of the demo customer paid online on `gateway_card`, through the payments
 * sandbox the way a browser pays (the "Pay" button, then the signed redirect back); waits
 * until the verification job made it `paid`. Answers the order, its payment and the
 * customer's token (to ask for a refund).
 */
export async function placePaidOnlineOrder(
  baseURL: string,
): Promise<{ id: number; orderNumber: string; paymentId: string; customerToken: string }> {
  const token = await customerToken(baseURL);
  const placed = await buyPendant(baseURL, token, 'gateway_card');
  const pressed = await fetch(`${baseURL}/api/payments/sandbox/${placed.paymentId}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'outcome=success',
    redirect: 'manual',
  });
  const back = pressed.headers.get('location');
  if (pressed.status !== 302 || !back) throw new Error(`the sandbox answered ${pressed.status}`);
  // The signed redirect back (PUBLIC_BASE_URL is this server): it queues the verification job.
  const redirect = new URL(back, baseURL);
  await fetch(`${baseURL}${redirect.pathname}${redirect.search}`, { redirect: 'manual' });
  for (let tries = 0; tries < 60; tries++) {
    const order = await api<{ id: number; orderNumber: string; orderStatus: string }>(
      baseURL,
      'GET',
      `/api/orders/${placed.orderId}`,
      token,
    );
    if (order.orderStatus === 'paid')
      return {
        id: order.id,
        orderNumber: order.orderNumber,
        paymentId: placed.paymentId,
        customerToken: token,
      };
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`order ${placed.orderId} was not paid in 30 s`);
}

/** The demo superadmin's access token, for setting up what a screen should show. */
export async function adminToken(baseURL: string): Promise<string> {
  const { tokens } = await api<{ tokens: { accessToken: string } }>(
    baseURL,
    'POST',
    '/api/auth/login/email',
    undefined,
    DEMO_ADMIN,
  );
  return tokens.accessToken;
}
