// What every blog write shares: its dependencies, its transaction with the activity entry,
// and the public caches it clears once it has committed.
import type { Logger } from 'pino';
import type { UserPrincipal } from '../../platform/auth/principal';
import type { Cache } from '../../platform/cache/cache';
import type { Db } from '../../platform/db/database';
import { inTransaction } from '../../platform/db/transaction';
import type { ModuleContext } from '../../platform/module';
import { recordActivity } from '../activity';
import { type BlogCacheDeps, forgetPublicBlogReads } from './blog.cache';

/** `cache`, when given, holds the public reads; writes clear it. */
export type BlogDeps = Pick<ModuleContext, 'db' | 'clock' | 'storage' | 'config'> & {
  cache?: Cache;
  log?: Pick<Logger, 'warn'>;
};

export const cacheDeps = (deps: BlogDeps): BlogCacheDeps => ({
  cache: deps.cache,
  log: deps.log,
  ttlSeconds: deps.config.BLOG_PUBLIC_CACHE_TTL_SECONDS,
});

export const iso = (d: Date | null) => d?.toISOString() ?? null;

/**
 * One admin blog write: its transaction, one activity entry (`describe` reads the result),
 * and, after commit, the public caches cleared.
 */
export async function blogWrite<R>(
  deps: BlogDeps,
  actor: UserPrincipal,
  entry: { action: string; entityType: 'blog_post' | 'blog_category' },
  work: (tx: Db, now: Date) => Promise<R>,
  describe: (result: R) => { entityId: string | number; summary: string },
): Promise<R> {
  const now = deps.clock.now();
  return inTransaction(deps.db, async (tx, afterCommit) => {
    afterCommit(() => forgetPublicBlogReads(deps));
    const result = await work(tx, now);
    await recordActivity(tx, { adminId: actor.userId, ...entry, ...describe(result), at: now });
    return result;
  });
}
