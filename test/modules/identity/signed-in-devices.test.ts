// Signed-in devices (docs/decisions.md, "Signed-in devices") on both surfaces: the list, signing
// one device out, signing all others out, through the same revocation as logout (tokens
// refused at once, sockets closed), and `lastUsedAt` written at most once a minute.
import { randomInt } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { type Socket as ClientSocket, io } from 'socket.io-client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startSession } from '../../../src/modules/identity';
import { sessions } from '../../../src/modules/identity/identity.table';
import { TestClock } from '../../../src/platform/clock';
import { createTestApp, type TestApp } from '../../helpers/app';
import { type SignedIn, signedInAdmin, signedInCustomer } from '../../helpers/factories';
import { type OwnershipContext, ownershipTests } from '../../helpers/ownership';
import { handshake } from '../../helpers/sockets';

const newIp = () => `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;

const surfaces = [
  { name: 'admin', prefix: '/api/auth', actor: 'admin' as const },
  { name: 'customer', prefix: '/api/mobile/auth', actor: 'customer' as const },
];

describe('signed-in devices', () => {
  let t: TestApp;
  let baseUrl: string;
  const clock = new TestClock(new Date());
  const clients = new Set<ClientSocket>();
  beforeAll(async () => {
    t = await createTestApp({ clock });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    baseUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  });
  afterAll(() => t.close());
  afterEach(() => {
    for (const client of clients) client.disconnect();
    clients.clear();
  });

  const request = (
    method: 'GET' | 'POST' | 'DELETE',
    url: string,
    headers: Record<string, string> = {},
    payload?: object,
  ) => t.app.inject({ method, url, headers, remoteAddress: newIp(), ...(payload ? { payload } : {}) });

  /** Another session of the same account, from another device. */
  async function anotherDevice(who: SignedIn, actor: 'admin' | 'customer', deviceName: string) {
    const tokens = await startSession({
      db: t.platform.database.db,
      tokens: t.platform.tokens,
      clock: t.platform.clock,
      refreshTtlDays: 30,
      userId: who.userId,
      actor,
      deviceInfo: { deviceId: deviceName, deviceType: 'android', deviceName },
    });
    return { tokens, headers: { authorization: `Bearer ${tokens.accessToken}` } };
  }

  const account = (actor: 'admin' | 'customer') =>
    actor === 'admin' ? signedInAdmin(t, { permissions: [] }) : signedInCustomer(t);

  async function socketOf(token: string) {
    const client = io(`${baseUrl}/realtime`, {
      auth: { token },
      transports: ['websocket'],
      reconnection: false,
      forceNew: true,
    });
    clients.add(client);
    expect(await handshake(client)).toEqual({ connected: true });
    const disconnected = new Promise<string>((resolve) => client.once('disconnect', resolve));
    return { client, disconnected };
  }
  const within2s = (p: Promise<string>) =>
    Promise.race([
      p,
      new Promise<string>((resolve) => setTimeout(() => resolve('still connected after 2 s'), 2000)),
    ]);

  for (const surface of surfaces) {
    describe(`${surface.name}: ${surface.prefix}/sessions`, () => {
      it('lists live sessions, most recently used first, with the current one marked', async () => {
        const me = await account(surface.actor);
        clock.advance(1000);
        const phone = await anotherDevice(me, surface.actor, 'Pixel 8');
        clock.advance(1000);
        const gone = await anotherDevice(me, surface.actor, 'Old tablet');
        expect((await request('DELETE', `${surface.prefix}/logout`, gone.headers)).statusCode).toBe(200);
        // The phone was used last.
        clock.advance(61_000);
        expect((await request('GET', `${surface.prefix}/me`, phone.headers)).statusCode).toBe(200);

        const res = await request('GET', `${surface.prefix}/sessions`, me.headers);
        expect(res.statusCode).toBe(200);
        const list = res.json().data;
        expect(list.map((d: { sessionId: string }) => d.sessionId)).toEqual([
          phone.tokens.sessionId,
          me.tokens.sessionId,
        ]);
        expect(list[0]).toEqual({
          sessionId: phone.tokens.sessionId,
          deviceName: 'Pixel 8',
          deviceType: 'android',
          createdAt: expect.any(String),
          lastUsedAt: clock.now().toISOString(),
          current: false,
        });
        expect(list[1]).toMatchObject({ deviceName: 'Vitest', current: true });
      });

      it('lastUsedAt is written at most once a minute per session', async () => {
        const me = await account(surface.actor);
        const lastUsed = async () => {
          const [row] = await t.platform.database.db
            .select({ at: sessions.lastUsedAt })
            .from(sessions)
            .where(eq(sessions.id, me.tokens.sessionId));
          return row!.at?.toISOString();
        };
        await request('GET', `${surface.prefix}/me`, me.headers);
        const first = clock.now().toISOString();
        expect(await lastUsed()).toBe(first);
        clock.advance(30_000);
        await request('GET', `${surface.prefix}/me`, me.headers);
        clock.advance(29_000);
        await request('GET', `${surface.prefix}/me`, me.headers);
        expect(await lastUsed()).toBe(first);
        // A minute has passed, but the request at 59 s left a copy of the session (SESSION_CACHE_MS),
        // which answers without the database: the write waits for the next lookup.
        clock.advance(1_000);
        await request('GET', `${surface.prefix}/me`, me.headers);
        expect(await lastUsed()).toBe(first);
        clock.advance(t.platform.config.SESSION_CACHE_MS);
        await request('GET', `${surface.prefix}/me`, me.headers);
        expect(await lastUsed()).toBe(clock.now().toISOString());
      });

      it('DELETE …/sessions/:sessionId signs that device out at once: tokens refused, socket closed', async () => {
        const me = await account(surface.actor);
        const phone = await anotherDevice(me, surface.actor, 'Phone');
        const phoneSocket = await socketOf(phone.tokens.accessToken);
        const mySocket = await socketOf(me.tokens.accessToken);
        const res = await request(
          'DELETE',
          `${surface.prefix}/sessions/${phone.tokens.sessionId}`,
          me.headers,
        );
        expect(res.statusCode).toBe(200);
        expect(res.json().data).toBeNull();
        expect(await within2s(phoneSocket.disconnected)).toBe('io server disconnect');
        expect(mySocket.client.connected).toBe(true);

        const refused = await request('GET', `${surface.prefix}/me`, phone.headers);
        expect(refused.statusCode).toBe(401);
        expect(refused.json().errorCode).toBe('AUTH_UNAUTHORIZED');
        const refresh = await request(
          'POST',
          `${surface.prefix}/refresh`,
          {},
          { refreshToken: phone.tokens.refreshToken },
        );
        expect(refresh.statusCode).toBe(401);
        expect(refresh.json().errorCode).toBe('AUTH_REFRESH_TOKEN_INVALID');
        expect((await request('GET', `${surface.prefix}/me`, me.headers)).statusCode).toBe(200);
        // Signed out already: unknown from now on.
        const again = await request(
          'DELETE',
          `${surface.prefix}/sessions/${phone.tokens.sessionId}`,
          me.headers,
        );
        expect(again.statusCode).toBe(404);
        expect(again.json().errorCode).toBe('AUTH_SESSION_NOT_FOUND');
      });

      it('POST …/sessions/revoke-others ends every other session and its sockets; this one stays', async () => {
        const me = await account(surface.actor);
        const a = await anotherDevice(me, surface.actor, 'A');
        const b = await anotherDevice(me, surface.actor, 'B');
        const socketA = await socketOf(a.tokens.accessToken);
        const socketB = await socketOf(b.tokens.accessToken);
        const res = await request('POST', `${surface.prefix}/sessions/revoke-others`, me.headers);
        expect(res.statusCode).toBe(200);
        expect(res.json().data).toEqual({ revokedCount: 2 });
        expect(await within2s(socketA.disconnected)).toBe('io server disconnect');
        expect(await within2s(socketB.disconnected)).toBe('io server disconnect');
        for (const other of [a, b])
          expect((await request('GET', `${surface.prefix}/me`, other.headers)).statusCode).toBe(401);
        const list = (await request('GET', `${surface.prefix}/sessions`, me.headers)).json().data;
        expect(list).toEqual([expect.objectContaining({ sessionId: me.tokens.sessionId, current: true })]);
        const none = await request('POST', `${surface.prefix}/sessions/revoke-others`, me.headers);
        expect(none.json().data).toEqual({ revokedCount: 0 });
      });

      it('signing out the current device is a logout', async () => {
        const me = await account(surface.actor);
        const res = await request('DELETE', `${surface.prefix}/sessions/${me.tokens.sessionId}`, me.headers);
        expect(res.statusCode).toBe(200);
        expect((await request('GET', `${surface.prefix}/sessions`, me.headers)).statusCode).toBe(401);
      });

      it('an unknown id is 404 AUTH_SESSION_NOT_FOUND, a malformed one 400, no token 401, the other kind of account 403', async () => {
        const me = await account(surface.actor);
        const unknown = await request(
          'DELETE',
          `${surface.prefix}/sessions/01930000-0000-7000-8000-000000000001`,
          me.headers,
        );
        expect(unknown.statusCode).toBe(404);
        expect(unknown.json().errorCode).toBe('AUTH_SESSION_NOT_FOUND');
        const bad = await request('DELETE', `${surface.prefix}/sessions/not-a-uuid`, me.headers);
        expect(bad.statusCode).toBe(400);
        expect(bad.json().errorCode).toBe('VALIDATION_ERROR');
        for (const [method, url] of [
          ['GET', `${surface.prefix}/sessions`],
          ['POST', `${surface.prefix}/sessions/revoke-others`],
          ['DELETE', `${surface.prefix}/sessions/${me.tokens.sessionId}`],
        ] as const) {
          expect((await request(method, url)).statusCode, url).toBe(401);
          const other = await account(surface.actor === 'admin' ? 'customer' : 'admin');
          const wrongKind = await request(method, url, other.headers);
          expect(wrongKind.statusCode, url).toBe(403);
          expect(wrongKind.json().errorCode).toBe('AUTH_FORBIDDEN');
        }
      });
    });
  }

  // Another user's session, row by row (test/helpers/ownership.ts): 404 like an unknown one,
  // never listed, and left alive.
  for (const surface of surfaces) {
    describe(`${surface.name} sessions of another user`, () => {
      let context: OwnershipContext<{ sessionId: string }>;
      beforeAll(async () => {
        const owner = await account(surface.actor);
        const phone = await anotherDevice(owner, surface.actor, `Phone of ${owner.userId}`);
        context = {
          t,
          record: { sessionId: phone.tokens.sessionId },
          actors: {
            owner,
            otherSameKind: await account(surface.actor),
            superadmin: await signedInAdmin(t, { superadmin: true }),
          },
          secrets: [phone.tokens.sessionId],
          snapshot: async () =>
            (await request('GET', `${surface.prefix}/sessions`, owner.headers)).json().data,
        };
      });

      ownershipTests(
        () => context,
        [
          { method: 'GET', url: () => `${surface.prefix}/sessions`, as: 'owner', expect: 200 },
          {
            method: 'GET',
            url: () => `${surface.prefix}/sessions`,
            as: 'otherSameKind',
            expect: 200,
            shows: false,
          },
          {
            method: 'DELETE',
            url: (r) => `${surface.prefix}/sessions/${r.sessionId}`,
            as: 'otherSameKind',
            expect: 404,
            errorCode: 'AUTH_SESSION_NOT_FOUND',
          },
          ...(surface.actor === 'admin'
            ? [
                {
                  method: 'DELETE' as const,
                  url: (r: { sessionId: string }) => `${surface.prefix}/sessions/${r.sessionId}`,
                  as: 'superadmin',
                  expect: 404,
                  errorCode: 'AUTH_SESSION_NOT_FOUND',
                  note: 'a superadmin signs out only their own devices here',
                },
              ]
            : []),
        ],
      );

      it('revoke-others by another user leaves the session alive', async () => {
        const before = await context.snapshot!();
        const res = await request(
          'POST',
          `${surface.prefix}/sessions/revoke-others`,
          context.actors.otherSameKind!.headers,
        );
        expect(res.statusCode).toBe(200);
        expect(await context.snapshot!()).toEqual(before);
      });
    });
  }
});
