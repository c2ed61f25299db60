// The public blog reads (lists, categories, details of both surfaces) are cached under one
// prefix; every admin blog write clears the whole prefix after it commits. The cache is an
// optimisation only: when it fails, reads go to the database and writes still succeed.
import type { Logger } from 'pino';
import type { Cache } from '../../platform/cache/cache';

export const PUBLIC_CACHE_PREFIX = 'blog:public:';

export interface BlogCacheDeps {
  cache?: Cache;
  log?: Pick<Logger, 'warn'>;
  /** Lifetime of a cached public read in seconds; 0 turns the cache off. */
  ttlSeconds: number;
}

/** Reads `key` through the cache; a cache that fails is skipped (and logged), never fatal. */
export async function readThrough<T>(deps: BlogCacheDeps, key: string, load: () => Promise<T>): Promise<T> {
  const { cache } = deps;
  if (!cache || deps.ttlSeconds === 0) return load();
  const full = `${PUBLIC_CACHE_PREFIX}${key}`;
  try {
    const hit = await cache.get<T>(full, { local: true });
    if (hit !== undefined) return hit;
  } catch (error) {
    deps.log?.warn({ err: error, key: full }, 'blog cache read failed; reading the database');
  }
  const value = await load();
  try {
    await cache.set(full, value, deps.ttlSeconds * 1000, { local: true });
  } catch (error) {
    deps.log?.warn({ err: error, key: full }, 'blog cache write failed');
  }
  return value;
}

/** Drops every cached public blog read (after any admin blog write). */
export async function forgetPublicBlogReads(deps: Pick<BlogCacheDeps, 'cache' | 'log'>): Promise<void> {
  try {
    await deps.cache?.deleteByPrefix(PUBLIC_CACHE_PREFIX);
  } catch (error) {
    deps.log?.warn({ err: error }, 'clearing the public blog cache failed');
  }
}
