// Cache port: the in-process LRU by default, Redis when REDIS_URL is set (shared by every
// process). Also holds atomic counters, which business throttles (per email, per address) use.
export interface Cache {
  readonly driver: 'memory' | 'redis';
  get<T>(key: string): Promise<T | undefined>;
  set<T>(key: string, value: T, ttlMs: number): Promise<void>;
  delete(key: string): Promise<void>;
  /** Removes every key that starts with `prefix` (e.g. all cached pages of one list). */
  deleteByPrefix(prefix: string): Promise<void>;
  /**
   * Adds one to a counter and returns its new value; the counter's window starts with its
   * first hit and lasts `windowMs`. `ttlMs` is what is left of the window.
   */
  increment(key: string, windowMs: number): Promise<{ count: number; ttlMs: number }>;
  close(): Promise<void>;
}

/** Reads through the cache: `load` runs only on a miss, and its result is kept for `ttlMs`. */
export async function cached<T>(
  cache: Cache,
  key: string,
  ttlMs: number,
  load: () => Promise<T>,
): Promise<T> {
  const hit = await cache.get<T>(key);
  if (hit !== undefined) return hit;
  const value = await load();
  await cache.set(key, value, ttlMs);
  return value;
}
