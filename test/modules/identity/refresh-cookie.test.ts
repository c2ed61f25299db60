// The console's refresh cookie (docs/api-notes.md, "Console sessions: the refresh cookie"): asked
// for with X-Refresh-Token-Transport: cookie, an HttpOnly; Secure; SameSite=Strict cookie scoped
// to the refresh route; a refresh by cookie from the console's own origin only; sign-out clears
// it; every other client keeps body tokens.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClock } from '../../../src/platform/clock';
import { createTestApp, type TestApp } from '../../helpers/app';
import { signedInAdmin, signedInCustomer, TEST_PASSWORD } from '../../helpers/factories';

const HOST = 'shop.example.com';
const SAME_ORIGIN = { host: HOST, origin: `https://${HOST}`, 'sec-fetch-site': 'same-origin' };
const ASK = { 'x-refresh-token-transport': 'cookie' };

let t: TestApp;
const clock = new TestClock(new Date());
beforeAll(async () => {
  t = await createTestApp({ clock });
});
afterAll(() => t?.close());

const post = (url: string, payload: object | undefined, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url, payload, headers });

/** The refresh cookie a reply sets: its value and attributes. */
function setCookie(res: { headers: Record<string, unknown> }) {
  const header = res.headers['set-cookie'];
  const line = [header].flat().find((c) => String(c).startsWith('pasal_admin_refresh='));
  if (!line) return undefined;
  const [pair, ...attributes] = String(line).split('; ');
  return { value: pair!.slice('pasal_admin_refresh='.length), attributes };
}

async function consoleSignIn() {
  const admin = await signedInAdmin(t, { permissions: ['System_READ'] });
  const res = await post(
    '/api/auth/login/email',
    { email: admin.email, password: TEST_PASSWORD },
    { ...SAME_ORIGIN, ...ASK },
  );
  expect(res.statusCode, res.body).toBe(200);
  return { admin, res, cookie: setCookie(res)! };
}

const refreshByCookie = (value: string, headers: Record<string, string> = SAME_ORIGIN) =>
  post('/api/auth/refresh', {}, { ...headers, ...ASK, cookie: `other=1; pasal_admin_refresh=${value}` });

describe('the console refresh cookie', () => {
  it('sign-in puts the refresh token in an HttpOnly, Secure, SameSite=Strict cookie for the refresh route only', async () => {
    const { res, cookie } = await consoleSignIn();
    expect(cookie.value.length).toBeGreaterThanOrEqual(43);
    expect(cookie.attributes).toEqual(
      expect.arrayContaining([
        'Path=/api/auth/refresh',
        'HttpOnly',
        'Secure',
        'SameSite=Strict',
        'Max-Age=2592000',
      ]),
    );
    // Page script never sees it: the body's refreshToken is empty, the access token is there.
    const { tokens } = res.json().data;
    expect(tokens.refreshToken).toBe('');
    expect(tokens.accessToken).toBeTruthy();
  });

  it('a reload refreshes by cookie: a new access token and a rotated cookie; the old cookie is then reuse', async () => {
    const { res, cookie } = await consoleSignIn();
    const first = await refreshByCookie(cookie.value);
    expect(first.statusCode, first.body).toBe(200);
    const { user, tokens } = first.json().data;
    expect(tokens).toMatchObject({ sessionId: res.json().data.tokens.sessionId, refreshToken: '' });
    expect(user.email).toBe(res.json().data.user.email);
    const rotated = setCookie(first)!;
    expect(rotated.value).not.toBe(cookie.value);
    const me = await t.app.inject({
      method: 'GET',
      url: '/api/auth/me',
      headers: { authorization: `Bearer ${tokens.accessToken}` },
    });
    expect(me.statusCode).toBe(200);
    expect((await refreshByCookie(rotated.value)).statusCode).toBe(200);
    // Long after the grace period, the first cookie again is reuse: the session ends, the cookie is cleared.
    clock.advance(60_000);
    const reused = await refreshByCookie(cookie.value);
    expect(reused.statusCode).toBe(401);
    expect(reused.json().errorCode).toBe('AUTH_REFRESH_TOKEN_REUSED');
    expect(setCookie(reused)).toMatchObject({ value: '', attributes: expect.arrayContaining(['Max-Age=0']) });
  });

  it('refuses a cross-site or missing Origin (CSRF) without spending the token', async () => {
    const { cookie } = await consoleSignIn();
    for (const headers of <Record<string, string>[]>[
      { host: HOST, origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
      { host: HOST, origin: 'https://evil.example' },
      { host: HOST, origin: `https://${HOST}`, 'sec-fetch-site': 'cross-site' },
      { host: HOST },
      { host: HOST, origin: 'null' },
    ]) {
      const refused = await refreshByCookie(cookie.value, headers);
      expect(refused.statusCode, JSON.stringify(headers)).toBe(403);
      expect(refused.json().errorCode).toBe('AUTH_REFRESH_ORIGIN_REFUSED');
    }
    expect((await refreshByCookie(cookie.value)).statusCode).toBe(200);
  });

  it('sign-out clears the cookie and ends the session: a reload after it is signed out', async () => {
    const { res, cookie } = await consoleSignIn();
    const out = await t.app.inject({
      method: 'DELETE',
      url: '/api/auth/logout',
      headers: { authorization: `Bearer ${res.json().data.tokens.accessToken}` },
    });
    expect(out.statusCode).toBe(200);
    expect(setCookie(out)).toMatchObject({
      value: '',
      attributes: expect.arrayContaining(['Path=/api/auth/refresh', 'Max-Age=0']),
    });
    const after = await refreshByCookie(cookie.value);
    expect(after.statusCode).toBe(401);
    expect(after.json().errorCode).toBe('AUTH_REFRESH_TOKEN_INVALID');
  });

  it('no cookie and no body token: 401 AUTH_REFRESH_TOKEN_INVALID', async () => {
    const res = await post('/api/auth/refresh', {}, SAME_ORIGIN);
    expect(res.statusCode).toBe(401);
    expect(res.json().errorCode).toBe('AUTH_REFRESH_TOKEN_INVALID');
  });

  it('clients that do not ask keep body tokens; the mobile API never uses the cookie', async () => {
    const admin = await signedInAdmin(t, { permissions: ['System_READ'] });
    const plain = await post('/api/auth/login/email', { email: admin.email, password: TEST_PASSWORD });
    expect(plain.statusCode).toBe(200);
    expect(setCookie(plain)).toBeUndefined();
    const { refreshToken } = plain.json().data.tokens;
    expect(refreshToken.length).toBeGreaterThanOrEqual(43);
    const byBody = await post('/api/auth/refresh', { refreshToken });
    expect(byBody.statusCode).toBe(200);
    expect(setCookie(byBody)).toBeUndefined();
    expect(byBody.json().data.tokens.refreshToken.length).toBeGreaterThanOrEqual(43);

    const customer = await signedInCustomer(t);
    const mobile = await post(
      '/api/mobile/auth/login/email',
      {
        email: customer.email,
        password: TEST_PASSWORD,
        deviceInfo: { deviceId: 'd-1', deviceType: 'ios', deviceName: 'iPhone' },
      },
      { ...SAME_ORIGIN, ...ASK },
    );
    expect(mobile.statusCode, mobile.body).toBe(200);
    expect(setCookie(mobile)).toBeUndefined();
    expect(mobile.json().data.tokens.refreshToken.length).toBeGreaterThanOrEqual(43);
    const mobileRefresh = await post(
      '/api/mobile/auth/refresh',
      {},
      { ...SAME_ORIGIN, cookie: 'pasal_admin_refresh=x' },
    );
    expect(mobileRefresh.statusCode).toBe(400);
    expect(mobileRefresh.json().errorCode).toBe('VALIDATION_ERROR');
  });
});
