// Helpers of the repairs tests: an app with orders (for order links), brands, a customer with a
// push device, and shortcuts to create a request and move it through the admin statuses.
import { expect } from 'vitest';
import { startSession } from '../../../src/modules/identity';
import type { TestAppOptions } from '../../helpers/app';
import type { SignedIn } from '../../helpers/factories';
import { ordersTestApp } from '../orders/calls';

export const REPAIRS = '/api/repair-requests';
export const ADMIN_REPAIRS = '/api/admin/repair-requests';

/** Admin moves that reach each status from request_received (the shortest path). */
export const PATH_TO: Record<string, string[]> = {
  request_received: [],
  picked_up: ['picked_up'],
  dropped_off: ['dropped_off'],
  under_repair: ['picked_up', 'under_repair'],
  repaired: ['picked_up', 'under_repair', 'repaired'],
  unrepairable: ['picked_up', 'under_repair', 'unrepairable'],
  returned: ['picked_up', 'under_repair', 'repaired', 'returned'],
  cancelled: ['cancelled'],
};

export async function repairsTestApp(opts: TestAppOptions = {}) {
  const c = await ordersTestApp(opts);
  const { http, admin, t } = c;

  async function brand(name = `Brand ${Math.random().toString(36).slice(2, 8)}`, isActive = true) {
    const res = await http.call('POST', '/api/admin/brands', admin.headers, { name, isActive });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().data as { id: number; name: string };
  }

  /** A signed-in device of `who` that receives pushes under `pushToken`. */
  const pushDevice = (who: SignedIn, pushToken: string) =>
    startSession({
      db: t.platform.database.db,
      tokens: t.platform.tokens,
      clock: t.platform.clock,
      refreshTtlDays: 30,
      userId: who.userId,
      actor: 'customer',
      pushToken,
    });

  const device = (over: Record<string, unknown> = {}) => ({
    customBrandName: 'Lenovo',
    laptopModel: 'ThinkPad T14',
    problemDescription: 'Screen flickers',
    ...over,
  });

  const create = (who: SignedIn, body: Record<string, unknown> = {}) =>
    http.call('POST', REPAIRS, who.headers, {
      devices: [device()],
      collectionMethod: 'pickup',
      sourceType: 'direct_booking',
      sharedDescription: 'Please handle with care',
      ...body,
    });

  /** A request of `who` that must be created; answers the customer detail. */
  async function created(who: SignedIn, body: Record<string, unknown> = {}) {
    const res = await create(who, body);
    expect(res.statusCode, res.body).toBe(201);
    return res.json().data as { publicId: string; ticketNumber: string; status: string };
  }

  /** The admin id of a request (customer routes speak publicId). */
  async function adminId(ticketNumber: string): Promise<number> {
    const res = await http.call('GET', `${ADMIN_REPAIRS}?search=${ticketNumber}`, admin.headers);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data[0].id;
  }

  const setStatus = (id: number, body: Record<string, unknown>, who: SignedIn = admin) =>
    http.call('PATCH', `${ADMIN_REPAIRS}/${id}/status`, who.headers, body);

  /** A fresh request moved by the admin to `status`; answers its ids. */
  async function requestAt(who: SignedIn, status: string) {
    const r = await created(who);
    const id = await adminId(r.ticketNumber);
    for (const step of PATH_TO[status]!) {
      const res = await setStatus(id, { status: step });
      expect(res.statusCode, res.body).toBe(200);
    }
    return { id, publicId: r.publicId, ticketNumber: r.ticketNumber };
  }

  /** The items of an order, as its owner sees them. */
  async function orderItemIds(who: SignedIn, orderId: number): Promise<number[]> {
    return (await c.order(who, orderId)).items.map((i: { id: number }) => i.id);
  }

  return { ...c, brand, pushDevice, device, create, created, adminId, setStatus, requestAt, orderItemIds };
}

export type RepairsTestApp = Awaited<ReturnType<typeof repairsTestApp>>;
