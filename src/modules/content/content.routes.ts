// Admin content pages (/api/admin/content/pages, Content_*) and the public reads of both
// surfaces (/api/content/pages, /api/mobile/content/pages). Admin calls are rate limited per
// admin user: reads and writes each have their own counter.
import type { RateLimitOptions } from '@fastify/rate-limit';
import { z } from 'zod';
import type { Config } from '../../config';
import { access } from '../../platform/auth/access';
import { currentUser } from '../../platform/http/access-hook';
import { envelopeSchema, ok, sendSerialized } from '../../platform/http/envelope';
import { rateLimiter } from '../../platform/http/openapi';
import type { ModuleContext } from '../../platform/module';
import { contentErrors } from './content.errors';
import { contentPermissions } from './content.permissions';
import * as s from './content.schemas';
import * as content from './content.service';

/**
 * The content admin limits (per admin user, docs/decisions.md "Lists and caches"): `read` for
 * the admin page read, `write` shared by meta, section upsert and delete. A failing limiter
 * store lets calls through.
 */
export function contentAdminLimits(config: Config, kind: 'read' | 'write'): RateLimitOptions {
  return {
    max: kind === 'read' ? config.CONTENT_ADMIN_READ_RATE_LIMIT : config.CONTENT_ADMIN_WRITE_RATE_LIMIT,
    timeWindow: config.CONTENT_ADMIN_RATE_WINDOW_SECONDS * 1000,
    skipOnError: true,
    keyGenerator: (request) =>
      `content-admin-${kind}:${request.principal?.actor === 'guest' ? '' : request.principal?.userId}`,
  };
}

export function contentRoutes(ctx: ModuleContext) {
  const { app, config } = ctx;
  const tags = ['content'];
  // Runs after the access check (route hooks follow the scope's), so it always knows the admin,
  // and before validation, so malformed calls count too.
  const readLimit = rateLimiter(app, contentAdminLimits(config, 'read'));
  const writeLimit = rateLimiter(app, contentAdminLimits(config, 'write'));

  app.get(
    '/api/admin/content/pages/:pageKey',
    {
      config: { access: access.admin(contentPermissions.READ) },
      onRequest: readLimit,
      schema: {
        tags,
        summary: 'A content page with every section, disabled ones too (made when missing)',
        params: s.pageParams,
        response: { 200: envelopeSchema(s.contentPage) },
      },
    },
    async (request) => ok(await content.getAdminPage(ctx, request.params.pageKey), 'Content page'),
  );

  app.patch(
    '/api/admin/content/pages/:pageKey/meta',
    {
      config: {
        access: access.admin(contentPermissions.UPDATE),
        errors: [contentErrors.seoNotFound(''), contentErrors.seoAlreadyLinked('')],
      },
      onRequest: writeLimit,
      schema: {
        tags,
        summary: 'Change the title or SEO record of a page (made when missing)',
        params: s.pageParams,
        body: s.updateMetaBody,
        response: { 200: envelopeSchema(s.contentPage) },
      },
    },
    async (request) =>
      ok(
        await content.updatePageMeta(ctx, currentUser(request), request.params.pageKey, request.body),
        'Content page updated',
      ),
  );

  app.put(
    '/api/admin/content/pages/:pageKey/sections/:sectionKey',
    {
      config: {
        access: access.admin(contentPermissions.UPDATE),
        errors: [contentErrors.sectionKeyInvalid('', '', []), contentErrors.payloadInvalid('', [])],
      },
      onRequest: writeLimit,
      schema: {
        tags,
        summary: 'Create or replace a section; its payload is checked against the section key’s schema',
        params: s.sectionParams,
        body: s.upsertSectionBody,
        response: { 200: envelopeSchema(s.contentSection) },
      },
    },
    async (request) =>
      ok(
        await content.upsertSection(
          ctx,
          currentUser(request),
          request.params.pageKey,
          request.params.sectionKey,
          request.body,
        ),
        'Content section saved',
      ),
  );

  app.delete(
    '/api/admin/content/pages/:pageKey/sections/:sectionKey',
    {
      config: {
        access: access.admin(contentPermissions.DELETE),
        errors: [contentErrors.sectionKeyInvalid('', '', []), contentErrors.notFound('')],
      },
      onRequest: writeLimit,
      schema: {
        tags,
        summary: 'Delete a section',
        params: s.sectionParams,
        response: { 200: envelopeSchema(z.null()) },
      },
    },
    async (request) => {
      await content.deleteSection(
        ctx,
        currentUser(request),
        request.params.pageKey,
        request.params.sectionKey,
      );
      return ok(null, 'Content section deleted');
    },
  );

  for (const prefix of ['/api', '/api/mobile']) {
    app.get(
      `${prefix}/content/pages/:pageKey`,
      {
        config: { access: access.public(), errors: [contentErrors.notFound('')] },
        schema: {
          tags,
          summary: 'A content page with its enabled sections (cached)',
          params: s.pageParams,
          response: { 200: envelopeSchema(s.contentPage) },
        },
      },
      async (request, reply) => {
        // The cached JSON text goes out as it is, skipping the serialiser (the view was built
        // from the same types the schema documents).
        const page = await content.getPublicPageJson(ctx, request.params.pageKey);
        return sendSerialized(reply, 'Content page', page) as never;
      },
    );
  }
}
