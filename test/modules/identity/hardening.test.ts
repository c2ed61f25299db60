// Hardening of the account routes: device info required from customers, per-IP limits on the
// routes that send account mail, forgot and resend deciding in a job (so the answer cannot tell
// whether the account exists), and a limit on password guesses at account deletion.
import { randomBytes, randomInt } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createCustomerAccount, startSession } from '../../../src/modules/identity';
import { oneTimeCodes, users } from '../../../src/modules/identity/identity.table';
import { TestClock } from '../../../src/platform/clock';
import { createTestApp, type TestApp } from '../../helpers/app';
import { signedInAdmin, signedInCustomer, TEST_PASSWORD } from '../../helpers/factories';
import { mailCountTo } from '../../helpers/mail';

const unique = () => randomBytes(4).toString('hex');
const newEmail = () => `h-${unique()}@example.com`;
const newIp = () => `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;
const device = { deviceId: 'dev-1', deviceType: 'android', deviceName: 'Pixel 8' };
const MINUTE = 60_000;

describe('account route hardening', () => {
  let t: TestApp;
  const clock = new TestClock(new Date());
  beforeAll(async () => {
    t = await createTestApp({ clock });
  });
  afterAll(() => t.close());

  const post = (
    url: string,
    payload: unknown,
    opts: { ip?: string; headers?: Record<string, string> } = {},
  ) =>
    t.app.inject({
      method: 'POST',
      url,
      payload: payload as object,
      headers: opts.headers ?? {},
      remoteAddress: opts.ip ?? newIp(),
    });
  const register = (email: string, ip?: string, extra: Record<string, unknown> = {}) =>
    post(
      '/api/mobile/auth/register',
      { name: 'Hari Thapa', email, password: TEST_PASSWORD, deviceInfo: device, ...extra },
      { ip },
    );
  const userRow = async (email: string) =>
    (await t.platform.database.db.select().from(users).where(eq(users.email, email)))[0];
  const expectRateLimited = (res: Awaited<ReturnType<typeof post>>) => {
    expect(res.statusCode).toBe(429);
    expect(res.json().errorCode).toBe('RATE_LIMITED');
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
  };

  describe('device info (docs/decisions.md "Device info")', () => {
    it.each([
      ['missing', { deviceInfo: undefined }],
      ['without deviceId', { deviceInfo: { deviceType: 'android', deviceName: 'Pixel' } }],
      ['without deviceType', { deviceInfo: { deviceId: 'd', deviceName: 'Pixel' } }],
      ['without deviceName', { deviceInfo: { deviceId: 'd', deviceType: 'android' } }],
      ['with an empty deviceName', { deviceInfo: { ...device, deviceName: '' } }],
      ['with a 256-character deviceType', { deviceInfo: { ...device, deviceType: 'x'.repeat(256) } }],
    ])('register with deviceInfo %s: 400 VALIDATION_ERROR and no account', async (_case, extra) => {
      const email = newEmail();
      const res = await register(email, undefined, extra);
      expect(res.statusCode).toBe(400);
      expect(res.json().errorCode).toBe('VALIDATION_ERROR');
      expect(await userRow(email)).toBeUndefined();
    });

    it('register with 255-character fields and no pushToken: 201', async () => {
      const long = 'y'.repeat(255);
      const res = await register(newEmail(), undefined, {
        deviceInfo: { deviceId: long, deviceType: long, deviceName: long },
      });
      expect(res.statusCode).toBe(201);
    });

    it('customer login requires it (400 VALIDATION_ERROR), admin login does not', async () => {
      const customer = await signedInCustomer(t);
      const login = (extra: Record<string, unknown>) =>
        post('/api/mobile/auth/login/email', { email: customer.email, password: TEST_PASSWORD, ...extra });
      for (const extra of [{}, { deviceInfo: { deviceId: 'd', deviceType: 'ios' } }]) {
        const res = await login(extra);
        expect(res.statusCode).toBe(400);
        expect(res.json().errorCode).toBe('VALIDATION_ERROR');
      }
      expect((await login({ deviceInfo: { ...device, pushToken: 'push-1' } })).statusCode).toBe(200);

      const admin = await signedInAdmin(t, { superadmin: true });
      const adminLogin = await post('/api/auth/login/email', { email: admin.email, password: TEST_PASSWORD });
      expect(adminLogin.statusCode).toBe(200);
    });
  });

  describe('per-IP limits (docs/decisions.md "Per-IP limits on account e-mail routes")', () => {
    it('register: 10 an hour from one IP, then 429 RATE_LIMITED with Retry-After; other IPs are not affected', async () => {
      const ip = newIp();
      for (let i = 0; i < 10; i++) expect((await register(newEmail(), ip)).statusCode).toBe(201);
      const refused = newEmail();
      expectRateLimited(await register(refused, ip));
      expect(await userRow(refused)).toBeUndefined();
      expect(await mailCountTo(t, refused)).toBe(0);
      expect((await register(newEmail(), newIp())).statusCode).toBe(201);
      // The window passes.
      clock.advance(61 * MINUTE);
      expect((await register(newEmail(), ip)).statusCode).toBe(201);
    });

    it('forgot: 10 an hour from one IP, counted across both surfaces', async () => {
      const ip = newIp();
      for (let i = 0; i < 10; i++) {
        const url = i % 2 ? '/api/auth/password/forgot' : '/api/mobile/auth/password/forgot';
        expect((await post(url, { email: newEmail() }, { ip })).statusCode).toBe(200);
      }
      expectRateLimited(await post('/api/auth/password/forgot', { email: newEmail() }, { ip }));
      expectRateLimited(await post('/api/mobile/auth/password/forgot', { email: newEmail() }, { ip }));
      expect((await post('/api/mobile/auth/password/forgot', { email: newEmail() })).statusCode).toBe(200);
    });

    it('verification resend: 20 an hour from one IP, then 429', async () => {
      const ip = newIp();
      for (let i = 0; i < 20; i++) {
        const res = await post('/api/mobile/auth/email/verify/resend', { email: newEmail() }, { ip });
        expect(res.statusCode).toBe(200);
      }
      expectRateLimited(await post('/api/mobile/auth/email/verify/resend', { email: newEmail() }, { ip }));
      expectRateLimited(await post('/api/auth/email/verify/resend', { email: newEmail() }, { ip }));
      expect((await post('/api/mobile/auth/email/verify/resend', { email: newEmail() })).statusCode).toBe(
        200,
      );
    });
  });

  describe('forgot and resend decide in a job', () => {
    it('known and unknown emails queue the same job with the same payload shape', async () => {
      const customer = await signedInCustomer(t);
      const unverified = newEmail();
      await createCustomerAccount({
        db: t.platform.database.db,
        email: unverified,
        name: 'U',
        password: TEST_PASSWORD,
      });
      const enqueue = vi.spyOn(t.platform.jobs, 'enqueue');
      try {
        const unknown = newEmail();
        const calls = async (url: string, email: string) => {
          enqueue.mockClear();
          expect((await post(url, { email })).statusCode).toBe(200);
          // Only the route's own job: the job itself, running meanwhile, queues the mail delivery.
          return enqueue.mock.calls
            .map(([def, payload]) => ({ name: def.name, payload }))
            .filter((c) => c.name !== 'mail.deliver');
        };
        expect(await calls('/api/mobile/auth/password/forgot', customer.email)).toEqual([
          { name: 'identity.password_reset_mail', payload: { actor: 'customer', email: customer.email } },
        ]);
        expect(await calls('/api/mobile/auth/password/forgot', unknown)).toEqual([
          { name: 'identity.password_reset_mail', payload: { actor: 'customer', email: unknown } },
        ]);
        expect(await calls('/api/mobile/auth/email/verify/resend', unverified)).toEqual([
          { name: 'identity.verification_mail', payload: { email: unverified } },
        ]);
        expect(await calls('/api/mobile/auth/email/verify/resend', unknown)).toEqual([
          { name: 'identity.verification_mail', payload: { email: unknown } },
        ]);
      } finally {
        enqueue.mockRestore();
      }
      // The known ones get their mail once the jobs ran; the unknown gets none.
      expect(await mailCountTo(t, customer.email)).toBe(1);
      expect(await mailCountTo(t, unverified)).toBe(1);
    });
  });

  describe('account deletion password guesses (docs/decisions.md "Deletion password guesses")', () => {
    it('5 wrong passwords per 15 minutes per user, then 429 even with the right one; the window passes', async () => {
      const customer = await signedInCustomer(t);
      const other = await signedInCustomer(t);
      const remove = (who: typeof customer, password: string) =>
        post('/api/mobile/account/deletion', { password }, { headers: who.headers });
      for (let i = 0; i < 5; i++) {
        const res = await remove(customer, `wrong-password-${i}`);
        expect(res.statusCode).toBe(401);
        expect(res.json().errorCode).toBe('AUTH_INVALID_CREDENTIALS');
      }
      expectRateLimited(await remove(customer, 'wrong-password-5'));
      expectRateLimited(await remove(customer, TEST_PASSWORD));
      expect((await userRow(customer.email))!.deletionScheduledAt).toBeNull();
      // Counted per user: another account is not blocked.
      expect((await remove(other, 'wrong-password')).statusCode).toBe(401);

      clock.advance(15 * MINUTE + 1000);
      // The access token has expired meanwhile: the same account signs in again.
      const tokens = await startSession({
        db: t.platform.database.db,
        tokens: t.platform.tokens,
        clock,
        refreshTtlDays: 30,
        userId: customer.userId,
        actor: 'customer',
      });
      const res = await remove(
        { ...customer, headers: { authorization: `Bearer ${tokens.accessToken}` } },
        TEST_PASSWORD,
      );
      expect(res.statusCode).toBe(200);
      expect((await userRow(customer.email))!.deletionScheduledAt).not.toBeNull();
    });
  });
});

describe('forgot and resend: the request itself looks nothing up', () => {
  let t: TestApp;
  beforeAll(async () => {
    // Jobs stay queued until started: what the request alone did is visible.
    t = await createTestApp({ startJobs: false });
  });
  afterAll(() => t.close());

  it('no code is issued and no mail sent until the job runs; then the known account gets its mail', async () => {
    const customer = await signedInCustomer(t);
    const unverified = `u-${unique()}@example.com`;
    await createCustomerAccount({
      db: t.platform.database.db,
      email: unverified,
      name: 'U',
      password: TEST_PASSWORD,
    });
    const post = (url: string, email: string) =>
      t.app.inject({ method: 'POST', url, payload: { email }, remoteAddress: newIp() });
    expect((await post('/api/mobile/auth/password/forgot', customer.email)).statusCode).toBe(200);
    expect((await post('/api/mobile/auth/email/verify/resend', unverified)).statusCode).toBe(200);
    const codes = () => t.platform.database.db.select().from(oneTimeCodes);
    expect(await codes()).toHaveLength(0);
    expect(t.mail).toHaveLength(0);

    await t.platform.jobs.start();
    await expect.poll(async () => (await codes()).length, { timeout: 5000 }).toBe(2);
    expect(await mailCountTo(t, customer.email)).toBe(1);
    expect(await mailCountTo(t, unverified)).toBe(1);
  });
});
