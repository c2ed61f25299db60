// Who may call each POS route: no token 401, a customer 403 AUTH_FORBIDDEN, an admin without
// the route's permission 403 AUTH_PERMISSION_DENIED, and an admin holding only that permission
// gets through. Refused writes change nothing.
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emiBanks, emiConfig } from '../../../src/modules/emi/emi.table';
import { IDEMPOTENCY_HEADER } from '../../../src/modules/idempotency';
import { signedInAdmin } from '../../helpers/factories';
import { newKey, POS, type PosTestApp, posTestApp } from './calls';

let c: PosTestApp;
let orderId: number;
let paidOrderId: number;
let customerId: string;
let productId: number;
let bankId: number;

const counterInquiry = () => ({
  productId,
  bankIds: [bankId],
  customerName: 'Walk-in Customer',
  customerEmail: 'walkin.emi@example.com',
  customerMobile: '9800000001',
  hasCreditCard: false,
  downPaymentAmount: 100,
  message: 'Asked at the counter',
});

beforeAll(async () => {
  c = await posTestApp();
  customerId = (await c.customer({ email: 'access.pos@example.com' })).userId;
  productId = await c.product({ mrp: 900, onHand: 20 });
  // EMI switched on with one bank, straight in the tables: the EMI module's own tests cover its routes.
  const db = c.t.platform.database.db;
  await db.insert(emiConfig).values({ isEnabled: true, periods: [6, 12] });
  [{ id: bankId }] = (await db
    .insert(emiBanks)
    .values({ name: 'Counter Bank' })
    .returning({ id: emiBanks.id })) as [{ id: number }];
  orderId = await c.posOrder(customerId, [{ productId, quantity: 1 }]);
  paidOrderId = (await c.paidPosOrder()).orderId;
});
afterAll(() => c?.t.close());

type Row = {
  method: 'GET' | 'POST';
  path: () => string;
  permission: string;
  body?: () => unknown;
  idempotent?: boolean;
};

const rows: Row[] = [
  { method: 'GET', path: () => '/customers/lookup?email=access.pos@example.com', permission: 'Pos_READ' },
  {
    method: 'POST',
    path: () => '/customers',
    permission: 'Pos_CREATE',
    body: () => ({ name: 'Walk-in', email: `walkin-${newKey()}@example.com` }),
    idempotent: true,
  },
  {
    method: 'POST',
    path: () => '/orders',
    permission: 'Pos_CREATE',
    body: () => ({ customerId, items: [{ productId, quantity: 1 }] }),
    idempotent: true,
  },
  {
    method: 'POST',
    path: () => `/orders/${orderId}/payment`,
    permission: 'Pos_RECORD_PAYMENT',
    body: () => ({ gateway: 'pos_cash', amountNpr: 900 }),
    idempotent: true,
  },
  {
    method: 'POST',
    path: () => `/orders/${orderId}/payment-failure`,
    permission: 'Pos_UPDATE',
    body: () => ({ reason: 'Wallet app timed out' }),
    idempotent: true,
  },
  {
    method: 'POST',
    path: () => `/orders/${paidOrderId}/pickup-confirm`,
    permission: 'Pos_UPDATE',
    idempotent: true,
  },
  {
    method: 'GET',
    path: () => '/orders/export?startDate=2026-01-01&endDate=2026-01-31',
    permission: 'Pos_READ',
  },
  { method: 'GET', path: () => '/orders', permission: 'Pos_READ' },
  { method: 'GET', path: () => `/orders/${orderId}/receipt`, permission: 'Pos_READ' },
  { method: 'GET', path: () => '/analytics', permission: 'Pos_READ' },
  {
    method: 'POST',
    path: () => '/emi-inquiry',
    permission: 'Pos_CREATE',
    body: counterInquiry,
    idempotent: true,
  },
];

describe('POS writes need an Idempotency-Key (docs/decisions.md, "Idempotency")', () => {
  for (const row of rows.filter((r) => r.method === 'POST')) {
    it(`POST ${row.path().replace(/\/\d+\//, '/:orderId/')} without one: 400 VALIDATION_ERROR, nothing written`, async () => {
      const before = await c.detail(orderId);
      const res = await c.http.call('POST', `${POS}${row.path()}`, c.clerk.headers, row.body?.());
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toMatchObject({
        errorCode: 'VALIDATION_ERROR',
        details: [{ path: IDEMPOTENCY_HEADER, message: 'Idempotency-Key header is required' }],
      });
      const after = await c.detail(orderId);
      expect(after.adminNotes).toEqual(before.adminNotes);
      expect(after.orderStatus).toBe(before.orderStatus);
    });
  }
});

describe('POS route permissions', () => {
  for (const row of rows) {
    it(`${row.method} ${
      row
        .path()
        .replace(/\/(undefined|\d+)\//, '/:orderId/')
        .split('?')[0]
    } needs ${row.permission}`, async () => {
      const headers = (h: Record<string, string>) =>
        row.idempotent ? { ...h, [IDEMPOTENCY_HEADER]: newKey('access') } : h;
      const send = (h: Record<string, string>) =>
        c.http.call(row.method, `${POS}${row.path()}`, headers(h), row.body?.());

      const none = await send({});
      expect(none.statusCode).toBe(401);
      expect(none.json().errorCode).toBe('AUTH_UNAUTHORIZED');
      const customer = await c.customer();
      const asCustomer = await send(customer.headers);
      expect(asCustomer.statusCode).toBe(403);
      expect(asCustomer.json().errorCode).toBe('AUTH_FORBIDDEN');
      const others = await signedInAdmin(c.t, {
        permissions: ['Pos_READ', 'Pos_CREATE', 'Pos_RECORD_PAYMENT', 'Pos_UPDATE', 'Orders_READ'].filter(
          (p) => p !== row.permission,
        ),
      });
      const denied = await send(others.headers);
      expect(denied.statusCode).toBe(403);
      expect(denied.json().errorCode).toBe('AUTH_PERMISSION_DENIED');
      expect(denied.json().message).toContain(row.permission);

      const holder = await signedInAdmin(c.t, { permissions: [row.permission] });
      const allowed = await send(holder.headers);
      expect(allowed.statusCode, allowed.body).toBe(200);
    });
  }

  it('refused writes left the order as it was until the permitted one', async () => {
    const order = await c.detail(orderId);
    // The permitted payment of the table above is the only one.
    expect(order).toMatchObject({ orderStatus: 'paid', paymentStatus: 'completed' });
    expect(order.adminNotes).toHaveLength(1);
  });

  it('the counter EMI inquiry answers 200 with the app inquiry, product snapshot included, and reaches the EMI back office', async () => {
    const laptop = await c.product({ mrp: 90_000, sp: 85_000, onHand: 1 });
    const res = await c.write('/emi-inquiry', { ...counterInquiry(), productId: laptop });
    expect(res.statusCode, res.body).toBe(200);
    const inquiry = res.json().data;
    expect(inquiry).toMatchObject({
      ...counterInquiry(),
      productId: laptop,
      productSp: 85_000,
      status: 'new',
    });
    const emiStaff = await signedInAdmin(c.t, { permissions: ['EmiInquiries_READ'] });
    const detail = await c.http.call('GET', `/api/admin/emi/inquiries/${inquiry.id}`, emiStaff.headers);
    expect(detail.json().data).toMatchObject({ id: inquiry.id, customerName: 'Walk-in Customer' });
    // The app's rules hold at the counter too: an unknown bank is the EMI module's 404.
    const badBank = await c.write('/emi-inquiry', { ...counterInquiry(), bankIds: [999_999] });
    expect(badBank.statusCode).toBe(404);
    expect(badBank.json().errorCode).toBe('EMI_BANK_NOT_FOUND');
  });

  it('the export route is not read as an order id', async () => {
    const res = await c.call('GET', '/orders/export?startDate=2026-01-01&endDate=2026-01-02');
    expect(res.statusCode, res.body).toBe(200);
    expect(Array.isArray(res.json().data)).toBe(true);
  });
});

describe('POS in the OpenAPI document', () => {
  it('lists every route with its permission, the required keys, the PDF and the CSV, and stays valid', async () => {
    const res = await c.http.call('GET', '/docs/openapi.json');
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    const result = await new Validator().validate(doc);
    expect(result.errors ?? []).toEqual([]);
    const p = (path: string) => doc.paths[`/api/admin/pos${path}`];
    expect(p('/customers/lookup').get.description).toContain('Pos_READ');
    expect(p('/customers').post.description).toContain('Pos_CREATE');
    expect(p('/orders/{orderId}/payment').post.description).toContain('Pos_RECORD_PAYMENT');
    expect(p('/orders/{orderId}/pickup-confirm').post.description).toContain('Pos_UPDATE');
    for (const route of [
      p('/customers').post,
      p('/orders').post,
      p('/orders/{orderId}/payment').post,
      p('/orders/{orderId}/payment-failure').post,
      p('/orders/{orderId}/pickup-confirm').post,
      p('/emi-inquiry').post,
    ]) {
      expect(route.parameters).toContainEqual(
        expect.objectContaining({ in: 'header', name: 'idempotency-key', required: true }),
      );
    }
    expect(p('/orders/{orderId}/receipt').get.responses['200'].content).toEqual({
      'application/pdf': { schema: expect.objectContaining({ type: 'string', format: 'binary' }) },
    });
    expect(Object.keys(p('/orders/export').get.responses['200'].content).sort()).toEqual([
      'application/json',
      'text/csv',
    ]);
    expect(p('/analytics').get).toBeDefined();
  });
});
