// Admin campaigns (/api/admin/campaigns, Campaigns_*), their placements and banner assignments
// (Assignments_*), and targeting rules (/api/admin/targeting-rules, TargetingRules_*).
import { z } from 'zod';
import { access } from '../../../platform/auth/access';
import { currentUser } from '../../../platform/http/access-hook';
import { envelopeSchema, listEnvelopeSchema, ok, okWithMeta } from '../../../platform/http/envelope';
import type { ApiApp } from '../../../platform/module';
import { bannerErrors } from '../banners.errors';
import { assignmentPermissions, campaignPermissions, targetingRulePermissions } from '../banners.permissions';
import * as areaSchemas from '../banners.schemas';
import type { BannerDeps } from '../banners.service';
import * as s from './campaigns.schemas';
import * as campaigns from './campaigns.service';
import { LIFECYCLE_ROUTES, type LifecycleAction } from './campaigns.transitions';

/** Every route under a campaign's placement link names a campaign, a placement and their link. */
const linkErrors = [
  bannerErrors.campaignNotFound(),
  bannerErrors.placementNotFound(),
  bannerErrors.campaignPlacementNotFound(),
];

export function campaignRoutes(app: ApiApp, deps: BannerDeps) {
  const tags = ['banner campaigns'];
  const one = { 200: envelopeSchema(s.adminCampaign) };
  const base = '/api/admin/campaigns';

  app.get(
    base,
    {
      config: { access: access.admin(campaignPermissions.READ) },
      schema: {
        tags,
        summary: 'Campaigns with filters',
        querystring: s.campaignListQuery,
        response: { 200: listEnvelopeSchema(s.adminCampaign) },
      },
    },
    async (request) => {
      const { campaigns: data, meta } = await campaigns.listCampaigns(deps, request.query);
      return okWithMeta(data, meta, 'Campaigns');
    },
  );

  app.get(
    `${base}/:publicId`,
    {
      config: { access: access.admin(campaignPermissions.READ), errors: [bannerErrors.campaignNotFound()] },
      schema: {
        tags,
        summary: 'One campaign (deleted ones too)',
        params: areaSchemas.publicIdParams,
        response: one,
      },
    },
    async (request) => ok(await campaigns.getCampaign(deps, request.params.publicId), 'Campaign'),
  );

  app.post(
    base,
    {
      config: {
        access: access.admin(campaignPermissions.CREATE),
        errors: [bannerErrors.campaignDateInvalid()],
      },
      schema: {
        tags,
        summary: 'Create a campaign; always a draft',
        body: s.createCampaignBody,
        response: { 201: envelopeSchema(s.adminCampaign) },
      },
    },
    async (request, reply) => {
      const campaign = await campaigns.createCampaign(deps, currentUser(request), request.body);
      reply.status(201);
      return ok(campaign, 'Campaign created');
    },
  );

  app.patch(
    `${base}/:publicId`,
    {
      config: {
        access: access.admin(campaignPermissions.UPDATE),
        errors: [bannerErrors.campaignNotFound(), bannerErrors.campaignDateInvalid()],
      },
      schema: {
        tags,
        summary: 'Change fields of a campaign (not its status)',
        params: areaSchemas.publicIdParams,
        body: s.updateCampaignBody,
        response: one,
      },
    },
    async (request) =>
      ok(
        await campaigns.updateCampaign(deps, currentUser(request), request.params.publicId, request.body),
        'Campaign updated',
      ),
  );

  app.delete(
    `${base}/:publicId`,
    {
      config: {
        access: access.admin(campaignPermissions.DELETE),
        errors: [bannerErrors.campaignNotFound(), bannerErrors.campaignAlreadyDeleted()],
      },
      schema: { tags, summary: 'Soft-delete a campaign', params: areaSchemas.publicIdParams, response: one },
    },
    async (request) =>
      ok(
        await campaigns.deleteCampaign(deps, currentUser(request), request.params.publicId),
        'Campaign deleted',
      ),
  );

  app.post(
    `${base}/:publicId/restore`,
    {
      config: {
        access: access.admin(campaignPermissions.UPDATE),
        errors: [bannerErrors.campaignNotFound(), bannerErrors.campaignNotDeleted()],
      },
      schema: {
        tags,
        summary: 'Restore a deleted campaign',
        params: areaSchemas.publicIdParams,
        response: one,
      },
    },
    async (request) =>
      ok(
        await campaigns.restoreCampaign(deps, currentUser(request), request.params.publicId),
        'Campaign restored',
      ),
  );

  for (const action of Object.keys(LIFECYCLE_ROUTES) as LifecycleAction[]) {
    app.patch(
      `${base}/:publicId/${action}`,
      {
        config: {
          access: access.admin(campaignPermissions.UPDATE),
          // Only scheduling needs a startsAt.
          errors: [
            bannerErrors.campaignNotFound(),
            bannerErrors.campaignInvalidTransition('', ''),
            ...(action === 'schedule' ? [bannerErrors.campaignDateInvalid()] : []),
          ],
        },
        schema: {
          tags,
          summary: `Move the campaign to ${LIFECYCLE_ROUTES[action]}; a move the lifecycle forbids is 400 CAMPAIGN_INVALID_TRANSITION`,
          params: areaSchemas.publicIdParams,
          response: one,
        },
      },
      async (request) =>
        ok(
          await campaigns.moveCampaign(deps, currentUser(request), request.params.publicId, action),
          `Campaign ${LIFECYCLE_ROUTES[action]}`,
        ),
    );
  }

  // ---------- campaign placements ----------
  const link = `${base}/:publicId/placements/:placementPublicId`;
  const linkOne = { 200: envelopeSchema(s.campaignPlacementView) };
  const ltags = ['banner assignments'];

  app.get(
    `${base}/:publicId/placements`,
    {
      config: { access: access.admin(assignmentPermissions.READ), errors: [bannerErrors.campaignNotFound()] },
      schema: {
        tags: ltags,
        summary: "The campaign's placement links, in the placements' order",
        params: areaSchemas.publicIdParams,
        response: { 200: envelopeSchema(z.array(s.campaignPlacementView)) },
      },
    },
    async (request) => ok(await campaigns.listLinks(deps, request.params.publicId), 'Campaign placements'),
  );

  app.post(
    `${base}/:publicId/placements`,
    {
      config: {
        access: access.admin(assignmentPermissions.CREATE),
        errors: [
          bannerErrors.campaignNotFound(),
          bannerErrors.placementNotFound(),
          bannerErrors.campaignPlacementExists(),
        ],
      },
      schema: {
        tags: ltags,
        summary: 'Link the campaign to a placement',
        params: areaSchemas.publicIdParams,
        body: s.createLinkBody,
        response: { 201: envelopeSchema(s.campaignPlacementView) },
      },
    },
    async (request, reply) => {
      const view = await campaigns.createLink(
        deps,
        currentUser(request),
        request.params.publicId,
        request.body,
      );
      reply.status(201);
      return ok(view, 'Campaign linked to placement');
    },
  );

  app.delete(
    link,
    {
      config: { access: access.admin(assignmentPermissions.DELETE), errors: linkErrors },
      schema: {
        tags: ltags,
        summary: 'Unlink the campaign from a placement (its assignments there go with it)',
        params: areaSchemas.linkParams,
        response: { 200: envelopeSchema(z.null()) },
      },
    },
    async (request) => {
      await campaigns.deleteLink(
        deps,
        currentUser(request),
        request.params.publicId,
        request.params.placementPublicId,
      );
      return ok(null, 'Campaign unlinked from placement');
    },
  );

  for (const [path, isActive] of [
    ['activate', true],
    ['deactivate', false],
  ] as const) {
    app.patch(
      `${link}/${path}`,
      {
        config: { access: access.admin(assignmentPermissions.UPDATE), errors: linkErrors },
        schema: {
          tags: ltags,
          summary: `${isActive ? 'Activate' : 'Deactivate'} the link`,
          params: areaSchemas.linkParams,
          response: linkOne,
        },
      },
      async (request) =>
        ok(
          await campaigns.setLinkActive(
            deps,
            currentUser(request),
            request.params.publicId,
            request.params.placementPublicId,
            isActive,
          ),
          isActive ? 'Link activated' : 'Link deactivated',
        ),
    );
  }

  // ---------- assignments ----------
  const assignment = `${link}/banners/:bannerPublicId`;
  const assignmentOne = { 200: envelopeSchema(s.assignmentView) };

  app.get(
    `${link}/banners`,
    {
      config: { access: access.admin(assignmentPermissions.READ), errors: linkErrors },
      schema: {
        tags: ltags,
        summary: 'Banners assigned in the link: primaries in serving order, then fallbacks',
        params: areaSchemas.linkParams,
        response: { 200: envelopeSchema(z.array(s.assignmentView)) },
      },
    },
    async (request) =>
      ok(
        await campaigns.listAssignments(deps, request.params.publicId, request.params.placementPublicId),
        'Assignments',
      ),
  );

  app.post(
    `${link}/banners`,
    {
      config: {
        access: access.admin(assignmentPermissions.CREATE),
        errors: [...linkErrors, bannerErrors.bannerNotFound(), bannerErrors.assignmentExists()],
      },
      schema: {
        tags: ltags,
        summary: 'Assign a banner in the link',
        params: areaSchemas.linkParams,
        body: s.createAssignmentBody,
        response: { 201: envelopeSchema(s.assignmentView) },
      },
    },
    async (request, reply) => {
      const view = await campaigns.createAssignment(
        deps,
        currentUser(request),
        request.params.publicId,
        request.params.placementPublicId,
        request.body,
      );
      reply.status(201);
      return ok(view, 'Banner assigned');
    },
  );

  app.patch(
    assignment,
    {
      config: {
        access: access.admin(assignmentPermissions.UPDATE),
        errors: [...linkErrors, bannerErrors.assignmentNotFound()],
      },
      schema: {
        tags: ltags,
        summary: 'Change an assignment',
        params: areaSchemas.assignmentParams,
        body: s.updateAssignmentBody,
        response: assignmentOne,
      },
    },
    async (request) =>
      ok(
        await campaigns.updateAssignment(deps, currentUser(request), request.params, request.body),
        'Assignment updated',
      ),
  );

  app.delete(
    assignment,
    {
      config: {
        access: access.admin(assignmentPermissions.DELETE),
        errors: [...linkErrors, bannerErrors.assignmentNotFound()],
      },
      schema: {
        tags: ltags,
        summary: 'Remove an assignment',
        params: areaSchemas.assignmentParams,
        response: { 200: envelopeSchema(z.null()) },
      },
    },
    async (request) => {
      await campaigns.deleteAssignment(deps, currentUser(request), request.params);
      return ok(null, 'Assignment removed');
    },
  );

  for (const [path, isActive] of [
    ['activate', true],
    ['deactivate', false],
  ] as const) {
    app.patch(
      `${assignment}/${path}`,
      {
        config: {
          access: access.admin(assignmentPermissions.UPDATE),
          errors: [...linkErrors, bannerErrors.assignmentNotFound()],
        },
        schema: {
          tags: ltags,
          summary: `${isActive ? 'Activate' : 'Deactivate'} an assignment`,
          params: areaSchemas.assignmentParams,
          response: assignmentOne,
        },
      },
      async (request) =>
        ok(
          await campaigns.updateAssignment(deps, currentUser(request), request.params, { isActive }, path),
          isActive ? 'Assignment activated' : 'Assignment deactivated',
        ),
    );
  }

  // ---------- targeting rules ----------
  const rtags = ['banner targeting rules'];
  const rules = '/api/admin/targeting-rules';

  app.get(
    rules,
    {
      config: {
        access: access.admin(targetingRulePermissions.READ),
        errors: [bannerErrors.campaignNotFound()],
      },
      schema: {
        tags: rtags,
        summary: "A campaign's targeting rules",
        querystring: s.ruleListQuery,
        response: { 200: envelopeSchema(z.array(s.ruleView)) },
      },
    },
    async (request) => ok(await campaigns.listRules(deps, request.query.campaignPublicId), 'Targeting rules'),
  );

  app.post(
    rules,
    {
      config: {
        access: access.admin(targetingRulePermissions.CREATE),
        errors: [bannerErrors.campaignNotFound(), bannerErrors.ruleOperatorInvalid('', '', [])],
      },
      schema: {
        tags: rtags,
        summary: 'Add a targeting rule to a campaign',
        body: s.createRuleBody,
        response: { 201: envelopeSchema(s.ruleView) },
      },
    },
    async (request, reply) => {
      const rule = await campaigns.createRule(deps, currentUser(request), request.body);
      reply.status(201);
      return ok(rule, 'Targeting rule created');
    },
  );

  app.patch(
    `${rules}/:publicId`,
    {
      config: {
        access: access.admin(targetingRulePermissions.UPDATE),
        errors: [bannerErrors.ruleNotFound(), bannerErrors.ruleOperatorInvalid('', '', [])],
      },
      schema: {
        tags: rtags,
        summary: 'Change a targeting rule (the result is checked as a whole)',
        params: areaSchemas.publicIdParams,
        body: s.updateRuleBody,
        response: { 200: envelopeSchema(s.ruleView) },
      },
    },
    async (request) =>
      ok(
        await campaigns.updateRule(deps, currentUser(request), request.params.publicId, request.body),
        'Targeting rule updated',
      ),
  );

  app.delete(
    `${rules}/:publicId`,
    {
      config: {
        access: access.admin(targetingRulePermissions.DELETE),
        errors: [bannerErrors.ruleNotFound()],
      },
      schema: {
        tags: rtags,
        summary: 'Delete a targeting rule',
        params: areaSchemas.publicIdParams,
        response: { 200: envelopeSchema(z.null()) },
      },
    },
    async (request) => {
      await campaigns.deleteRule(deps, currentUser(request), request.params.publicId);
      return ok(null, 'Targeting rule deleted');
    },
  );
}
