// Admin banners (/api/admin/banners, Banners_*). Create answers 200 (interface).
import { access } from '../../../platform/auth/access';
import { currentUser } from '../../../platform/http/access-hook';
import { envelopeSchema, ok } from '../../../platform/http/envelope';
import type { ApiApp } from '../../../platform/module';
import { bannerErrors } from '../banners.errors';
import { bannerPermissions } from '../banners.permissions';
import * as areaSchemas from '../banners.schemas';
import type { BannerDeps } from '../banners.service';
import * as s from './banners.schemas';
import * as banners from './banners.service';

/** A brandId, categoryId or productId removed while the write ran (banners.repository.ts). */
const referenceErrors = (['BRAND', 'CATEGORY', 'PRODUCT'] as const).map((what) =>
  bannerErrors.referenceInvalid(what, 0),
);

export function bannerRoutes(app: ApiApp, deps: BannerDeps) {
  const tags = ['banners'];
  const one = { 200: envelopeSchema(s.adminBanner) };

  app.post(
    '/api/admin/banners',
    {
      config: {
        access: access.admin(bannerPermissions.CREATE),
        errors: [bannerErrors.scheduleInvalid(), bannerErrors.seoNotFound(''), ...referenceErrors],
      },
      schema: { tags, summary: 'Create a banner (answers 200)', body: s.createBannerBody, response: one },
    },
    async (request) =>
      ok(await banners.createBanner(deps, currentUser(request), request.body), 'Banner created'),
  );

  app.get(
    '/api/admin/banners',
    {
      config: { access: access.admin(bannerPermissions.READ) },
      schema: {
        tags,
        summary: 'Banners with filters; `pagination` at the top level of the envelope',
        querystring: s.bannerListQuery,
        response: { 200: s.bannerListEnvelope },
      },
    },
    async (request) => {
      const { banners: data, pagination } = await banners.listBanners(deps, request.query);
      return { message: 'Banners', data, ...(pagination ? { pagination } : {}) };
    },
  );

  app.get(
    '/api/admin/banners/:publicId',
    {
      config: { access: access.admin(bannerPermissions.READ), errors: [bannerErrors.bannerNotFound()] },
      schema: {
        tags,
        summary: 'One banner (deleted ones too)',
        params: areaSchemas.publicIdParams,
        response: one,
      },
    },
    async (request) => ok(await banners.getBanner(deps, request.params.publicId), 'Banner'),
  );

  app.patch(
    '/api/admin/banners/:publicId',
    {
      config: {
        access: access.admin(bannerPermissions.UPDATE),
        errors: [
          bannerErrors.bannerNotFound(),
          bannerErrors.scheduleInvalid(),
          bannerErrors.seoNotFound(''),
          ...referenceErrors,
        ],
      },
      schema: {
        tags,
        summary: 'Change fields of a banner',
        params: areaSchemas.publicIdParams,
        body: s.updateBannerBody,
        response: one,
      },
    },
    async (request) =>
      ok(
        await banners.updateBanner(deps, currentUser(request), request.params.publicId, request.body),
        'Banner updated',
      ),
  );

  app.delete(
    '/api/admin/banners/:publicId',
    {
      config: {
        access: access.admin(bannerPermissions.DELETE),
        errors: [bannerErrors.bannerNotFound(), bannerErrors.bannerAlreadyDeleted()],
      },
      schema: { tags, summary: 'Soft-delete a banner', params: areaSchemas.publicIdParams, response: one },
    },
    async (request) =>
      ok(await banners.deleteBanner(deps, currentUser(request), request.params.publicId), 'Banner deleted'),
  );

  app.post(
    '/api/admin/banners/:publicId/restore',
    {
      config: {
        access: access.admin(bannerPermissions.UPDATE),
        errors: [bannerErrors.bannerNotFound(), bannerErrors.bannerNotDeleted()],
      },
      schema: {
        tags,
        summary: 'Restore a deleted banner',
        params: areaSchemas.publicIdParams,
        response: one,
      },
    },
    async (request) =>
      ok(await banners.restoreBanner(deps, currentUser(request), request.params.publicId), 'Banner restored'),
  );

  app.patch(
    '/api/admin/banners/:publicId/schedule',
    {
      config: {
        access: access.admin(bannerPermissions.UPDATE),
        errors: [bannerErrors.bannerNotFound(), bannerErrors.scheduleInvalid()],
      },
      schema: {
        tags,
        summary: 'Set scheduleStatus, publishAt, expiresAt and the recurrence fields',
        params: areaSchemas.publicIdParams,
        body: s.scheduleBannerBody,
        response: one,
      },
    },
    async (request) =>
      ok(
        await banners.scheduleBanner(deps, currentUser(request), request.params.publicId, request.body),
        'Banner scheduled',
      ),
  );

  for (const [path, isActive] of [
    ['activate', true],
    ['deactivate', false],
  ] as const) {
    app.patch(
      `/api/admin/banners/:publicId/${path}`,
      {
        config: { access: access.admin(bannerPermissions.UPDATE), errors: [bannerErrors.bannerNotFound()] },
        schema: {
          tags,
          summary: `${isActive ? 'Activate' : 'Deactivate'} a banner`,
          params: areaSchemas.publicIdParams,
          response: one,
        },
      },
      async (request) =>
        ok(
          await banners.setBannerActive(deps, currentUser(request), request.params.publicId, isActive),
          isActive ? 'Banner activated' : 'Banner deactivated',
        ),
    );
  }
}
