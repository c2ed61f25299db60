// What every part of the banner area shares: its dependencies, and for admin writes one
// transaction with its activity entry and the admin list and serving caches cleared after
// commit (docs/decisions.md, "Lists and caches").
import type { UserPrincipal } from '../../platform/auth/principal';
import { cached } from '../../platform/cache/cache';
import type { Db } from '../../platform/db/database';
import { inTransaction } from '../../platform/db/transaction';
import type { ModuleContext } from '../../platform/module';
import { recordActivity } from '../activity';

export type BannerDeps = Pick<ModuleContext, 'db' | 'clock' | 'cache' | 'config' | 'log' | 'jobs'>;

export const SERVE_CACHE_PREFIX = 'banners:serve:';
export const ADMIN_LIST_CACHE_PREFIX = 'banners:admin:';
/** Interface, "Limits": banner admin list caches live 300 s. */
export const ADMIN_LIST_CACHE_TTL_MS = 300_000;

/** Forgets every cached serving result and admin list page; a failure is logged, never thrown. */
export async function clearBannerCaches(deps: Pick<BannerDeps, 'cache' | 'log'>): Promise<void> {
  for (const prefix of [SERVE_CACHE_PREFIX, ADMIN_LIST_CACHE_PREFIX]) {
    try {
      await deps.cache.deleteByPrefix(prefix);
    } catch (error) {
      deps.log.warn({ err: error, prefix }, 'banner cache could not be cleared');
    }
  }
}

/** An admin list page read through the admin list cache. */
export function cachedAdminList<T>(deps: BannerDeps, kind: string, query: object, load: () => Promise<T>) {
  return cached(
    deps.cache,
    `${ADMIN_LIST_CACHE_PREFIX}${kind}:${JSON.stringify(query)}`,
    ADMIN_LIST_CACHE_TTL_MS,
    load,
  );
}

export interface WriteOutcome<R> {
  result: R;
  /** The activity entry; none when the write changed nothing worth recording. */
  activity?: { action: string; entityType: string; entityId: string; summary: string };
}

/** One admin write of the banner area: its transaction, activity entry and cache clearing. */
export function bannerAreaWrite<R>(
  deps: BannerDeps,
  actor: UserPrincipal,
  work: (tx: Db, now: Date) => Promise<WriteOutcome<R>>,
): Promise<R> {
  const now = deps.clock.now();
  return inTransaction(
    deps.db,
    async (tx, afterCommit) => {
      const { result, activity } = await work(tx, now);
      if (activity) await recordActivity(tx, { adminId: actor.userId, at: now, ...activity });
      afterCommit(() => clearBannerCaches(deps));
      return result;
    },
    (error) => deps.log.warn({ err: error }, 'after-commit effect of a banner write failed'),
  );
}
