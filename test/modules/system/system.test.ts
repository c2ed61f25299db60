import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemHeartbeats } from '../../../src/modules/system/system.table';
import { createTestApp, type TestApp } from '../../helpers/app';
import { signedInAdmin, signedInCustomer } from '../../helpers/factories';
import { servicesTier } from '../../helpers/services';

describe('system module', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('GET /api/admin/system/info answers version, uptime and drivers to an admin with System_READ', async () => {
    const admin = await signedInAdmin(t, { permissions: ['System_READ'] });
    const res = await t.app.inject({ method: 'GET', url: '/api/admin/system/info', headers: admin.headers });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.message).toBeTypeOf('string');
    expect(body.data).toMatchObject({
      name: 'Pasal',
      environment: 'test',
      role: 'all',
      drivers: servicesTier
        ? { database: 'postgres', cache: 'redis', jobs: 'bullmq', realtime: 'redis' }
        : { database: 'pglite', cache: 'memory', jobs: 'memory', realtime: 'memory' },
    });
    expect(body.data.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(body.data.uptimeSeconds).toBeGreaterThanOrEqual(0);
  });

  it('refuses a call without a token (401), a customer (403) and an admin without System_READ (403)', async () => {
    const none = await t.app.inject({ method: 'GET', url: '/api/admin/system/info' });
    expect(none.statusCode).toBe(401);
    expect(none.json().errorCode).toBe('AUTH_UNAUTHORIZED');

    const customer = await signedInCustomer(t);
    const asCustomer = await t.app.inject({
      method: 'GET',
      url: '/api/admin/system/info',
      headers: customer.headers,
    });
    expect(asCustomer.statusCode).toBe(403);
    expect(asCustomer.json().errorCode).toBe('AUTH_FORBIDDEN');

    const other = await signedInAdmin(t, { permissions: ['System_UPDATE'] });
    const denied = await t.app.inject({
      method: 'GET',
      url: '/api/admin/system/info',
      headers: other.headers,
    });
    expect(denied.statusCode).toBe(403);
    expect(denied.json().errorCode).toBe('AUTH_PERMISSION_DENIED');
  });

  it('a superadmin holds System_READ without it being granted', async () => {
    const admin = await signedInAdmin(t, { superadmin: true });
    const res = await t.app.inject({ method: 'GET', url: '/api/admin/system/info', headers: admin.headers });
    expect(res.statusCode).toBe(200);
  });

  it('POST /api/admin/system/heartbeat queues the heartbeat job, whose run shows in the info', async () => {
    const admin = await signedInAdmin(t, { permissions: ['System_READ', 'System_UPDATE'] });
    // The every-minute schedule may have beaten already: start from no heartbeat at all.
    await t.platform.database.db.delete(systemHeartbeats);
    const before = await t.app.inject({
      method: 'GET',
      url: '/api/admin/system/info',
      headers: admin.headers,
    });
    expect(before.json().data.lastJobHeartbeatAt).toBeNull();
    const askedAt = Date.now();

    const queued = await t.app.inject({
      method: 'POST',
      url: '/api/admin/system/heartbeat',
      headers: admin.headers,
    });
    expect(queued.statusCode).toBe(200);
    expect(queued.json().data).toEqual({ queued: true });
    await t.drainJobs();

    const after = await t.app.inject({
      method: 'GET',
      url: '/api/admin/system/info',
      headers: admin.headers,
    });
    const beat = after.json().data.lastJobHeartbeatAt;
    expect(beat).not.toBeNull();
    expect(Date.parse(beat)).toBeGreaterThanOrEqual(askedAt - 1000);
  });

  it('GET /api/system/status is public and served from the cache', async () => {
    const first = await t.app.inject({ method: 'GET', url: '/api/system/status' });
    expect(first.statusCode).toBe(200);
    expect(first.json().data).toMatchObject({ name: 'Pasal' });
    // The cached copy is what the next call reads, even after the cache entry is changed behind it.
    await t.platform.cache.set(
      'system:status',
      { name: 'Cached', version: '9.9.9', lastJobHeartbeatAt: null },
      5000,
    );
    const second = await t.app.inject({ method: 'GET', url: '/api/system/status' });
    expect(second.json().data.name).toBe('Cached');
  });
});
