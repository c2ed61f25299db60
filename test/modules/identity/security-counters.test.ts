// docs/decisions.md, "Security counters": sign-in lockouts and the other throttles never share an
// evicting cache with public pages. Flooding the cache with unique product-list queries (the
// probe that reset a lockout on the embedded default) leaves every lockout in force; the
// counters' own store, when full, refuses new attempts instead of forgetting old ones.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemoryCache } from '../../../src/platform/cache/memory-cache';
import { TestClock } from '../../../src/platform/clock';
import { AppError } from '../../../src/platform/http/errors';
import { createTestApp, type TestApp } from '../../helpers/app';
import { signedInCustomer, TEST_PASSWORD } from '../../helpers/factories';
import { servicesTier } from '../../helpers/services';

describe('security counters', () => {
  let t: TestApp;
  beforeAll(async () => {
    // A small page cache, so a few hundred unique queries fill it many times over.
    t = await createTestApp({ env: { CACHE_MAX_ENTRIES: '50' } });
  });
  afterAll(() => t?.close());

  const login = (email: string, password: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/mobile/auth/login/email',
      payload: {
        email,
        password,
        deviceInfo: { deviceId: 'dev-1', deviceType: 'android', deviceName: 'Pixel 8' },
      },
      remoteAddress: '10.20.0.1',
    });

  it('a lockout survives a flood of unique public queries; the right password stays refused', async () => {
    const me = await signedInCustomer(t);
    for (let i = 0; i < 10; i++) expect((await login(me.email, `wrong-${i}`)).statusCode).toBe(401);
    expect((await login(me.email, 'wrong-again')).statusCode).toBe(429);
    for (let i = 0; i < 400; i++) {
      const res = await t.app.inject({ method: 'GET', url: `/api/products?minPrice=${i}` });
      expect(res.statusCode).toBe(200);
    }
    const right = await login(me.email, TEST_PASSWORD);
    expect(right.statusCode, right.body).toBe(429);
    expect(right.json().errorCode).toBe('RATE_LIMITED');
  });

  it.skipIf(servicesTier)('the embedded counters are a store of their own, not the page cache', () => {
    expect(t.platform.counters).not.toBe(t.platform.cache);
  });
});

describe('the counters store when full', () => {
  it('refuses a new key with 429 and forgets no live counter; expired ones make room', async () => {
    const clock = new TestClock('2026-03-02T06:00:00Z');
    const store = createMemoryCache({ maxEntries: 3, clock, whenFull: 'refuse' });
    for (const key of ['a', 'b', 'c']) await store.increment(key, 60_000);
    const refused = await store.increment('d', 60_000).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(AppError);
    expect((refused as AppError).errorCode).toBe('RATE_LIMITED');
    // The old counters are all still there and still count.
    expect((await store.increment('a', 60_000)).count).toBe(2);
    expect((await store.increment('c', 60_000)).count).toBe(2);
    clock.advance(60_001);
    expect((await store.increment('d', 60_000)).count).toBe(1);
  });

  it('the page cache, by contrast, evicts the oldest, and keeps unique public reads only on second sight once half full', async () => {
    const clock = new TestClock('2026-03-02T06:00:00Z');
    const cache = createMemoryCache({ maxEntries: 4, clock });
    await cache.set('home', 'page', 60_000, { local: true });
    await cache.set('about', 'page', 60_000, { local: true });
    // Half full: a first sight of a public key is not kept; the second is.
    await cache.set('flood-1', 'x', 60_000, { local: true });
    expect(await cache.get('flood-1')).toBeUndefined();
    await cache.set('flood-1', 'x', 60_000, { local: true });
    expect(await cache.get('flood-1')).toBe('x');
    for (let i = 2; i < 100; i++) await cache.set(`flood-${i}`, 'x', 60_000, { local: true });
    expect(await cache.get('home')).toBe('page');
    expect(await cache.get('about')).toBe('page');
  });
});
