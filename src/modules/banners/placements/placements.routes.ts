// Admin placements (/api/admin/placements, Placements_*).
import { z } from 'zod';
import { access } from '../../../platform/auth/access';
import { currentUser } from '../../../platform/http/access-hook';
import { envelopeSchema, listEnvelopeSchema, ok, okWithMeta } from '../../../platform/http/envelope';
import type { ApiApp } from '../../../platform/module';
import { bannerErrors } from '../banners.errors';
import { placementPermissions } from '../banners.permissions';
import * as areaSchemas from '../banners.schemas';
import type { BannerDeps } from '../banners.service';
import * as s from './placements.schemas';
import * as placements from './placements.service';

export function placementRoutes(app: ApiApp, deps: BannerDeps) {
  const tags = ['banner placements'];
  const one = { 200: envelopeSchema(s.adminPlacement) };

  app.get(
    '/api/admin/placements',
    {
      config: { access: access.admin(placementPermissions.READ) },
      schema: {
        tags,
        summary: 'Placements (default order: sortOrder ascending)',
        querystring: s.placementListQuery,
        response: { 200: listEnvelopeSchema(s.adminPlacement) },
      },
    },
    async (request) => {
      const { placements: data, meta } = await placements.listPlacements(deps, request.query);
      return okWithMeta(data, meta, 'Placements');
    },
  );

  app.get(
    '/api/admin/placements/:publicId',
    {
      config: { access: access.admin(placementPermissions.READ), errors: [bannerErrors.placementNotFound()] },
      schema: { tags, summary: 'One placement', params: areaSchemas.publicIdParams, response: one },
    },
    async (request) => ok(await placements.getPlacement(deps, request.params.publicId), 'Placement'),
  );

  app.post(
    '/api/admin/placements',
    {
      config: {
        access: access.admin(placementPermissions.CREATE),
        errors: [bannerErrors.placementSlugExists('')],
      },
      schema: {
        tags,
        summary: 'Create a placement; a taken slug is 409 PLACEMENT_SLUG_EXISTS',
        body: s.createPlacementBody,
        response: { 201: envelopeSchema(s.adminPlacement) },
      },
    },
    async (request, reply) => {
      const placement = await placements.createPlacement(deps, currentUser(request), request.body);
      reply.status(201);
      return ok(placement, 'Placement created');
    },
  );

  app.patch(
    '/api/admin/placements/:publicId',
    {
      config: {
        access: access.admin(placementPermissions.UPDATE),
        errors: [bannerErrors.placementNotFound(), bannerErrors.placementSlugExists('')],
      },
      schema: {
        tags,
        summary: 'Change fields of a placement',
        params: areaSchemas.publicIdParams,
        body: s.updatePlacementBody,
        response: one,
      },
    },
    async (request) =>
      ok(
        await placements.updatePlacement(deps, currentUser(request), request.params.publicId, request.body),
        'Placement updated',
      ),
  );

  app.delete(
    '/api/admin/placements/:publicId',
    {
      config: {
        access: access.admin(placementPermissions.DELETE),
        errors: [bannerErrors.placementNotFound(), bannerErrors.placementHasActiveAssignments()],
      },
      schema: {
        tags,
        summary: 'Delete a placement with its links; 409 while active assignments exist',
        params: areaSchemas.publicIdParams,
        response: { 200: envelopeSchema(z.null()) },
      },
    },
    async (request) => {
      await placements.deletePlacement(deps, currentUser(request), request.params.publicId);
      return ok(null, 'Placement deleted');
    },
  );

  for (const [path, isActive] of [
    ['activate', true],
    ['deactivate', false],
  ] as const) {
    app.patch(
      `/api/admin/placements/:publicId/${path}`,
      {
        config: {
          access: access.admin(placementPermissions.UPDATE),
          errors: [bannerErrors.placementNotFound()],
        },
        schema: {
          tags,
          summary: `${isActive ? 'Activate' : 'Deactivate'} a placement`,
          params: areaSchemas.publicIdParams,
          response: one,
        },
      },
      async (request) =>
        ok(
          await placements.updatePlacement(
            deps,
            currentUser(request),
            request.params.publicId,
            { isActive },
            path,
          ),
          isActive ? 'Placement activated' : 'Placement deactivated',
        ),
    );
  }
}
