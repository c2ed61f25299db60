// HTTP helpers of the catalog's stock, district, care-package and digital-key tests.
import { expect } from 'vitest';
import { products } from '../../../src/modules/catalog/products/products.table';
import type { TestApp } from '../../helpers/app';
import { createTestApp } from '../../helpers/app';
import { type SignedIn, signedInAdmin, signedInCustomer } from '../../helpers/factories';

export type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
export type Headers = Record<string, string>;

export function caller(t: TestApp) {
  const call = (method: Method, url: string, headers: Headers = {}, payload?: unknown) =>
    t.app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload: payload as object }) });

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
    const other = await signedInAdmin(t, { permissions: ['System_READ'] });
    const denied = await call(method, url, other.headers, payload);
    expect(denied.statusCode).toBe(403);
    expect(denied.json().errorCode).toBe('AUTH_PERMISSION_DENIED');
    expect(denied.json().message).toContain(permission);
  }

  /** The activity entries of one record, newest first, read by a superadmin. */
  async function activityOf(auditor: SignedIn, entityType: string, entityId: string | number) {
    const res = await call(
      'GET',
      `/api/admin/activity?entityType=${entityType}&entityId=${entityId}`,
      auditor.headers,
    );
    expect(res.statusCode).toBe(200);
    return res.json().data as Array<{ adminId: string; action: string; summary: string }>;
  }

  return { call, expectGuarded, activityOf };
}

let productSeq = 0;
/** A product row for stock, key and care-package tests (the product routes are tested elsewhere). */
export async function insertProduct(
  t: TestApp,
  values: Partial<typeof products.$inferInsert> & { productKind: 'physical' | 'digital' | 'care_package' },
): Promise<number> {
  productSeq += 1;
  const slug = `test-product-${productSeq}-${Math.random().toString(36).slice(2, 8)}`;
  const [row] = await t.platform.database.db
    .insert(products)
    .values({ title: slug, slug, mrp: 1000, status: 'published', ...values })
    .returning({ id: products.id });
  return row!.id;
}

/** A test app with a superadmin (who also reads the activity trail) and a customer. */
export async function catalogTestApp() {
  const t = await createTestApp();
  return {
    t,
    db: t.platform.database.db,
    http: caller(t),
    admin: await signedInAdmin(t, { superadmin: true }),
    customer: await signedInCustomer(t),
  };
}
