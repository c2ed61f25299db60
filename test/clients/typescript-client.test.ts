// @pasal/client against a real listening server: what a storefront or app developer does with it.
import type { AddressInfo } from 'node:net';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createPasalClient,
  isPasalError,
  type PasalClient,
  PasalError,
  type Tokens,
  TwoFactorRequired,
} from '../../clients/typescript/src';
import { TestClock } from '../../src/platform/clock';
import { createTestApp, type TestApp } from '../helpers/app';
import { signedInAdmin, TEST_PASSWORD } from '../helpers/factories';
import { lastMailTo } from '../helpers/mail';

const device = { deviceId: 'phone-1', deviceType: 'android', deviceName: 'Pixel' };

describe('@pasal/client', () => {
  let t: TestApp;
  let baseUrl: string;
  const clock = new TestClock(new Date());
  beforeAll(async () => {
    t = await createTestApp({ clock });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    baseUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  });
  afterAll(() => t.close());

  it('an admin with two-factor sign-in: login throws TwoFactorRequired, loginWithSecondFactor keeps the tokens', async () => {
    const account = await signedInAdmin(t, { permissions: [] });
    const admin = createPasalClient({ baseUrl, surface: 'admin', tokens: account.tokens });
    const { secret } = await admin.post('/api/auth/2fa/totp/setup');
    const codeNow = () =>
      new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 }).generate({
        timestamp: clock.now().getTime(),
      });
    const { recoveryCodes } = await admin.post('/api/auth/2fa/totp/confirm', { body: { code: codeNow() } });
    expect(recoveryCodes).toHaveLength(10);

    const saved: (Tokens | null)[] = [];
    const fresh = createPasalClient({ baseUrl, surface: 'admin', onTokens: (tokens) => saved.push(tokens) });
    const thrown = await fresh.login({ email: account.email, password: TEST_PASSWORD }).catch((e) => e);
    expect(thrown).toBeInstanceOf(TwoFactorRequired);
    expect(thrown.challenge).toMatchObject({ twoFactorRequired: true, methods: ['totp', 'recovery_code'] });
    expect(fresh.tokens).toBeNull();
    const tokens = await fresh.loginWithSecondFactor({
      challengeToken: thrown.challenge.challengeToken,
      recoveryCode: recoveryCodes[0]!,
    });
    expect(saved.at(-1)).toEqual(tokens);
    expect(await fresh.get('/api/auth/me')).toMatchObject({ id: account.userId, twoFactorEnabled: true });
  });

  it('registers, verifies by mail, signs in, lists products and opens an inquiry', async () => {
    // A product published by an admin through the admin surface of the client.
    const adminAccount = await signedInAdmin(t, { superadmin: true });
    const admin = createPasalClient({ baseUrl, surface: 'admin' });
    await admin.login({ email: adminAccount.email, password: TEST_PASSWORD });
    const created = await admin.post('/api/admin/products', {
      body: { title: 'Client Phone', productKind: 'digital', mrp: 1000, status: 'published' },
    });
    expect(created).toMatchObject({ title: 'Client Phone', status: 'published' });

    const saved: (Tokens | null)[] = [];
    const app: PasalClient = createPasalClient({ baseUrl, onTokens: (tokens) => saved.push(tokens) });
    const email = `client-${Date.now()}@example.com`;
    const profile = await app.post('/api/mobile/auth/register', {
      body: { name: 'Sita', email, password: TEST_PASSWORD, deviceInfo: device },
    });
    expect(profile).toMatchObject({ email, emailVerified: false });

    // Not verified yet: the documented error code, typed.
    const refused = await app.login({ email, password: TEST_PASSWORD, deviceInfo: device }).catch((e) => e);
    expect(isPasalError(refused, 'AUTH_EMAIL_NOT_VERIFIED')).toBe(true);
    expect(refused).toMatchObject({ status: 403, errorCode: 'AUTH_EMAIL_NOT_VERIFIED' });

    const mail = await lastMailTo(t, email);
    expect(mail?.code).toMatch(/^\d{6}$/);
    const verified = await app.post('/api/mobile/auth/email/verify/confirm', {
      body: { email, code: mail!.code },
    });
    expect(verified.user).toMatchObject({ email, emailVerified: true });

    const tokens = await app.login({ email, password: TEST_PASSWORD, deviceInfo: device });
    expect(saved.at(-1)).toEqual(tokens);
    expect(await app.get('/api/mobile/auth/me')).toMatchObject({ email });

    const page = await app.list('/api/mobile/products', { params: { query: { search: 'Client Phone' } } });
    expect(page.data.map((p) => p.slug)).toContain(created.slug);
    expect(page.meta.count).toBeGreaterThanOrEqual(1);
    const product = await app.get('/api/mobile/products/{slug}', {
      params: { path: { slug: created.slug } },
    });
    expect(product.title).toBe('Client Phone');

    const inquiry = await app.post('/api/support-inquiries', {
      body: { category: 'product', subject: 'Is it in stock?', message: `About ${product.title}` },
    });
    expect(inquiry).toMatchObject({ subject: 'Is it in stock?', status: 'open', guestEmail: null });
    const mine = await app.get('/api/support-inquiries/{id}', { params: { path: { id: inquiry.id } } });
    expect(mine.id).toBe(inquiry.id);

    // An unknown slug: the envelope's errorCode as a PasalError.
    const missing = await app
      .get('/api/mobile/products/{slug}', { params: { path: { slug: 'no-such-product' } } })
      .catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(PasalError);
    expect(missing).toMatchObject({ status: 404, errorCode: 'PRODUCT_NOT_FOUND' });
  });

  it('refreshes an expired access token once for concurrent requests, then retries them', async () => {
    const account = await signedInAdmin(t, { superadmin: true });
    const saved: (Tokens | null)[] = [];
    const admin = createPasalClient({ baseUrl, surface: 'admin', onTokens: (tokens) => saved.push(tokens) });
    const first = await admin.login({ email: account.email, password: TEST_PASSWORD });

    clock.advance((t.platform.config.JWT_ACCESS_TTL_SECONDS + 60) * 1000);
    const [me, permissions, again] = await Promise.all([
      admin.get('/api/auth/me'),
      admin.get('/api/auth/permissions'),
      admin.get('/api/auth/me'),
    ]);
    expect(me).toMatchObject({ email: account.email });
    expect(again).toMatchObject({ email: account.email });
    expect(permissions.role).toBe('superadmin');
    // One refresh: the session stays, both tokens rotated.
    expect(saved).toHaveLength(2);
    expect(admin.tokens?.sessionId).toBe(first.sessionId);
    expect(admin.tokens?.refreshToken).not.toBe(first.refreshToken);

    // A refresh token that the server no longer accepts ends the client's session.
    admin.setTokens({ ...admin.tokens!, accessToken: 'expired', refreshToken: first.refreshToken });
    clock.advance((t.platform.config.JWT_REFRESH_REUSE_GRACE_SECONDS + 1) * 1000);
    const ended = await admin.get('/api/auth/me').catch((e: unknown) => e);
    expect(ended).toMatchObject({ status: 401, errorCode: 'AUTH_REFRESH_TOKEN_REUSED' });
    expect(admin.tokens).toBeNull();
  });

  it('retries a refresh whose reply was lost with the same token, within the grace', async () => {
    const account = await signedInAdmin(t, { superadmin: true });
    let dropped = 0;
    // The server rotates the tokens, but the reply never reaches the client (a network failure).
    const lossyFetch: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      const url = input instanceof Request ? input.url : String(input);
      if (url.endsWith('/api/auth/refresh') && dropped++ === 0) throw new TypeError('fetch failed');
      return response;
    };
    const admin = createPasalClient({ baseUrl, surface: 'admin', fetch: lossyFetch });
    const first = await admin.login({ email: account.email, password: TEST_PASSWORD });
    clock.advance((t.platform.config.JWT_ACCESS_TTL_SECONDS + 60) * 1000);
    expect(await admin.get('/api/auth/me')).toMatchObject({ email: account.email });
    expect(dropped).toBe(2);
    expect(admin.tokens?.sessionId).toBe(first.sessionId);
    expect(admin.tokens?.refreshToken).not.toBe(first.refreshToken);
  });
});
