// Admin SEO records: /api/admin/seo (Seo_*).
import { z } from 'zod';
import { access } from '../../../platform/auth/access';
import { currentUser } from '../../../platform/http/access-hook';
import { envelopeSchema, listEnvelopeSchema, ok, okWithMeta } from '../../../platform/http/envelope';
import { uuidIdParams } from '../../../platform/http/params';
import type { ModuleContext } from '../../../platform/module';
import { catalogErrors } from '../catalog.errors';
import { seoPermissions } from '../catalog.permissions';
import * as s from './seo.schemas';
import * as seo from './seo.service';

export function seoRoutes(ctx: ModuleContext) {
  const { app } = ctx;
  const tags = ['seo'];

  app.get(
    '/api/admin/seo',
    {
      config: { access: access.admin(seoPermissions.READ) },
      schema: {
        tags,
        summary: 'SEO records',
        querystring: s.seoListQuery,
        response: { 200: listEnvelopeSchema(s.seoRecord) },
      },
    },
    async (request) => {
      const { records, meta } = await seo.listSeo(ctx, request.query);
      return okWithMeta(records, meta, 'SEO records');
    },
  );

  app.get(
    '/api/admin/seo/:id',
    {
      config: { access: access.admin(seoPermissions.READ), errors: [catalogErrors.seoNotFound('')] },
      schema: {
        tags,
        summary: 'One SEO record',
        params: uuidIdParams,
        response: { 200: envelopeSchema(s.seoRecord) },
      },
    },
    async (request) => ok(await seo.getSeo(ctx, request.params.id), 'SEO record'),
  );

  app.post(
    '/api/admin/seo',
    {
      config: { access: access.admin(seoPermissions.CREATE) },
      schema: {
        tags,
        summary: 'Create an SEO record',
        body: s.createSeoBody,
        response: { 201: envelopeSchema(s.seoRecord) },
      },
    },
    async (request, reply) => {
      const record = await seo.createSeo(ctx, currentUser(request), request.body);
      reply.status(201);
      return ok(record, 'SEO record created');
    },
  );

  app.patch(
    '/api/admin/seo/:id',
    {
      config: { access: access.admin(seoPermissions.UPDATE), errors: [catalogErrors.seoNotFound('')] },
      schema: {
        tags,
        summary: 'Change fields of an SEO record (null clears a field)',
        params: uuidIdParams,
        body: s.updateSeoBody,
        response: { 200: envelopeSchema(s.seoRecord) },
      },
    },
    async (request) =>
      ok(
        await seo.updateSeo(ctx, currentUser(request), request.params.id, request.body),
        'SEO record updated',
      ),
  );

  app.delete(
    '/api/admin/seo/:id',
    {
      config: {
        access: access.admin(seoPermissions.DELETE),
        errors: [catalogErrors.seoNotFound(''), catalogErrors.seoInUse()],
      },
      schema: {
        tags,
        summary: 'Delete an SEO record nothing points at (else 409 SEO_RECORD_IN_USE)',
        params: uuidIdParams,
        response: { 200: envelopeSchema(z.null()) },
      },
    },
    async (request) => {
      await seo.deleteSeo(ctx, currentUser(request), request.params.id);
      return ok(null, 'SEO record deleted');
    },
  );
}
