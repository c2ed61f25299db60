// HTTP helpers of the banner tests: records made through the admin routes, and the guard check.
import { randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import type { BannerDeps } from '../../../src/modules/banners/banners.service';
import type { TestApp } from '../../helpers/app';
import { type SignedIn, signedInAdmin } from '../../helpers/factories';

export type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
export const unique = () => randomBytes(4).toString('hex');

/** The banner services' dependencies from a test app, to call a service or job directly. */
export const depsOf = (t: TestApp): BannerDeps => ({
  db: t.platform.database.db,
  clock: t.platform.clock,
  cache: t.platform.cache,
  config: t.platform.config,
  log: t.platform.log,
  jobs: t.platform.jobs,
});

export function bannerCalls(t: TestApp, admin: SignedIn) {
  const call = (
    method: Method,
    url: string,
    payload?: unknown,
    headers: Record<string, string> = admin.headers,
  ) =>
    t.app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload: payload as object }) });

  const expectOk = async (method: Method, url: string, payload?: unknown, status = 200) => {
    const res = await call(method, url, payload);
    expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(status);
    return res.json().data;
  };

  const expectError = async (method: Method, url: string, payload: unknown, status: number, code: string) => {
    const res = await call(method, url, payload);
    expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(status);
    expect(res.json().errorCode).toBe(code);
    return res.json();
  };

  /** 401 without a token, 403 AUTH_FORBIDDEN for a customer, 403 AUTH_PERMISSION_DENIED without the code. */
  async function expectGuarded(
    method: Method,
    url: string,
    permission: string,
    customer: SignedIn,
    payload?: unknown,
  ) {
    const none = await call(method, url, payload, {});
    expect(none.statusCode, `${method} ${url}`).toBe(401);
    expect(none.json().errorCode).toBe('AUTH_UNAUTHORIZED');
    const asCustomer = await call(method, url, payload, customer.headers);
    expect(asCustomer.statusCode).toBe(403);
    expect(asCustomer.json().errorCode).toBe('AUTH_FORBIDDEN');
    const other = await signedInAdmin(t, { permissions: ['System_READ'] });
    const denied = await call(method, url, payload, other.headers);
    expect(denied.statusCode).toBe(403);
    expect(denied.json().errorCode).toBe('AUTH_PERMISSION_DENIED');
    expect(denied.json().message).toContain(permission);
  }

  const banner = (body: Record<string, unknown> = {}) =>
    expectOk('POST', '/api/admin/banners', {
      title: `Banner ${unique()}`,
      primaryImageUrl: 'https://cdn.example.com/b.webp',
      ...body,
    });
  const placement = (body: Record<string, unknown> = {}) =>
    expectOk(
      'POST',
      '/api/admin/placements',
      { slug: `slot-${unique()}`, label: 'Slot', layoutType: 'full_slider', ...body },
      201,
    );
  const campaign = (body: Record<string, unknown> = {}) =>
    expectOk('POST', '/api/admin/campaigns', { name: `Campaign ${unique()}`, ...body }, 201);
  const activeCampaign = async (body: Record<string, unknown> = {}) => {
    const c = await campaign(body);
    return expectOk('PATCH', `/api/admin/campaigns/${c.publicId}/activate`);
  };
  const link = (campaignId: string, placementId: string, body: Record<string, unknown> = {}) =>
    expectOk(
      'POST',
      `/api/admin/campaigns/${campaignId}/placements`,
      { placementPublicId: placementId, ...body },
      201,
    );
  const assign = (
    campaignId: string,
    placementId: string,
    bannerId: string,
    body: Record<string, unknown> = {},
  ) =>
    expectOk(
      'POST',
      `/api/admin/campaigns/${campaignId}/placements/${placementId}/banners`,
      { bannerPublicId: bannerId, ...body },
      201,
    );
  const rule = (campaignId: string, body: Record<string, unknown>) =>
    expectOk('POST', '/api/admin/targeting-rules', { campaignPublicId: campaignId, ...body }, 201);

  async function activityOf(entityType: string, entityId: string) {
    const res = await call(
      'GET',
      `/api/admin/activity?entityType=${entityType}&entityId=${encodeURIComponent(entityId)}`,
    );
    expect(res.statusCode).toBe(200);
    return res.json().data as Array<{ adminId: string; action: string; summary: string }>;
  }

  return {
    call,
    expectOk,
    expectError,
    expectGuarded,
    banner,
    placement,
    campaign,
    activeCampaign,
    link,
    assign,
    rule,
    activityOf,
  };
}
