// docs/decisions.md, "Token claims": an access token without `exp`, `sub`, `sid` or `actor` is
// refused (401 AUTH_UNAUTHORIZED) whatever its signature. A signed token without `exp` used to
// be accepted forever. HTTP and the realtime handshake share the verification.
import type { AddressInfo } from 'node:net';
import { type JWTPayload, SignJWT } from 'jose';
import { type Socket as ClientSocket, io } from 'socket.io-client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, TEST_JWT_SECRET, type TestApp } from '../helpers/app';
import { type SignedIn, signedInAdmin, signedInCustomer } from '../helpers/factories';
import { handshake } from '../helpers/sockets';

const key = new TextEncoder().encode(TEST_JWT_SECRET);

/** A token signed with the app's own secret, holding exactly `claims`. */
function sign(claims: JWTPayload & Record<string, unknown>): Promise<string> {
  return new SignJWT(claims).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).sign(key);
}

describe('access token claims', () => {
  let t: TestApp;
  let baseUrl: string;
  let admin: SignedIn;
  let customer: SignedIn;
  const clients: ClientSocket[] = [];
  beforeAll(async () => {
    t = await createTestApp();
    admin = await signedInAdmin(t, { superadmin: true });
    customer = await signedInCustomer(t);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    baseUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  });
  afterEach(() => {
    for (const client of clients.splice(0)) client.disconnect();
  });
  afterAll(() => t.close());

  const now = () => Math.floor(Date.now() / 1000);
  const fullClaims = (who: SignedIn, actor: 'admin' | 'customer') => ({
    sub: who.userId,
    sid: who.tokens.sessionId,
    actor,
    iat: now(),
    exp: now() + 600,
  });
  const routes = [
    { actor: 'admin' as const, url: '/api/admin/system/info', who: () => admin },
    { actor: 'customer' as const, url: '/api/mobile/auth/me', who: () => customer },
  ];
  const call = (url: string, token: string) =>
    t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });

  for (const route of routes) {
    describe(`${route.actor} route ${route.url}`, () => {
      it('a token with every claim passes (the tokens below differ by one claim only)', async () => {
        const res = await call(route.url, await sign(fullClaims(route.who(), route.actor)));
        expect(res.statusCode).toBe(200);
      });

      it.each([
        ['exp', undefined],
        ['sub', undefined],
        ['sid', undefined],
        ['actor', undefined],
        ['exp', '9999999999'],
        ['exp', null],
        ['sub', ''],
        ['sid', ''],
        ['sid', 42],
        ['actor', 'guest'],
      ])('without a valid %s (%j): 401 AUTH_UNAUTHORIZED', async (claim, value) => {
        const claims: Record<string, unknown> = { ...fullClaims(route.who(), route.actor) };
        if (value === undefined) delete claims[claim];
        else claims[claim] = value;
        const res = await call(route.url, await sign(claims));
        expect(res.statusCode).toBe(401);
        expect(res.json()).toMatchObject({ errorCode: 'AUTH_UNAUTHORIZED', path: route.url });
      });
    });
  }

  it('the realtime handshake refuses a token without exp, and accepts the same token with it', async () => {
    const connect = (token: string) => {
      const client = io(`${baseUrl}/realtime`, {
        auth: { token },
        transports: ['websocket'],
        reconnection: false,
        forceNew: true,
      });
      clients.push(client);
      return handshake(client);
    };
    const { exp: _exp, ...withoutExp } = fullClaims(customer, 'customer');
    expect(await connect(await sign(withoutExp))).toEqual({ refused: 'AUTH_UNAUTHORIZED' });
    const { sid: _sid, ...withoutSid } = fullClaims(admin, 'admin');
    expect(await connect(await sign(withoutSid))).toEqual({ refused: 'AUTH_UNAUTHORIZED' });
    expect(await connect(await sign(fullClaims(customer, 'customer')))).toEqual({ connected: true });
  });
});
