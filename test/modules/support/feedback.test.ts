// Feedback: customers send it; the back office lists, reads and reviews it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClock } from '../../../src/platform/clock';
import { createTestApp, type TestApp } from '../../helpers/app';
import { type SignedIn, signedInAdmin, signedInCustomer } from '../../helpers/factories';
import { activityOf, caller, createGuestInquiry, expectAdminGuarded } from './support-helpers';

describe('feedback', () => {
  let t: TestApp;
  let call: ReturnType<typeof caller>;
  let customer: SignedIn;
  let reader: SignedIn;
  let reviewer: SignedIn;
  let auditor: SignedIn;
  const clock = new TestClock(new Date());
  beforeAll(async () => {
    t = await createTestApp({ clock });
    call = caller(t);
    customer = await signedInCustomer(t);
    reader = await signedInAdmin(t, { permissions: ['Feedback_READ'] });
    reviewer = await signedInAdmin(t, { permissions: ['Feedback_READ', 'Feedback_UPDATE'] });
    auditor = await signedInAdmin(t, { superadmin: true });
  });
  afterAll(() => t.close());

  async function send(body: Record<string, unknown> = {}) {
    const res = await call('POST', '/api/mobile/feedback', {
      headers: customer.headers,
      payload: { category: 'bug_report', subject: 'Crash', message: 'The cart crashes', ...body },
    });
    expect(res.statusCode).toBe(201);
    return res.json().data as { id: number };
  }

  it('POST /api/mobile/feedback creates a new record (201)', async () => {
    const res = await call('POST', '/api/mobile/feedback', {
      headers: customer.headers,
      payload: { category: 'feature_request', subject: ' Dark mode ', message: ' please ' },
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().data).toEqual({
      id: expect.any(Number),
      customerId: customer.userId,
      category: 'feature_request',
      subject: 'Dark mode',
      message: 'please',
      status: 'new',
      reviewedByAdminId: null,
      reviewedAt: null,
      createdAt: clock.now().toISOString(),
      updatedAt: clock.now().toISOString(),
    });
  });

  it('POST validates the body and needs a customer JWT', async () => {
    for (const payload of [
      { category: 'praise', subject: 'x', message: 'y' },
      { category: 'bug_report', subject: '', message: 'y' },
      { category: 'bug_report', subject: 'x', message: '   ' },
      { category: 'bug_report', subject: 'x'.repeat(256), message: 'y' },
    ]) {
      const res = await call('POST', '/api/mobile/feedback', { headers: customer.headers, payload });
      expect(res.statusCode).toBe(400);
      expect(res.json().errorCode).toBe('VALIDATION_ERROR');
    }
    const payload = { category: 'bug_report', subject: 'x', message: 'y' };
    expect((await call('POST', '/api/mobile/feedback', { payload })).statusCode).toBe(401);
    const asAdmin = await call('POST', '/api/mobile/feedback', { headers: reviewer.headers, payload });
    expect(asAdmin.statusCode).toBe(403);
    expect(asAdmin.json().errorCode).toBe('AUTH_FORBIDDEN');
    const g = await createGuestInquiry(t);
    expect((await call('POST', '/api/mobile/feedback', { headers: g.headers, payload })).statusCode).toBe(
      401,
    );
  });

  it('admin routes are guarded', async () => {
    const { id } = await send();
    await expectAdminGuarded(t, customer, 'GET', '/api/admin/feedback', 'Feedback_READ');
    await expectAdminGuarded(t, customer, 'GET', `/api/admin/feedback/${id}`, 'Feedback_READ');
    await expectAdminGuarded(t, customer, 'PATCH', `/api/admin/feedback/${id}/review`, 'Feedback_UPDATE');
    const readOnly = await call('PATCH', `/api/admin/feedback/${id}/review`, { headers: reader.headers });
    expect(readOnly.statusCode).toBe(403);
    expect(readOnly.json().errorCode).toBe('AUTH_PERMISSION_DENIED');
  });

  it('lists with status, category and search on subject and message, paginated', async () => {
    const tag = `fb${Date.now()}`;
    const a = await send({ subject: `Slow ${tag}`, category: 'general_feedback' });
    const b = await send({ message: `search ${tag} finds nothing` });
    await call('PATCH', `/api/admin/feedback/${b.id}/review`, { headers: reviewer.headers });
    const ids = async (query: string) => {
      const res = await call('GET', `/api/admin/feedback?${query}`, { headers: reader.headers });
      expect(res.statusCode, query).toBe(200);
      return res.json().data.map((f: { id: number }) => f.id);
    };
    expect(await ids(`search=${tag}`)).toEqual([b.id, a.id]);
    expect(await ids(`search=${tag}&order=asc`)).toEqual([a.id, b.id]);
    expect(await ids(`search=${tag}&status=reviewed`)).toEqual([b.id]);
    expect(await ids(`search=${tag}&status=new`)).toEqual([a.id]);
    expect(await ids(`search=${tag}&category=general_feedback`)).toEqual([a.id]);
    const page = await call('GET', `/api/admin/feedback?search=${tag}&size=1`, { headers: reader.headers });
    expect(page.json().meta).toEqual({ count: 2, page: 1, size: 1 });
    const all = await call('GET', `/api/admin/feedback?search=${tag}&pagination=false`, {
      headers: reader.headers,
    });
    expect(all.json().meta).toEqual({ count: 2 });
    const bad = await call('GET', '/api/admin/feedback?status=old', { headers: reader.headers });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errorCode).toBe('VALIDATION_ERROR');
  });

  it('detail: 200, unknown 404 FEEDBACK_NOT_FOUND, bad id 400', async () => {
    const { id } = await send();
    const res = await call('GET', `/api/admin/feedback/${id}`, { headers: reader.headers });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ id, status: 'new' });
    const unknown = await call('GET', '/api/admin/feedback/999999', { headers: reader.headers });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().errorCode).toBe('FEEDBACK_NOT_FOUND');
    expect((await call('GET', '/api/admin/feedback/x', { headers: reader.headers })).statusCode).toBe(400);
  });

  it('review sets reviewer and time and records activity once; again answers 200 unchanged', async () => {
    const { id } = await send();
    clock.advance(1000);
    const first = await call('PATCH', `/api/admin/feedback/${id}/review`, { headers: reviewer.headers });
    expect(first.statusCode).toBe(200);
    expect(first.json().data).toMatchObject({
      status: 'reviewed',
      reviewedByAdminId: reviewer.userId,
      reviewedAt: clock.now().toISOString(),
      updatedAt: clock.now().toISOString(),
    });
    clock.advance(1000);
    const other = await signedInAdmin(t, { permissions: ['Feedback_UPDATE'] });
    const again = await call('PATCH', `/api/admin/feedback/${id}/review`, { headers: other.headers });
    expect(again.statusCode).toBe(200);
    expect(again.json().data).toEqual(first.json().data);
    const activity = await activityOf(t, auditor, 'feedback', id);
    expect(activity).toHaveLength(1);
    expect(activity[0]).toMatchObject({ adminId: reviewer.userId, action: 'review' });
    const unknown = await call('PATCH', '/api/admin/feedback/999999/review', { headers: reviewer.headers });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().errorCode).toBe('FEEDBACK_NOT_FOUND');
  });
});
