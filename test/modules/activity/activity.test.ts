// The admin activity trail: recordActivity in a write's transaction, and the list route.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordActivity } from '../../../src/modules/activity';
import { TestClock } from '../../../src/platform/clock';
import { inTransaction } from '../../../src/platform/db/transaction';
import { createTestApp, type TestApp } from '../../helpers/app';
import { type SignedIn, signedInAdmin, signedInCustomer } from '../../helpers/factories';

describe('admin activity', () => {
  let t: TestApp;
  let reader: SignedIn;
  const clock = new TestClock('2026-03-01T10:00:00.000Z');
  beforeAll(async () => {
    t = await createTestApp({ clock });
    reader = await signedInAdmin(t, { permissions: ['ActivityLogs_READ'] });
  });
  afterAll(() => t.close());

  const list = (query: string, headers = reader.headers) =>
    t.app.inject({ method: 'GET', url: `/api/admin/activity?${query}`, headers });
  const at = (iso: string) => new Date(iso);

  /** An admin with three entries: two on one product at 09:00 and 11:00, one on an order at 10:00. */
  async function adminWithHistory() {
    const admin = await signedInAdmin(t, { permissions: [] });
    const db = t.platform.database.db;
    const base = { adminId: admin.userId };
    await recordActivity(db, {
      ...base,
      action: 'create',
      entityType: 'product',
      entityId: 7,
      summary: 'Created product 7',
      at: at('2026-02-01T09:00:00Z'),
    });
    await recordActivity(db, {
      ...base,
      action: 'update',
      entityType: 'order',
      entityId: 'ORD-1',
      summary: 'Updated order ORD-1',
      at: at('2026-02-01T10:00:00Z'),
    });
    await recordActivity(db, {
      ...base,
      action: 'publish',
      entityType: 'product',
      entityId: 7,
      summary: 'Published product 7',
      at: at('2026-02-01T11:00:00Z'),
    });
    return admin;
  }

  it('lists an admin’s entries newest first, with the standard meta', async () => {
    const admin = await adminWithHistory();
    const res = await list(`adminId=${admin.userId}`);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.meta).toEqual({ count: 3, page: 1, size: 20 });
    expect(body.data.map((e: { summary: string }) => e.summary)).toEqual([
      'Published product 7',
      'Updated order ORD-1',
      'Created product 7',
    ]);
    expect(body.data[0]).toEqual({
      id: expect.any(Number),
      adminId: admin.userId,
      action: 'publish',
      entityType: 'product',
      entityId: '7',
      summary: 'Published product 7',
      createdAt: '2026-02-01T11:00:00.000Z',
    });
  });

  it('filters by entity type and id, and by an inclusive from/to window', async () => {
    const admin = await adminWithHistory();
    const summaries = async (query: string) =>
      (await list(`adminId=${admin.userId}&${query}`)).json().data.map((e: { summary: string }) => e.summary);

    expect(await summaries('entityType=product')).toEqual(['Published product 7', 'Created product 7']);
    expect(await summaries('entityType=order&entityId=ORD-1')).toEqual(['Updated order ORD-1']);
    expect(await summaries('entityType=product&entityId=8')).toEqual([]);
    expect(await summaries('from=2026-02-01T10:00:00Z')).toEqual([
      'Published product 7',
      'Updated order ORD-1',
    ]);
    expect(await summaries('to=2026-02-01T10:00:00.000Z')).toEqual([
      'Updated order ORD-1',
      'Created product 7',
    ]);
    // An offset is honoured: 15:45 in Nepal is 10:00 UTC.
    expect(await summaries('from=2026-02-01T15:45:00%2B05:45&to=2026-02-01T15:45:00%2B05:45')).toEqual([
      'Updated order ORD-1',
    ]);
  });

  it('pages, and order=asc lists oldest first', async () => {
    const admin = await adminWithHistory();
    const page = await list(`adminId=${admin.userId}&size=2&page=2`);
    expect(page.json().meta).toEqual({ count: 3, page: 2, size: 2 });
    expect(page.json().data.map((e: { summary: string }) => e.summary)).toEqual(['Created product 7']);
    const asc = await list(`adminId=${admin.userId}&order=asc&pagination=false`);
    expect(asc.json().meta).toEqual({ count: 3 });
    expect(asc.json().data[0].summary).toBe('Created product 7');
  });

  it('without a time, an entry takes the database time of its transaction', async () => {
    const admin = await signedInAdmin(t, { permissions: [] });
    const before = Date.now();
    await recordActivity(t.platform.database.db, {
      adminId: admin.userId,
      action: 'delete',
      entityType: 'banner',
      entityId: null,
      summary: 'Deleted a banner',
    });
    const [entry] = (await list(`adminId=${admin.userId}`)).json().data;
    expect(entry.entityId).toBeNull();
    expect(Date.parse(entry.createdAt)).toBeGreaterThanOrEqual(before - 5_000);
    expect(Date.parse(entry.createdAt)).toBeLessThanOrEqual(Date.now() + 5_000);
  });

  it('an entry written in a transaction that rolls back is not kept', async () => {
    const admin = await signedInAdmin(t, { permissions: [] });
    const failed = inTransaction(t.platform.database.db, async (tx) => {
      await recordActivity(tx, {
        adminId: admin.userId,
        action: 'update',
        entityType: 'coupon',
        entityId: 1,
        summary: 'Updated coupon 1',
      });
      throw new Error('the write failed after its activity entry');
    });
    await expect(failed).rejects.toThrow('the write failed');
    expect((await list(`adminId=${admin.userId}`)).json().meta.count).toBe(0);
  });

  it('a bad filter is 400 VALIDATION_ERROR', async () => {
    for (const query of [
      'adminId=not-a-uuid',
      'from=yesterday',
      'to=2026-02-01',
      'from=2026-02-02T00:00:00Z&to=2026-02-01T00:00:00Z',
      'size=500',
      'sort=summary',
    ]) {
      const res = await list(query);
      expect(res.statusCode, query).toBe(400);
      expect(res.json().errorCode).toBe('VALIDATION_ERROR');
    }
  });

  it('needs an admin with ActivityLogs_READ', async () => {
    const none = await t.app.inject({ method: 'GET', url: '/api/admin/activity' });
    expect(none.statusCode).toBe(401);
    expect(none.json().errorCode).toBe('AUTH_UNAUTHORIZED');
    const customer = await signedInCustomer(t);
    const asCustomer = await list('', customer.headers);
    expect(asCustomer.statusCode).toBe(403);
    expect(asCustomer.json().errorCode).toBe('AUTH_FORBIDDEN');
    const other = await signedInAdmin(t, { permissions: ['Roles_READ'] });
    const denied = await list('', other.headers);
    expect(denied.statusCode).toBe(403);
    expect(denied.json().errorCode).toBe('AUTH_PERMISSION_DENIED');
  });

  it('is in the permission catalogue under ActivityLogs', async () => {
    const admin = await signedInAdmin(t, { permissions: ['Roles_READ'] });
    const res = await t.app.inject({ method: 'GET', url: '/api/admin/permissions', headers: admin.headers });
    expect(res.json().data).toContainEqual({ module: 'ActivityLogs', codes: ['ActivityLogs_READ'] });
  });
});
