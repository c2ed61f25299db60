// Banners: placements (slots by slug), banners, campaigns linking them with assignments and
// targeting rules; public serving per visitor context with a short cache, impression and click
// tracking through jobs, and the schedule sync and daily statistics jobs.
import type { PasalModule } from '../../platform/module';
import { bannerRoutes } from './banners/banners.routes';
import { scheduleJobs, trackingJobs } from './banners.jobs';
import {
  assignmentPermissions,
  bannerPermissions,
  campaignPermissions,
  placementPermissions,
  targetingRulePermissions,
} from './banners.permissions';
import { campaignRoutes } from './campaigns/campaigns.routes';
import { placementRoutes } from './placements/placements.routes';
import { servingRoutes } from './serving/serving.routes';
import { trackingRoutes } from './tracking/tracking.routes';

export { rollupStats, syncScheduleStatus } from './banners.jobs';

const group = (p: { module: string; codes: string[] }) => ({ module: p.module, codes: p.codes });

export const bannersModule: PasalModule = {
  name: 'banners',
  tags: {
    banners: 'Banners shown in placements by campaigns.',
    'banner placements': 'Places in the storefront and app where banners appear.',
    'banner campaigns': 'Campaigns that schedule banners in placements.',
    'banner assignments': 'Which banners of a campaign run in which placement.',
    'banner targeting rules': 'Rules that choose who sees a banner.',
    'banner serving': 'The banners a placement shows to this visitor.',
    'banner tracking': 'Impressions and clicks of served banners.',
  },
  permissions: [
    group(bannerPermissions),
    group(placementPermissions),
    group(campaignPermissions),
    group(assignmentPermissions),
    group(targetingRulePermissions),
  ],
  async register(ctx) {
    const tracking = trackingJobs(ctx);
    ctx.jobs.register(tracking.impression);
    ctx.jobs.register(tracking.click);
    const { sync, rollup } = scheduleJobs(ctx);
    ctx.jobs.register(sync);
    ctx.jobs.register(rollup);
    await ctx.jobs.schedule(sync, ctx.config.BANNER_SCHEDULE_SYNC_CRON, {});
    await ctx.jobs.schedule(rollup, ctx.config.BANNER_STATS_ROLLUP_CRON, {}, { timezone: 'UTC' });

    bannerRoutes(ctx.app, ctx);
    placementRoutes(ctx.app, ctx);
    campaignRoutes(ctx.app, ctx);
    servingRoutes(ctx.app, ctx, tracking, ctx.authenticator);
    trackingRoutes(ctx.app, ctx);
  },
};
