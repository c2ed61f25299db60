// The per-customer limit on cart changes (CART_CUSTOMER_OPERATION_RATE_LIMIT per
// CART_CUSTOMER_RATE_WINDOW_SECONDS, a sliding window). It is the sliding-window counter:
// the current clock-aligned window's count, plus the previous window's weighted by how much of
// it still overlaps the last `window` seconds. Counts are the cache port's atomic counters, so
// every process (with Redis) shares them and concurrent requests cannot slip past.
import type { Cache } from '../../../platform/cache/cache';
import { httpErrors } from '../../../platform/http/errors';

export interface SlidingLimit {
  max: number;
  windowMs: number;
}

/** The estimate of calls in the last window, and when one more would be allowed (ms from now). */
export function slidingEstimate(p: {
  previous: number;
  current: number;
  now: number;
  windowMs: number;
  max: number;
}): { estimate: number; retryAfterMs: number } {
  const start = Math.floor(p.now / p.windowMs) * p.windowMs;
  const elapsed = (p.now - start) / p.windowMs;
  const estimate = p.previous * (1 - elapsed) + p.current;
  if (estimate <= p.max) return { estimate, retryAfterMs: 0 };
  // Calls of this window alone already exceed: wait into the next one until this window's
  // weight has fallen enough; otherwise until the previous window's weight has.
  const retryAt =
    p.current >= p.max
      ? start + p.windowMs + p.windowMs * (1 - (p.max - 1) / p.current)
      : start + p.windowMs * (1 - (p.max - 1 - p.current) / p.previous);
  return { estimate, retryAfterMs: Math.max(0, retryAt - p.now) };
}

/** Counts one call of `key`; over the limit throws 429 RATE_LIMITED with Retry-After. */
export async function consumeSlidingLimit(cache: Cache, key: string, limit: SlidingLimit, now: number) {
  const window = Math.floor(now / limit.windowMs);
  // Each window's counter lives two windows: the next one weighs it.
  const { count: current } = await cache.increment(`${key}:${window}`, limit.windowMs * 2);
  // A counter is stored as its number's JSON under `counter:<key>` by both cache adapters.
  const previous = (await cache.get<number>(`counter:${key}:${window - 1}`)) ?? 0;
  const { retryAfterMs } = slidingEstimate({
    previous,
    current,
    now,
    windowMs: limit.windowMs,
    max: limit.max,
  });
  if (retryAfterMs > 0) throw httpErrors.rateLimited(Math.max(1, Math.ceil(retryAfterMs / 1000)));
}
