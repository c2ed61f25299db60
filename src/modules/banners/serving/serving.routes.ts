// Public banner serving and tracking: no credentials, rate limited per IP (interface, "Limits").

import type { FastifyRequest } from 'fastify';
import { access } from '../../../platform/auth/access';
import { type Authenticator, bearerToken } from '../../../platform/auth/authenticator';
import { envelopeSchema, ok, sendSerializedServed } from '../../../platform/http/envelope';
import { rateLimiter } from '../../../platform/http/openapi';
import type { ApiApp } from '../../../platform/module';
import { bannerErrors } from '../banners.errors';
import type { BannerDeps } from '../banners.service';
import * as s from '../tracking/tracking.schemas';
import {
  type TrackingCaller,
  type TrackingJobs,
  trackClick,
  trackImpression,
} from '../tracking/tracking.service';
import { servingContext } from './serving.context';
import * as servingSchemas from './serving.schemas';
import { serveBannersJson } from './serving.service';

export const SERVE_RATE_LIMIT = { max: 300, timeWindow: 60_000 };
export const TRACKING_RATE_LIMIT = { max: 600, timeWindow: 60_000 };

/** An impression or click names a served banner and its placement. */
const trackingErrors = [bannerErrors.bannerNotFound(), bannerErrors.placementNotFound()];

export function servingRoutes(
  app: ApiApp,
  deps: BannerDeps,
  jobs: TrackingJobs,
  authenticator: Pick<Authenticator, 'authenticate'>,
) {
  /**
   * The customer whose access token came with an event that names a `userId` (the routes are
   * public: a missing, stale or other kind of token is no error, it only keeps `userId` out).
   */
  const callerOf = async (
    request: FastifyRequest<{ Body: { userId?: string } }>,
  ): Promise<TrackingCaller> => {
    if (!request.body.userId) return { customerId: null };
    const result = await authenticator.authenticate(bearerToken(request.headers.authorization));
    return {
      customerId:
        result.kind === 'user' && result.principal.actor === 'customer' ? result.principal.userId : null,
    };
  };

  // One counter per IP for both tracking routes, counted before validation (onRequest).
  const trackingLimit = rateLimiter(app, {
    ...TRACKING_RATE_LIMIT,
    keyGenerator: (request) => `banner-tracking:${request.ip}`,
  });
  app.get(
    '/api/banners/serve/:slug',
    {
      config: {
        access: access.public(),
        rateLimit: SERVE_RATE_LIMIT,
        operation: 'serveBanners',
        errors: [bannerErrors.placementNotFound()],
      },
      schema: {
        tags: ['banner serving'],
        summary:
          'Banners of a placement for the caller: context from User-Agent, x-country-code (or cf-ipcountry), Authorization, Accept-Language, x-device-id or x-session-id, Referer, x-user-segment',
        params: servingSchemas.slugParams,
        response: { 200: envelopeSchema(servingSchemas.serveResult) },
      },
    },
    async (request, reply) => {
      const { selection, servedAt } = await serveBannersJson(
        deps,
        request.params.slug,
        servingContext(request.headers),
      );
      return sendSerializedServed(reply, 'Banners', selection, servedAt) as never;
    },
  );

  app.post(
    '/api/banners/events/impression',
    {
      config: { access: access.public(), operation: 'trackBannerImpression', errors: trackingErrors },
      onRequest: trackingLimit,
      schema: {
        tags: ['banner tracking'],
        summary: 'Record an impression (202 once queued; a repeated correlationId is ignored)',
        body: s.impressionBody,
        response: { 202: s.trackingAccepted },
      },
    },
    async (request, reply) => {
      await trackImpression(deps, jobs.impression, request.body, await callerOf(request));
      reply.status(202);
      return ok(null, 'Impression accepted');
    },
  );

  app.post(
    '/api/banners/events/click',
    {
      config: { access: access.public(), operation: 'trackBannerClick', errors: trackingErrors },
      onRequest: trackingLimit,
      schema: {
        tags: ['banner tracking'],
        summary: 'Record a click (202 once queued; a repeated correlationId is ignored)',
        body: s.clickBody,
        response: { 202: s.trackingAccepted },
      },
    },
    async (request, reply) => {
      await trackClick(deps, jobs.click, request.body, await callerOf(request));
      reply.status(202);
      return ok(null, 'Click accepted');
    },
  );
}
