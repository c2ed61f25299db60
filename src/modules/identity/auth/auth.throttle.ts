// Throttles of the sign-in flows, counted in the security counters (never evicted; shared by
// every process with Redis). Windows follow the app's clock, so tests move time on Redis as in
// memory.

import { httpErrors } from '../../../platform/http/errors';
import type { ModuleContext } from '../../../platform/module';

type ThrottleDeps = Pick<ModuleContext, 'counters' | 'clock'>;

export async function refuseWhileBlocked(deps: ThrottleDeps, keys: string[]) {
  for (const key of keys) {
    const until = await deps.counters.get<number>(`blocked:${key}`);
    const left = until ? until - deps.clock.now().getTime() : 0;
    if (left > 0) throw httpErrors.rateLimited(Math.ceil(left / 1000));
  }
}

/** Counts one failure; at `max` the key is blocked for what is left of the window. */
export async function countFailure(deps: ThrottleDeps, key: string, max: number, windowMs: number) {
  const { count, ttlMs } = await deps.counters.increment(key, windowMs);
  if (count >= max) await deps.counters.set(`blocked:${key}`, deps.clock.now().getTime() + ttlMs, ttlMs);
}

/**
 * At most `max` per window for `key`, counted whether or not anything is sent. Windows are
 * aligned on the clock (so tests can move time on Redis as in memory); the count itself is
 * one atomic increment, so concurrent requests cannot slip past it.
 */
export async function throttle(deps: ThrottleDeps, key: string, max: number, windowMs: number) {
  const now = deps.clock.now().getTime();
  const window = Math.floor(now / windowMs);
  const { count } = await deps.counters.increment(`${key}:${window}`, windowMs);
  if (count > max)
    throw httpErrors.rateLimited(Math.max(1, Math.ceil(((window + 1) * windowMs - now) / 1000)));
}

/**
 * At most `max` in any `windowMs` for `key` (a sliding window: the times of the last calls are
 * kept). Callers put an atomic `throttle` first, so concurrent calls do not both pass.
 */
export async function slidingLimit(deps: ThrottleDeps, key: string, max: number, windowMs: number) {
  const now = deps.clock.now().getTime();
  const recent = ((await deps.counters.get<number[]>(key)) ?? []).filter((at) => at > now - windowMs);
  if (recent.length >= max)
    throw httpErrors.rateLimited(Math.max(1, Math.ceil((recent[0]! + windowMs - now) / 1000)));
  await deps.counters.set(key, [...recent, now], windowMs);
}

/** At least `ms` between two calls for `key` (a window-aligned throttle alone allows two across a boundary). */
export async function cooldown(deps: ThrottleDeps, key: string, ms: number) {
  const now = deps.clock.now().getTime();
  const last = await deps.counters.get<number>(key);
  if (last !== undefined && now - last < ms)
    throw httpErrors.rateLimited(Math.ceil((last + ms - now) / 1000));
  await deps.counters.set(key, now, ms);
}
