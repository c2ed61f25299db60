// The banners' settings: the serving cache and the schedule and statistics jobs. src/config.ts
// composes them with the others.
import { z } from 'zod';
import { int, setting } from '../../platform/settings';

export const bannerSettings = {
  BANNER_SERVE_CACHE_TTL_SECONDS: setting({
    doc: 'Banner serving: the banners chosen for a placement and a visitor context are kept this long in the cache (0: off). Every banner, placement, campaign, assignment or targeting-rule write clears them.',
    schema: int(0, 3600),
    default: '60',
  }),
  BANNER_SCHEDULE_SYNC_CRON: setting({
    doc: 'Cron pattern of the job that moves banners and campaigns between scheduled, active, expired and ended.',
    schema: z.string().trim().min(1),
    default: '* * * * *',
  }),
  BANNER_STATS_ROLLUP_CRON: setting({
    doc: "Cron pattern (UTC) of the job that rolls up yesterday's banner impressions and clicks into daily statistics.",
    schema: z.string().trim().min(1),
    default: '0 1 * * *',
  }),
};
