// The POS tests' app: the orders test app (products, districts, a superadmin) plus a counter
// admin holding every POS permission and helpers for the counter's calls.
import { randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import { IDEMPOTENCY_HEADER } from '../../../src/modules/idempotency';
import { type SignedIn, signedInAdmin, signedInCustomer } from '../../helpers/factories';
import { ordersTestApp } from '../orders/calls';

export const POS = '/api/admin/pos';
export const ALL_POS = ['Pos_READ', 'Pos_CREATE', 'Pos_RECORD_PAYMENT', 'Pos_UPDATE'];

export const newKey = (label = 'k') => `${label}-${randomBytes(6).toString('hex')}`;

export async function posTestApp(opts: Parameters<typeof ordersTestApp>[0] = {}) {
  const c = await ordersTestApp(opts);
  const clerk = await signedInAdmin(c.t, { permissions: ALL_POS });

  const call = (
    method: 'GET' | 'POST',
    path: string,
    payload?: unknown,
    headers: Record<string, string> = {},
    who: SignedIn = clerk,
  ) => c.http.call(method, `${POS}${path}`, { ...who.headers, ...headers }, payload);

  /** A POS write (every one requires an Idempotency-Key): a fresh key unless `headers` brings one. */
  const write = (
    path: string,
    payload?: unknown,
    headers: Record<string, string> = {},
    who: SignedIn = clerk,
  ) => call('POST', path, payload, { [IDEMPOTENCY_HEADER]: newKey('write'), ...headers }, who);

  /** A customer account (made the usual way: registration's factory). */
  const customer = (opts2: { name?: string; email?: string } = {}) => signedInCustomer(c.t, opts2);

  /** POST /orders with a fresh key; answers the response. */
  const createOrder = (body: Record<string, unknown>, key = newKey('order'), who: SignedIn = clerk) =>
    call('POST', '/orders', body, { [IDEMPOTENCY_HEADER]: key }, who);

  /** An in-store order for `customerId` of `items`; answers its id. */
  async function posOrder(
    customerId: string,
    items: Array<{ productId: number; quantity: number }>,
    extra = {},
  ) {
    const res = await createOrder({ customerId, items, ...extra });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data.id as number;
  }

  const pay = (orderId: number, body: Record<string, unknown>, key = newKey('pay'), who: SignedIn = clerk) =>
    call('POST', `/orders/${orderId}/payment`, body, { [IDEMPOTENCY_HEADER]: key }, who);

  /** The order as the back office sees it. */
  const detail = (orderId: number) => c.adminOrder(orderId);

  /** A paid in-store order of one new product (`onHand` 5); answers the ids. */
  async function paidPosOrder(
    opts2: { gateway?: string; mrp?: number; sp?: number; district?: string } = {},
  ) {
    const who = await customer();
    const productId = await c.product({ mrp: opts2.mrp ?? 1000, sp: opts2.sp ?? 0, onHand: 5 });
    const orderId = await posOrder(who.userId, [{ productId, quantity: 1 }], {
      ...(opts2.district ? { shippingDistrict: opts2.district } : {}),
    });
    const order = await detail(orderId);
    const res = await pay(orderId, { gateway: opts2.gateway ?? 'pos_cash', amountNpr: order.finalPayable });
    expect(res.statusCode, res.body).toBe(200);
    return { orderId, productId, customer: who, finalPayable: order.finalPayable as number };
  }

  return { ...c, clerk, call, write, customer, createOrder, posOrder, pay, detail, paidPosOrder };
}

export type PosTestApp = Awaited<ReturnType<typeof posTestApp>>;
