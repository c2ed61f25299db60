import { LRUCache } from 'lru-cache';
import type { Clock } from '../clock';
import type { Cache } from './cache';

interface Entry {
  value: unknown;
  expiresAt: number;
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
    get: async <T>(key: string) => live(key)?.value as T | undefined,
    async set(key, value, ttlMs) {
      // A copy, so a caller mutating its object later does not change the cached one.
      entries.set(key, { value: structuredClone(value), expiresAt: now() + ttlMs });
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
        entries.set(counterKey(key), { value: 1, expiresAt: now() + windowMs });
        return { count: 1, ttlMs: windowMs };
      }
      entry.value = (entry.value as number) + 1;
      return { count: entry.value as number, ttlMs: entry.expiresAt - now() };
    },
    async close() {
      entries.clear();
    },
  };
}
