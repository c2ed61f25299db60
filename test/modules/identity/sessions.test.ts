// Login, refresh, logout, profile and permissions on both surfaces.
import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCustomerAccount, setAccountActive } from '../../../src/modules/identity';
import { refreshTokens, sessions } from '../../../src/modules/identity/identity.table';
import { TestClock } from '../../../src/platform/clock';
import { sha256Hex } from '../../../src/platform/security/tokens';
import { createTestApp, type TestApp } from '../../helpers/app';
import { signedInAdmin, signedInCustomer, TEST_PASSWORD } from '../../helpers/factories';

const device = { deviceId: 'dev-1', deviceType: 'ios', deviceName: 'iPhone' };
const unique = () => randomBytes(4).toString('hex');

describe('sessions', () => {
  let t: TestApp;
  const clock = new TestClock(new Date());
  beforeAll(async () => {
    t = await createTestApp({ clock });
  });
  afterAll(() => t.close());

  const post = (
    url: string,
    payload: unknown,
    headers: Record<string, string> = {},
    remoteAddress?: string,
  ) => t.app.inject({ method: 'POST', url, payload: payload as object, headers, remoteAddress });
  const get = (url: string, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'GET', url, headers });

  async function customerWithPassword(opts: { verified?: boolean } = {}) {
    const email = `c-${unique()}@example.com`;
    const user = await createCustomerAccount({
      db: t.platform.database.db,
      email,
      name: 'Asha Rai',
      password: TEST_PASSWORD,
      emailVerified: opts.verified ?? true,
    });
    return { email, id: user.id };
  }

  describe('admin login (POST /api/auth/login/email)', () => {
    it('answers the user and a token pair; the access token works', async () => {
      const admin = await signedInAdmin(t, { permissions: ['System_READ'] });
      const res = await post('/api/auth/login/email', {
        email: admin.email,
        password: TEST_PASSWORD,
        deviceInfo: device,
      });
      expect(res.statusCode).toBe(200);
      const { user, tokens } = res.json().data;
      expect(user).toMatchObject({ id: admin.userId, email: admin.email, emailVerified: true });
      expect(user.role).toMatch(/^role-/);
      expect(user).not.toHaveProperty('hasPassword');
      expect(tokens.sessionId).toMatch(/^[0-9a-f-]{36}$/);
      expect(tokens.refreshToken.length).toBeGreaterThanOrEqual(43);
      const info = await get('/api/admin/system/info', { authorization: `Bearer ${tokens.accessToken}` });
      expect(info.statusCode).toBe(200);
    });

    it('accepts the email in any case', async () => {
      const admin = await signedInAdmin(t, { superadmin: true });
      const res = await post('/api/auth/login/email', {
        email: admin.email.toUpperCase(),
        password: TEST_PASSWORD,
      });
      expect(res.statusCode).toBe(200);
    });

    it('wrong password, unknown email, a customer account and a deactivated admin: the same 401', async () => {
      const admin = await signedInAdmin(t, { superadmin: true });
      const customer = await customerWithPassword();
      const inactive = await signedInAdmin(t, { superadmin: true });
      await setAccountActive({
        authenticator: t.platform.authenticator,
        db: t.platform.database.db,
        clock,
        userId: inactive.userId,
        isActive: false,
      });
      const attempts = [
        { email: admin.email, password: 'wrong-password' },
        { email: `nobody-${unique()}@example.com`, password: TEST_PASSWORD },
        { email: customer.email, password: TEST_PASSWORD, deviceInfo: device },
        { email: inactive.email, password: TEST_PASSWORD },
      ];
      const bodies = [];
      for (const attempt of attempts) {
        const res = await post('/api/auth/login/email', attempt, {}, `10.9.0.${bodies.length + 1}`);
        expect(res.statusCode).toBe(401);
        const { timestamp: _ignored, ...body } = res.json();
        bodies.push(body);
      }
      for (const body of bodies) expect(body).toEqual(bodies[0]);
      expect(bodies[0].errorCode).toBe('AUTH_INVALID_CREDENTIALS');
    });

    it('an unknown email costs a password hash too, so timing does not tell it apart', async () => {
      const admin = await signedInAdmin(t, { superadmin: true });
      const time = async (email: string) => {
        const started = performance.now();
        await post(
          '/api/auth/login/email',
          { email, password: 'wrong-password' },
          {},
          `10.8.${unique().length}.1`,
        );
        return performance.now() - started;
      };
      const median = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
      const known: number[] = [];
      const unknown: number[] = [];
      for (let i = 0; i < 9; i++) {
        known.push(await time(admin.email));
        unknown.push(await time(`ghost-${unique()}@example.com`));
      }
      // Without the dummy hash an unknown email answers in about a tenth of the time. The
      // margin leaves room for a loaded machine (seen: 0.39 with other test runs beside it).
      expect(median(unknown)).toBeGreaterThan(median(known) * 0.25);
    });

    it('a missing or malformed field is a validation error', async () => {
      const res = await post('/api/auth/login/email', { email: 'not-an-email', password: 'x' });
      expect(res.statusCode).toBe(400);
      expect(res.json().errorCode).toBe('VALIDATION_ERROR');
    });
  });

  describe('customer login (POST /api/mobile/auth/login/email)', () => {
    it('signs a verified customer in and keeps the device', async () => {
      const customer = await customerWithPassword();
      const res = await post('/api/mobile/auth/login/email', {
        email: customer.email,
        password: TEST_PASSWORD,
        deviceInfo: { ...device, pushToken: 'push-abc' },
      });
      expect(res.statusCode).toBe(200);
      expect(res.json().data.user).toMatchObject({ id: customer.id, role: 'customer' });
      const { sessionId, refreshToken } = res.json().data.tokens;
      const [session] = await t.platform.database.db
        .select()
        .from(sessions)
        .where(eq(sessions.id, sessionId));
      expect(session).toMatchObject({
        userId: customer.id,
        actor: 'customer',
        pushToken: 'push-abc',
        deviceInfo: device,
      });
      // The refresh token is kept only as its SHA-256 digest: nowhere in the row as it was sent.
      const stored = await t.platform.database.db
        .select()
        .from(refreshTokens)
        .where(eq(refreshTokens.sessionId, sessionId));
      expect(stored.map((r) => r.digest)).toEqual([sha256Hex(refreshToken)]);
      expect(JSON.stringify([session, stored])).not.toContain(refreshToken);
    });

    it('an unverified account with the right password: 403 AUTH_EMAIL_NOT_VERIFIED; wrong password: 401', async () => {
      const customer = await customerWithPassword({ verified: false });
      const right = await post('/api/mobile/auth/login/email', {
        email: customer.email,
        password: TEST_PASSWORD,
        deviceInfo: device,
      });
      expect(right.statusCode).toBe(403);
      expect(right.json().errorCode).toBe('AUTH_EMAIL_NOT_VERIFIED');
      const wrong = await post('/api/mobile/auth/login/email', {
        email: customer.email,
        password: 'nope-nope-nope',
        deviceInfo: device,
      });
      expect(wrong.json().errorCode).toBe('AUTH_INVALID_CREDENTIALS');
    });

    it('an admin account on the customer surface: 401 AUTH_INVALID_CREDENTIALS', async () => {
      const admin = await signedInAdmin(t, { superadmin: true });
      const res = await post('/api/mobile/auth/login/email', {
        email: admin.email,
        password: TEST_PASSWORD,
        deviceInfo: device,
      });
      expect(res.statusCode).toBe(401);
      expect(res.json().errorCode).toBe('AUTH_INVALID_CREDENTIALS');
    });

    it('a user can hold several sessions, one per device', async () => {
      const customer = await customerWithPassword();
      const a = await post('/api/mobile/auth/login/email', {
        email: customer.email,
        password: TEST_PASSWORD,
        deviceInfo: device,
      });
      const b = await post('/api/mobile/auth/login/email', {
        email: customer.email,
        password: TEST_PASSWORD,
        deviceInfo: { ...device, deviceId: 'dev-2' },
      });
      expect(a.json().data.tokens.sessionId).not.toBe(b.json().data.tokens.sessionId);
      await t.app.inject({
        method: 'DELETE',
        url: '/api/mobile/auth/logout',
        headers: { authorization: `Bearer ${a.json().data.tokens.accessToken}` },
      });
      const stillIn = await get('/api/mobile/auth/me', {
        authorization: `Bearer ${b.json().data.tokens.accessToken}`,
      });
      expect(stillIn.statusCode).toBe(200);
    });
  });

  describe('login throttle', () => {
    it('after 10 failures for one email within 15 minutes: 429, even with the right password', async () => {
      const customer = await customerWithPassword();
      for (let i = 0; i < 10; i++) {
        const res = await post(
          '/api/mobile/auth/login/email',
          { email: customer.email, password: 'wrong-password', deviceInfo: device },
          {},
          `10.7.0.${i + 1}`,
        );
        expect(res.statusCode).toBe(401);
      }
      const blocked = await post(
        '/api/mobile/auth/login/email',
        { email: customer.email, password: TEST_PASSWORD, deviceInfo: device },
        {},
        '10.7.1.1',
      );
      expect(blocked.statusCode).toBe(429);
      expect(blocked.json().errorCode).toBe('RATE_LIMITED');
      expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
      clock.advance(15 * 60_000 + 1000);
      const later = await post(
        '/api/mobile/auth/login/email',
        { email: customer.email, password: TEST_PASSWORD, deviceInfo: device },
        {},
        '10.7.1.1',
      );
      expect(later.statusCode).toBe(200);
    });

    it('after 30 failures from one address: 429 for any email from it', async () => {
      const ip = '10.6.6.6';
      for (let i = 0; i < 30; i++) {
        await post(
          '/api/auth/login/email',
          { email: `x${i}-${unique()}@example.com`, password: 'wrong-password' },
          {},
          ip,
        );
      }
      const admin = await signedInAdmin(t, { superadmin: true });
      const blocked = await post(
        '/api/auth/login/email',
        { email: admin.email, password: TEST_PASSWORD },
        {},
        ip,
      );
      expect(blocked.statusCode).toBe(429);
      const elsewhere = await post(
        '/api/auth/login/email',
        { email: admin.email, password: TEST_PASSWORD },
        {},
        '10.6.6.7',
      );
      expect(elsewhere.statusCode).toBe(200);
    });
  });

  describe('refresh', () => {
    const login = async () => {
      const customer = await customerWithPassword();
      const res = await post('/api/mobile/auth/login/email', {
        email: customer.email,
        password: TEST_PASSWORD,
        deviceInfo: device,
      });
      return res.json().data.tokens as { sessionId: string; accessToken: string; refreshToken: string };
    };
    const refresh = (refreshToken: string, surface = '/api/mobile/auth') =>
      post(`${surface}/refresh`, { refreshToken });

    it('rotates: a new pair for the same session, and the new access token works', async () => {
      const first = await login();
      const res = await refresh(first.refreshToken);
      expect(res.statusCode).toBe(200);
      const { user, tokens } = res.json().data;
      expect(user.role).toBe('customer');
      expect(tokens.sessionId).toBe(first.sessionId);
      expect(tokens.refreshToken).not.toBe(first.refreshToken);
      expect(
        (await get('/api/mobile/auth/me', { authorization: `Bearer ${tokens.accessToken}` })).statusCode,
      ).toBe(200);
    });

    it('the previous token within the grace gets a new pair (a lost reply); a token two rotations old revokes', async () => {
      const t1 = await login();
      expect((await refresh(t1.refreshToken)).statusCode).toBe(200); // a reply the client never saw
      const retry = await refresh(t1.refreshToken);
      expect(retry.statusCode).toBe(200);
      const t3 = retry.json().data.tokens;
      expect(t3.sessionId).toBe(t1.sessionId);

      const reused = await refresh(t1.refreshToken);
      expect(reused.statusCode).toBe(401);
      expect(reused.json().errorCode).toBe('AUTH_REFRESH_TOKEN_REUSED');
      // The whole session is gone: its newest tokens stop working too.
      expect((await refresh(t3.refreshToken)).json().errorCode).toBe('AUTH_REFRESH_TOKEN_INVALID');
      expect(
        (await get('/api/mobile/auth/me', { authorization: `Bearer ${t3.accessToken}` })).statusCode,
      ).toBe(401);
    });

    it('the previous token after the grace is reuse', async () => {
      const t1 = await login();
      await refresh(t1.refreshToken);
      clock.advance((t.platform.config.JWT_REFRESH_REUSE_GRACE_SECONDS + 1) * 1000);
      const res = await refresh(t1.refreshToken);
      expect(res.statusCode).toBe(401);
      expect(res.json().errorCode).toBe('AUTH_REFRESH_TOKEN_REUSED');
    });

    it('unknown, expired, or the other surface’s token: 401 AUTH_REFRESH_TOKEN_INVALID', async () => {
      expect((await refresh('not-a-token')).json().errorCode).toBe('AUTH_REFRESH_TOKEN_INVALID');
      const tokens = await login();
      const onAdmin = await refresh(tokens.refreshToken, '/api/auth');
      expect(onAdmin.statusCode).toBe(401);
      expect(onAdmin.json().errorCode).toBe('AUTH_REFRESH_TOKEN_INVALID');
      expect((await refresh(tokens.refreshToken)).statusCode).toBe(200); // not revoked by the wrong surface

      const old = await login();
      clock.advance((t.platform.config.JWT_REFRESH_TTL_DAYS * 86_400 + 60) * 1000);
      expect((await refresh(old.refreshToken)).json().errorCode).toBe('AUTH_REFRESH_TOKEN_INVALID');
    });

    it('admins refresh on /api/auth/refresh', async () => {
      const admin = await signedInAdmin(t, { superadmin: true });
      const res = await refresh(admin.tokens.refreshToken, '/api/auth');
      expect(res.statusCode).toBe(200);
      expect(res.json().data.tokens.sessionId).toBe(admin.tokens.sessionId);
    });
  });

  describe('logout, me, permissions', () => {
    it('logout ends the session: refresh stops at once, the access token from the next request', async () => {
      const customer = await signedInCustomer(t);
      const res = await t.app.inject({
        method: 'DELETE',
        url: '/api/mobile/auth/logout',
        headers: customer.headers,
      });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ data: null });
      expect(
        (await post('/api/mobile/auth/refresh', { refreshToken: customer.tokens.refreshToken })).statusCode,
      ).toBe(401);
      expect((await get('/api/mobile/auth/me', customer.headers)).statusCode).toBe(401);
    });

    it('GET me answers the profile with hasPassword, on each surface for its own actor', async () => {
      const customer = await signedInCustomer(t);
      const me = await get('/api/mobile/auth/me', customer.headers);
      expect(me.statusCode).toBe(200);
      expect(me.json().data).toMatchObject({ id: customer.userId, hasPassword: true, role: 'customer' });
      expect((await get('/api/auth/me', customer.headers)).json().errorCode).toBe('AUTH_FORBIDDEN');

      const admin = await signedInAdmin(t, { permissions: [] });
      expect((await get('/api/auth/me', admin.headers)).json().data).toMatchObject({
        id: admin.userId,
        hasPassword: true,
      });
      expect((await get('/api/mobile/auth/me', admin.headers)).statusCode).toBe(403);
      expect((await get('/api/auth/me')).statusCode).toBe(401);
    });

    it('GET /api/auth/permissions answers the role and its codes; a superadmin holds every code', async () => {
      const admin = await signedInAdmin(t, { permissions: ['System_READ'] });
      const res = await get('/api/auth/permissions', admin.headers);
      expect(res.statusCode).toBe(200);
      expect(res.json().data).toEqual({
        role: expect.stringMatching(/^role-/),
        permissions: ['System_READ'],
      });

      const owner = await signedInAdmin(t, { superadmin: true });
      const all = (await get('/api/auth/permissions', owner.headers)).json().data;
      expect(all.role).toBe('superadmin');
      expect(all.permissions).toEqual(expect.arrayContaining(['System_READ', 'System_UPDATE']));
    });
  });
});

describe('refresh under concurrency', () => {
  const refreshConcurrently = (t: TestApp, refreshToken: string, times: number) =>
    Promise.all(
      Array.from({ length: times }, () =>
        t.app.inject({ method: 'POST', url: '/api/mobile/auth/refresh', payload: { refreshToken } }),
      ),
    );

  it('50 concurrent refreshes with one token: exactly one succeeds (no grace), and the session survives it', async () => {
    const t = await createTestApp({ env: { JWT_REFRESH_REUSE_GRACE_SECONDS: '0' } });
    try {
      const customer = await signedInCustomer(t);
      const results = await refreshConcurrently(t, customer.tokens.refreshToken, 50);
      const ok = results.filter((r) => r.statusCode === 200);
      expect(ok).toHaveLength(1);
      expect(results.filter((r) => r.statusCode === 401)).toHaveLength(49);
      // The other 49 presented a rotated token: reuse, which ends the session for everybody.
      expect(results.some((r) => r.json().errorCode === 'AUTH_REFRESH_TOKEN_REUSED')).toBe(true);
      const newest = ok[0]!.json().data.tokens.refreshToken;
      const after = await t.app.inject({
        method: 'POST',
        url: '/api/mobile/auth/refresh',
        payload: { refreshToken: newest },
      });
      expect(after.json().errorCode).toBe('AUTH_REFRESH_TOKEN_INVALID');
    } finally {
      await t.close();
    }
  });

  it('within the default grace, at most two of 50 concurrent refreshes succeed (the first and one lost-reply retry)', async () => {
    const t = await createTestApp();
    try {
      const customer = await signedInCustomer(t);
      const results = await refreshConcurrently(t, customer.tokens.refreshToken, 50);
      const ok = results.filter((r) => r.statusCode === 200).length;
      expect(ok).toBeGreaterThanOrEqual(1);
      expect(ok).toBeLessThanOrEqual(2);
    } finally {
      await t.close();
    }
  });
});
