import { LRUCache } from 'lru-cache';
import type { Clock } from '../clock';
import type { Cache } from './cache';

interface Entry {
  /** JSON, as Redis would hold it (a counter is its number's JSON); or the text itself. */
  value: string;
  expiresAt: number;
  /** A string value kept as it is: strings are immutable, so no copy is needed on reads. */
  text?: true;
}

export function createMemoryCache(opts: { maxEntries: number; clock: Clock }): Cache {
  // Expiry is checked against the injected clock so tests can move time.
  const entries = new LRUCache<string, Entry>({ max: opts.maxEntries });
  const now = () => opts.clock.now().getTime();
  const counterKey = (key: string) => `counter:${key}`;
  const live = (key: string) => {
    const entry = entries.get(key);
    if (entry && entry.expiresAt <= now()) {
      entries.delete(key);
      return undefined;
    }
    return entry;
  };

  return {
    driver: 'memory',
    async get<T>(key: string) {
      const entry = live(key);
      if (!entry) return undefined;
      // Parsed on every read, so no caller shares (and can change) the cached object. Cached
      // response text (a page already serialised) skips the parse: that is what it is cached for.
      return (entry.text ? entry.value : JSON.parse(entry.value)) as T;
    },
    async set(key, value, ttlMs) {
      if (typeof value === 'string') {
        entries.set(key, { value, expiresAt: now() + ttlMs, text: true });
        return;
      }
      // Kept as JSON, like the Redis adapter, so a value that does not survive JSON (a Date, a
      // Map, an undefined field) behaves here the way it will in production.
      const json = JSON.stringify(value);
      if (json === undefined) entries.delete(key);
      else entries.set(key, { value: json, expiresAt: now() + ttlMs });
    },
    async delete(key) {
      entries.delete(key);
    },
    async deleteByPrefix(prefix) {
      for (const key of [...entries.keys()]) if (key.startsWith(prefix)) entries.delete(key);
    },
    async increment(key, windowMs) {
      const entry = live(counterKey(key));
      if (!entry) {
        entries.set(counterKey(key), { value: '1', expiresAt: now() + windowMs });
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
