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

/**
 * A fresh cash-on-delivery order of the demo customer that only this test touches: buy-now
 * (it leaves the customer's cart alone, which other tests may use) of a well-stocked item.
 * COD starts fulfilment at once (`received`).
 */
export async function placeCodOrder(baseURL: string): Promise<{ id: number; orderNumber: string }> {
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
  const token = tokens.accessToken;
  const products = await api<{ id: number; title: string }[]>(
    baseURL,
    'GET',
    `/api/products?search=${encodeURIComponent('Silver Om Pendant')}`,
  );
  const pendant = products.find((p) => p.title === 'Silver Om Pendant');
  if (!pendant) throw new Error('the demo store has no Silver Om Pendant');
  const placed = await api<{ orderId: number }>(baseURL, 'POST', '/api/orders/buy-now', token, {
    productId: pendant.id,
    gateway: 'cod',
    returnUrl: RETURN_URL,
  });
  const order = await api<{ id: number; orderNumber: string }>(
    baseURL,
    'GET',
    `/api/orders/${placed.orderId}`,
    token,
  );
  return { id: order.id, orderNumber: order.orderNumber };
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
