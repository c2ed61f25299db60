// Customer sign-in through an OpenID Connect provider, end to end against a real OIDC server
// (oauth2-mock-server): start → provider → callback → frontend redirect → exchange.
import { createHash, randomBytes } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { OAuth2Server } from 'oauth2-mock-server';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createAdmin, createCustomerAccount, setAccountActive } from '../../../src/modules/identity';
import {
  identityProviderLinks,
  oneTimeCodes,
  sessions,
  users,
} from '../../../src/modules/identity/identity.table';
import { openProviderTokens } from '../../../src/modules/identity/idp/idp.service';
import { TestClock } from '../../../src/platform/clock';
import { createTestApp, type TestApp } from '../../helpers/app';
import { TEST_PASSWORD } from '../../helpers/factories';

const CALLBACK = 'http://localhost/api/mobile/auth/idp/callback';
const APP_REDIRECT = 'myapp://auth/callback';
const WEB_REDIRECT = 'https://shop.example.com/cb';
const START = '/api/mobile/auth/idp';
const EXCHANGE = '/api/mobile/auth/idp/exchange';
const device = { deviceId: 'dev-idp', deviceType: 'android', deviceName: 'Pixel' };
const unique = () => randomBytes(4).toString('hex');

/** What the provider says about the person who signs in next. */
interface ProviderProfile {
  sub: string;
  email?: string;
  /** Some providers send the flag as a string. */
  email_verified?: boolean | string;
  name?: string;
  given_name?: string;
  family_name?: string;
  picture?: string;
  /** Claims only the userinfo endpoint gives (the ID token then lacks them). */
  userinfo?: Record<string, unknown>;
}

const idpEnv = (issuer: string) => ({
  PUBLIC_BASE_URL: 'http://localhost',
  IDP_ISSUER_URL: issuer,
  IDP_CLIENT_ID: 'pasal',
  IDP_CLIENT_SECRET: 'secret',
  IDP_CALLBACK_URL: CALLBACK,
  IDP_OAUTH_REDIRECT_ALLOWLIST: `${APP_REDIRECT},${WEB_REDIRECT}`,
});

describe('identity provider sign-in', () => {
  let server: OAuth2Server;
  let t: TestApp;
  const clock = new TestClock(new Date());
  let profile: ProviderProfile = { sub: 'nobody' };
  /** Extra changes to the next ID token only (a wrong nonce, audience…). */
  let idTokenTamper: ((payload: Record<string, unknown>) => void) | undefined;
  /** Every Location header any step of any flow produced. */
  const locations: string[] = [];
  let addressCounter = 0;

  beforeAll(async () => {
    server = new OAuth2Server();
    await server.issuer.keys.generate('RS256');
    await server.start(undefined, '127.0.0.1');
    server.service.on('beforeTokenSigning', (token) => {
      const payload = token.payload as Record<string, unknown>;
      const { userinfo: _ignored, ...claims } = profile;
      delete payload.email;
      Object.assign(payload, claims);
      // The access token carries `scope`; the ID token does not.
      if (!('scope' in payload)) idTokenTamper?.(payload);
    });
    server.service.on('beforeUserinfo', (response) => {
      response.body = { sub: profile.sub, ...profile.userinfo };
    });
    t = await createTestApp({ clock, env: idpEnv(server.issuer.url!) });
  });
  afterAll(async () => {
    await t?.close();
    await server?.stop();
  });
  beforeEach(() => {
    idTokenTamper = undefined;
  });

  const db = () => t.platform.database.db;
  const person = (overrides: Partial<ProviderProfile> = {}): ProviderProfile => ({
    sub: `sub-${unique()}`,
    email: `p-${unique()}@example.com`,
    email_verified: true,
    name: 'Sita Gurung',
    ...overrides,
  });

  /** `null`: no redirect_uri at all. */
  const start = (redirectUri: string | null = APP_REDIRECT, remoteAddress?: string) => {
    addressCounter++;
    const query = redirectUri === null ? '' : `?redirect_uri=${encodeURIComponent(redirectUri)}`;
    return t.app.inject({
      method: 'GET',
      url: `${START}${query}`,
      remoteAddress: remoteAddress ?? `10.20.${addressCounter >> 8}.${addressCounter & 255}`,
    });
  };

  const location = (res: { headers: Record<string, unknown> }) => {
    const value = String(res.headers.location);
    locations.push(value);
    return value;
  };

  /** The browser at the provider: it signs `who` in and is sent back to our callback. */
  async function atProvider(authorizationUrl: string, who: ProviderProfile): Promise<URL> {
    profile = who;
    const res = await fetch(authorizationUrl, { redirect: 'manual' });
    expect(res.status).toBe(302);
    const back = res.headers.get('location')!;
    locations.push(back);
    return new URL(back);
  }

  const callback = (query: string) =>
    t.app.inject({ method: 'GET', url: `/api/mobile/auth/idp/callback${query}` });

  /** Start and provider steps: the callback URL the provider sends the browser to. */
  async function toCallback(who: ProviderProfile, redirectUri = APP_REDIRECT): Promise<URL> {
    const res = await start(redirectUri);
    expect(res.statusCode).toBe(302);
    return atProvider(location(res), who);
  }

  /** The whole browser part of a sign-in: the one-time code the frontend receives. */
  async function codeFor(who: ProviderProfile, redirectUri = APP_REDIRECT): Promise<string> {
    const back = await toCallback(who, redirectUri);
    const res = await callback(back.search);
    expect(res.statusCode).toBe(302);
    const frontend = new URL(location(res));
    expect(`${frontend.protocol}//${frontend.host}${frontend.pathname}`).toBe(redirectUri);
    expect([...frontend.searchParams.keys()]).toEqual(['code']);
    return frontend.searchParams.get('code')!;
  }

  const exchange = (code: unknown, extra: Record<string, unknown> = {}) =>
    t.app.inject({ method: 'POST', url: EXCHANGE, payload: { code, ...extra } });

  async function signInAs(who: ProviderProfile) {
    const res = await exchange(await codeFor(who), { deviceInfo: device });
    expect(res.statusCode).toBe(200);
    return res.json().data as {
      user: Record<string, unknown> & { id: string };
      tokens: { sessionId: string; accessToken: string; refreshToken: string };
    };
  }

  const linksOf = (userId: string) =>
    db().select().from(identityProviderLinks).where(eq(identityProviderLinks.userId, userId));
  const userById = async (id: string) => (await db().select().from(users).where(eq(users.id, id)))[0]!;
  const usersByEmail = (email: string) => db().select().from(users).where(eq(users.email, email));
  const me = (accessToken: string) =>
    t.app.inject({
      method: 'GET',
      url: '/api/mobile/auth/me',
      headers: { authorization: `Bearer ${accessToken}` },
    });

  const customer = (opts: { email?: string; verified?: boolean; password?: boolean } = {}) =>
    createCustomerAccount({
      db: db(),
      email: opts.email ?? `c-${unique()}@example.com`,
      name: 'Asha Rai',
      password: opts.password === false ? undefined : TEST_PASSWORD,
      emailVerified: opts.verified ?? true,
    });

  describe('start (GET /api/mobile/auth/idp)', () => {
    it('redirects to the discovered authorization endpoint: code flow, PKCE S256, state, nonce, scopes', async () => {
      const res = await start(WEB_REDIRECT);
      expect(res.statusCode).toBe(302);
      expect(res.headers['cache-control']).toBe('no-store');
      const url = new URL(location(res));
      expect(`${url.origin}${url.pathname}`).toBe(`${server.issuer.url}/authorize`);
      const q = url.searchParams;
      expect(q.get('response_type')).toBe('code');
      expect(q.get('client_id')).toBe('pasal');
      expect(q.get('redirect_uri')).toBe(CALLBACK);
      expect(q.get('scope')).toBe('openid email profile');
      expect(q.get('code_challenge_method')).toBe('S256');
      expect(q.get('nonce')?.length).toBeGreaterThanOrEqual(32);
      expect(q.get('state')).toMatch(/^[\w-]{43}\.\d+\.[\w-]{43}$/);

      // The verifier, nonce and frontend target stay on the server, under the state's id.
      const stateId = q.get('state')!.split('.')[0]!;
      const digest = createHash('sha256').update(stateId).digest('hex');
      const [row] = await db().select().from(oneTimeCodes).where(eq(oneTimeCodes.tokenDigest, digest));
      expect(row).toMatchObject({ purpose: 'idp_state', consumedAt: null });
      const kept = row!.payload as { pkceCodeVerifier: string; nonce: string; redirectUri: string };
      expect(kept.redirectUri).toBe(WEB_REDIRECT);
      expect(kept.nonce).toBe(q.get('nonce'));
      expect(createHash('sha256').update(kept.pkceCodeVerifier).digest('base64url')).toBe(
        q.get('code_challenge'),
      );
      expect(url.href).not.toContain(kept.pkceCodeVerifier);
      expect(row!.expiresAt.getTime() - clock.now().getTime()).toBe(300_000);
    });

    it('a missing redirect_uri is a validation error', async () => {
      const res = await start(null);
      expect(res.statusCode).toBe(400);
      expect(res.json().errorCode).toBe('VALIDATION_ERROR');
    });

    it('a redirect_uri not exactly in the allowlist: 400 AUTH_IDP_REDIRECT_NOT_ALLOWED, nothing stored', async () => {
      const before = await db().$count(oneTimeCodes, eq(oneTimeCodes.purpose, 'idp_state'));
      for (const uri of [
        'https://evil.example.com/cb',
        `${WEB_REDIRECT}/more`,
        `${WEB_REDIRECT}?next=/admin`,
        'https://SHOP.example.com/cb',
        `${APP_REDIRECT}/`,
        'myapp://auth',
      ]) {
        const res = await start(uri);
        expect(res.statusCode, uri).toBe(400);
        expect(res.json().errorCode).toBe('AUTH_IDP_REDIRECT_NOT_ALLOWED');
      }
      expect(await db().$count(oneTimeCodes, eq(oneTimeCodes.purpose, 'idp_state'))).toBe(before);
    });

    it('is rate limited per address, since every start stores a row', async () => {
      const statuses: number[] = [];
      for (let i = 0; i < 31; i++) statuses.push((await start(APP_REDIRECT, '10.99.0.1')).statusCode);
      expect(statuses.slice(0, 30).every((s) => s === 302)).toBe(true);
      expect(statuses[30]).toBe(429);
    });
  });

  describe('callback (GET /api/mobile/auth/idp/callback)', () => {
    it('returns to the frontend redirect_uri with a one-time code only', async () => {
      const back = await toCallback(person(), WEB_REDIRECT);
      expect(`${back.origin}${back.pathname}`).toBe(CALLBACK);
      const res = await callback(back.search);
      expect(res.statusCode).toBe(302);
      expect(res.headers['cache-control']).toBe('no-store');
      const frontend = new URL(location(res));
      expect(`${frontend.origin}${frontend.pathname}`).toBe(WEB_REDIRECT);
      expect([...frontend.searchParams.keys()]).toEqual(['code']);
      expect(frontend.searchParams.get('code')!.length).toBeGreaterThanOrEqual(43);
    });

    it('a state altered in any part, missing or doubled: 400 AUTH_IDP_STATE_INVALID', async () => {
      const back = await toCallback(person());
      const state = back.searchParams.get('state')!;
      const [id, expiry, signature] = state.split('.') as [string, string, string];
      const flip = (s: string) => (s[0] === 'A' ? 'B' : 'A') + s.slice(1);
      const variants = [
        `${flip(id)}.${expiry}.${signature}`,
        `${id}.${Number(expiry) + 60_000}.${signature}`,
        `${id}.${expiry}.${flip(signature)}`,
        `${id}.${expiry}`,
        'not-a-state',
      ];
      const code = back.searchParams.get('code')!;
      for (const variant of variants) {
        const res = await callback(`?code=${code}&state=${encodeURIComponent(variant)}`);
        expect(res.statusCode, variant).toBe(400);
        expect(res.json().errorCode).toBe('AUTH_IDP_STATE_INVALID');
      }
      for (const query of [`?code=${code}`, `?code=${code}&state=${state}&state=${state}`]) {
        const res = await callback(query);
        expect(res.statusCode, query).toBe(400);
        expect(res.json().errorCode).toBe('AUTH_IDP_STATE_INVALID');
      }
      // None of the above used the genuine state up.
      expect((await callback(back.search)).statusCode).toBe(302);
    });

    it('checks the redirect_uri against the allowlist again, as it may have changed since the start', async () => {
      const back = await toCallback(person(), WEB_REDIRECT);
      // Another process of the deployment, restarted with a shorter allowlist.
      const restarted = await createTestApp({
        clock,
        database: t.platform.database,
        env: { ...idpEnv(server.issuer.url!), IDP_OAUTH_REDIRECT_ALLOWLIST: APP_REDIRECT },
      });
      try {
        const res = await restarted.app.inject({
          method: 'GET',
          url: `/api/mobile/auth/idp/callback${back.search}`,
        });
        expect(res.statusCode).toBe(400);
        expect(res.json().errorCode).toBe('AUTH_IDP_REDIRECT_NOT_ALLOWED');
      } finally {
        await restarted.close();
      }
    });

    it('an expired state: 400 AUTH_IDP_STATE_INVALID', async () => {
      const back = await toCallback(person());
      clock.advance(301_000);
      const res = await callback(back.search);
      expect(res.statusCode).toBe(400);
      expect(res.json().errorCode).toBe('AUTH_IDP_STATE_INVALID');
    });

    it('a state used once already: 400 AUTH_IDP_STATE_INVALID', async () => {
      const back = await toCallback(person());
      expect((await callback(back.search)).statusCode).toBe(302);
      const again = await callback(back.search);
      expect(again.statusCode).toBe(400);
      expect(again.json().errorCode).toBe('AUTH_IDP_STATE_INVALID');
    });

    it('an error from the provider: 302 to the frontend with error=, and the state is used up', async () => {
      const cases = [
        { providerError: 'server_error', expected: 'AUTH_IDP_PROVIDER_ERROR' },
        { providerError: 'access_denied', expected: 'AUTH_IDP_ACCESS_DENIED' },
      ];
      for (const { providerError, expected } of cases) {
        server.service.once('beforeAuthorizeRedirect', ({ url }) => {
          url.searchParams.delete('code');
          url.searchParams.set('error', providerError);
        });
        const back = await toCallback(person(), WEB_REDIRECT);
        expect(back.searchParams.get('error')).toBe(providerError);
        const res = await callback(back.search);
        expect(res.statusCode).toBe(302);
        const frontend = new URL(location(res));
        expect(`${frontend.origin}${frontend.pathname}`).toBe(WEB_REDIRECT);
        expect(Object.fromEntries(frontend.searchParams)).toEqual({ error: expected });
        expect((await callback(back.search)).statusCode).toBe(400);
      }
    });

    it('a refused code exchange or an ID token that fails its checks: 302 with error=AUTH_IDP_PROVIDER_ERROR', async () => {
      const failures: Array<() => void> = [
        () =>
          server.service.once('beforeResponse', (response) => {
            response.statusCode = 400;
            response.body = { error: 'invalid_grant' };
          }),
        () => {
          idTokenTamper = (payload) => {
            payload.nonce = 'another-sign-in';
          };
        },
        () => {
          idTokenTamper = (payload) => {
            payload.aud = 'someone-else';
          };
        },
        () => {
          idTokenTamper = (payload) => {
            payload.iss = 'https://impostor.example.com';
          };
        },
      ];
      for (const arrange of failures) {
        const back = await toCallback(person());
        arrange();
        const res = await callback(back.search);
        idTokenTamper = undefined;
        expect(res.statusCode).toBe(302);
        const frontend = new URL(location(res));
        expect(Object.fromEntries(frontend.searchParams)).toEqual({ error: 'AUTH_IDP_PROVIDER_ERROR' });
      }
    });

    it("a code whose PKCE verifier does not match (another sign-in's state) fails at the provider", async () => {
      // The provider code of one sign-in with the state of another: the verifier kept for that
      // state does not match the challenge the code was issued for.
      const first = await toCallback(person());
      const second = await toCallback(person());
      const mixed = `?code=${first.searchParams.get('code')}&state=${encodeURIComponent(second.searchParams.get('state')!)}`;
      const res = await callback(mixed);
      expect(res.statusCode).toBe(302);
      expect(new URL(location(res)).searchParams.get('error')).toBe('AUTH_IDP_PROVIDER_ERROR');
    });
  });

  describe('exchange (POST /api/mobile/auth/idp/exchange): the sign-in rules', () => {
    it('no customer: creates one (verified, no password) and its link; the tokens work', async () => {
      const who = person({ email: `New-${unique()}@Example.com`, picture: 'https://img.example.com/s.png' });
      const res = await exchange(await codeFor(who), { deviceInfo: device });
      expect(res.statusCode).toBe(200);
      const { user, tokens } = res.json().data;
      const email = who.email!.toLowerCase();
      expect(user).toMatchObject({
        email,
        name: 'Sita Gurung',
        image: 'https://img.example.com/s.png',
        emailVerified: true,
        role: 'customer',
      });
      expect(user).not.toHaveProperty('hasPassword');
      expect(tokens.sessionId).toMatch(/^[0-9a-f-]{36}$/);

      const stored = await userById(user.id);
      expect(stored.passwordHash).toBeNull();
      expect(stored.emailVerified).toBe(true);
      const [link] = await linksOf(user.id);
      expect(link).toMatchObject({ issuer: server.issuer.url, subject: who.sub, email });
      const [session] = await db().select().from(sessions).where(eq(sessions.id, tokens.sessionId));
      expect(session).toMatchObject({ userId: user.id, actor: 'customer' });
      expect(session!.deviceInfo).toEqual({
        deviceId: 'dev-idp',
        deviceType: 'android',
        deviceName: 'Pixel',
      });

      const profileRes = await me(tokens.accessToken);
      expect(profileRes.statusCode).toBe(200);
      expect(profileRes.json().data).toMatchObject({ id: user.id, hasPassword: false, emailVerified: true });
    });

    it("stores the provider's tokens encrypted, bound to the provider account", async () => {
      const who = person();
      const { user } = await signInAs(who);
      const [link] = await linksOf(user.id);
      const sealed = link!.tokensEncrypted!;
      expect(sealed).toMatch(/^v1\./);
      const tokens = openProviderTokens(t.platform.config, {
        issuer: link!.issuer,
        subject: link!.subject,
        tokensEncrypted: sealed,
      });
      expect(tokens.token_type.toLowerCase()).toBe('bearer');
      expect(tokens.access_token.split('.')).toHaveLength(3);
      expect(tokens.id_token?.split('.')).toHaveLength(3);
      expect(tokens.refresh_token).toBeTruthy();
      // None of them in clear (a search for "eyJ" would also hit the ciphertext's base64 now and then).
      for (const clear of [tokens.access_token, tokens.id_token!, tokens.refresh_token!]) {
        expect(sealed).not.toContain(clear);
        expect(sealed).not.toContain(Buffer.from(clear).toString('base64url'));
      }
      expect(new Date(tokens.expires_at!).getTime()).toBeGreaterThan(clock.now().getTime());
      expect(() =>
        openProviderTokens(t.platform.config, {
          issuer: link!.issuer,
          subject: 'other',
          tokensEncrypted: sealed,
        }),
      ).toThrow();
    });

    it('customer without a link: creates the link and signs that customer in', async () => {
      const existing = await customer();
      const who = person({ email: existing.email.toUpperCase() });
      const { user } = await signInAs(who);
      expect(user.id).toBe(existing.id);
      const links = await linksOf(existing.id);
      expect(links).toHaveLength(1);
      expect(links[0]).toMatchObject({ subject: who.sub, email: existing.email });
      expect((await userById(existing.id)).passwordHash).toBe(existing.passwordHash);
      expect(await usersByEmail(existing.email)).toHaveLength(1);
    });

    it('customer with emailVerified=false: verifies the address and signs in', async () => {
      const existing = await customer({ verified: false });
      const { user, tokens } = await signInAs(person({ email: existing.email }));
      expect(user).toMatchObject({ id: existing.id, emailVerified: true });
      expect((await userById(existing.id)).emailVerified).toBe(true);
      expect(await linksOf(existing.id)).toHaveLength(1);
      expect((await me(tokens.accessToken)).json().data.hasPassword).toBe(true);
    });

    it('customer with a link: updates the stored provider tokens and signs the same customer in', async () => {
      const who = person();
      const first = await signInAs(who);
      const [before] = await linksOf(first.user.id);
      clock.advance(5_000);
      const second = await signInAs(who);
      expect(second.user.id).toBe(first.user.id);
      expect(second.tokens.sessionId).not.toBe(first.tokens.sessionId);
      const links = await linksOf(first.user.id);
      expect(links).toHaveLength(1);
      expect(links[0]!.id).toBe(before!.id);
      expect(links[0]!.tokensEncrypted).not.toBe(before!.tokensEncrypted);
      expect(links[0]!.tokensUpdatedAt!.getTime()).toBe(before!.tokensUpdatedAt!.getTime() + 5_000);
      const open = (l: typeof before) =>
        openProviderTokens(t.platform.config, {
          issuer: l!.issuer,
          subject: l!.subject,
          tokensEncrypted: l!.tokensEncrypted!,
        });
      expect(open(links[0]).refresh_token).not.toBe(open(before).refresh_token);
    });

    it('a linked provider account keeps signing in its customer after its email changes', async () => {
      const who = person();
      const first = await signInAs(who);
      const newEmail = `moved-${unique()}@example.com`;
      const second = await signInAs({ ...who, email: newEmail });
      expect(second.user.id).toBe(first.user.id);
      expect((await linksOf(first.user.id))[0]!.email).toBe(newEmail);
      expect(await usersByEmail(newEmail)).toHaveLength(0);
    });

    it('no email from the provider (ID token nor userinfo): 400 AUTH_IDP_EMAIL_REQUIRED, nothing created', async () => {
      const who = person({ email: undefined, userinfo: { name: 'No Mail' } });
      const code = await codeFor(who);
      const res = await exchange(code);
      expect(res.statusCode).toBe(400);
      expect(res.json().errorCode).toBe('AUTH_IDP_EMAIL_REQUIRED');
      const links = await db()
        .select()
        .from(identityProviderLinks)
        .where(eq(identityProviderLinks.subject, who.sub));
      expect(links).toHaveLength(0);
      // A refused exchange still uses the code up.
      expect((await exchange(code)).json().errorCode).toBe('AUTH_IDP_CODE_INVALID');
    });

    it('an email that is not an address counts as none: 400 AUTH_IDP_EMAIL_REQUIRED', async () => {
      const res = await exchange(await codeFor(person({ email: 'not-an-address' })));
      expect(res.statusCode).toBe(400);
      expect(res.json().errorCode).toBe('AUTH_IDP_EMAIL_REQUIRED');
    });

    it('a new customer is named from given and family name, else from the email', async () => {
      const named = await signInAs(person({ name: undefined, given_name: 'Hari', family_name: 'Thapa' }));
      expect(named.user.name).toBe('Hari Thapa');
      const local = `maya.${unique()}`;
      const unnamed = await signInAs(person({ name: undefined, email: `${local}@example.com` }));
      expect(unnamed.user).toMatchObject({ name: local, image: null });
    });

    it('an existing customer keeps its own name and image', async () => {
      const existing = await customer();
      const { user } = await signInAs(
        person({ email: existing.email, name: 'Provider Name', picture: 'https://img.example.com/p.png' }),
      );
      expect(user).toMatchObject({ id: existing.id, name: 'Asha Rai', image: null });
    });

    it('an email given only by the userinfo endpoint is used', async () => {
      const email = `info-${unique()}@example.com`;
      const who = person({ email: undefined, userinfo: { email, email_verified: true } });
      const { user } = await signInAs(who);
      expect(user).toMatchObject({ email, emailVerified: true });
    });

    it('the email of an admin account: 401 AUTH_IDP_ADMIN_ACCOUNT, no link', async () => {
      const admin = await createAdmin({
        db: db(),
        email: `staff-${unique()}@example.com`,
        password: TEST_PASSWORD,
      });
      const res = await exchange(await codeFor(person({ email: admin.email })));
      expect(res.statusCode).toBe(401);
      expect(res.json().errorCode).toBe('AUTH_IDP_ADMIN_ACCOUNT');
      expect(await linksOf(admin.id)).toHaveLength(0);

      // A linked provider account that now reports the staff address is refused too.
      const who = person();
      await signInAs(who);
      const linked = await exchange(await codeFor({ ...who, email: admin.email }));
      expect(linked.statusCode).toBe(401);
      expect(linked.json().errorCode).toBe('AUTH_IDP_ADMIN_ACCOUNT');
    });

    it('an address the provider marks unverified is not matched nor used for a new account: 403', async () => {
      const existing = await customer({ verified: false });
      const fresh = `unverified-${unique()}@example.com`;
      const cases: Array<[string, boolean | string]> = [
        [existing.email, false],
        [fresh, false],
        [fresh, 'false'],
      ];
      for (const [email, flag] of cases) {
        const res = await exchange(await codeFor(person({ email, email_verified: flag })));
        expect(res.statusCode).toBe(403);
        expect(res.json().errorCode).toBe('AUTH_IDP_EMAIL_NOT_VERIFIED');
      }
      expect(await linksOf(existing.id)).toHaveLength(0);
      expect((await userById(existing.id)).emailVerified).toBe(false);
      expect(await usersByEmail(fresh)).toHaveLength(0);
    });

    it('a deactivated customer: 403 AUTH_IDP_ACCOUNT_DISABLED', async () => {
      const existing = await customer();
      await setAccountActive({
        authenticator: t.platform.authenticator,
        db: db(),
        clock,
        userId: existing.id,
        isActive: false,
      });
      const res = await exchange(await codeFor(person({ email: existing.email })));
      expect(res.statusCode).toBe(403);
      expect(res.json().errorCode).toBe('AUTH_IDP_ACCOUNT_DISABLED');
    });

    it('a customer scheduled for deletion is restored, as a password login would', async () => {
      const existing = await customer();
      await db()
        .update(users)
        .set({ deletionScheduledAt: new Date(clock.now().getTime() + 86_400_000) })
        .where(eq(users.id, existing.id));
      const res = await exchange(await codeFor(person({ email: existing.email })));
      expect(res.statusCode).toBe(200);
      expect(res.json().message).toMatch(/restored/);
      expect((await userById(existing.id)).deletionScheduledAt).toBeNull();
    });
  });

  describe('exchange: the one-time code', () => {
    it('used twice: the second is 400 AUTH_IDP_CODE_INVALID', async () => {
      const code = await codeFor(person());
      expect((await exchange(code)).statusCode).toBe(200);
      const again = await exchange(code);
      expect(again.statusCode).toBe(400);
      expect(again.json().errorCode).toBe('AUTH_IDP_CODE_INVALID');
    });

    it('expired after IDP_OAUTH_CODE_TTL_SECONDS: 400 AUTH_IDP_CODE_INVALID', async () => {
      const code = await codeFor(person());
      clock.advance(91_000);
      const res = await exchange(code);
      expect(res.statusCode).toBe(400);
      expect(res.json().errorCode).toBe('AUTH_IDP_CODE_INVALID');
    });

    it('unknown: 400 AUTH_IDP_CODE_INVALID; missing: 400 VALIDATION_ERROR', async () => {
      const unknown = await exchange(randomBytes(32).toString('base64url'));
      expect(unknown.statusCode).toBe(400);
      expect(unknown.json().errorCode).toBe('AUTH_IDP_CODE_INVALID');
      const missing = await t.app.inject({ method: 'POST', url: EXCHANGE, payload: {} });
      expect(missing.statusCode).toBe(400);
      expect(missing.json().errorCode).toBe('VALIDATION_ERROR');
    });

    it('a state id is not an exchange code', async () => {
      const res = await start();
      const stateId = new URL(location(res)).searchParams.get('state')!.split('.')[0]!;
      expect((await exchange(stateId)).json().errorCode).toBe('AUTH_IDP_CODE_INVALID');
    });

    it('50 concurrent exchanges of one code: exactly one succeeds', async () => {
      const who = person();
      const code = await codeFor(who);
      const results = await Promise.all(Array.from({ length: 50 }, () => exchange(code)));
      const ok = results.filter((r) => r.statusCode === 200);
      expect(ok).toHaveLength(1);
      for (const r of results.filter((r) => r.statusCode !== 200)) {
        expect(r.statusCode).toBe(400);
        expect(r.json().errorCode).toBe('AUTH_IDP_CODE_INVALID');
      }
      const userId = ok[0]!.json().data.user.id;
      expect(await db().$count(sessions, eq(sessions.userId, userId))).toBe(1);
    });

    it('two first sign-ins of one person exchanged at once: both succeed, one customer, one link', async () => {
      const who = person();
      const codes = [await codeFor(who), await codeFor(who)];
      const results = await Promise.all(codes.map((code) => exchange(code)));
      expect(results.map((r) => r.statusCode)).toEqual([200, 200]);
      const ids = results.map((r) => r.json().data.user.id);
      expect(ids[0]).toBe(ids[1]);
      expect(await usersByEmail(who.email!)).toHaveLength(1);
      const links = await db()
        .select()
        .from(identityProviderLinks)
        .where(
          and(
            eq(identityProviderLinks.issuer, server.issuer.url!),
            eq(identityProviderLinks.subject, who.sub),
          ),
        );
      expect(links).toHaveLength(1);
    });
  });

  it("bearer tokens, ours or the provider's, never appear in a redirect Location", async () => {
    const who = person();
    const { user, tokens } = await signInAs(who);
    const [link] = await linksOf(user.id);
    const provider = openProviderTokens(t.platform.config, {
      issuer: link!.issuer,
      subject: link!.subject,
      tokensEncrypted: link!.tokensEncrypted!,
    });
    const secrets = [
      tokens.accessToken,
      tokens.refreshToken,
      provider.access_token,
      provider.id_token!,
      provider.refresh_token!,
    ];
    expect(locations.length).toBeGreaterThan(50);
    for (const value of locations) {
      for (const secret of secrets) expect(value).not.toContain(secret);
      // A JWT's header and payload are both JSON objects, so both base64url parts start with
      // eyJ. A lone "eyJ" turns up inside random values now and then (the state is three
      // dot-separated parts, one of them random), so only a part that starts with eyJ and is
      // followed by another that starts with eyJ counts as a token.
      expect(value).not.toMatch(/access_token|refresh_token|id_token|(?<![\w-])eyJ[\w-]*\.eyJ[\w-]*\./);
    }
  });
});

describe('identity provider not configured', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('all three routes answer 404 AUTH_IDP_NOT_CONFIGURED, before validating the request', async () => {
    const requests = [
      { method: 'GET' as const, url: START },
      { method: 'GET' as const, url: `${START}?redirect_uri=${encodeURIComponent(APP_REDIRECT)}` },
      { method: 'GET' as const, url: `${START}/callback?code=x&state=y` },
      { method: 'POST' as const, url: EXCHANGE, payload: {} },
      { method: 'POST' as const, url: EXCHANGE, payload: { code: 'abc' } },
    ];
    for (const request of requests) {
      const res = await t.app.inject(request);
      expect(res.statusCode, request.url).toBe(404);
      expect(res.json().errorCode).toBe('AUTH_IDP_NOT_CONFIGURED');
    }
  });
});

describe('identity provider unreachable', () => {
  let server: OAuth2Server;
  let t: TestApp;
  let port: number;
  let issuer: string;
  beforeAll(async () => {
    server = new OAuth2Server();
    await server.issuer.keys.generate('RS256');
    await server.start(undefined, '127.0.0.1');
    port = server.address().port;
    issuer = server.issuer.url!;
    await server.stop();
    // The server starts although the provider is down: discovery waits for the first sign-in.
    t = await createTestApp({ env: idpEnv(issuer) });
  });
  afterAll(async () => {
    await t?.close();
    if (server.listening) await server.stop();
  });

  it('start answers 502 AUTH_IDP_UNAVAILABLE, and works once the provider is back', async () => {
    const url = `${START}?redirect_uri=${encodeURIComponent(APP_REDIRECT)}`;
    const down = await t.app.inject({ method: 'GET', url });
    expect(down.statusCode).toBe(502);
    expect(down.json().errorCode).toBe('AUTH_IDP_UNAVAILABLE');

    await server.start(port, '127.0.0.1');
    const up = await t.app.inject({ method: 'GET', url });
    expect(up.statusCode).toBe(302);
    expect(String(up.headers.location)).toContain(`${issuer}/authorize?`);
  });
});
