// Rules that must hold when requests race (meaningful on PostgreSQL: PGlite serialises
// everything, so on the embedded tier these only check the outcome).
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeInactiveInquiries } from '../../../src/modules/support/inquiries/inquiries.service';
import { supportInquiries } from '../../../src/modules/support/inquiries/inquiries.table';
import { supportEvents } from '../../../src/modules/support/realtime/support-events.table';
import { TestClock } from '../../../src/platform/clock';
import { createTestApp, type TestApp } from '../../helpers/app';
import { type SignedIn, signedInAdmin, signedInCustomer } from '../../helpers/factories';
import { lastMailTo } from '../../helpers/mail';
import { activityOf, caller, createGuestInquiry } from './support-helpers';

describe('support under concurrency', () => {
  let t: TestApp;
  let call: ReturnType<typeof caller>;
  let auditor: SignedIn;
  const clock = new TestClock(new Date());
  beforeAll(async () => {
    t = await createTestApp({ clock });
    call = caller(t);
    auditor = await signedInAdmin(t, { superadmin: true });
  });
  afterAll(() => t.close());

  it('of many concurrent confirmations with the right code exactly one succeeds', async () => {
    const email = `race-${Date.now()}@example.com`;
    const g = await createGuestInquiry(t, { guestEmail: email });
    await call('POST', `/api/support-inquiries/${g.id}/verify-email/request`, { headers: g.headers });
    const { code } = (await lastMailTo(t, email))!;
    const results = await Promise.all(
      Array.from({ length: 6 }, () =>
        call('POST', `/api/support-inquiries/${g.id}/verify-email/confirm`, {
          headers: g.headers,
          payload: { otp: code },
        }),
      ),
    );
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 400, 400, 400, 400, 400]);
  });

  it('concurrent wrong guesses are all counted: the code dies after five', async () => {
    const email = `guesses-${Date.now()}@example.com`;
    const g = await createGuestInquiry(t, { guestEmail: email });
    await call('POST', `/api/support-inquiries/${g.id}/verify-email/request`, { headers: g.headers });
    const { code } = (await lastMailTo(t, email))!;
    const wrong = code === '123456' ? '654321' : '123456';
    await Promise.all(
      Array.from({ length: 5 }, () =>
        call('POST', `/api/support-inquiries/${g.id}/verify-email/confirm`, {
          headers: g.headers,
          payload: { otp: wrong },
        }),
      ),
    );
    const right = await call('POST', `/api/support-inquiries/${g.id}/verify-email/confirm`, {
      headers: g.headers,
      payload: { otp: code },
    });
    expect(right.statusCode).toBe(400);
    expect(right.json().errorCode).toBe('SUPPORT_INQUIRY_EMAIL_VERIFICATION_INVALID');
  });

  it('two admins reviewing the same feedback at once: one review, one activity record', async () => {
    const customer = await signedInCustomer(t);
    const created = await call('POST', '/api/mobile/feedback', {
      headers: customer.headers,
      payload: { category: 'bug_report', subject: 'Race', message: 'twice' },
    });
    const id = created.json().data.id;
    const admins = await Promise.all([
      signedInAdmin(t, { permissions: ['Feedback_UPDATE'] }),
      signedInAdmin(t, { permissions: ['Feedback_UPDATE'] }),
    ]);
    const results = await Promise.all(
      admins.map((a) => call('PATCH', `/api/admin/feedback/${id}/review`, { headers: a.headers })),
    );
    expect(results.map((r) => r.statusCode)).toEqual([200, 200]);
    const reviewers = results.map((r) => r.json().data.reviewedByAdminId);
    expect(reviewers[0]).toBe(reviewers[1]);
    expect(await activityOf(t, auditor, 'feedback', id)).toHaveLength(1);
  });

  it('overlapping sweeps close each idle inquiry once, the same way', async () => {
    const ids: number[] = [];
    for (let i = 0; i < 4; i++) ids.push((await createGuestInquiry(t)).id);
    const started = clock.now();
    try {
      clock.advance(8 * 86_400_000);
      const deps = { db: t.platform.database.db, clock };
      const runs = await Promise.all([closeInactiveInquiries(deps, 7), closeInactiveInquiries(deps, 7)]);
      const closed = runs.flat().filter((id) => ids.includes(id));
      expect(closed.sort()).toEqual([...ids].sort());
      const rows = await t.platform.database.db
        .select()
        .from(supportInquiries)
        .where(inArray(supportInquiries.id, ids));
      expect(
        rows.every((r) => r.status === 'closed' && r.closedAt?.getTime() === clock.now().getTime()),
      ).toBe(true);
    } finally {
      clock.set(started);
    }
  });

  it('concurrent messages to one inquiry get distinct, gapless room sequence numbers', async () => {
    const g = await createGuestInquiry(t);
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        call('POST', `/api/support-inquiries/${g.id}/messages`, {
          headers: g.headers,
          payload: { body: `m${i}` },
        }),
      ),
    );
    expect(results.every((r) => r.statusCode === 201)).toBe(true);
    const detail = await call('GET', `/api/support-inquiries/${g.id}/messages`, { headers: g.headers });
    expect(detail.json().data).toHaveLength(10);
    const events = await t.platform.database.db
      .select()
      .from(supportEvents)
      .where(eq(supportEvents.room, `support:inquiry:${g.id}:messages`));
    expect(events.map((e) => e.seq).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });
});
