// HTTP helpers of the content tests.
import { expect } from 'vitest';
import type { TestApp } from '../../helpers/app';
import { type SignedIn, signedInAdmin } from '../../helpers/factories';

export type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
export type Headers = Record<string, string>;

export function contentCalls(t: TestApp) {
  const call = (method: Method, url: string, headers: Headers = {}, payload?: unknown) =>
    t.app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload: payload as object }) });

  const admin = (pageKey: string) => `/api/admin/content/pages/${pageKey}`;
  const section = (pageKey: string, sectionKey: string) => `${admin(pageKey)}/sections/${sectionKey}`;

  /** 401 without a token, 403 AUTH_FORBIDDEN for a customer, 403 AUTH_PERMISSION_DENIED without `permission`. */
  async function expectGuarded(
    method: Method,
    url: string,
    permission: string,
    customer: SignedIn,
    payload?: unknown,
  ) {
    const none = await call(method, url, {}, payload);
    expect(none.statusCode).toBe(401);
    expect(none.json().errorCode).toBe('AUTH_UNAUTHORIZED');
    const asCustomer = await call(method, url, customer.headers, payload);
    expect(asCustomer.statusCode).toBe(403);
    expect(asCustomer.json().errorCode).toBe('AUTH_FORBIDDEN');
    const other = await signedInAdmin(t, {
      permissions: ['Content_READ', 'Content_UPDATE', 'Content_DELETE'].filter((p) => p !== permission),
    });
    const denied = await call(method, url, other.headers, payload);
    expect(denied.statusCode).toBe(403);
    expect(denied.json().errorCode).toBe('AUTH_PERMISSION_DENIED');
    expect(denied.json().message).toContain(permission);
  }

  async function activityOf(auditor: SignedIn, entityId: number) {
    const res = await call(
      'GET',
      `/api/admin/activity?entityType=content_page&entityId=${entityId}`,
      auditor.headers,
    );
    expect(res.statusCode).toBe(200);
    return res.json().data as Array<{ adminId: string; action: string; summary: string }>;
  }

  return { call, admin, section, expectGuarded, activityOf };
}
