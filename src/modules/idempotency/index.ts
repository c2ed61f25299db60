// Idempotency: the `Idempotency-Key` header for the writes that must never happen twice
// (checkout, buy-now, cancel, refund requests, POS). A route opts in with
// `config: { idempotency: 'optional' | 'required' }`; this module claims, replays and stores.
import type { PasalModule } from '../../platform/module';
import { installIdempotency } from './idempotency.hooks';
import { PURGE_IDEMPOTENCY_KEYS_CRON, purgeIdempotencyKeysJob } from './idempotency.jobs';

export { IDEMPOTENCY_HEADER, type IdempotencyMode, idempotencyHeaderDoc } from './idempotency.hooks';
export { IDEMPOTENCY_KEY_TTL_MS } from './idempotency.service';

export const idempotencyModule: PasalModule = {
  name: 'idempotency',
  async register(ctx) {
    installIdempotency({ app: ctx.app, db: ctx.db, clock: ctx.clock });
    const purge = purgeIdempotencyKeysJob(ctx);
    ctx.jobs.register(purge);
    await ctx.jobs.schedule(purge, PURGE_IDEMPOTENCY_KEYS_CRON, {});
  },
};
