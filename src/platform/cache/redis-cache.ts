import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { LRUCache } from 'lru-cache';
import { ownConnection } from '../redis-connection';
import type { Cache, CacheDrop, LocalCopy } from './cache';

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

// A text value (an answer already serialised) is stored behind this mark, as it is: a hit then
// costs no JSON.parse of the whole answer. JSON text never starts with a control character.
const TEXT_MARK = '\u0001';
const encode = (value: unknown): string | undefined =>
  typeof value === 'string' ? TEXT_MARK + value : JSON.stringify(value);
const decode = (raw: string): unknown => (raw.startsWith(TEXT_MARK) ? raw.slice(1) : JSON.parse(raw));

interface LocalEntry {
  /** As stored in Redis (JSON or marked text): parsed on every read, so no caller shares an object. */
  raw: string;
  /**
   * A text value itself, made once: strings cannot be changed, so every reader may share it, and
   * the same string on every hit lets a reply reuse the bytes it encoded (`sendSerialized`).
   */
  text?: string;
  until: number;
}

const localEntry = (raw: string, until: number): LocalEntry =>
  raw.startsWith(TEXT_MARK) ? { raw, text: raw.slice(1), until } : { raw, until };

export function createRedisCache(opts: {
  redis: Redis;
  prefix: string;
  commandTimeoutMs?: number;
  /** How old a process's own copy of a `local` read may be; 0 keeps none. */
  localTtlMs?: number;
  localMaxEntries?: number;
}): Cache {
  const { redis } = opts;
  const k = (key: string) => `${opts.prefix}:cache:${key}`;
  const timeoutMs = opts.commandTimeoutMs ?? 250;
  const localTtlMs = opts.localTtlMs ?? 0;
  // Bounded: a search page is a key of its own, and memory matters on a small server.
  const copies = new LRUCache<string, LocalEntry>({ max: opts.localMaxEntries ?? 500 });
  // Copies are dropped when any process announces a change; a dedicated connection listens
  // (a subscribed Redis connection can do nothing else).
  const channel = `${opts.prefix}:cache:changed`;
  let listener: Redis | undefined;
  // A message is `<sender>k:<key>` or `<sender>p:<prefix>`; a process skips its own (it has
  // already dropped what it changed, and may hold the new value since).
  const sender = `${randomUUID()}|`;
  const dropListeners: ((drop: CacheDrop) => void)[] = [];
  const forget = (change: string) => {
    const prefix = change.slice(2);
    const drop: CacheDrop = change.startsWith('k:') ? { key: prefix } : { prefix };
    if ('key' in drop) copies.delete(drop.key);
    else for (const key of copies.keys()) if (key.startsWith(prefix)) copies.delete(key);
    for (const listener of dropListeners) listener(drop);
  };
  if (localTtlMs > 0) {
    listener = ownConnection(redis);
    listener.on('message', (_channel: string, message: string) => {
      if (!message.startsWith(sender)) forget(message.slice(message.indexOf('|') + 1));
    });
    // While the listener was away announcements were lost: nothing copied before is trusted.
    listener.on('ready', () => forget('p:'));
    listener.on('error', () => {}); // reconnects by itself; the age limit covers the gap
    listener.subscribe(channel).catch(() => {});
  }
  const announce = async (change: string) => {
    forget(change);
    if (listener) await withinMs(timeoutMs, redis.publish(channel, sender + change));
  };
  /**
   * One write and, when processes keep copies, the announcement of `change`, sent together in
   * one round trip: every delete is announced (no process can know which keys another copies),
   * and a second round trip on each would slow every write that clears a cache (a checkout
   * clears four keys). Plain commands, not a pipeline of their own: the shared client
   * auto-pipelines (platform.ts), so the writes issued in one tick (a checkout's three order
   * caches dropped at once, other requests' reads) leave together in one socket write.
   */
  const writeAnnouncing = async (write: (redis: Redis) => Promise<unknown>, change?: string) => {
    const sent = [write(redis)];
    if (change && listener) sent.push(redis.publish(channel, sender + change));
    await withinMs(timeoutMs, Promise.all(sent));
    if (change) forget(change);
  };

  return {
    driver: 'redis',
    announcesDrops: localTtlMs > 0,
    onDrop(listener) {
      dropListeners.push(listener);
    },
    async get<T>(key: string, options?: LocalCopy) {
      const local = localTtlMs > 0 && options?.local;
      if (local) {
        const copy = copies.get(key);
        if (copy && copy.until > Date.now()) return (copy.text ?? decode(copy.raw)) as T;
      }
      const raw = await withinMs(timeoutMs, redis.get(k(key)));
      if (raw === null) return undefined;
      if (!local) return decode(raw) as T;
      const entry = localEntry(raw, Date.now() + localTtlMs);
      copies.set(key, entry);
      return (entry.text ?? decode(raw)) as T;
    },
    async getMany(keys) {
      if (!keys.length) return [];
      const raws = await withinMs(timeoutMs, redis.mget(keys.map(k)));
      return raws.map((raw) => (raw === null ? undefined : decode(raw)));
    },
    async set(key, value, ttlMs, options?: LocalCopy) {
      const raw = encode(value);
      const local = localTtlMs > 0 && options?.local;
      await writeAnnouncing(
        (redis) =>
          // undefined has no JSON: Redis would store '' and the next get would fail to parse it.
          raw === undefined ? redis.del(k(key)) : redis.set(k(key), raw, 'PX', Math.max(1, Math.ceil(ttlMs))),
        // Other processes' copies of a shared read are of the value this one replaces.
        local ? `k:${key}` : undefined,
      );
      copies.delete(key);
      if (local && raw !== undefined)
        copies.set(key, localEntry(raw, Date.now() + Math.min(localTtlMs, ttlMs)));
    },
    async delete(key) {
      await writeAnnouncing((redis) => redis.del(k(key)), `k:${key}`);
    },
    // No overall limit: clearing a large prefix may take a while, and its callers wait for it.
    async deleteByPrefix(prefix) {
      await unlinkMatching(redis, `${k(prefix).replace(/[*?[\]\\]/g, '\\$&')}*`);
      await announce(`p:${prefix}`);
    },
    async increment(key, windowMs) {
      const [count, ttl] = (await withinMs(
        timeoutMs,
        redis.eval(INCREMENT, 1, k(`counter:${key}`), windowMs),
      )) as [number, number];
      return { count, ttlMs: ttl < 0 ? windowMs : ttl };
    },
    async close() {
      // The main connection belongs to the app's Redis client and is closed there; the listener is ours.
      if (listener) await listener.quit().catch(() => listener?.disconnect());
    },
  };
}
