// Admin coupons: /api/admin/coupons (Coupons_*).
import { z } from 'zod';
import { access } from '../../../platform/auth/access';
import { currentUser } from '../../../platform/http/access-hook';
import { envelopeSchema, listEnvelopeSchema, ok, okWithMeta } from '../../../platform/http/envelope';
import { intIdParams } from '../../../platform/http/params';
import type { ModuleContext } from '../../../platform/module';
import { cartErrors } from '../cart.errors';
import { couponPermissions as perms } from '../cart.permissions';
import * as s from './coupons.schemas';
import * as coupons from './coupons.service';

export function couponRoutes(ctx: ModuleContext) {
  const { app } = ctx;
  const tags = ['coupons'];

  app.get(
    '/api/admin/coupons',
    {
      config: { access: access.admin(perms.READ) },
      schema: {
        tags,
        summary: 'Coupons; search by code, filter by isActive',
        querystring: s.couponListQuery,
        response: { 200: listEnvelopeSchema(s.coupon) },
      },
    },
    async (request) => {
      const { coupons: data, meta } = await coupons.listCoupons(ctx, request.query);
      return okWithMeta(data, meta, 'Coupons');
    },
  );

  app.get(
    '/api/admin/coupons/:id',
    {
      config: { access: access.admin(perms.READ), errors: [cartErrors.couponNotFound(0)] },
      schema: {
        tags,
        summary: 'One coupon',
        params: intIdParams,
        response: { 200: envelopeSchema(s.coupon) },
      },
    },
    async (request) => ok(await coupons.getCoupon(ctx, request.params.id), 'Coupon'),
  );

  app.post(
    '/api/admin/coupons',
    {
      config: { access: access.admin(perms.CREATE), errors: [cartErrors.couponCodeExists('')] },
      schema: {
        tags,
        summary: 'Create a coupon (code unique, case-insensitive)',
        body: s.createCouponBody,
        response: { 201: envelopeSchema(s.coupon) },
      },
    },
    async (request, reply) => {
      reply.code(201);
      return ok(await coupons.createCoupon(ctx, currentUser(request), request.body), 'Coupon created');
    },
  );

  app.patch(
    '/api/admin/coupons/:id',
    {
      config: {
        access: access.admin(perms.UPDATE),
        errors: [cartErrors.couponNotFound(0), cartErrors.couponCodeExists('')],
      },
      schema: {
        tags,
        summary: 'Change a coupon',
        params: intIdParams,
        body: s.updateCouponBody,
        response: { 200: envelopeSchema(s.coupon) },
      },
    },
    async (request) =>
      ok(
        await coupons.updateCoupon(ctx, currentUser(request), request.params.id, request.body),
        'Coupon updated',
      ),
  );

  app.delete(
    '/api/admin/coupons/:id',
    {
      config: { access: access.admin(perms.DELETE), errors: [cartErrors.couponNotFound(0)] },
      schema: {
        tags,
        summary: 'Delete a coupon (its redemptions stay; the code is free again)',
        params: intIdParams,
        response: { 200: envelopeSchema(z.null()) },
      },
    },
    async (request) => {
      await coupons.deleteCoupon(ctx, currentUser(request), request.params.id);
      return ok(null, 'Coupon deleted');
    },
  );
}
