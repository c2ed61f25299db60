// Staff two-factor sign-in (docs/decisions.md, "Staff second factor and signed-in devices"):
// enrolment, the two-step sign-in, recovery codes, turning it off, a superadmin's reset and
// the STAFF_2FA_REQUIRED policy. Codes are computed here from the secret with the same
// library the server uses (otpauth), at the app's movable clock.
import { randomBytes, randomInt } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { Secret, TOTP, URI } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  oneTimeCodes,
  sessions,
  staffRecoveryCodes,
  staffSecondFactors,
} from '../../../src/modules/identity/identity.table';
import { TestClock } from '../../../src/platform/clock';
import { createTestApp, type TestApp } from '../../helpers/app';
import { type SignedIn, signedInAdmin, signedInCustomer, TEST_PASSWORD } from '../../helpers/factories';
import { lastMailTo } from '../../helpers/mail';

const STEP_MS = 30_000;
const device = { deviceId: 'laptop-1', deviceType: 'web', deviceName: 'Firefox on the shop laptop' };
const newIp = () => `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;
const unique = () => randomBytes(4).toString('hex');

/** The code of the authenticator app for `secret` at `at` (RFC 6238, as the server's settings). */
const codeAt = (secret: string, at: Date) =>
  new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 }).generate({
    timestamp: at.getTime(),
  });
/** A 6-digit code that is none of the codes accepted around `at`. */
function wrongCodeAt(secret: string, at: Date): string {
  const valid = new Set([-1, 0, 1].map((d) => codeAt(secret, new Date(at.getTime() + d * STEP_MS))));
  let code = '000000';
  while (valid.has(code)) code = String(randomInt(1_000_000)).padStart(6, '0');
  return code;
}

function harness(env: Record<string, string> = {}) {
  const clock = new TestClock(new Date());
  const h = {
    t: undefined as unknown as TestApp,
    clock,
    async request(
      method: 'GET' | 'POST' | 'DELETE' | 'PATCH',
      url: string,
      opts: { headers?: Record<string, string>; payload?: unknown; ip?: string } = {},
    ) {
      return h.t.app.inject({
        method,
        url,
        headers: opts.headers ?? {},
        ...(opts.payload === undefined ? {} : { payload: opts.payload as object }),
        remoteAddress: opts.ip ?? newIp(),
      });
    },
    /** Moves to a new 30 s step, so the next code is not a replay of the last one. */
    nextStep() {
      clock.advance(STEP_MS);
    },
    code(secret: string, offsetSteps = 0) {
      return codeAt(secret, new Date(clock.now().getTime() + offsetSteps * STEP_MS));
    },
    /** Turns 2FA on for a signed-in admin; answers the secret and the recovery codes. */
    async enrol(admin: SignedIn) {
      const setup = await h.request('POST', '/api/auth/2fa/totp/setup', { headers: admin.headers });
      expect(setup.statusCode, setup.body).toBe(200);
      const { secret } = setup.json().data as { secret: string };
      const confirm = await h.request('POST', '/api/auth/2fa/totp/confirm', {
        headers: admin.headers,
        payload: { code: h.code(secret) },
      });
      expect(confirm.statusCode, confirm.body).toBe(200);
      h.nextStep();
      return { secret, recoveryCodes: confirm.json().data.recoveryCodes as string[] };
    },
    /** The password step; answers the challenge token (the admin has 2FA). */
    async challenge(email: string, ip?: string) {
      const res = await h.request('POST', '/api/auth/login/email', {
        payload: { email, password: TEST_PASSWORD },
        ip,
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().data.twoFactorRequired).toBe(true);
      return res.json().data.challengeToken as string;
    },
    secondStep(payload: Record<string, unknown>, ip?: string) {
      return h.request('POST', '/api/auth/login/2fa', { payload, ip });
    },
    async activity(entityId: string) {
      const boss = await signedInAdmin(h.t, { superadmin: true });
      const res = await h.request('GET', `/api/admin/activity?entityType=admin_user&entityId=${entityId}`, {
        headers: boss.headers,
      });
      expect(res.statusCode).toBe(200);
      return res.json().data as { action: string; adminId: string; summary: string }[];
    },
  };
  beforeAll(async () => {
    h.t = await createTestApp({ clock, env });
  });
  afterAll(() => h.t.close());
  return h;
}

describe('two-factor enrolment', () => {
  const h = harness({ STORE_NAME: 'Pasal Store' });

  it('setup answers a base32 secret and the otpauth URL docs/decisions.md "Enrolment" shows; a new setup replaces an unconfirmed one', async () => {
    const admin = await signedInAdmin(h.t, { permissions: [] });
    const first = await h.request('POST', '/api/auth/2fa/totp/setup', { headers: admin.headers });
    expect(first.statusCode).toBe(200);
    const { secret, otpauthUrl } = first.json().data;
    expect(secret).toMatch(/^[A-Z2-7]{32}$/); // 20 bytes, no padding
    expect(otpauthUrl).toBe(
      `otpauth://totp/Pasal%20Store:${encodeURIComponent(admin.email)}?secret=${secret}&issuer=Pasal%20Store&algorithm=SHA1&digits=6&period=30`,
    );
    const parsed = URI.parse(otpauthUrl) as TOTP;
    expect(parsed).toBeInstanceOf(TOTP);
    expect(parsed.secret.base32).toBe(secret);
    expect(parsed.issuer).toBe('Pasal Store');
    expect(parsed.label).toBe(admin.email);

    const second = await h.request('POST', '/api/auth/2fa/totp/setup', { headers: admin.headers });
    const replaced = second.json().data.secret;
    expect(replaced).not.toBe(secret);
    const stale = await h.request('POST', '/api/auth/2fa/totp/confirm', {
      headers: admin.headers,
      payload: { code: h.code(secret) },
    });
    expect(stale.statusCode).toBe(400);
    expect(stale.json().errorCode).toBe('AUTH_2FA_CODE_INVALID');
    const ok = await h.request('POST', '/api/auth/2fa/totp/confirm', {
      headers: admin.headers,
      payload: { code: h.code(replaced) },
    });
    expect(ok.statusCode).toBe(200);
    h.nextStep();
  });

  it('confirm turns 2FA on and answers ten recovery codes once; secret and codes are not stored as they are', async () => {
    const admin = await signedInAdmin(h.t, { permissions: [] });
    const before = await h.request('GET', '/api/auth/me', { headers: admin.headers });
    expect(before.json().data.twoFactorEnabled).toBe(false);

    const nothing = await h.request('POST', '/api/auth/2fa/totp/confirm', {
      headers: admin.headers,
      payload: { code: '123456' },
    });
    expect(nothing.statusCode).toBe(400);
    expect(nothing.json().errorCode).toBe('AUTH_2FA_SETUP_REQUIRED');

    const { secret, recoveryCodes } = await h.enrol(admin);
    expect(recoveryCodes).toHaveLength(10);
    for (const code of recoveryCodes) expect(code).toMatch(/^[a-z0-9]{5}-[a-z0-9]{5}$/);
    expect(new Set(recoveryCodes).size).toBe(10);

    const me = await h.request('GET', '/api/auth/me', { headers: admin.headers });
    expect(me.json().data).toMatchObject({ id: admin.userId, twoFactorEnabled: true });

    const db = h.t.platform.database.db;
    const [row] = await db
      .select()
      .from(staffSecondFactors)
      .where(eq(staffSecondFactors.userId, admin.userId));
    expect(row!.enabledAt).not.toBeNull();
    expect(row!.secretEncrypted).not.toContain(secret);
    expect(row!.secretEncrypted).toMatch(/^v1\./);
    const stored = await db
      .select()
      .from(staffRecoveryCodes)
      .where(eq(staffRecoveryCodes.userId, admin.userId));
    expect(stored).toHaveLength(10);
    for (const r of stored) {
      expect(r.digest).toMatch(/^[0-9a-f]{64}$/);
      expect(recoveryCodes).not.toContain(r.digest);
    }

    const mail = await lastMailTo(h.t, admin.email);
    expect(mail!.message.subject).toContain('two-factor sign-in turned on');
    expect((await h.activity(admin.userId)).map((a) => a.action)).toContain('enable_two_factor');
  });

  it('with 2FA on, setup and confirm answer 409 AUTH_2FA_ALREADY_ENABLED', async () => {
    const admin = await signedInAdmin(h.t, { permissions: [] });
    const { secret } = await h.enrol(admin);
    const setup = await h.request('POST', '/api/auth/2fa/totp/setup', { headers: admin.headers });
    expect(setup.statusCode).toBe(409);
    expect(setup.json().errorCode).toBe('AUTH_2FA_ALREADY_ENABLED');
    const confirm = await h.request('POST', '/api/auth/2fa/totp/confirm', {
      headers: admin.headers,
      payload: { code: h.code(secret) },
    });
    expect(confirm.statusCode).toBe(409);
    expect(confirm.json().errorCode).toBe('AUTH_2FA_ALREADY_ENABLED');
  });

  it('recovery-codes makes ten new ones for a right code; the old ten stop working', async () => {
    const admin = await signedInAdmin(h.t, { permissions: [] });
    const { secret, recoveryCodes: old } = await h.enrol(admin);
    const wrong = await h.request('POST', '/api/auth/2fa/recovery-codes', {
      headers: admin.headers,
      payload: { code: wrongCodeAt(secret, h.clock.now()) },
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().errorCode).toBe('AUTH_2FA_CODE_INVALID');
    const renewed = await h.request('POST', '/api/auth/2fa/recovery-codes', {
      headers: admin.headers,
      payload: { code: h.code(secret) },
    });
    expect(renewed.statusCode).toBe(200);
    const fresh = renewed.json().data.recoveryCodes as string[];
    expect(fresh).toHaveLength(10);
    expect(fresh.filter((c) => old.includes(c))).toEqual([]);
    expect((await lastMailTo(h.t, admin.email))!.message.subject).toContain('new recovery codes');

    const withOld = await h.secondStep({
      challengeToken: await h.challenge(admin.email),
      recoveryCode: old[0],
    });
    expect(withOld.statusCode).toBe(401);
    expect(withOld.json().errorCode).toBe('AUTH_2FA_CODE_INVALID');
    const withNew = await h.secondStep({
      challengeToken: await h.challenge(admin.email),
      recoveryCode: fresh[0],
    });
    expect(withNew.statusCode).toBe(200);
    expect((await h.activity(admin.userId)).map((a) => a.action)).toContain('renew_recovery_codes');
  });

  it('recovery-codes and disable without 2FA on: 400 AUTH_2FA_SETUP_REQUIRED', async () => {
    const admin = await signedInAdmin(h.t, { permissions: [] });
    const renew = await h.request('POST', '/api/auth/2fa/recovery-codes', {
      headers: admin.headers,
      payload: { code: '123456' },
    });
    expect(renew.statusCode).toBe(400);
    expect(renew.json().errorCode).toBe('AUTH_2FA_SETUP_REQUIRED');
    const disable = await h.request('POST', '/api/auth/2fa/disable', {
      headers: admin.headers,
      payload: { password: TEST_PASSWORD, code: '123456' },
    });
    expect(disable.statusCode).toBe(400);
    expect(disable.json().errorCode).toBe('AUTH_2FA_SETUP_REQUIRED');
  });

  it('disable needs the password (401) and a code (400); then sign-in asks for the password only', async () => {
    const admin = await signedInAdmin(h.t, { permissions: [] });
    const { secret } = await h.enrol(admin);
    const badPassword = await h.request('POST', '/api/auth/2fa/disable', {
      headers: admin.headers,
      payload: { password: 'not-the-password', code: h.code(secret) },
    });
    expect(badPassword.statusCode).toBe(401);
    expect(badPassword.json().errorCode).toBe('AUTH_INVALID_CREDENTIALS');
    const badCode = await h.request('POST', '/api/auth/2fa/disable', {
      headers: admin.headers,
      payload: { password: TEST_PASSWORD, code: wrongCodeAt(secret, h.clock.now()) },
    });
    expect(badCode.statusCode).toBe(400);
    expect(badCode.json().errorCode).toBe('AUTH_2FA_CODE_INVALID');
    const off = await h.request('POST', '/api/auth/2fa/disable', {
      headers: admin.headers,
      payload: { password: TEST_PASSWORD, code: h.code(secret) },
    });
    expect(off.statusCode).toBe(200);
    expect(off.json().data).toBeNull();
    expect(
      (await h.request('GET', '/api/auth/me', { headers: admin.headers })).json().data.twoFactorEnabled,
    ).toBe(false);
    const login = await h.request('POST', '/api/auth/login/email', {
      payload: { email: admin.email, password: TEST_PASSWORD },
    });
    expect(login.statusCode).toBe(200);
    expect(login.json().data.tokens.accessToken).toEqual(expect.any(String));
    expect((await lastMailTo(h.t, admin.email))!.message.subject).toContain('two-factor sign-in turned off');
    expect((await h.activity(admin.userId)).map((a) => a.action)).toContain('disable_two_factor');
  });

  it('five wrong codes on the enrolment routes block the account for a while: 429 RATE_LIMITED', async () => {
    const admin = await signedInAdmin(h.t, { permissions: [] });
    const setup = await h.request('POST', '/api/auth/2fa/totp/setup', { headers: admin.headers });
    const { secret } = setup.json().data;
    for (let i = 0; i < 5; i++) {
      const res = await h.request('POST', '/api/auth/2fa/totp/confirm', {
        headers: admin.headers,
        payload: { code: wrongCodeAt(secret, h.clock.now()) },
      });
      expect(res.json().errorCode).toBe('AUTH_2FA_CODE_INVALID');
    }
    const blocked = await h.request('POST', '/api/auth/2fa/totp/confirm', {
      headers: admin.headers,
      payload: { code: h.code(secret) },
    });
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().errorCode).toBe('RATE_LIMITED');
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    // Another admin is not concerned; this one may try again once the window has passed.
    const other = await signedInAdmin(h.t, { permissions: [] });
    expect((await h.request('POST', '/api/auth/2fa/totp/setup', { headers: other.headers })).statusCode).toBe(
      200,
    );
    h.clock.advance(15 * 60_000);
    const login = await h.request('POST', '/api/auth/login/email', {
      payload: { email: admin.email, password: TEST_PASSWORD },
    });
    const later = await h.request('POST', '/api/auth/2fa/totp/confirm', {
      headers: { authorization: `Bearer ${login.json().data.tokens.accessToken}` },
      payload: { code: h.code(secret) },
    });
    expect(later.statusCode).toBe(200);
    h.nextStep();
  });

  it('the enrolment routes are for signed-in admins: 401 without a token, 403 AUTH_FORBIDDEN for a customer', async () => {
    const customer = await signedInCustomer(h.t);
    for (const url of [
      '/api/auth/2fa/totp/setup',
      '/api/auth/2fa/totp/confirm',
      '/api/auth/2fa/recovery-codes',
      '/api/auth/2fa/disable',
    ]) {
      const payload = { code: '123456', password: TEST_PASSWORD };
      const anonymous = await h.request('POST', url, {
        payload: url.endsWith('setup') ? undefined : payload,
      });
      expect(anonymous.statusCode, url).toBe(401);
      expect(anonymous.json().errorCode).toBe('AUTH_UNAUTHORIZED');
      const asCustomer = await h.request('POST', url, {
        headers: customer.headers,
        payload: url.endsWith('setup') ? undefined : payload,
      });
      expect(asCustomer.statusCode, url).toBe(403);
      expect(asCustomer.json().errorCode).toBe('AUTH_FORBIDDEN');
    }
  });

  it('a blank code is a validation error', async () => {
    const admin = await signedInAdmin(h.t, { permissions: [] });
    const res = await h.request('POST', '/api/auth/2fa/totp/confirm', {
      headers: admin.headers,
      payload: {},
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().errorCode).toBe('VALIDATION_ERROR');
  });
});

describe('sign-in with a second factor', () => {
  const h = harness();
  const liveSessionsOf = async (userId: string) =>
    (await h.t.platform.database.db.select().from(sessions).where(eq(sessions.userId, userId))).length;

  it('the right password answers a challenge, no tokens and no session; the code step answers the usual login', async () => {
    const admin = await signedInAdmin(h.t, { permissions: ['System_READ'] });
    const { secret } = await h.enrol(admin);
    const sessionsBefore = await liveSessionsOf(admin.userId);
    const step1 = await h.request('POST', '/api/auth/login/email', {
      payload: { email: admin.email, password: TEST_PASSWORD, deviceInfo: device },
    });
    expect(step1.statusCode).toBe(200);
    const data = step1.json().data;
    expect(data).toEqual({
      twoFactorRequired: true,
      challengeToken: expect.any(String),
      methods: ['totp', 'recovery_code'],
    });
    expect(data.challengeToken.length).toBeGreaterThanOrEqual(43);
    expect(await liveSessionsOf(admin.userId)).toBe(sessionsBefore);

    const step2 = await h.secondStep({
      challengeToken: data.challengeToken,
      code: h.code(secret),
      deviceInfo: device,
    });
    expect(step2.statusCode, step2.body).toBe(200);
    const { user, tokens } = step2.json().data;
    expect(user).toMatchObject({ id: admin.userId, email: admin.email });
    expect(tokens).toEqual({
      sessionId: expect.any(String),
      accessToken: expect.any(String),
      refreshToken: expect.any(String),
    });
    const auth = { authorization: `Bearer ${tokens.accessToken}` };
    expect((await h.request('GET', '/api/admin/system/info', { headers: auth })).statusCode).toBe(200);
    const devices = (await h.request('GET', '/api/auth/sessions', { headers: auth })).json().data;
    expect(devices.find((d: { current: boolean }) => d.current)).toMatchObject({
      sessionId: tokens.sessionId,
      deviceName: device.deviceName,
      deviceType: device.deviceType,
    });

    // The challenge is used: the same token again is dead.
    h.nextStep();
    const again = await h.secondStep({ challengeToken: data.challengeToken, code: h.code(secret) });
    expect(again.statusCode).toBe(401);
    expect(again.json().errorCode).toBe('AUTH_2FA_CHALLENGE_INVALID');
  });

  it('a wrong password answers exactly as for an admin without 2FA (no hint that 2FA exists)', async () => {
    const withTwoFactor = await signedInAdmin(h.t, { permissions: [] });
    await h.enrol(withTwoFactor);
    const without = await signedInAdmin(h.t, { permissions: [] });
    const attempt = async (email: string) => {
      const res = await h.request('POST', '/api/auth/login/email', {
        payload: { email, password: 'wrong-password' },
      });
      const { timestamp: _t, ...rest } = res.json();
      return { status: res.statusCode, body: rest, headers: Object.keys(res.headers).sort() };
    };
    const a = await attempt(withTwoFactor.email);
    const b = await attempt(without.email);
    expect(a.status).toBe(401);
    expect(a.body.errorCode).toBe('AUTH_INVALID_CREDENTIALS');
    expect(a).toEqual(b);
  });

  it('a code of the step before or after is accepted; a code used once is refused (replay)', async () => {
    const admin = await signedInAdmin(h.t, { permissions: [] });
    const { secret } = await h.enrol(admin);
    // Past the step used to confirm, so the step before is not a replay of it.
    h.clock.advance(2 * STEP_MS);

    const previous = await h.secondStep({
      challengeToken: await h.challenge(admin.email),
      code: h.code(secret, -1),
    });
    expect(previous.statusCode, previous.body).toBe(200);

    h.clock.advance(3 * STEP_MS);
    const next = await h.secondStep({
      challengeToken: await h.challenge(admin.email),
      code: h.code(secret, 1),
    });
    expect(next.statusCode, next.body).toBe(200);
    // The code of the next step, used again within its window: refused.
    const nextCode = h.code(secret, 1);
    const replay = await h.secondStep({ challengeToken: await h.challenge(admin.email), code: nextCode });
    expect(replay.statusCode).toBe(401);
    expect(replay.json().errorCode).toBe('AUTH_2FA_CODE_INVALID');
    // The current step is now earlier than the last used one: refused too.
    const current = await h.secondStep({
      challengeToken: await h.challenge(admin.email),
      code: h.code(secret),
    });
    expect(current.json().errorCode).toBe('AUTH_2FA_CODE_INVALID');

    // Two steps away is outside the window.
    h.clock.advance(3 * STEP_MS);
    const far = await h.secondStep({
      challengeToken: await h.challenge(admin.email),
      code: h.code(secret, 2),
    });
    expect(far.json().errorCode).toBe('AUTH_2FA_CODE_INVALID');
    const stale = await h.secondStep({
      challengeToken: await h.challenge(admin.email),
      code: h.code(secret, -2),
    });
    expect(stale.json().errorCode).toBe('AUTH_2FA_CODE_INVALID');
  });

  it('five wrong codes kill the challenge: even the right code then answers AUTH_2FA_CHALLENGE_INVALID', async () => {
    const admin = await signedInAdmin(h.t, { permissions: [] });
    const { secret } = await h.enrol(admin);
    const challengeToken = await h.challenge(admin.email);
    for (let i = 0; i < 5; i++) {
      const res = await h.secondStep({ challengeToken, code: wrongCodeAt(secret, h.clock.now()) });
      expect(res.statusCode).toBe(401);
      expect(res.json().errorCode).toBe('AUTH_2FA_CODE_INVALID');
    }
    const right = await h.secondStep({ challengeToken, code: h.code(secret) });
    expect(right.statusCode).toBe(401);
    expect(right.json().errorCode).toBe('AUTH_2FA_CHALLENGE_INVALID');
    expect((await h.activity(admin.userId)).map((a) => a.action)).toContain('two_factor_challenge_locked');
    // A new password step gives a new challenge.
    const fresh = await h.secondStep({
      challengeToken: await h.challenge(admin.email),
      code: h.code(secret),
    });
    expect(fresh.statusCode).toBe(200);
  });

  it('a challenge expires after AUTH_2FA_CHALLENGE_TTL_SECONDS (default 300)', async () => {
    const admin = await signedInAdmin(h.t, { permissions: [] });
    const { secret } = await h.enrol(admin);
    const inTime = await h.challenge(admin.email);
    h.clock.advance(299_000);
    expect((await h.secondStep({ challengeToken: inTime, code: h.code(secret) })).statusCode).toBe(200);

    h.nextStep();
    const late = await h.challenge(admin.email);
    h.clock.advance(300_000);
    const res = await h.secondStep({ challengeToken: late, code: h.code(secret) });
    expect(res.statusCode).toBe(401);
    expect(res.json().errorCode).toBe('AUTH_2FA_CHALLENGE_INVALID');
    const [row] = await h.t.platform.database.db
      .select()
      .from(oneTimeCodes)
      .where(eq(oneTimeCodes.userId, admin.userId));
    expect(row!.purpose).toBe('two_factor_challenge');
    expect(row!.tokenDigest).not.toBe(late);
  });

  it('an unknown challenge token: 401 AUTH_2FA_CHALLENGE_INVALID', async () => {
    const res = await h.secondStep({ challengeToken: `made-up-${unique()}`, code: '123456' });
    expect(res.statusCode).toBe(401);
    expect(res.json().errorCode).toBe('AUTH_2FA_CHALLENGE_INVALID');
  });

  it('exactly one of code and recoveryCode: both or neither is 400 VALIDATION_ERROR', async () => {
    for (const payload of [
      { challengeToken: 'x', code: '123456', recoveryCode: 'abcde-12345' },
      { challengeToken: 'x' },
      { code: '123456' },
    ]) {
      const res = await h.secondStep(payload);
      expect(res.statusCode).toBe(400);
      expect(res.json().errorCode).toBe('VALIDATION_ERROR');
    }
  });

  it('each recovery code signs in once, with an email saying how many are left; when all are used none works', async () => {
    const admin = await signedInAdmin(h.t, { permissions: [] });
    const { recoveryCodes } = await h.enrol(admin);
    const first = await h.secondStep({
      challengeToken: await h.challenge(admin.email),
      recoveryCode: recoveryCodes[0]!.toUpperCase(),
    });
    expect(first.statusCode, first.body).toBe(200);
    const mail = await lastMailTo(h.t, admin.email);
    expect(mail!.message.subject).toContain('a recovery code was used');
    expect(mail!.message.text).toContain('9 codes are left');
    expect((await h.activity(admin.userId)).map((a) => a.action)).toContain('use_recovery_code');

    const reused = await h.secondStep({
      challengeToken: await h.challenge(admin.email),
      recoveryCode: recoveryCodes[0],
    });
    expect(reused.statusCode).toBe(401);
    expect(reused.json().errorCode).toBe('AUTH_2FA_CODE_INVALID');

    for (const code of recoveryCodes.slice(1)) {
      const res = await h.secondStep({ challengeToken: await h.challenge(admin.email), recoveryCode: code });
      expect(res.statusCode, code).toBe(200);
    }
    expect((await lastMailTo(h.t, admin.email))!.message.text).toContain('0 codes are left');
    for (const code of [recoveryCodes[9], recoveryCodes[4]]) {
      const res = await h.secondStep({ challengeToken: await h.challenge(admin.email), recoveryCode: code });
      expect(res.json().errorCode).toBe('AUTH_2FA_CODE_INVALID');
    }
  });

  it('wrong codes and dead challenges count per IP like failed logins: the 31st from one IP is 429', async () => {
    const ip = newIp();
    for (let i = 0; i < 30; i++) {
      const res = await h.secondStep({ challengeToken: `unknown-${i}-${unique()}`, code: '123456' }, ip);
      expect(res.json().errorCode).toBe('AUTH_2FA_CHALLENGE_INVALID');
    }
    const blocked = await h.secondStep({ challengeToken: 'unknown', code: '123456' }, ip);
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().errorCode).toBe('RATE_LIMITED');
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    // Another address is not affected.
    expect((await h.secondStep({ challengeToken: 'unknown', code: '123456' })).statusCode).toBe(401);
  });

  it('a challenge dies when 2FA is turned off meanwhile', async () => {
    const admin = await signedInAdmin(h.t, { permissions: [] });
    const { secret } = await h.enrol(admin);
    const challengeToken = await h.challenge(admin.email);
    const off = await h.request('POST', '/api/auth/2fa/disable', {
      headers: admin.headers,
      payload: { password: TEST_PASSWORD, code: h.code(secret) },
    });
    expect(off.statusCode).toBe(200);
    h.nextStep();
    const res = await h.secondStep({ challengeToken, code: h.code(secret) });
    expect(res.json().errorCode).toBe('AUTH_2FA_CHALLENGE_INVALID');
  });
});

describe('STAFF_2FA_REQUIRED', () => {
  const h = harness({ STAFF_2FA_REQUIRED: 'true' });

  it('an admin without 2FA signs in but reaches only me, logout, 2fa and sessions until enrolled', async () => {
    const admin = await signedInAdmin(h.t, { permissions: ['AdminUsers_READ'] });
    const login = await h.request('POST', '/api/auth/login/email', {
      payload: { email: admin.email, password: TEST_PASSWORD },
    });
    expect(login.statusCode).toBe(200);
    const headers = { authorization: `Bearer ${login.json().data.tokens.accessToken}` };

    for (const url of ['/api/admin/users', '/api/auth/permissions', '/api/admin/dashboard']) {
      const res = await h.request('GET', url, { headers });
      expect(res.statusCode, url).toBe(403);
      expect(res.json().errorCode, url).toBe('AUTH_2FA_ENROLMENT_REQUIRED');
    }
    // Even an admin route's own permission error comes second: enrolment first.
    const missingPermission = await h.request('GET', '/api/admin/roles', { headers });
    expect(missingPermission.json().errorCode).toBe('AUTH_2FA_ENROLMENT_REQUIRED');

    const me = await h.request('GET', '/api/auth/me', { headers });
    expect(me.statusCode).toBe(200);
    expect(me.json().data.twoFactorEnabled).toBe(false);
    expect((await h.request('GET', '/api/auth/sessions', { headers })).statusCode).toBe(200);

    const { secret } = (await h.request('POST', '/api/auth/2fa/totp/setup', { headers })).json().data;
    const confirm = await h.request('POST', '/api/auth/2fa/totp/confirm', {
      headers,
      payload: { code: h.code(secret) },
    });
    expect(confirm.statusCode).toBe(200);
    // The same token, from the next request on.
    expect((await h.request('GET', '/api/admin/users', { headers })).statusCode).toBe(200);
    expect((await h.request('GET', '/api/auth/permissions', { headers })).statusCode).toBe(200);
    expect((await h.request('DELETE', '/api/auth/logout', { headers })).statusCode).toBe(200);
    h.nextStep();
  });

  it('logout is open while confined; customers are not concerned', async () => {
    const admin = await signedInAdmin(h.t, { permissions: [] });
    expect((await h.request('DELETE', '/api/auth/logout', { headers: admin.headers })).statusCode).toBe(200);
    const customer = await signedInCustomer(h.t);
    expect((await h.request('GET', '/api/mobile/auth/me', { headers: customer.headers })).statusCode).toBe(
      200,
    );
    expect(
      (await h.request('GET', '/api/mobile/auth/sessions', { headers: customer.headers })).statusCode,
    ).toBe(200);
  });
});

describe('STAFF_2FA_REQUIRED off (the default)', () => {
  const h = harness();
  it('an admin without 2FA uses the back office as before', async () => {
    const admin = await signedInAdmin(h.t, { permissions: ['AdminUsers_READ'] });
    expect((await h.request('GET', '/api/admin/users', { headers: admin.headers })).statusCode).toBe(200);
  });
});

describe('reset by another admin (DELETE /api/admin/users/:id/2fa)', () => {
  const h = harness();

  it('a superadmin resets it: 2FA off, every session of that admin ended, activity and email', async () => {
    const boss = await signedInAdmin(h.t, { superadmin: true });
    const admin = await signedInAdmin(h.t, { permissions: ['System_READ'] });
    await h.enrol(admin);
    const list = await h.request('GET', `/api/admin/users?search=${admin.email}`, { headers: boss.headers });
    expect(list.json().data[0]).toMatchObject({ id: admin.userId, twoFactorEnabled: true });

    const res = await h.request('DELETE', `/api/admin/users/${admin.userId}/2fa`, { headers: boss.headers });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ id: admin.userId, twoFactorEnabled: false });
    const refused = await h.request('GET', '/api/admin/system/info', { headers: admin.headers });
    expect(refused.statusCode).toBe(401);
    expect(refused.json().errorCode).toBe('AUTH_UNAUTHORIZED');
    const refresh = await h.request('POST', '/api/auth/refresh', {
      payload: { refreshToken: admin.tokens.refreshToken },
    });
    expect(refresh.json().errorCode).toBe('AUTH_REFRESH_TOKEN_INVALID');

    const login = await h.request('POST', '/api/auth/login/email', {
      payload: { email: admin.email, password: TEST_PASSWORD },
    });
    expect(login.json().data.tokens).toBeDefined();
    const entries = await h.activity(admin.userId);
    expect(entries.find((e) => e.action === 'reset_two_factor')).toMatchObject({ adminId: boss.userId });
    expect((await lastMailTo(h.t, admin.email))!.message.subject).toContain('two-factor sign-in reset');
    const detail = await h.request('GET', `/api/admin/users/${admin.userId}`, { headers: boss.headers });
    expect(detail.json().data.twoFactorEnabled).toBe(false);
  });

  it('refused for an admin without AdminUsers_UPDATE, and for a non-superadmin on a superadmin', async () => {
    const target = await signedInAdmin(h.t, { permissions: [] });
    await h.enrol(target);
    const limited = await signedInAdmin(h.t, { permissions: ['AdminUsers_READ'] });
    const res = await h.request('DELETE', `/api/admin/users/${target.userId}/2fa`, {
      headers: limited.headers,
    });
    expect(res.statusCode).toBe(403);
    expect(res.json().errorCode).toBe('AUTH_PERMISSION_DENIED');

    const manager = await signedInAdmin(h.t, { permissions: ['AdminUsers_UPDATE', 'AdminUsers_READ'] });
    const superadmin = await signedInAdmin(h.t, { superadmin: true });
    await h.enrol(superadmin);
    const onSuper = await h.request('DELETE', `/api/admin/users/${superadmin.userId}/2fa`, {
      headers: manager.headers,
    });
    expect(onSuper.statusCode).toBe(403);
    expect(onSuper.json().errorCode).toBe('AUTH_PERMISSION_DENIED');
    // Nothing changed for either.
    expect(
      (await h.request('GET', '/api/auth/me', { headers: superadmin.headers })).json().data.twoFactorEnabled,
    ).toBe(true);
    expect(
      (await h.request('GET', '/api/auth/me', { headers: target.headers })).json().data.twoFactorEnabled,
    ).toBe(true);
    // The manager may reset an admin holding no more than they do.
    const ok = await h.request('DELETE', `/api/admin/users/${target.userId}/2fa`, {
      headers: manager.headers,
    });
    expect(ok.statusCode).toBe(200);
  });

  it('an unknown id or a customer: 404 ADMIN_USER_NOT_FOUND; a bad id: 400; no token: 401', async () => {
    const boss = await signedInAdmin(h.t, { superadmin: true });
    const customer = await signedInCustomer(h.t);
    for (const id of ['01930000-0000-7000-8000-000000000001', customer.userId]) {
      const res = await h.request('DELETE', `/api/admin/users/${id}/2fa`, { headers: boss.headers });
      expect(res.statusCode).toBe(404);
      expect(res.json().errorCode).toBe('ADMIN_USER_NOT_FOUND');
    }
    const bad = await h.request('DELETE', '/api/admin/users/not-a-uuid/2fa', { headers: boss.headers });
    expect(bad.json().errorCode).toBe('VALIDATION_ERROR');
    const anonymous = await h.request('DELETE', `/api/admin/users/${boss.userId}/2fa`);
    expect(anonymous.statusCode).toBe(401);
  });

  it('an admin without 2FA: 200, sessions kept, nothing recorded', async () => {
    const boss = await signedInAdmin(h.t, { superadmin: true });
    const admin = await signedInAdmin(h.t, { permissions: ['System_READ'] });
    const res = await h.request('DELETE', `/api/admin/users/${admin.userId}/2fa`, { headers: boss.headers });
    expect(res.statusCode).toBe(200);
    expect((await h.request('GET', '/api/admin/system/info', { headers: admin.headers })).statusCode).toBe(
      200,
    );
    expect((await h.activity(admin.userId)).map((a) => a.action)).not.toContain('reset_two_factor');
  });
});
