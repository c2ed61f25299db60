// Admin reading of the tracking: impressions and clicks per day, banner and campaign
// (Campaigns_READ: the figures exist only for events with a campaign).
import { access } from '../../../platform/auth/access';
import { envelopeSchema, ok } from '../../../platform/http/envelope';
import type { ApiApp } from '../../../platform/module';
import { campaignPermissions } from '../banners.permissions';
import type { BannerDeps } from '../banners.service';
import * as s from './tracking.schemas';
import { dailyFigures } from './tracking.service';

export function trackingRoutes(app: ApiApp, deps: BannerDeps) {
  app.get(
    '/api/admin/banner-stats/daily',
    {
      config: { access: access.admin(campaignPermissions.READ) },
      schema: {
        tags: ['banner tracking'],
        summary: 'Impressions and clicks per UTC day, banner and campaign (today counted live)',
        querystring: s.statsQuery,
        response: { 200: envelopeSchema(s.dailyFigures) },
      },
    },
    async (request) => ok(await dailyFigures(deps, request.query), 'Banner figures per day'),
  );
}
