// Repair requests: customer create (devices, brand rule, order links), list, detail, cancel;
// admin list with filters, detail, the status matrix of docs/decisions.md "Repair statuses" (every
// pair, table-driven), notifications to the customer, collection method and notes; every error
// code of the interface.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newTicketNumber } from '../../../src/modules/repairs/repairs.service';
import { type SignedIn, signedInAdmin } from '../../helpers/factories';
import { expectError } from '../cart/calls';
import { ADMIN_REPAIRS, PATH_TO, REPAIRS, type RepairsTestApp, repairsTestApp } from './calls';

const STATUSES = [
  'request_received',
  'picked_up',
  'dropped_off',
  'under_repair',
  'repaired',
  'unrepairable',
  'returned',
  'cancelled',
] as const;

// docs/decisions.md, "Repair statuses", written out here rather than imported, so the test checks the code.
const ALLOWED = new Set([
  'request_received>picked_up',
  'request_received>dropped_off',
  'request_received>cancelled',
  'picked_up>under_repair',
  'picked_up>cancelled',
  'dropped_off>under_repair',
  'dropped_off>cancelled',
  'under_repair>repaired',
  'under_repair>unrepairable',
  'repaired>returned',
  'unrepairable>returned',
]);

describe('repair requests', () => {
  let c: RepairsTestApp;
  let me: SignedIn;
  beforeAll(async () => {
    c = await repairsTestApp();
    me = await c.customer();
  });
  afterAll(() => c?.t.close());

  describe('customer create', () => {
    it('201 with ticket TR-+8, publicId, devices (catalog and custom brands), status request_received', async () => {
      const b = await c.brand('Dell');
      const res = await c.create(me, {
        devices: [
          c.device({ customBrandName: undefined, brandId: b.id, laptopModel: 'XPS 13' }),
          c.device({ customBrandName: '  Framework ', laptopModel: 'Laptop 13' }),
        ],
        collectionMethod: 'dropoff',
        sharedDescription: '',
      });
      expect(res.statusCode, res.body).toBe(201);
      const data = res.json().data;
      expect(data.ticketNumber).toMatch(/^TR-[0-9A-HJKMNP-TV-Z]{8}$/);
      expect(data.publicId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-/);
      expect(data).toMatchObject({
        status: 'request_received',
        collectionMethod: 'dropoff',
        sourceType: 'direct_booking',
        sharedDescription: '',
        orderId: null,
        estimatedDeliveryAt: null,
        statusHistory: [],
      });
      expect(data).not.toHaveProperty('id');
      expect(data).not.toHaveProperty('adminNotes');
      expect(data.devices).toEqual([
        expect.objectContaining({
          brandId: b.id,
          customBrandName: null,
          brandName: 'Dell',
          laptopModel: 'XPS 13',
        }),
        expect.objectContaining({
          brandId: null,
          customBrandName: 'Framework',
          brandName: 'Framework',
          orderItemId: null,
        }),
      ]);
    });

    it('duplicate tickets for the same device are allowed', async () => {
      const a = await c.created(me);
      const b = await c.created(me);
      expect(a.ticketNumber).not.toBe(b.ticketNumber);
    });

    it('ticket numbers draw from the Crockford alphabet', () => {
      for (let i = 0; i < 200; i++) expect(newTicketNumber()).toMatch(/^TR-[0-9ABCDEFGHJKMNPQRSTVWXYZ]{8}$/);
    });

    it('zero devices: 422 REPAIR_REQUEST_NO_DEVICES', async () => {
      expectError(await c.create(me, { devices: [] }), 422, 'REPAIR_REQUEST_NO_DEVICES');
    });

    it('a device without brandId and customBrandName: 422 REPAIR_REQUEST_DEVICE_BRAND_REQUIRED', async () => {
      const res = await c.create(me, { devices: [c.device(), c.device({ customBrandName: undefined })] });
      expectError(res, 422, 'REPAIR_REQUEST_DEVICE_BRAND_REQUIRED');
      expect(res.json().deviceIndex).toBe(1);
    });

    it('a device with both: 422 REPAIR_REQUEST_DEVICE_BRAND_CONFLICT', async () => {
      const b = await c.brand();
      expectError(
        await c.create(me, { devices: [c.device({ brandId: b.id })] }),
        422,
        'REPAIR_REQUEST_DEVICE_BRAND_CONFLICT',
      );
    });

    it('unknown or inactive brand: 404 REPAIR_REQUEST_BRAND_NOT_FOUND', async () => {
      const off = await c.brand(undefined, false);
      for (const brandId of [999_999, off.id]) {
        expectError(
          await c.create(me, { devices: [c.device({ customBrandName: undefined, brandId })] }),
          404,
          'REPAIR_REQUEST_BRAND_NOT_FOUND',
        );
      }
    });

    it('links an own order and its items', async () => {
      const { orderId } = await c.placed(me);
      const [itemId] = await c.orderItemIds(me, orderId);
      const res = await c.create(me, {
        orderId,
        sourceType: 'order',
        devices: [c.device({ orderItemId: itemId })],
      });
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json().data.orderId).toBe(orderId);
      expect(res.json().data.devices[0].orderItemId).toBe(itemId);
    });

    it("order links: unknown 404, another customer's 403, item not in the order 422", async () => {
      const other = await c.customer();
      const mine = await c.placed(me);
      const theirs = await c.placed(other);
      const [theirItem] = await c.orderItemIds(other, theirs.orderId);
      expectError(await c.create(me, { orderId: 999_999 }), 404, 'REPAIR_REQUEST_ORDER_NOT_FOUND');
      expectError(await c.create(me, { orderId: theirs.orderId }), 403, 'REPAIR_REQUEST_ORDER_NOT_OWNED');
      // Another order's item, and an item without a linked order.
      expectError(
        await c.create(me, { orderId: mine.orderId, devices: [c.device({ orderItemId: theirItem })] }),
        422,
        'REPAIR_REQUEST_ORDER_ITEM_NOT_IN_ORDER',
      );
      expectError(
        await c.create(me, { devices: [c.device({ orderItemId: theirItem })] }),
        422,
        'REPAIR_REQUEST_ORDER_ITEM_NOT_IN_ORDER',
      );
      const refused = await c.create(me, { orderId: theirs.orderId });
      expect(refused.body).not.toContain(theirs.orderId.toString().padStart(12, 'x'));
    });

    it.each([
      [{ collectionMethod: 'courier' }, 'collectionMethod'],
      [{ sourceType: 'walk_in' }, 'sourceType'],
      [{ sourceType: 'order' }, 'orderId'],
      [{ devices: undefined }, 'devices'],
      [{ sharedDescription: undefined }, 'sharedDescription'],
      [{ devices: [{ customBrandName: 'HP', laptopModel: ' ', problemDescription: 'x' }] }, 'devices'],
      [
        {
          devices: Array.from({ length: 21 }, () => ({
            customBrandName: 'HP',
            laptopModel: 'a',
            problemDescription: 'b',
          })),
        },
        'devices',
      ],
      [{ orderId: 0 }, 'orderId'],
    ])('bad body %j: 400 VALIDATION_ERROR at %s', async (patch, path) => {
      const res = await c.create(me, patch);
      expectError(res, 400, 'VALIDATION_ERROR');
      expect(res.json().details.map((d: { path: string }) => d.path.split('.')[0])).toContain(path);
    });

    it('401 without a token; 403 AUTH_FORBIDDEN for an admin', async () => {
      expectError(await c.http.call('POST', REPAIRS, {}, {}), 401, 'AUTH_UNAUTHORIZED');
      expectError(await c.http.call('GET', REPAIRS, c.admin.headers), 403, 'AUTH_FORBIDDEN');
    });

    it('tells the staff who may move requests (RepairRequests_UPDATE), not those who only read', async () => {
      const mover = await signedInAdmin(c.t, { permissions: ['RepairRequests_UPDATE'] });
      const reader = await signedInAdmin(c.t, { permissions: ['RepairRequests_READ'] });
      const res = await c.create(me, { devices: [c.device(), c.device()], collectionMethod: 'pickup' });
      expect(res.statusCode, res.body).toBe(201);
      const { ticketNumber, publicId } = res.json().data;
      const feedOf = async (who: SignedIn) =>
        (await c.http.call('GET', '/api/admin/notifications?pagination=false', who.headers))
          .json()
          .data.filter((n: { type: string }) => n.type === 'repair.requested');
      const [notice] = await feedOf(mover);
      expect(notice).toMatchObject({
        title: 'New repair request',
        body: `Repair ${ticketNumber}: 2 devices, to be picked up.`,
        data: { repairRequestId: publicId, ticketNumber },
        readAt: null,
      });
      expect(await feedOf(reader)).toEqual([]);
    });
  });

  describe('customer list, detail, cancel', () => {
    it('lists only own requests, newest first, paginated, with a status filter', async () => {
      const who = await c.customer();
      const other = await c.customer();
      const a = await c.created(who);
      const b = await c.created(who);
      await c.created(other);
      const res = await c.http.call('GET', `${REPAIRS}?size=1`, who.headers);
      expect(res.statusCode).toBe(200);
      expect(res.json().meta).toEqual({ count: 2, page: 1, size: 1 });
      expect(res.json().data.map((r: { publicId: string }) => r.publicId)).toEqual([b.publicId]);
      await c.http.call('PATCH', `${REPAIRS}/${a.publicId}/cancel`, who.headers);
      const cancelled = await c.http.call('GET', `${REPAIRS}?status=cancelled`, who.headers);
      expect(cancelled.json().data.map((r: { publicId: string }) => r.publicId)).toEqual([a.publicId]);
      expectError(await c.http.call('GET', `${REPAIRS}?status=done`, who.headers), 400, 'VALIDATION_ERROR');
    });

    it("detail: own 200; unknown 404; another customer's 403 REPAIR_REQUEST_NOT_OWNED; bad uuid 400", async () => {
      const r = await c.created(me, { sharedDescription: 'secret-description-123' });
      const ok = await c.http.call('GET', `${REPAIRS}/${r.publicId}`, me.headers);
      expect(ok.statusCode).toBe(200);
      expect(ok.json().data.ticketNumber).toBe(r.ticketNumber);
      expectError(
        await c.http.call('GET', `${REPAIRS}/01900000-0000-7000-8000-000000000000`, me.headers),
        404,
        'REPAIR_REQUEST_NOT_FOUND',
      );
      const other = await c.customer();
      const refused = await c.http.call('GET', `${REPAIRS}/${r.publicId}`, other.headers);
      expectError(refused, 403, 'REPAIR_REQUEST_NOT_OWNED');
      expect(refused.body).not.toContain('secret-description-123');
      expect(refused.body).not.toContain(r.ticketNumber);
      expectError(await c.http.call('GET', `${REPAIRS}/not-a-uuid`, me.headers), 400, 'VALIDATION_ERROR');
    });

    it('cancel from request_received: cancelled, with a customer history row; others refused', async () => {
      const r = await c.created(me);
      const other = await c.customer();
      expectError(
        await c.http.call('PATCH', `${REPAIRS}/${r.publicId}/cancel`, other.headers),
        403,
        'REPAIR_REQUEST_NOT_OWNED',
      );
      const res = await c.http.call('PATCH', `${REPAIRS}/${r.publicId}/cancel`, me.headers);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().data.status).toBe('cancelled');
      expect(res.json().data.statusHistory).toEqual([
        expect.objectContaining({
          fromStatus: 'request_received',
          toStatus: 'cancelled',
          actorType: 'customer',
        }),
      ]);
      const again = await c.http.call('PATCH', `${REPAIRS}/${r.publicId}/cancel`, me.headers);
      expectError(again, 422, 'REPAIR_REQUEST_CANNOT_CANCEL');
      expectError(
        await c.http.call('PATCH', `${REPAIRS}/01900000-0000-7000-8000-000000000000/cancel`, me.headers),
        404,
        'REPAIR_REQUEST_NOT_FOUND',
      );
    });

    it.each(STATUSES.filter((s) => s !== 'request_received'))(
      'cancel from %s: 422 REPAIR_REQUEST_CANNOT_CANCEL, unchanged',
      async (status) => {
        const r = await c.requestAt(me, status);
        const res = await c.http.call('PATCH', `${REPAIRS}/${r.publicId}/cancel`, me.headers);
        expectError(res, 422, 'REPAIR_REQUEST_CANNOT_CANCEL');
        const now = await c.http.call('GET', `${REPAIRS}/${r.publicId}`, me.headers);
        expect(now.json().data.status).toBe(status);
      },
    );
  });

  describe('admin status matrix', () => {
    const pairs = STATUSES.flatMap((from) =>
      STATUSES.map((to) => [from, to, ALLOWED.has(`${from}>${to}`)] as const),
    );

    it.each(pairs)('%s → %s allowed: %s', async (from, to, allowed) => {
      const r = await c.requestAt(me, from);
      const res = await c.setStatus(r.id, { status: to });
      if (allowed) {
        expect(res.statusCode, res.body).toBe(200);
        expect(res.json().data.status).toBe(to);
        expect(res.json().data.statusHistory.at(-1)).toMatchObject({
          fromStatus: from,
          toStatus: to,
          actorType: 'admin',
          actorId: c.admin.userId,
        });
      } else {
        expectError(res, 400, 'REPAIR_REQUEST_INVALID_STATUS_TRANSITION');
        const now = await c.http.call('GET', `${ADMIN_REPAIRS}/${r.id}`, c.admin.headers);
        expect(now.json().data.status).toBe(from);
        expect(now.json().data.statusHistory).toHaveLength(PATH_TO[from]!.length);
      }
    });
  });

  describe('admin routes', () => {
    it('status update notifies the customer in-app and by push; notes and estimatedDeliveryAt stored', async () => {
      const who = await c.customer();
      await c.pushDevice(who, 'repair-phone');
      const r = await c.created(who);
      const id = await c.adminId(r.ticketNumber);
      const before = c.t.push.length;
      const res = await c.setStatus(id, {
        status: 'picked_up',
        notes: 'Collected by rider',
        estimatedDeliveryAt: '2026-12-01T10:00:00+05:45',
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().data.estimatedDeliveryAt).toBe('2026-12-01T04:15:00.000Z');
      await c.t.drainJobs();
      const pushed = c.t.push.slice(before);
      expect(pushed).toHaveLength(1);
      expect(pushed[0]).toMatchObject({
        to: 'repair-phone',
        title: `Repair ${r.ticketNumber}: Picked up`,
        body: 'Collected by rider',
        data: { type: 'repair.status_changed', repairRequestId: r.publicId, status: 'picked_up' },
      });
      const inbox = await c.http.call('GET', '/api/mobile/notifications', who.headers);
      expect(inbox.json().data[0]).toMatchObject({
        type: 'repair.status_changed',
        data: { repairRequestId: r.publicId, ticketNumber: r.ticketNumber, status: 'picked_up' },
      });
      // The customer sees the status note in the history, and the estimate.
      const mine = (await c.http.call('GET', `${REPAIRS}/${r.publicId}`, who.headers)).json().data;
      expect(mine.statusHistory).toEqual([
        expect.objectContaining({ toStatus: 'picked_up', notes: 'Collected by rider', actorType: 'admin' }),
      ]);
      expect(mine.statusHistory[0]).not.toHaveProperty('actorId');
      // null clears the estimate; a refused move notifies nobody.
      const next = await c.setStatus(id, { status: 'under_repair', estimatedDeliveryAt: null });
      expect(next.json().data.estimatedDeliveryAt).toBeNull();
      await c.t.drainJobs();
      const count = c.t.push.length;
      expectError(
        await c.setStatus(id, { status: 'returned' }),
        400,
        'REPAIR_REQUEST_INVALID_STATUS_TRANSITION',
      );
      await c.t.drainJobs();
      expect(c.t.push.length).toBe(count);
    });

    it('status body: unknown status or bad date 400; unknown id 404', async () => {
      const r = await c.requestAt(me, 'request_received');
      expectError(await c.setStatus(r.id, { status: 'lost' }), 400, 'VALIDATION_ERROR');
      expectError(
        await c.setStatus(r.id, { status: 'picked_up', estimatedDeliveryAt: 'tomorrow' }),
        400,
        'VALIDATION_ERROR',
      );
      expectError(await c.setStatus(999_999, { status: 'picked_up' }), 404, 'REPAIR_REQUEST_NOT_FOUND');
    });

    it('collection method: changes before collection and notifies; same value no-op; locked after', async () => {
      const who = await c.customer();
      await c.pushDevice(who, 'cm-phone');
      const r = await c.created(who);
      const id = await c.adminId(r.ticketNumber);
      const url = `${ADMIN_REPAIRS}/${id}/collection-method`;
      const before = c.t.push.length;
      const res = await c.http.call('PATCH', url, c.admin.headers, { collectionMethod: 'dropoff' });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().data.collectionMethod).toBe('dropoff');
      const same = await c.http.call('PATCH', url, c.admin.headers, { collectionMethod: 'dropoff' });
      expect(same.statusCode).toBe(200);
      await c.t.drainJobs();
      const pushed = c.t.push.slice(before);
      expect(pushed).toHaveLength(1);
      expect(pushed[0]!.data).toMatchObject({
        type: 'repair.collection_method_changed',
        collectionMethod: 'dropoff',
      });
      await c.setStatus(id, { status: 'dropped_off' });
      expectError(
        await c.http.call('PATCH', url, c.admin.headers, { collectionMethod: 'pickup' }),
        422,
        'REPAIR_REQUEST_COLLECTION_METHOD_LOCKED',
      );
      expectError(
        await c.http.call('PATCH', url, c.admin.headers, { collectionMethod: 'van' }),
        400,
        'VALIDATION_ERROR',
      );
      expectError(
        await c.http.call('PATCH', `${ADMIN_REPAIRS}/999999/collection-method`, c.admin.headers, {
          collectionMethod: 'pickup',
        }),
        404,
        'REPAIR_REQUEST_NOT_FOUND',
      );
    });

    it('notes: set, replaced, cleared; admin only; never shown to the customer', async () => {
      const r = await c.requestAt(me, 'request_received');
      const url = `${ADMIN_REPAIRS}/${r.id}/notes`;
      let res = await c.http.call('PATCH', url, c.admin.headers, { adminNotes: 'internal-note-xyz' });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().data.adminNotes).toBe('internal-note-xyz');
      const customerView = await c.http.call('GET', `${REPAIRS}/${r.publicId}`, me.headers);
      expect(customerView.body).not.toContain('internal-note-xyz');
      res = await c.http.call('PATCH', url, c.admin.headers, { adminNotes: '' });
      expect(res.json().data.adminNotes).toBeNull();
      expectError(await c.http.call('PATCH', url, c.admin.headers, {}), 400, 'VALIDATION_ERROR');
      expectError(
        await c.http.call('PATCH', `${ADMIN_REPAIRS}/999999/notes`, c.admin.headers, { adminNotes: 'x' }),
        404,
        'REPAIR_REQUEST_NOT_FOUND',
      );
    });

    it('list: filters by status, userId, dates (store-local, inclusive), ticket search; detail', async () => {
      const who = await c.customer();
      const a = await c.created(who);
      const b = await c.created(who);
      const idA = await c.adminId(a.ticketNumber);
      await c.setStatus(idA, { status: 'picked_up' });
      const ids = async (q: string) => {
        const res = await c.http.call('GET', `${ADMIN_REPAIRS}?${q}`, c.admin.headers);
        expect(res.statusCode, res.body).toBe(200);
        return res.json().data.map((r: { ticketNumber: string }) => r.ticketNumber);
      };
      expect(await ids(`userId=${who.userId}`)).toEqual([b.ticketNumber, a.ticketNumber]);
      expect(await ids(`userId=${who.userId}&status=picked_up`)).toEqual([a.ticketNumber]);
      expect(await ids(`search=${a.ticketNumber.slice(3, 9).toLowerCase()}`)).toContain(a.ticketNumber);
      expect(await ids('search=tr-')).toEqual(expect.arrayContaining([a.ticketNumber, b.ticketNumber]));
      const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Kathmandu' }).format(new Date());
      expect(await ids(`userId=${who.userId}&dateFrom=${today}&dateTo=${today}`)).toHaveLength(2);
      expect(await ids(`userId=${who.userId}&dateTo=2020-01-01`)).toEqual([]);
      expect(await ids(`userId=${who.userId}&dateFrom=2999-01-01`)).toEqual([]);
      const page = await c.http.call(
        'GET',
        `${ADMIN_REPAIRS}?userId=${who.userId}&size=1&page=2`,
        c.admin.headers,
      );
      expect(page.json().meta).toEqual({ count: 2, page: 2, size: 1 });
      expect(page.json().data[0]).toMatchObject({
        ticketNumber: a.ticketNumber,
        customer: { id: who.userId, email: who.email },
      });
      for (const q of [
        'dateFrom=2026-02-30',
        'dateFrom=2026-03-02&dateTo=2026-03-01',
        'userId=abc',
        'status=x',
      ]) {
        expectError(
          await c.http.call('GET', `${ADMIN_REPAIRS}?${q}`, c.admin.headers),
          400,
          'VALIDATION_ERROR',
        );
      }
      const detail = await c.http.call('GET', `${ADMIN_REPAIRS}/${idA}`, c.admin.headers);
      expect(detail.json().data).toMatchObject({ id: idA, publicId: a.publicId, status: 'picked_up' });
      expectError(
        await c.http.call('GET', `${ADMIN_REPAIRS}/999999`, c.admin.headers),
        404,
        'REPAIR_REQUEST_NOT_FOUND',
      );
    });

    it.each([
      ['GET', ADMIN_REPAIRS, 'RepairRequests_READ', undefined],
      ['GET', `${ADMIN_REPAIRS}/1`, 'RepairRequests_READ', undefined],
      ['PATCH', `${ADMIN_REPAIRS}/1/status`, 'RepairRequests_UPDATE', { status: 'picked_up' }],
      [
        'PATCH',
        `${ADMIN_REPAIRS}/1/collection-method`,
        'RepairRequests_UPDATE',
        { collectionMethod: 'pickup' },
      ],
      ['PATCH', `${ADMIN_REPAIRS}/1/notes`, 'RepairRequests_UPDATE', { adminNotes: 'x' }],
    ] as const)('%s %s needs %s', async (method, url, permission, payload) => {
      await c.http.expectGuarded(method, url, permission, me, payload);
    });

    it('a reader may not write', async () => {
      const reader = await signedInAdmin(c.t, { permissions: ['RepairRequests_READ'] });
      const r = await c.requestAt(me, 'request_received');
      expect((await c.http.call('GET', `${ADMIN_REPAIRS}/${r.id}`, reader.headers)).statusCode).toBe(200);
      expectError(await c.setStatus(r.id, { status: 'picked_up' }, reader), 403, 'AUTH_PERMISSION_DENIED');
    });
  });
});
