// One contract for the cache port, run against the in-process adapter on every tier and
// against Redis on the services tier, so code tested on the embedded tier behaves the same
// in production.
import { randomBytes } from 'node:crypto';
import { type AddressInfo, createServer, type Server, type Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  asText,
  type Cache,
  type CacheDrop,
  cached,
  cachedInGeneration,
} from '../../src/platform/cache/cache';
import { createMemoryCache } from '../../src/platform/cache/memory-cache';
import { createRedisCache } from '../../src/platform/cache/redis-cache';
import { TestClock } from '../../src/platform/clock';
import { ownConnection } from '../../src/platform/redis-connection';
import { createTestApp } from '../helpers/app';
import { servicesTier, serviceUrls } from '../helpers/services';

interface CacheHarness {
  cache: Cache;
  /** Lets `ms` pass for the cache: moves the test clock, or waits on the real one. */
  passTime(ms: number): Promise<void>;
}

function cacheContract(makeHarness: () => Promise<CacheHarness>) {
  let cache: Cache;
  let passTime: CacheHarness['passTime'];
  beforeEach(async () => {
    ({ cache, passTime } = await makeHarness());
  });
  afterEach(() => cache.close());

  it('answers undefined for a key never set', async () => {
    expect(await cache.get('never-set')).toBeUndefined();
  });

  it('round-trips objects, arrays, strings, numbers, booleans and null', async () => {
    const product = { id: 'p1', price: 1250, tags: ['a', 'b'], nested: { ok: true, none: null } };
    await cache.set('product', product, 10_000);
    await cache.set('list', [1, 'two', { three: 3 }], 10_000);
    await cache.set('text', 'hello', 10_000);
    await cache.set('zero', 0, 10_000);
    await cache.set('false', false, 10_000);
    await cache.set('null', null, 10_000);

    expect(await cache.get('product')).toEqual(product);
    expect(await cache.get('list')).toEqual([1, 'two', { three: 3 }]);
    expect(await cache.get('text')).toBe('hello');
    expect(await cache.get('zero')).toBe(0);
    expect(await cache.get('false')).toBe(false);
    // null is a value, not a miss: a loader that found nothing can cache that it found nothing.
    expect(await cache.get('null')).toBeNull();
  });

  it('stores values as JSON, the way Redis does (a Date comes back as its ISO string)', async () => {
    const at = new Date('2026-03-04T05:06:07.000Z');
    await cache.set('dated', { at, skipped: undefined }, 10_000);
    expect(await cache.get('dated')).toEqual({ at: '2026-03-04T05:06:07.000Z' });
  });

  it('hands out copies: mutating a value set or read does not change what is cached', async () => {
    const value = { count: 1, items: ['a'] };
    await cache.set('copy', value, 10_000);
    value.count = 2;
    value.items.push('changed after set');

    const read = await cache.get<typeof value>('copy');
    expect(read).toEqual({ count: 1, items: ['a'] });
    read!.count = 3;
    read!.items.push('changed after get');
    expect(await cache.get('copy')).toEqual({ count: 1, items: ['a'] });
  });

  it('setting undefined leaves a miss behind (and does not break the next read)', async () => {
    await cache.set('undef', 'something', 10_000);
    await cache.set('undef', undefined, 10_000);
    expect(await cache.get('undef')).toBeUndefined();
  });

  it('set replaces the value and its ttl', async () => {
    await cache.set('replace', 'first', 200);
    await cache.set('replace', 'second', 10_000);
    await passTime(300);
    expect(await cache.get('replace')).toBe('second');
  });

  it('keeps a value until its ttl runs out, then answers a miss', async () => {
    await cache.set('short', { v: 1 }, 400);
    await cache.set('long', { v: 2 }, 60_000);
    await passTime(100);
    expect(await cache.get('short')).toEqual({ v: 1 });
    await passTime(400);
    expect(await cache.get('short')).toBeUndefined();
    expect(await cache.get('long')).toEqual({ v: 2 });
  });

  it('delete removes one key only, and deleting a missing key is fine', async () => {
    await cache.set('a', 1, 10_000);
    await cache.set('ab', 2, 10_000);
    await cache.delete('a');
    await cache.delete('not-there');
    expect(await cache.get('a')).toBeUndefined();
    expect(await cache.get('ab')).toBe(2);
  });

  it('deleteByPrefix removes exactly the keys that start with the prefix', async () => {
    await cache.set('list:a:page:1', 1, 10_000);
    await cache.set('list:a:page:2', 2, 10_000);
    await cache.set('list:a:', 3, 10_000);
    await cache.set('list:ab', 4, 10_000);
    await cache.set('other:list:a:1', 5, 10_000);
    await cache.set('LIST:A:1', 6, 10_000);

    await cache.deleteByPrefix('list:a:');

    expect(await cache.get('list:a:page:1')).toBeUndefined();
    expect(await cache.get('list:a:page:2')).toBeUndefined();
    expect(await cache.get('list:a:')).toBeUndefined();
    expect(await cache.get('list:ab')).toBe(4);
    expect(await cache.get('other:list:a:1')).toBe(5);
    expect(await cache.get('LIST:A:1')).toBe(6);
  });

  it('deleteByPrefix reads glob characters in the prefix literally', async () => {
    const prefix = 'q*[ab]?\\:';
    await cache.set(`${prefix}1`, 'inside', 10_000);
    await cache.set(`${prefix}2`, 'inside', 10_000);
    // Each of these matches `q*[ab]?\:*` read as a glob pattern, but none starts with the prefix.
    const lookalikes = ['qzzza!:1', 'q*b?:1', 'q*[ab]x\\:1', 'q*a?\\:1'];
    for (const key of lookalikes) await cache.set(key, 'outside', 10_000);

    await cache.deleteByPrefix(prefix);

    expect(await cache.get(`${prefix}1`)).toBeUndefined();
    expect(await cache.get(`${prefix}2`)).toBeUndefined();
    for (const key of lookalikes) expect(await cache.get(key), key).toBe('outside');
  });

  it('deleteByPrefix removes every matching key even when there are many', async () => {
    // More keys than one SCAN page holds, so the Redis adapter has to follow the cursor.
    const keys = Array.from({ length: 1200 }, (_, i) => `bulk:${i}`);
    await Promise.all(keys.map((key) => cache.set(key, 1, 60_000)));
    await cache.set('bulky', 'kept', 60_000);

    await cache.deleteByPrefix('bulk:');

    const left = await Promise.all(keys.map((key) => cache.get(key)));
    expect(left.filter((v) => v !== undefined)).toHaveLength(0);
    expect(await cache.get('bulky')).toBe('kept');
  });

  it('increment counts within one window per key and reports what is left of the window', async () => {
    const first = await cache.increment('login:a@example.com', 60_000);
    expect(first.count).toBe(1);
    expect(first.ttlMs).toBeGreaterThan(59_000);
    expect(first.ttlMs).toBeLessThanOrEqual(60_000);
    expect((await cache.increment('login:a@example.com', 60_000)).count).toBe(2);
    expect((await cache.increment('login:a@example.com', 60_000)).count).toBe(3);
    expect((await cache.increment('login:b@example.com', 60_000)).count).toBe(1);
  });

  it('increment keeps the window of the first hit and starts a new one after it', async () => {
    await cache.increment('burst', 400);
    await passTime(250);
    const second = await cache.increment('burst', 400);
    expect(second.count).toBe(2);
    // A later hit does not stretch the window: what is left is counted from the first hit
    // (400 - 250 ms; a timer may fire a few milliseconds early by Redis's clock, never 250 late).
    expect(second.ttlMs).toBeGreaterThan(0);
    expect(second.ttlMs).toBeLessThanOrEqual(160);

    await passTime(200);
    const fresh = await cache.increment('burst', 400);
    expect(fresh.count).toBe(1);
    expect(fresh.ttlMs).toBeGreaterThan(300);
  });

  it('cached() runs the loader on a miss only, and again once the value expired', async () => {
    let loads = 0;
    const load = async () => {
      loads++;
      return { status: 'ok', load: loads };
    };

    expect(await cached(cache, 'status', 300, load)).toEqual({ status: 'ok', load: 1 });
    expect(await cached(cache, 'status', 300, load)).toEqual({ status: 'ok', load: 1 });
    expect(await cached(cache, 'status', 300, load)).toEqual({ status: 'ok', load: 1 });
    expect(loads).toBe(1);

    await passTime(400);
    expect(await cached(cache, 'status', 300, load)).toEqual({ status: 'ok', load: 2 });
    expect(loads).toBe(2);
  });

  it('cached() keeps a null result, but loads again after an undefined one', async () => {
    let nullLoads = 0;
    const loadNull = async () => {
      nullLoads++;
      return null;
    };
    expect(await cached(cache, 'found-nothing', 10_000, loadNull)).toBeNull();
    expect(await cached(cache, 'found-nothing', 10_000, loadNull)).toBeNull();
    expect(nullLoads).toBe(1);

    let undefinedLoads = 0;
    const loadUndefined = async () => {
      undefinedLoads++;
      return undefined;
    };
    expect(await cached(cache, 'no-answer', 10_000, loadUndefined)).toBeUndefined();
    expect(await cached(cache, 'no-answer', 10_000, loadUndefined)).toBeUndefined();
    expect(undefinedLoads).toBe(2);
  });

  it('cached() does not cache a loader that throws', async () => {
    let calls = 0;
    const flaky = async () => {
      calls++;
      if (calls === 1) throw new Error('database down');
      return 'recovered';
    };
    await expect(cached(cache, 'flaky', 10_000, flaky)).rejects.toThrow('database down');
    expect(await cached(cache, 'flaky', 10_000, flaky)).toBe('recovered');
    expect(calls).toBe(2);
  });

  it('getMany() answers every key in order, undefined where there is none', async () => {
    await cache.set('many:a', { a: 1 }, 10_000);
    await cache.set('many:c', 'text', 10_000);
    expect(await cache.getMany(['many:a', 'many:b', 'many:c'])).toEqual([{ a: 1 }, undefined, 'text']);
    expect(await cache.getMany([])).toEqual([]);
  });

  describe('cachedInGeneration()', () => {
    const counting = <T>(values: T[]) => {
      const loader = { calls: 0, load: async () => values[loader.calls++]! };
      return loader;
    };

    it('loads once and answers from the cache until the generation is dropped', async () => {
      const loader = counting([{ lines: 1 }, { lines: 2 }]);
      const read = () => cachedInGeneration(cache, 'gen:cart:1', 'cart:1', 10_000, loader.load);
      expect(await read()).toEqual({ lines: 1 });
      expect(await read()).toEqual({ lines: 1 });
      expect(loader.calls).toBe(1);
      await cache.delete('gen:cart:1');
      expect(await read()).toEqual({ lines: 2 });
      expect(await read()).toEqual({ lines: 2 });
      expect(loader.calls).toBe(2);
    });

    it('one generation stands for many entries: dropping it clears them all', async () => {
      const pageOne = counting(['one', 'one again']);
      const pageTwo = counting(['two', 'two again']);
      const read = (key: string, load: () => Promise<string>) =>
        cachedInGeneration(cache, 'gen:orders', key, 10_000, load, asText);
      expect(await read('orders:page:1', pageOne.load)).toBe('one');
      expect(await read('orders:page:2', pageTwo.load)).toBe('two');
      await cache.delete('gen:orders');
      expect(await read('orders:page:1', pageOne.load)).toBe('one again');
      expect(await read('orders:page:2', pageTwo.load)).toBe('two again');
      expect([pageOne.calls, pageTwo.calls]).toEqual([2, 2]);
    });

    it('a copy loaded before a change but stored after it is never answered', async () => {
      let finishLoad!: (value: string) => void;
      let loading!: () => void;
      const started = new Promise<void>((resolve) => (loading = resolve));
      const slow = cachedInGeneration(
        cache,
        'gen:cart:2',
        'cart:2',
        10_000,
        () =>
          new Promise<string>((resolve) => {
            finishLoad = resolve;
            loading();
          }),
        asText,
      );
      // The change commits while the read is loading, and drops the generation after its commit.
      await started;
      await cache.delete('gen:cart:2');
      finishLoad('before the change');
      expect(await slow).toBe('before the change');
      const after = counting(['after the change']);
      expect(await cachedInGeneration(cache, 'gen:cart:2', 'cart:2', 10_000, after.load, asText)).toBe(
        'after the change',
      );
      expect(after.calls).toBe(1);
    });

    it('an entry lives for its ttl; a value without JSON (undefined) is not kept', async () => {
      const loader = counting(['first', 'second']);
      const read = () => cachedInGeneration(cache, 'gen:ttl', 'ttl', 1_000, loader.load, asText);
      expect(await read()).toBe('first');
      await passTime(1_100);
      expect(await read()).toBe('second');
      const nothing = counting([undefined, undefined]);
      await cachedInGeneration(cache, 'gen:none', 'none', 10_000, nothing.load);
      await cachedInGeneration(cache, 'gen:none', 'none', 10_000, nothing.load);
      expect(nothing.calls).toBe(2);
    });
  });
}

describe('memory cache', () => {
  let clock: TestClock;
  const harness = async (): Promise<CacheHarness> => {
    clock = new TestClock();
    return {
      cache: createMemoryCache({ maxEntries: 5000, clock }),
      passTime: async (ms) => clock.advance(ms),
    };
  };

  describe('contract', () => cacheContract(harness));

  it('reports its driver', async () => {
    expect((await harness()).cache.driver).toBe('memory');
  });

  it('expires a value exactly when its ttl is used up', async () => {
    const { cache } = await harness();
    await cache.set('edge', 'v', 1000);
    clock.advance(999);
    expect(await cache.get('edge')).toBe('v');
    clock.advance(1);
    expect(await cache.get('edge')).toBeUndefined();
  });

  it('reports the exact time left of a counter window on the test clock', async () => {
    const { cache } = await harness();
    await cache.increment('exact', 1000);
    clock.advance(400);
    expect(await cache.increment('exact', 1000)).toEqual({ count: 2, ttlMs: 600 });
    clock.advance(600);
    expect(await cache.increment('exact', 1000)).toEqual({ count: 1, ttlMs: 1000 });
  });

  it('onDrop hears every delete, prefix delete and set of a shared key', async () => {
    const cache = createMemoryCache({ maxEntries: 10, clock: new TestClock(new Date()) });
    const heard: CacheDrop[] = [];
    cache.onDrop((drop) => heard.push(drop));
    await cache.set('private', 1, 1000);
    await cache.set('shared', 2, 1000, { local: true });
    await cache.delete('private');
    await cache.deleteByPrefix('sh');
    expect(heard).toEqual([{ key: 'shared' }, { key: 'private' }, { prefix: 'sh' }]);
    expect(cache.announcesDrops).toBe(true);
  });

  it('drops the least recently used entry beyond maxEntries', async () => {
    const cache = createMemoryCache({ maxEntries: 2, clock: new TestClock() });
    await cache.set('a', 1, 10_000);
    await cache.set('b', 2, 10_000);
    await cache.get('a');
    await cache.set('c', 3, 10_000);
    expect(await cache.get('a')).toBe(1);
    expect(await cache.get('b')).toBeUndefined();
    expect(await cache.get('c')).toBe(3);
  });
});

describe.runIf(servicesTier)('redis cache', () => {
  let redis: Redis;
  // A prefix of this file's own, with glob characters in it, so the escaping of the
  // whole key (not only the caller's prefix) is exercised too.
  const prefix = `pasal-test-cache-${randomBytes(4).toString('hex')}-[*]`;

  beforeAll(async () => {
    redis = new Redis(serviceUrls().redisUrl);
  });
  afterAll(async () => {
    const keys = await redis.keys(`${prefix.replace(/[*?[\]\\]/g, '\\$&')}*`);
    if (keys.length) await redis.unlink(...keys);
    await redis.quit();
  });

  describe('contract', () =>
    cacheContract(async () => {
      // Each test its own key space inside the file's prefix.
      const cache = createRedisCache({ redis, prefix: `${prefix}:${randomBytes(3).toString('hex')}` });
      await redis.ping();
      return { cache, passTime: (ms) => sleep(ms) };
    }));

  it('reports its driver and keeps its keys under its prefix', async () => {
    const own = `${prefix}:own`;
    const cache = createRedisCache({ redis, prefix: own });
    expect(cache.driver).toBe('redis');
    await cache.set('k', { v: 1 }, 10_000);
    expect(await redis.get(`${own}:cache:k`)).toBe('{"v":1}');
    const pttl = await redis.pttl(`${own}:cache:k`);
    expect(pttl).toBeGreaterThan(9000);
    expect(pttl).toBeLessThanOrEqual(10_000);
  });

  it('deleteByPrefix leaves the keys of another cache prefix alone', async () => {
    const mine = createRedisCache({ redis, prefix: `${prefix}:mine` });
    const theirs = createRedisCache({ redis, prefix: `${prefix}:mine-too` });
    await mine.set('page:1', 1, 10_000);
    await theirs.set('page:1', 2, 10_000);
    await mine.deleteByPrefix('');
    expect(await mine.get('page:1')).toBeUndefined();
    expect(await theirs.get('page:1')).toBe(2);
  });

  it("the app's shared client auto-pipelines; a connection of its own (BullMQ's, a subscriber's) does not", async () => {
    const t = await createTestApp({ schedules: false, startJobs: false });
    try {
      const shared = t.platform.redis!;
      expect(shared.options.enableAutoPipelining).toBe(true);
      const own = ownConnection(shared, { maxRetriesPerRequest: null, lazyConnect: true });
      expect(own.options).toMatchObject({
        enableAutoPipelining: false,
        maxRetriesPerRequest: null,
        host: shared.options.host,
        port: shared.options.port,
      });
      own.disconnect();
    } finally {
      await t.close();
    }
  });

  it('increment counts atomically under concurrent hits', async () => {
    const cache = createRedisCache({ redis, prefix: `${prefix}:atomic` });
    const results = await Promise.all(Array.from({ length: 50 }, () => cache.increment('hits', 10_000)));
    expect(results.map((r) => r.count).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 50 }, (_, i) => i + 1),
    );
    const pttl = await redis.pttl(`${prefix}:atomic:cache:counter:hits`);
    expect(pttl).toBeGreaterThan(0);
  });
});

describe.runIf(servicesTier)('redis cache: local copies of shared reads', () => {
  // Two caches on their own connections and one prefix: two processes of one deployment.
  let redis: Redis[];
  const prefix = `pasal-test-local-${randomBytes(4).toString('hex')}`;
  const caches: ReturnType<typeof createRedisCache>[] = [];
  const open = (localTtlMs = 60_000) => {
    const connection = new Redis(serviceUrls().redisUrl);
    redis.push(connection);
    const cache = createRedisCache({ redis: connection, prefix, localTtlMs });
    caches.push(cache);
    return cache;
  };
  /** Waits (briefly, polling) until `check` holds: announcements travel through Redis. */
  const eventually = async (check: () => Promise<boolean>) => {
    for (let i = 0; i < 100 && !(await check()); i++) await sleep(10);
    expect(await check()).toBe(true);
  };
  /** Waits until every open cache's listener has subscribed (before that, it hears nothing). */
  const subscribed = () =>
    eventually(async () => {
      const [, listeners] = (await redis[0]!.pubsub('NUMSUB', `${prefix}:cache:changed`)) as [string, number];
      return Number(listeners) >= caches.length;
    });
  beforeAll(() => {
    redis = [];
  });
  afterAll(async () => {
    for (const cache of caches) await cache.close();
    const [any] = redis;
    const keys = await any!.keys(`${prefix}*`);
    if (keys.length) await any!.unlink(...keys);
    for (const connection of redis) await connection.quit();
  });

  it('answers a local read from the process copy, and other reads from Redis', async () => {
    const [a] = [open()];
    await subscribed();
    await a.set('page:home', '{"title":"Home"}', 60_000, { local: true });
    // Changed behind the cache's back (no announcement): only a read that asks Redis sees it.
    await redis[0]!.set(`${prefix}:cache:page:home`, '"changed"');
    expect(await a.get('page:home', { local: true })).toBe('{"title":"Home"}');
    expect(await a.get('page:home')).toBe('changed');
  });

  it('on an auto-pipelining client (the app shares one), deletes issued together leave in one socket write, each announced', async () => {
    const connection = new Redis(serviceUrls().redisUrl, { enableAutoPipelining: true });
    redis.push(connection);
    const writer = createRedisCache({ redis: connection, prefix, localTtlMs: 60_000 });
    caches.push(writer);
    const reader = open();
    await subscribed();
    const keys = ['order:1', 'orders:customer', 'orders:admin'];
    const read = (key: string) => reader.get<string>(key, { local: true });
    for (const key of keys) await writer.set(key, key, 60_000, { local: true });
    for (const key of keys) expect(await read(key)).toBe(key); // the reader's copies now

    // ioredis writes each command to the socket by itself unless it pipelines (platform.ts).
    const stream = (connection as unknown as { stream: { write(chunk: unknown): boolean } }).stream;
    const write = vi.spyOn(stream, 'write');
    await Promise.all(keys.map((key) => writer.delete(key)));
    expect(write).toHaveBeenCalledTimes(1);
    write.mockRestore();
    // Three deletes and their three announcements: the reader's copies all go.
    await eventually(async () => (await Promise.all(keys.map(read))).every((v) => v === undefined));
    expect(await connection.exists(...keys.map((key) => `${prefix}:cache:${key}`))).toBe(0);
  });

  it('a change in one process drops the copies of the others: set, delete and deleteByPrefix', async () => {
    const [a, b] = [open(), open()];
    await subscribed();
    const read = (cache: typeof a, key: string) => cache.get<string>(key, { local: true });
    await a.set('list:1', 'one', 60_000, { local: true });
    await a.set('list:2', 'two', 60_000, { local: true });
    expect(await read(b, 'list:1')).toBe('one'); // b's copy now
    expect(await read(b, 'list:2')).toBe('two');

    await a.set('list:1', 'uno', 60_000, { local: true });
    await eventually(async () => (await read(b, 'list:1')) === 'uno');
    await a.delete('list:1');
    await eventually(async () => (await read(b, 'list:1')) === undefined);
    expect(await read(a, 'list:1')).toBeUndefined(); // its own copy at once
    await b.deleteByPrefix('list:');
    expect(await read(b, 'list:2')).toBeUndefined();
    await eventually(async () => (await read(a, 'list:2')) === undefined);
  });

  it("onDrop hears this process's drops at once and the other processes' drops when announced", async () => {
    const [a, b] = [open(), open()];
    await subscribed();
    expect(a.announcesDrops).toBe(true);
    const heardByA: CacheDrop[] = [];
    const heardByB: CacheDrop[] = [];
    a.onDrop((drop) => heardByA.push(drop));
    b.onDrop((drop) => heardByB.push(drop));
    await a.delete('auth:live-session:s1');
    expect(heardByA).toEqual([{ key: 'auth:live-session:s1' }]);
    await a.deleteByPrefix('list:');
    await a.set('page:home', 'x', 60_000, { local: true });
    await a.set('not-shared', 'y', 60_000);
    expect(heardByA).toEqual([{ key: 'auth:live-session:s1' }, { prefix: 'list:' }, { key: 'page:home' }]);
    await eventually(async () => heardByB.length === 3);
    expect(heardByB).toEqual(heardByA);
  });

  it('without local copies nothing is announced, and the cache says so', async () => {
    expect(open(0).announcesDrops).toBe(false);
  });

  it('a copy is kept at most localTtlMs; objects are handed out as copies', async () => {
    const a = open(40);
    await a.set('status', { version: 1 }, 60_000, { local: true });
    const first = await a.get<{ version: number }>('status', { local: true });
    first!.version = 99;
    expect(await a.get('status', { local: true })).toEqual({ version: 1 });
    await redis.at(-1)!.set(`${prefix}:cache:status`, '{"version":2}');
    await eventually(
      async () => (await a.get<{ version: number }>('status', { local: true }))?.version === 2,
    );
  });

  it('stores text as it is (no JSON round trip) and still reads a text stored as JSON', async () => {
    const a = open(0);
    await a.set('answer', '{"a":1}', 60_000);
    expect(await redis.at(-1)!.get(`${prefix}:cache:answer`)).toBe('\u0001{"a":1}');
    expect(await a.get('answer')).toBe('{"a":1}');
    await redis.at(-1)!.set(`${prefix}:cache:old`, JSON.stringify('{"a":2}'));
    expect(await a.get('old')).toBe('{"a":2}');
  });
});

describe('redis cache: a Redis that never answers', () => {
  // A TCP server that accepts connections and never writes a byte: ioredis connects and then
  // waits for answers forever, as it does when Redis hangs.
  let silent: Server;
  let redis: Redis;
  const sockets: Socket[] = [];
  beforeAll(async () => {
    silent = createServer((socket) => {
      sockets.push(socket);
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as AddressInfo;
    redis = new Redis({ host: '127.0.0.1', port, maxRetriesPerRequest: null, lazyConnect: true });
    redis.on('error', () => {});
    void redis.connect().catch(() => {});
  });
  afterAll(async () => {
    redis.disconnect();
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => silent.close(resolve));
  });

  it('fails each command after commandTimeoutMs instead of waiting', async () => {
    const cache = createRedisCache({ redis, prefix: 'silent', commandTimeoutMs: 40 });
    const started = Date.now();
    const outcomes = await Promise.allSettled([
      cache.get('k'),
      cache.set('k', 1, 1000),
      cache.delete('k'),
      cache.increment('hits', 1000),
    ]);
    for (const o of outcomes) {
      expect(o.status).toBe('rejected');
      expect(String((o as PromiseRejectedResult).reason)).toContain('timed out after 40 ms');
    }
    expect(Date.now() - started).toBeLessThan(2000);
  });
});

describe('cached() when the cache fails', () => {
  const failing = (fail: { get?: boolean; set?: boolean }): Cache => {
    const inner = createMemoryCache({ maxEntries: 10, clock: new TestClock('2026-03-02T06:00:00Z') });
    return {
      ...inner,
      get: async (key, options) => {
        if (fail.get) throw new Error('redis command timed out');
        return inner.get(key, options);
      },
      set: async (key, value, ttlMs, options) => {
        if (fail.set) throw new Error('redis command timed out');
        return inner.set(key, value, ttlMs, options);
      },
    };
  };

  it('answers from load when a read fails, and when a write fails (CACHE_COMMAND_TIMEOUT_MS)', async () => {
    let loads = 0;
    const load = async () => {
      loads += 1;
      return { n: loads };
    };
    expect(await cached(failing({ get: true }), 'k', 60_000, load)).toEqual({ n: 1 });
    const unwritable = failing({ set: true });
    expect(await cached(unwritable, 'k', 60_000, load)).toEqual({ n: 2 });
    expect(await cached(unwritable, 'k', 60_000, load)).toEqual({ n: 3 });
    const healthy = failing({});
    expect(await cached(healthy, 'k', 60_000, load)).toEqual({ n: 4 });
    expect(await cached(healthy, 'k', 60_000, load)).toEqual({ n: 4 });
  });
});
