import { LRUCache } from 'lru-cache';
import type { Clock } from '../clock';
import { httpErrors } from '../http/errors';
import type { Cache, CacheDrop } from './cache';

interface Entry {
  /** JSON, as Redis would hold it (a counter is its number's JSON); or the text itself. */
  value: string;
  expiresAt: number;
  /** A string value kept as it is: strings are immutable, so no copy is needed on reads. */
  text?: true;
}

/**
 * The in-process cache. `whenFull: 'evict'` (the cache of pages and lists) forgets the least
 * recently used entry; `'refuse'` (the security counters: docs/decisions.md, "Security counters")
 * never forgets a live entry: a new key in a store full of live ones is refused with 429, so a
 * flood cannot reset somebody's lockout.
 *
 * Public reads (`local: true`) of a key never seen before are kept only on their second
 * sight once the cache is half full: one client asking for thousands of unique queries then
 * churns a list of keys, not the pages everyone else reads.
 */
export function createMemoryCache(opts: {
  maxEntries: number;
  clock: Clock;
  whenFull?: 'evict' | 'refuse';
}): Cache {
  // Expiry is checked against the injected clock so tests can move time.
  const entries = new LRUCache<string, Entry>({ max: opts.maxEntries });
  const seenOnce = new LRUCache<string, true>({ max: opts.maxEntries });
  const now = () => opts.clock.now().getTime();
  const refuseWhenFull = opts.whenFull === 'refuse';
  const store = (key: string, entry: Entry) => {
    if (refuseWhenFull && entries.size >= opts.maxEntries && !entries.has(key)) {
      for (const [k, e] of entries.entries()) if (e.expiresAt <= now()) entries.delete(k);
      if (entries.size >= opts.maxEntries) throw httpErrors.rateLimited(60);
    }
    entries.set(key, entry);
  };
  /** The doorkeeper of public reads: false on a first sight while the cache is half full. */
  const admit = (key: string, local: boolean | undefined) => {
    if (!local || entries.has(key) || entries.size < opts.maxEntries / 2) return true;
    if (seenOnce.has(key)) {
      seenOnce.delete(key);
      return true;
    }
    seenOnce.set(key, true);
    return false;
  };
  const counterKey = (key: string) => `counter:${key}`;
  const dropListeners: ((drop: CacheDrop) => void)[] = [];
  const dropped = (drop: CacheDrop) => {
    for (const listener of dropListeners) listener(drop);
  };
  const live = (key: string) => {
    const entry = entries.get(key);
    if (entry && entry.expiresAt <= now()) {
      entries.delete(key);
      return undefined;
    }
    return entry;
  };
  const read = (key: string): unknown => {
    const entry = live(key);
    if (!entry) return undefined;
    // Parsed on every read, so no caller shares (and can change) the cached object. Cached
    // response text (a page already serialised) skips the parse: that is what it is cached for.
    return entry.text ? entry.value : JSON.parse(entry.value);
  };

  return {
    driver: 'memory',
    announcesDrops: true,
    onDrop(listener) {
      dropListeners.push(listener);
    },
    async get<T>(key: string) {
      return read(key) as T | undefined;
    },
    async getMany(keys) {
      return keys.map(read);
    },
    async set(key, value, ttlMs, options) {
      if (options?.local) dropped({ key });
      if (!admit(key, options?.local)) return;
      if (typeof value === 'string') {
        store(key, { value, expiresAt: now() + ttlMs, text: true });
        return;
      }
      // Kept as JSON, like the Redis adapter, so a value that does not survive JSON (a Date, a
      // Map, an undefined field) behaves here the way it will in production.
      const json = JSON.stringify(value);
      if (json === undefined) entries.delete(key);
      else store(key, { value: json, expiresAt: now() + ttlMs });
    },
    async delete(key) {
      entries.delete(key);
      dropped({ key });
    },
    async deleteByPrefix(prefix) {
      for (const key of [...entries.keys()]) if (key.startsWith(prefix)) entries.delete(key);
      dropped({ prefix });
    },
    async increment(key, windowMs) {
      const entry = live(counterKey(key));
      if (!entry) {
        store(counterKey(key), { value: '1', expiresAt: now() + windowMs });
        return { count: 1, ttlMs: windowMs };
      }
      const count = Number(entry.value) + 1;
      entry.value = String(count);
      return { count, ttlMs: entry.expiresAt - now() };
    },
    async close() {
      entries.clear();
    },
  };
}
