import type { Redis } from 'ioredis';
import type { Cache } from './cache';

// INCR and set the window on the first hit in one step, so a crash between the two
// cannot leave a counter that never expires.
const INCREMENT = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
return { count, ttl }`;

/** Deletes every key matching a glob `pattern`, a SCAN page at a time (never KEYS). */
export async function unlinkMatching(redis: Redis, pattern: string): Promise<void> {
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 500);
    if (keys.length) await redis.unlink(...keys);
    cursor = next;
  } while (cursor !== '0');
}

/**
 * `work`, or a rejection once `ms` have passed without an answer. ioredis queues commands while
 * it reconnects (and retries them), so a Redis that hangs or is gone would hold a request for
 * many seconds; a cache must fail fast instead, and its callers read the database.
 */
function withinMs<T>(ms: number, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`cache command timed out after ${ms} ms`)), ms);
    timer.unref();
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

export function createRedisCache(opts: { redis: Redis; prefix: string; commandTimeoutMs?: number }): Cache {
  const { redis } = opts;
  const k = (key: string) => `${opts.prefix}:cache:${key}`;
  const timeoutMs = opts.commandTimeoutMs ?? 250;

  return {
    driver: 'redis',
    async get<T>(key: string) {
      const raw = await withinMs(timeoutMs, redis.get(k(key)));
      return raw === null ? undefined : (JSON.parse(raw) as T);
    },
    async set(key, value, ttlMs) {
      const json = JSON.stringify(value);
      // undefined has no JSON: Redis would store '' and the next get would fail to parse it.
      if (json === undefined) await withinMs(timeoutMs, redis.del(k(key)));
      else await withinMs(timeoutMs, redis.set(k(key), json, 'PX', Math.max(1, Math.ceil(ttlMs))));
    },
    async delete(key) {
      await withinMs(timeoutMs, redis.del(k(key)));
    },
    // No overall limit: clearing a large prefix may take a while, and its callers wait for it.
    async deleteByPrefix(prefix) {
      await unlinkMatching(redis, `${k(prefix).replace(/[*?[\]\\]/g, '\\$&')}*`);
    },
    async increment(key, windowMs) {
      const [count, ttl] = (await withinMs(
        timeoutMs,
        redis.eval(INCREMENT, 1, k(`counter:${key}`), windowMs),
      )) as [number, number];
      return { count, ttlMs: ttl < 0 ? windowMs : ttl };
    },
    async close() {
      // The Redis connection belongs to the app's Redis client; it is closed there.
    },
  };
}
