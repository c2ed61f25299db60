import { z } from 'zod';
import { access } from '../../../platform/auth/access';
import { currentUser } from '../../../platform/http/access-hook';
import { envelopeSchema, listEnvelopeSchema, ok, okWithMeta } from '../../../platform/http/envelope';
import { intIdParams } from '../../../platform/http/params';
import type { ModuleContext } from '../../../platform/module';
import { catalogErrors } from '../catalog.errors';
import { carePackageErrors } from './care-packages.errors';
import { EXPIRE_SUBSCRIPTIONS_CRON, expireSubscriptionsJob } from './care-packages.jobs';
import { carePackagePermissions as perms } from './care-packages.permissions';
import * as s from './care-packages.schemas';
import * as care from './care-packages.service';

export async function registerCarePackages(ctx: ModuleContext) {
  const { app } = ctx;
  const tags = ['care packages'];

  const expire = expireSubscriptionsJob(ctx);
  ctx.jobs.register(expire);
  await ctx.jobs.schedule(expire, EXPIRE_SUBSCRIPTIONS_CRON, {});

  app.get(
    '/api/admin/care-packages',
    {
      config: { access: access.admin(perms.READ) },
      schema: {
        tags,
        summary: 'Care packages with their rules and tiers; search by name, filter by isActive',
        querystring: s.carePackageListQuery,
        response: { 200: listEnvelopeSchema(s.carePackage) },
      },
    },
    async (request) => {
      const { packages, meta } = await care.listCarePackages(ctx, request.query);
      return okWithMeta(packages, meta, 'Care packages');
    },
  );

  app.get(
    '/api/admin/care-packages/:id',
    {
      config: { access: access.admin(perms.READ), errors: [carePackageErrors.notFound(0)] },
      schema: {
        tags,
        summary: 'One care package',
        params: intIdParams,
        response: { 200: envelopeSchema(s.carePackage) },
      },
    },
    async (request) => ok(await care.getCarePackage(ctx, request.params.id), 'Care package'),
  );

  app.post(
    '/api/admin/care-packages',
    {
      config: { access: access.admin(perms.CREATE), errors: [carePackageErrors.ruleInvalid('', [])] },
      schema: {
        tags,
        summary: 'Create a care package with its eligibility rules and pricing tiers',
        body: s.createCarePackageBody,
        response: { 201: envelopeSchema(s.carePackage) },
      },
    },
    async (request, reply) => {
      const created = await care.createCarePackage(ctx, currentUser(request), request.body);
      reply.status(201);
      return ok(created, 'Care package created');
    },
  );

  app.patch(
    '/api/admin/care-packages/:id',
    {
      config: {
        access: access.admin(perms.UPDATE),
        errors: [
          carePackageErrors.notFound(0),
          carePackageErrors.ruleInvalid('', []),
          carePackageErrors.tierInvalid(0),
        ],
      },
      schema: {
        tags,
        summary: 'Change fields, rules or tiers (tiers left out of the list are deactivated)',
        params: intIdParams,
        body: s.updateCarePackageBody,
        response: { 200: envelopeSchema(s.carePackage) },
      },
    },
    async (request) =>
      ok(
        await care.updateCarePackage(ctx, currentUser(request), request.params.id, request.body),
        'Care package updated',
      ),
  );

  app.delete(
    '/api/admin/care-packages/:id',
    {
      config: {
        access: access.admin(perms.DELETE),
        errors: [carePackageErrors.notFound(0), carePackageErrors.inUse()],
      },
      schema: {
        tags,
        summary: 'Delete a care package nothing refers to (409 CARE_PACKAGE_IN_USE otherwise)',
        params: intIdParams,
        response: { 200: envelopeSchema(z.null()) },
      },
    },
    async (request) => {
      await care.deleteCarePackage(ctx, currentUser(request), request.params.id);
      return ok(null, 'Care package deleted');
    },
  );

  app.get(
    '/api/mobile/products/id/:productId/care-packages',
    {
      config: { access: access.public(), errors: [catalogErrors.productNotFound()] },
      schema: {
        tags,
        summary: 'The active care packages and tiers a product on sale may be bought with',
        params: s.productIdParams,
        response: { 200: envelopeSchema(z.array(s.offeredCarePackage)) },
      },
    },
    async (request) => ok(await care.offeredCarePackages(ctx, request.params.productId), 'Care packages'),
  );
}
