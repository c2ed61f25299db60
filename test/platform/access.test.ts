// Who may call what: the access declarations every route carries, and the session rules
// behind a token (revoked, expired, deactivated).
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endSession, setAccountActive } from '../../src/modules/identity';
import { access } from '../../src/platform/auth/access';
import { TestClock } from '../../src/platform/clock';
import { currentUser } from '../../src/platform/http/access-hook';
import { ok } from '../../src/platform/http/envelope';
import { AppError } from '../../src/platform/http/errors';
import type { ApiApp } from '../../src/platform/module';
import { createTestApp, type TestApp } from '../helpers/app';
import { signedInAdmin, signedInCustomer } from '../helpers/factories';
import { servicesTier } from '../helpers/services';

const GOOD_GUEST = 'tg_valid-guest-token';
const guestDenied = () => new AppError(403, 'TEST_GUEST_TOKEN_INVALID', 'Guest token is not valid');

function testRoutes(app: ApiApp) {
  app.get('/api/test/admin', { config: { access: access.admin('Widgets_READ') } }, async () => ok(null));
  app.get('/api/test/customer', { config: { access: access.customer() } }, async () => ok(null));
  app.get('/api/test/customer-perm', { config: { access: access.customer('ORDERS_REORDER') } }, async () =>
    ok(null),
  );
  app.get(
    '/api/test/customer-other-perm',
    { config: { access: access.customer('ORDERS_EXPORT') } },
    async () => ok(null),
  );
  app.get('/api/test/optional', { config: { access: access.optionalCustomer() } }, async (request) =>
    ok({ customerId: request.principal?.actor === 'customer' ? request.principal.userId : null }),
  );
  app.get(
    '/api/test/guest',
    { config: { access: access.customerOrGuest('tg_', guestDenied) } },
    async (request) => ok({ actor: request.principal?.actor ?? null }),
  );
  app.get('/api/test/ip', { config: { access: access.public() } }, async (request) => ok({ ip: request.ip }));
  app.get('/api/test/me', { config: { access: access.customer() } }, async (request) =>
    ok({ sessionId: currentUser(request).sessionId }),
  );
}

describe('access rules', () => {
  let t: TestApp;
  const clock = new TestClock(new Date());
  beforeAll(async () => {
    t = await createTestApp({ testRoutes, clock });
    t.platform.authenticator.registerGuestResolver(
      'tg_',
      async (token) => (token === GOOD_GUEST ? { actor: 'guest', token, subject: { inquiryId: 1 } } : null),
      'TEST_GUEST_TOKEN_INVALID',
    );
  });
  afterAll(() => t.close());

  const get = (url: string, authorization?: string) =>
    t.app.inject({ method: 'GET', url, headers: authorization ? { authorization } : {} });

  it('a route without an access declaration cannot be registered', async () => {
    await expect(
      createTestApp({
        testRoutes: (app) => {
          app.get('/api/test/unguarded', async () => ok(null));
        },
      }),
    ).rejects.toThrow(/must declare config.access/);
  });

  it('a guest token on an admin or customer route is not a JWT: 401', async () => {
    expect((await get('/api/test/admin', `Bearer ${GOOD_GUEST}`)).json().errorCode).toBe('AUTH_UNAUTHORIZED');
    expect((await get('/api/test/customer', `Bearer ${GOOD_GUEST}`)).statusCode).toBe(401);
  });

  describe('customer-or-guest routes', () => {
    it('no credential at all answers the route’s own guest error (403)', async () => {
      const res = await get('/api/test/guest');
      expect(res.statusCode).toBe(403);
      expect(res.json().errorCode).toBe('TEST_GUEST_TOKEN_INVALID');
    });

    it('an unknown guest token answers the same 403; the right one passes as a guest', async () => {
      expect((await get('/api/test/guest', 'Bearer tg_wrong')).json().errorCode).toBe(
        'TEST_GUEST_TOKEN_INVALID',
      );
      const res = await get('/api/test/guest', `Bearer ${GOOD_GUEST}`);
      expect(res.statusCode).toBe(200);
      expect(res.json().data).toEqual({ actor: 'guest' });
    });

    it('a customer JWT passes; an admin JWT is the wrong actor (403); a bad JWT is 401', async () => {
      const customer = await signedInCustomer(t);
      expect((await get('/api/test/guest', customer.headers.authorization)).json().data).toEqual({
        actor: 'customer',
      });
      const admin = await signedInAdmin(t, { superadmin: true });
      expect((await get('/api/test/guest', admin.headers.authorization)).json().errorCode).toBe(
        'AUTH_FORBIDDEN',
      );
      expect((await get('/api/test/guest', 'Bearer nope')).json().errorCode).toBe('AUTH_UNAUTHORIZED');
    });
  });

  describe('optional customer routes', () => {
    it('anonymous and guests pass; a customer is identified; a bad JWT is 401, an admin 403', async () => {
      expect((await get('/api/test/optional')).json().data).toEqual({ customerId: null });
      const customer = await signedInCustomer(t);
      expect((await get('/api/test/optional', customer.headers.authorization)).json().data).toEqual({
        customerId: customer.userId,
      });
      expect((await get('/api/test/optional', 'Bearer nope')).statusCode).toBe(401);
      // A guest credential, known or not, is served as an anonymous guest.
      for (const token of [GOOD_GUEST, 'tg_unknown']) {
        const res = await get('/api/test/optional', `Bearer ${token}`);
        expect(res.statusCode).toBe(200);
        expect(res.json().data).toEqual({ customerId: null });
      }
      const admin = await signedInAdmin(t, { superadmin: true });
      expect((await get('/api/test/optional', admin.headers.authorization)).statusCode).toBe(403);
    });
  });

  it('customers hold the default customer set (ORDERS_REORDER); other codes are checked like admin ones', async () => {
    const customer = await signedInCustomer(t);
    expect((await get('/api/test/customer-perm', customer.headers.authorization)).statusCode).toBe(200);
    const res = await get('/api/test/customer-other-perm', customer.headers.authorization);
    expect(res.statusCode).toBe(403);
    expect(res.json().errorCode).toBe('AUTH_PERMISSION_DENIED');
  });

  describe('sessions behind tokens', () => {
    it('a revoked session is refused from the next request on', async () => {
      const customer = await signedInCustomer(t);
      expect((await get('/api/test/me', customer.headers.authorization)).statusCode).toBe(200);
      await endSession({
        authenticator: t.platform.authenticator,
        db: t.platform.database.db,
        clock,
        sessionId: customer.tokens.sessionId,
      });
      const res = await get('/api/test/me', customer.headers.authorization);
      expect(res.statusCode).toBe(401);
      expect(res.json().errorCode).toBe('AUTH_UNAUTHORIZED');
    });

    it('a deactivated account is refused on its next request', async () => {
      const admin = await signedInAdmin(t, { permissions: ['Widgets_READ'] });
      expect((await get('/api/test/admin', admin.headers.authorization)).statusCode).toBe(200);
      await setAccountActive({
        authenticator: t.platform.authenticator,
        db: t.platform.database.db,
        clock,
        userId: admin.userId,
        isActive: false,
      });
      expect((await get('/api/test/admin', admin.headers.authorization)).statusCode).toBe(401);
    });

    it('an access token past JWT_ACCESS_TTL_SECONDS is refused', async () => {
      const customer = await signedInCustomer(t);
      clock.advance((t.platform.config.JWT_ACCESS_TTL_SECONDS - 5) * 1000);
      expect((await get('/api/test/me', customer.headers.authorization)).statusCode).toBe(200);
      clock.advance(10_000);
      expect((await get('/api/test/me', customer.headers.authorization)).statusCode).toBe(401);
    });

    it('a token signed with another secret is refused', async () => {
      const customer = await signedInCustomer(t);
      const { createAccessTokens } = await import('../../src/platform/security/jwt');
      const other = createAccessTokens({ secret: 'x'.repeat(48), ttlSeconds: 900, now: () => clock.now() });
      const forged = await other.sign({
        sub: customer.userId,
        sid: customer.tokens.sessionId,
        actor: 'customer',
      });
      expect((await get('/api/test/me', `Bearer ${forged}`)).statusCode).toBe(401);
    });

    it('a token claiming the admin actor for a customer session is refused', async () => {
      const customer = await signedInCustomer(t);
      const lying = await t.platform.tokens.sign({
        sub: customer.userId,
        sid: customer.tokens.sessionId,
        actor: 'admin',
      });
      expect((await get('/api/test/admin', `Bearer ${lying}`)).statusCode).toBe(401);
    });
  });
});

describe('TRUST_PROXY', () => {
  it('names the proxies whose X-Forwarded-For gives the client address', async () => {
    const t = await createTestApp({ testRoutes, env: { TRUST_PROXY: '10.0.0.1' } });
    try {
      const viaProxy = await t.app.inject({
        method: 'GET',
        url: '/api/test/ip',
        remoteAddress: '10.0.0.1',
        headers: { 'x-forwarded-for': '203.0.113.7' },
      });
      expect(viaProxy.json().data.ip).toBe('203.0.113.7');
      const notAProxy = await t.app.inject({
        method: 'GET',
        url: '/api/test/ip',
        remoteAddress: '10.0.0.99',
        headers: { 'x-forwarded-for': '203.0.113.7' },
      });
      expect(notAProxy.json().data.ip).toBe('10.0.0.99');
    } finally {
      await t.close();
    }
  });
});

// A signed-in request is answered from the process's copy of its session for SESSION_CACHE_MS
// (issue 33: the session query was most of a cached signed-in read's cost); every end of a
// session, and every change to what sessions hold, drops the copies at once.
describe('copies of live sessions (SESSION_CACHE_MS)', () => {
  let t: TestApp;
  const clock = new TestClock(new Date());
  beforeAll(async () => {
    t = await createTestApp({ testRoutes, clock });
  });
  afterAll(() => t.close());
  const get = (url: string, authorization?: string) =>
    t.app.inject({ method: 'GET', url, headers: authorization ? { authorization } : {} });
  /** Ends a session in the database behind the server's back: no path of the store does this. */
  const revokeBehindTheServersBack = (sessionId: string) =>
    t.platform.database.db.execute(sql`update sessions set revoked_at = now() where id = ${sessionId}`);

  it('answers from the copy, without the database, until SESSION_CACHE_MS has passed', async () => {
    const customer = await signedInCustomer(t);
    expect((await get('/api/test/me', customer.headers.authorization)).statusCode).toBe(200);
    await revokeBehindTheServersBack(customer.tokens.sessionId);
    // The copy still says alive: this request did not ask the database.
    expect((await get('/api/test/me', customer.headers.authorization)).statusCode).toBe(200);
    clock.advance(t.platform.config.SESSION_CACHE_MS);
    expect((await get('/api/test/me', customer.headers.authorization)).statusCode).toBe(401);
  });

  it('logout drops the copy: the token is refused from the next request on', async () => {
    const customer = await signedInCustomer(t);
    expect((await get('/api/test/me', customer.headers.authorization)).statusCode).toBe(200);
    const out = await t.app.inject({
      method: 'DELETE',
      url: '/api/mobile/auth/logout',
      headers: customer.headers,
    });
    expect(out.statusCode).toBe(200);
    const res = await get('/api/test/me', customer.headers.authorization);
    expect(res.statusCode).toBe(401);
    expect(res.json().errorCode).toBe('AUTH_UNAUTHORIZED');
  });

  it("a role's permissions changed through the API apply to its holders from their next request", async () => {
    const superadmin = await signedInAdmin(t, { superadmin: true });
    const reader = await signedInAdmin(t, { permissions: ['Roles_READ'] });
    const roles = await get('/api/admin/roles?pagination=false', reader.headers.authorization);
    expect(roles.statusCode).toBe(200);
    const me = await get('/api/auth/me', reader.headers.authorization);
    const roleName = me.json().data.role as string;
    const role = (roles.json().data as { id: number; name: string }[]).find((r) => r.name === roleName)!;
    const changed = await t.app.inject({
      method: 'PATCH',
      url: `/api/admin/roles/${role.id}`,
      headers: superadmin.headers,
      payload: { permissions: [] },
    });
    expect(changed.statusCode).toBe(200);
    const res = await get('/api/admin/roles?pagination=false', reader.headers.authorization);
    expect(res.statusCode).toBe(403);
    expect(res.json().errorCode).toBe('AUTH_PERMISSION_DENIED');
  });

  it('SESSION_CACHE_MS=0 asks the database on every request', async () => {
    const fresh = await createTestApp({ testRoutes, clock, env: { SESSION_CACHE_MS: '0' } });
    try {
      const customer = await signedInCustomer(fresh);
      const me = () =>
        fresh.app.inject({
          method: 'GET',
          url: '/api/test/me',
          headers: { authorization: customer.headers.authorization },
        });
      expect((await me()).statusCode).toBe(200);
      await fresh.platform.database.db.execute(
        sql`update sessions set revoked_at = now() where id = ${customer.tokens.sessionId}`,
      );
      expect((await me()).statusCode).toBe(401);
    } finally {
      await fresh.close();
    }
  });
});

describe.runIf(servicesTier)('copies of live sessions across two API processes', () => {
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => {
    a = await createTestApp({ testRoutes });
    // One deployment: the same database and the same Redis key space.
    b = await createTestApp({
      testRoutes,
      database: a.platform.database,
      env: { REDIS_PREFIX: a.platform.config.REDIS_PREFIX },
    });
  });
  // b borrows a's database, so a closes last.
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  it("a logout on one process is refused on the other's next request, though it held a copy", async () => {
    const customer = await signedInCustomer(a);
    const onB = () =>
      b.app.inject({
        method: 'GET',
        url: '/api/test/me',
        headers: { authorization: customer.headers.authorization },
      });
    expect((await onB()).statusCode).toBe(200);
    const out = await a.app.inject({
      method: 'DELETE',
      url: '/api/mobile/auth/logout',
      headers: customer.headers,
    });
    expect(out.statusCode).toBe(200);
    // The announcement travels through Redis; b hears it within moments, long before its copy ages out.
    await expect.poll(async () => (await onB()).statusCode, { timeout: 2000, interval: 20 }).toBe(401);
  });

  it("a role's change on one process reaches the other's copies", async () => {
    const superadmin = await signedInAdmin(a, { superadmin: true });
    const reader = await signedInAdmin(a, { permissions: ['Roles_READ'] });
    const list = () =>
      b.app.inject({ method: 'GET', url: '/api/admin/roles?pagination=false', headers: reader.headers });
    const roles = await list();
    expect(roles.statusCode).toBe(200);
    const roleName = (
      await a.app.inject({ method: 'GET', url: '/api/auth/me', headers: reader.headers })
    ).json().data.role as string;
    const role = (roles.json().data as { id: number; name: string }[]).find((r) => r.name === roleName)!;
    const changed = await a.app.inject({
      method: 'PATCH',
      url: `/api/admin/roles/${role.id}`,
      headers: superadmin.headers,
      payload: { permissions: [] },
    });
    expect(changed.statusCode).toBe(200);
    await expect.poll(async () => (await list()).statusCode, { timeout: 2000, interval: 20 }).toBe(403);
  });
});
