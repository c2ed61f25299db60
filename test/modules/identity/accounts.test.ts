// Registration, email verification, passwords, phone verification and account deletion.
import { randomBytes, randomInt } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdmin, createCustomerAccount } from '../../../src/modules/identity';
import { oneTimeCodes, users } from '../../../src/modules/identity/identity.table';
import { TestClock } from '../../../src/platform/clock';
import { sha256Hex } from '../../../src/platform/security/tokens';
import { createTestApp, type TestApp } from '../../helpers/app';
import { signedInAdmin, signedInCustomer, TEST_PASSWORD } from '../../helpers/factories';
import { lastMailTo, mailCountTo } from '../../helpers/mail';

const unique = () => randomBytes(4).toString('hex');
const newEmail = () => `new-${unique()}@example.com`;
/** docs/decisions.md, "Device info": customer register and login require it. */
const device = { deviceId: 'dev-1', deviceType: 'android', deviceName: 'Pixel' };
/** A fresh client address per call: the per-IP limits of the account routes are tested on their own. */
const newIp = () => `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;

describe('accounts', () => {
  let t: TestApp;
  const clock = new TestClock(new Date());
  beforeAll(async () => {
    t = await createTestApp({ clock });
  });
  afterAll(() => t.close());

  const post = (url: string, payload: unknown, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'POST', url, payload: payload as object, headers, remoteAddress: newIp() });
  const userRow = async (email: string) =>
    (await t.platform.database.db.select().from(users).where(eq(users.email, email)))[0];
  const register = (email: string, extra: Record<string, unknown> = {}) =>
    post('/api/mobile/auth/register', {
      name: 'Sita Gurung',
      email,
      password: TEST_PASSWORD,
      deviceInfo: device,
      ...extra,
    });

  describe('register (POST /api/mobile/auth/register)', () => {
    it('201 with the unverified profile, no tokens, and a verification email with a code and a link', async () => {
      const email = newEmail();
      const res = await register(email, {
        deviceInfo: { deviceId: 'd', deviceType: 'android', deviceName: 'Pixel' },
      });
      expect(res.statusCode).toBe(201);
      const body = res.json();
      expect(body.data).toMatchObject({ email, name: 'Sita Gurung', emailVerified: false, role: 'customer' });
      expect(body.data).not.toHaveProperty('tokens');
      const mail = await lastMailTo(t, email);
      expect(mail?.code).toMatch(/^\d{6}$/);
      expect(mail?.token?.length).toBeGreaterThan(30);
      expect(mail?.message.html).toContain(mail!.code);
      // The code and the link token are stored only as digests.
      const rows = await t.platform.database.db
        .select()
        .from(oneTimeCodes)
        .where(eq(oneTimeCodes.target, email));
      expect(rows).toHaveLength(1);
      expect(rows[0]!.tokenDigest).toBe(sha256Hex(mail!.token!));
      expect(rows[0]!.codeDigest).toMatch(/^[0-9a-f]{64}$/);
      expect(JSON.stringify(rows)).not.toContain(mail!.token!);
      // No column holds the code itself (a digest may contain its digits by chance, hence the quotes).
      expect(JSON.stringify(rows)).not.toContain(`"${mail!.code}"`);
    });

    it('the duplicate-email table: pending verification, already exists, pending deletion', async () => {
      const email = newEmail();
      await register(email);
      const mailsBefore = await mailCountTo(t, email);
      const pending = await register(email);
      expect(pending.statusCode).toBe(409);
      expect(pending.json().errorCode).toBe('AUTH_EMAIL_VERIFICATION_PENDING');
      expect(await mailCountTo(t, email)).toBe(mailsBefore); // no resend from register

      const verified = await signedInCustomer(t);
      const exists = await register(verified.email.toUpperCase());
      expect(exists.statusCode).toBe(409);
      expect(exists.json().errorCode).toBe('AUTH_EMAIL_ALREADY_EXISTS');

      const admin = await signedInAdmin(t, { superadmin: true });
      expect((await register(admin.email)).json().errorCode).toBe('AUTH_EMAIL_ALREADY_EXISTS');

      const leaving = await signedInCustomer(t);
      await post('/api/mobile/account/deletion', { password: TEST_PASSWORD }, leaving.headers);
      const deleting = await register(leaving.email);
      expect(deleting.statusCode).toBe(409);
      expect(deleting.json().errorCode).toBe('ACCOUNT_PENDING_DELETION');
    });

    it.each([
      ['a 7-character password', { password: 'short12' }],
      ['a 129-character password', { password: 'x'.repeat(129) }],
      ['a blank name', { name: '  ' }],
      ['a bad email', { email: 'not-an-email' }],
    ])('%s: 400 VALIDATION_ERROR', async (_case, override) => {
      const res = await post('/api/mobile/auth/register', {
        name: 'Sita',
        email: newEmail(),
        password: TEST_PASSWORD,
        deviceInfo: device,
        ...override,
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().errorCode).toBe('VALIDATION_ERROR');
    });
  });

  describe('email verification', () => {
    it('confirm with email and code: 200 { user } verified, a welcome email, then login works', async () => {
      const email = newEmail();
      await register(email);
      const { code } = (await lastMailTo(t, email))!;
      const res = await post('/api/mobile/auth/email/verify/confirm', { email, code });
      expect(res.statusCode).toBe(200);
      expect(res.json().data.user).toMatchObject({ email, emailVerified: true });
      expect((await lastMailTo(t, email))?.message.subject).toBe('Welcome');
      const login = await post('/api/mobile/auth/login/email', {
        email,
        password: TEST_PASSWORD,
        deviceInfo: device,
      });
      expect(login.statusCode).toBe(200);
    });

    it('confirm with the link token works once', async () => {
      const email = newEmail();
      await register(email);
      const { token } = (await lastMailTo(t, email))!;
      expect((await post('/api/mobile/auth/email/verify/confirm', { token })).statusCode).toBe(200);
      const again = await post('/api/mobile/auth/email/verify/confirm', { token });
      expect(again.statusCode).toBe(400);
      expect(again.json().errorCode).toBe('AUTH_EMAIL_VERIFICATION_INVALID');
    });

    it('a wrong, expired or missing code: 400 AUTH_EMAIL_VERIFICATION_INVALID; neither form: 400 VALIDATION_ERROR', async () => {
      const email = newEmail();
      await register(email);
      const { code } = (await lastMailTo(t, email))!;
      const wrong = code === '000000' ? '111111' : '000000';
      expect(
        (await post('/api/mobile/auth/email/verify/confirm', { email, code: wrong })).json().errorCode,
      ).toBe('AUTH_EMAIL_VERIFICATION_INVALID');
      clock.advance(24 * 3_600_000 + 1000);
      expect((await post('/api/mobile/auth/email/verify/confirm', { email, code })).json().errorCode).toBe(
        'AUTH_EMAIL_VERIFICATION_INVALID',
      );
      const neither = await post('/api/mobile/auth/email/verify/confirm', { email });
      expect(neither.json().errorCode).toBe('VALIDATION_ERROR');
    });

    it('50 concurrent confirmations with one code: exactly one succeeds', async () => {
      const email = newEmail();
      await register(email);
      const { code } = (await lastMailTo(t, email))!;
      const results = await Promise.all(
        Array.from({ length: 50 }, () => post('/api/mobile/auth/email/verify/confirm', { email, code })),
      );
      expect(results.filter((r) => r.statusCode === 200)).toHaveLength(1);
      expect(results.filter((r) => r.json().errorCode === 'AUTH_EMAIL_VERIFICATION_INVALID')).toHaveLength(
        49,
      );
    });

    it('five wrong codes kill the code, even for the right one', async () => {
      const email = newEmail();
      await register(email);
      const { code } = (await lastMailTo(t, email))!;
      const wrong = code === '000000' ? '111111' : '000000';
      for (let i = 0; i < 5; i++) await post('/api/mobile/auth/email/verify/confirm', { email, code: wrong });
      const right = await post('/api/mobile/auth/email/verify/confirm', { email, code });
      expect(right.statusCode).toBe(400);
    });

    it('resend: the same 200 for unknown and unverified emails; one a minute, five an hour per address', async () => {
      const email = newEmail();
      await register(email);
      clock.advance(61_000);
      const before = await mailCountTo(t, email);
      const known = await post('/api/mobile/auth/email/verify/resend', { email });
      const unknownEmail = newEmail();
      const unknown = await post('/api/mobile/auth/email/verify/resend', { email: unknownEmail });
      expect(known.statusCode).toBe(200);
      expect(unknown.statusCode).toBe(200);
      expect(known.json()).toEqual(unknown.json());
      expect(await mailCountTo(t, email)).toBe(before + 1);
      expect(await mailCountTo(t, unknownEmail)).toBe(0);

      // The limit counts unknown addresses too, so a 429 tells nothing either.
      const tooSoonKnown = await post('/api/mobile/auth/email/verify/resend', { email });
      const tooSoonUnknown = await post('/api/mobile/auth/email/verify/resend', { email: unknownEmail });
      expect(tooSoonKnown.statusCode).toBe(429);
      expect(tooSoonUnknown.statusCode).toBe(429);

      for (let i = 0; i < 4; i++) {
        clock.advance(61_000);
        expect((await post('/api/mobile/auth/email/verify/resend', { email })).statusCode).toBe(200);
      }
      clock.advance(61_000);
      expect((await post('/api/mobile/auth/email/verify/resend', { email })).statusCode).toBe(429);
    });

    it('only the newest code works after a resend', async () => {
      const email = newEmail();
      await register(email);
      const first = (await lastMailTo(t, email))!;
      clock.advance(61_000);
      await post('/api/mobile/auth/email/verify/resend', { email });
      const second = (await lastMailTo(t, email))!;
      if (first.code !== second.code) {
        expect(
          (await post('/api/mobile/auth/email/verify/confirm', { email, code: first.code })).statusCode,
        ).toBe(400);
      }
      expect((await post('/api/mobile/auth/email/verify/confirm', { token: first.token })).statusCode).toBe(
        400,
      );
      expect(
        (await post('/api/mobile/auth/email/verify/confirm', { email, code: second.code })).statusCode,
      ).toBe(200);
    });
  });

  describe('forgot and reset', () => {
    it('forgot answers the same 200 for known and unknown emails; only the known gets mail', async () => {
      const customer = await signedInCustomer(t);
      const unknownEmail = newEmail();
      const known = await post('/api/mobile/auth/password/forgot', { email: customer.email });
      const unknown = await post('/api/mobile/auth/password/forgot', { email: unknownEmail });
      expect(known.statusCode).toBe(200);
      expect(known.json()).toEqual(unknown.json());
      expect(known.json().data).toBeNull();
      expect((await lastMailTo(t, customer.email))?.message.subject).toBe('Reset your password');
      expect(await mailCountTo(t, unknownEmail)).toBe(0);
    });

    it('reset by code sets the password and ends every session', async () => {
      const customer = await signedInCustomer(t);
      await post('/api/mobile/auth/password/forgot', { email: customer.email });
      const { code } = (await lastMailTo(t, customer.email))!;
      const res = await post('/api/mobile/auth/password/reset', {
        email: customer.email,
        code,
        newPassword: 'brand-new-secret',
      });
      expect(res.statusCode).toBe(200);
      expect(res.json().data).toBeNull();
      expect(
        (await t.app.inject({ method: 'GET', url: '/api/mobile/auth/me', headers: customer.headers }))
          .statusCode,
      ).toBe(401);
      expect(
        (await post('/api/mobile/auth/refresh', { refreshToken: customer.tokens.refreshToken })).statusCode,
      ).toBe(401);
      const old = await post('/api/mobile/auth/login/email', {
        email: customer.email,
        password: TEST_PASSWORD,
        deviceInfo: device,
      });
      expect(old.statusCode).toBe(401);
      const fresh = await post('/api/mobile/auth/login/email', {
        email: customer.email,
        password: 'brand-new-secret',
        deviceInfo: device,
      });
      expect(fresh.statusCode).toBe(200);
    });

    it('reset by link token; a bad, used or expired one: 400 AUTH_RESET_TOKEN_INVALID', async () => {
      const admin = await signedInAdmin(t, { superadmin: true });
      await post('/api/auth/password/forgot', { email: admin.email });
      const { token } = (await lastMailTo(t, admin.email))!;
      expect(
        (await post('/api/auth/password/reset', { token, newPassword: 'another-secret-1' })).statusCode,
      ).toBe(200);
      const used = await post('/api/auth/password/reset', { token, newPassword: 'another-secret-2' });
      expect(used.json().errorCode).toBe('AUTH_RESET_TOKEN_INVALID');
      expect(
        (await post('/api/auth/password/reset', { token: 'made-up', newPassword: 'another-secret-3' }))
          .statusCode,
      ).toBe(400);

      await post('/api/auth/password/forgot', { email: admin.email });
      const late = (await lastMailTo(t, admin.email))!;
      clock.advance(30 * 60_000 + 1000);
      expect(
        (
          await post('/api/auth/password/reset', { token: late.token, newPassword: 'another-secret-4' })
        ).json().errorCode,
      ).toBe('AUTH_RESET_TOKEN_INVALID');
    });

    it('50 concurrent resets with one token: exactly one succeeds', async () => {
      const customer = await signedInCustomer(t);
      await post('/api/mobile/auth/password/forgot', { email: customer.email });
      const { token } = (await lastMailTo(t, customer.email))!;
      const results = await Promise.all(
        Array.from({ length: 50 }, (_, i) =>
          post('/api/mobile/auth/password/reset', { token, newPassword: `concurrent-pass-${i}` }),
        ),
      );
      expect(results.filter((r) => r.statusCode === 200)).toHaveLength(1);
      expect(results.filter((r) => r.statusCode === 400)).toHaveLength(49);
    });

    it('50 concurrent wrong codes: at most five counted, then the right code is dead too', async () => {
      const customer = await signedInCustomer(t);
      await post('/api/mobile/auth/password/forgot', { email: customer.email });
      const { code } = (await lastMailTo(t, customer.email))!;
      const wrong = code === '000000' ? '111111' : '000000';
      await Promise.all(
        Array.from({ length: 50 }, () =>
          post('/api/mobile/auth/password/reset', {
            email: customer.email,
            code: wrong,
            newPassword: 'whatever-pass',
          }),
        ),
      );
      const [row] = await t.platform.database.db
        .execute(
          // failed_attempts never passes the limit, however many attempts raced
          (await import('drizzle-orm'))
            .sql`select max(failed_attempts)::int as n from one_time_codes where target = ${customer.email}`,
        )
        .then((r) => (r as unknown as { rows: { n: number }[] }).rows);
      expect(row!.n).toBe(5);
      const right = await post('/api/mobile/auth/password/reset', {
        email: customer.email,
        code,
        newPassword: 'whatever-pass',
      });
      expect(right.json().errorCode).toBe('AUTH_RESET_TOKEN_INVALID');
    });

    it('an admin invited without a password sets one with the emailed code at the reset route', async () => {
      const email = newEmail();
      const admin = await createAdmin({ db: t.platform.database.db, email, password: 'temporary-pass' });
      const { sendAdminInvitation } = await import('../../../src/modules/identity');
      await sendAdminInvitation(
        {
          db: t.platform.database.db,
          clock,
          mail: t.platform.outgoing.mail,
          config: t.platform.config,
        } as never,
        admin,
      );
      const { code } = (await lastMailTo(t, email))!;
      expect(
        (await post('/api/auth/password/reset', { email, code, newPassword: 'chosen-by-admin' })).statusCode,
      ).toBe(200);
      expect((await post('/api/auth/login/email', { email, password: 'chosen-by-admin' })).statusCode).toBe(
        200,
      );
    });
  });

  describe('password set', () => {
    it('with a password: currentPassword required (400), wrong one 401, right one changes it', async () => {
      const customer = await signedInCustomer(t);
      const url = '/api/mobile/auth/password/set';
      const missing = await post(url, { newPassword: 'next-password-1' }, customer.headers);
      expect(missing.statusCode).toBe(400);
      expect(missing.json().errorCode).toBe('AUTH_CURRENT_PASSWORD_REQUIRED');
      const wrong = await post(
        url,
        { currentPassword: 'not-it-at-all', newPassword: 'next-password-1' },
        customer.headers,
      );
      expect(wrong.statusCode).toBe(401);
      expect(wrong.json().errorCode).toBe('AUTH_INVALID_CREDENTIALS');
      const ok = await post(
        url,
        { currentPassword: TEST_PASSWORD, newPassword: 'next-password-1' },
        customer.headers,
      );
      expect(ok.statusCode).toBe(200);
      expect(ok.json()).toEqual({ message: expect.any(String), data: null, errorCode: null });
      const login = await post('/api/mobile/auth/login/email', {
        email: customer.email,
        password: 'next-password-1',
        deviceInfo: device,
      });
      expect(login.statusCode).toBe(200);
    });

    it('without a password (provider-only account): sets the first one, and me then says hasPassword', async () => {
      const email = newEmail();
      const user = await createCustomerAccount({
        db: t.platform.database.db,
        email,
        name: 'Idp User',
        emailVerified: true,
      });
      const { startSession } = await import('../../../src/modules/identity');
      const tokens = await startSession({
        db: t.platform.database.db,
        tokens: t.platform.tokens,
        clock,
        refreshTtlDays: 30,
        userId: user.id,
        actor: 'customer',
      });
      const headers = { authorization: `Bearer ${tokens.accessToken}` };
      const before = await t.app.inject({ method: 'GET', url: '/api/mobile/auth/me', headers });
      expect(before.json().data.hasPassword).toBe(false);
      expect(
        (await post('/api/mobile/auth/password/set', { newPassword: 'first-password' }, headers)).statusCode,
      ).toBe(200);
      const after = await t.app.inject({ method: 'GET', url: '/api/mobile/auth/me', headers });
      expect(after.json().data.hasPassword).toBe(true);
    });

    it('5 requests per 15 minutes per user, then 429; no JWT: 401; short password: 400', async () => {
      const admin = await signedInAdmin(t, { superadmin: true });
      const url = '/api/auth/password/set';
      for (let i = 0; i < 5; i++) {
        const res = await post(
          url,
          { currentPassword: 'wrong-wrong', newPassword: 'another-one-1' },
          admin.headers,
        );
        expect(res.statusCode).toBe(401);
      }
      const limited = await post(
        url,
        { currentPassword: TEST_PASSWORD, newPassword: 'another-one-1' },
        admin.headers,
      );
      expect(limited.statusCode).toBe(429);
      expect(limited.json().errorCode).toBe('RATE_LIMITED');
      expect((await post(url, { newPassword: 'another-one-1' })).statusCode).toBe(401);
      const other = await signedInAdmin(t, { superadmin: true });
      expect(
        (await post(url, { currentPassword: TEST_PASSWORD, newPassword: 'short' }, other.headers)).statusCode,
      ).toBe(400);
    });
  });

  describe('phone verification (admin surface)', () => {
    it('request texts a code; confirm sets the phone verified; a wrong code is 400', async () => {
      const admin = await signedInAdmin(t, { superadmin: true });
      const phone = '+9779812345678';
      const req = await post('/api/auth/phone/verify/request', { phone }, admin.headers);
      expect(req.statusCode).toBe(200);
      await t.drainJobs();
      const sms = [...t.sms].reverse().find((m) => m.to === phone);
      const code = /\b(\d{6})\b/.exec(sms?.text ?? '')?.[1];
      expect(code).toMatch(/^\d{6}$/);
      const wrong = await post(
        '/api/auth/phone/verify/confirm',
        { phone, code: code === '000000' ? '111111' : '000000' },
        admin.headers,
      );
      expect(wrong.statusCode).toBe(400);
      expect(wrong.json().errorCode).toBe('AUTH_PHONE_VERIFICATION_INVALID');
      const ok = await post('/api/auth/phone/verify/confirm', { phone, code }, admin.headers);
      expect(ok.statusCode).toBe(200);
      expect(ok.json().data.user).toMatchObject({ phone, phoneVerified: true });
    });

    it('a number that is not E.164: 400 VALIDATION_ERROR', async () => {
      const admin = await signedInAdmin(t, { superadmin: true });
      const res = await post('/api/auth/phone/verify/request', { phone: '9812345678' }, admin.headers);
      expect(res.json().errorCode).toBe('VALIDATION_ERROR');
    });
  });

  it('the daily purge deletes codes used or expired more than a day ago, and keeps live ones', async () => {
    const used = newEmail();
    await register(used);
    const { code } = (await lastMailTo(t, used))!;
    await post('/api/mobile/auth/email/verify/confirm', { email: used, code });
    const live = newEmail();
    clock.advance(86_400_000 + 60_000);
    await register(live);
    const { purgeSpentCodesJob } = await import('../../../src/modules/identity/auth/auth.jobs');
    await t.platform.jobs.enqueue(purgeSpentCodesJob({ db: t.platform.database.db, clock }), {});
    await t.drainJobs();
    const codes = async (target: string) =>
      t.platform.database.db.select().from(oneTimeCodes).where(eq(oneTimeCodes.target, target));
    expect(await codes(used)).toHaveLength(0);
    expect(await codes(live)).toHaveLength(1);
  });

  describe('account deletion', () => {
    it('needs the password; schedules deletion, ends sessions; a login in the grace period restores', async () => {
      const customer = await signedInCustomer(t);
      const url = '/api/mobile/account/deletion';
      expect((await post(url, {}, customer.headers)).json().errorCode).toBe('AUTH_CURRENT_PASSWORD_REQUIRED');
      expect((await post(url, { password: 'wrong-password' }, customer.headers)).statusCode).toBe(401);
      const res = await post(url, { password: TEST_PASSWORD }, customer.headers);
      expect(res.statusCode).toBe(200);
      const due = new Date(res.json().data.deletionScheduledAt).getTime();
      expect(due - clock.now().getTime()).toBe(t.platform.config.ACCOUNT_DELETION_GRACE_DAYS * 86_400_000);
      expect(
        (await t.app.inject({ method: 'GET', url: '/api/mobile/auth/me', headers: customer.headers }))
          .statusCode,
      ).toBe(401);

      const login = await post('/api/mobile/auth/login/email', {
        email: customer.email,
        password: TEST_PASSWORD,
        deviceInfo: device,
      });
      expect(login.statusCode).toBe(200);
      expect(login.json().message).toMatch(/restored/i);
      expect((await userRow(customer.email))?.deletionScheduledAt).toBeNull();
    });

    it('the daily job anonymises accounts past the grace period and leaves others', async () => {
      const leaving = await signedInCustomer(t);
      const staying = await signedInCustomer(t);
      await post('/api/mobile/account/deletion', { password: TEST_PASSWORD }, leaving.headers);
      clock.advance((t.platform.config.ACCOUNT_DELETION_GRACE_DAYS * 86_400 + 60) * 1000);
      const { anonymizeDeletedAccountsJob } = await import('../../../src/modules/identity/auth/auth.jobs');
      await t.platform.jobs.enqueue(
        anonymizeDeletedAccountsJob({
          db: t.platform.database.db,
          clock,
          realtime: t.platform.realtime,
          authenticator: t.platform.authenticator,
        }),
        {},
      );
      await t.drainJobs();
      const [gone] = await t.platform.database.db.select().from(users).where(eq(users.id, leaving.userId));
      expect(gone).toMatchObject({ name: 'Deleted user', phone: null, passwordHash: null, isActive: false });
      expect(gone!.email).toBe(`deleted-${leaving.userId}@deleted.invalid`);
      expect(gone!.anonymizedAt).not.toBeNull();
      expect((await userRow(staying.email))?.anonymizedAt).toBeNull();
      const login = await post('/api/mobile/auth/login/email', {
        email: leaving.email,
        password: TEST_PASSWORD,
        deviceInfo: device,
      });
      expect(login.statusCode).toBe(401);
    });
  });
});
