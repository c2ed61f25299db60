// Calls and fixtures shared by the support tests (inquiries, tickets, feedback).
import { randomInt } from 'node:crypto';
import { expect } from 'vitest';
import type { TestApp } from '../../helpers/app';
import { type SignedIn, signedInAdmin } from '../../helpers/factories';

export type Headers = Record<string, string>;
export type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';

/** A fresh client address, so per-IP throttles of one test never spill into another. */
export const newIp = () => `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;

export function caller(t: TestApp) {
  return (method: Method, url: string, opts: { headers?: Headers; payload?: unknown; ip?: string } = {}) =>
    t.app.inject({
      method,
      url,
      headers: opts.headers ?? {},
      remoteAddress: opts.ip ?? newIp(),
      ...(opts.payload === undefined ? {} : { payload: opts.payload as object }),
    });
}

export const bearer = (token: string): Headers => ({ authorization: `Bearer ${token}` });

export interface GuestInquiry {
  id: number;
  token: string;
  headers: Headers;
  data: Record<string, unknown> & { id: number; trackingCode: string; status: string };
}

export async function createGuestInquiry(
  t: TestApp,
  body: Record<string, unknown> = {},
): Promise<GuestInquiry> {
  const res = await caller(t)('POST', '/api/support-inquiries', {
    payload: { category: 'order', subject: 'Where is my parcel?', message: 'Ordered last week', ...body },
  });
  expect(res.statusCode).toBe(201);
  const data = res.json().data;
  return { id: data.id, token: data.inquiryAccessToken, headers: bearer(data.inquiryAccessToken), data };
}

export async function createCustomerInquiry(
  t: TestApp,
  customer: SignedIn,
  body: Record<string, unknown> = {},
) {
  const res = await caller(t)('POST', '/api/support-inquiries', {
    headers: customer.headers,
    payload: { category: 'payment', subject: 'Charged twice', message: 'Please check', ...body },
  });
  expect(res.statusCode).toBe(201);
  return res.json().data as { id: number; trackingCode: string; status: string; customerId: string };
}

/** 401 without a token, 403 AUTH_FORBIDDEN for a customer, 403 AUTH_PERMISSION_DENIED without `permission`. */
export async function expectAdminGuarded(
  t: TestApp,
  customer: SignedIn,
  method: Method,
  url: string,
  permission: string,
  payload?: unknown,
) {
  const call = caller(t);
  const none = await call(method, url, { payload });
  expect(none.statusCode).toBe(401);
  expect(none.json().errorCode).toBe('AUTH_UNAUTHORIZED');
  const asCustomer = await call(method, url, { headers: customer.headers, payload });
  expect(asCustomer.statusCode).toBe(403);
  expect(asCustomer.json().errorCode).toBe('AUTH_FORBIDDEN');
  const other = await signedInAdmin(t, { permissions: ['System_READ'] });
  const denied = await call(method, url, { headers: other.headers, payload });
  expect(denied.statusCode).toBe(403);
  expect(denied.json().errorCode).toBe('AUTH_PERMISSION_DENIED');
  expect(denied.json().message).toContain(permission);
}

/** The activity entries of one record, newest first (read by a superadmin). */
export async function activityOf(t: TestApp, auditor: SignedIn, entityType: string, entityId: number) {
  const res = await caller(t)('GET', `/api/admin/activity?entityType=${entityType}&entityId=${entityId}`, {
    headers: auditor.headers,
  });
  expect(res.statusCode).toBe(200);
  return res.json().data as Array<{ adminId: string; action: string; summary: string }>;
}
