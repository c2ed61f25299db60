import { z } from 'zod';
import { access } from '../../../platform/auth/access';
import { currentUser } from '../../../platform/http/access-hook';
import { envelopeSchema, listEnvelopeSchema, ok, okWithMeta } from '../../../platform/http/envelope';
import { intIdParams } from '../../../platform/http/params';
import type { ModuleContext } from '../../../platform/module';
import { shippingDistrictErrors } from './shipping-districts.errors';
import { shippingDistrictPermissions as perms } from './shipping-districts.permissions';
import * as s from './shipping-districts.schemas';
import * as districts from './shipping-districts.service';

export function shippingDistrictRoutes(ctx: ModuleContext) {
  const { app } = ctx;
  const tags = ['shipping districts'];

  app.get(
    '/api/admin/shipping-districts',
    {
      config: { access: access.admin(perms.READ) },
      schema: {
        tags,
        summary: 'Every district with its fee; search by name, filter by province or isActive',
        querystring: s.shippingDistrictListQuery,
        response: { 200: listEnvelopeSchema(s.shippingDistrict) },
      },
    },
    async (request) => {
      const { districts: data, meta } = await districts.listShippingDistricts(ctx, request.query);
      return okWithMeta(data, meta, 'Shipping districts');
    },
  );

  app.get(
    '/api/admin/shipping-districts/:id',
    {
      config: { access: access.admin(perms.READ), errors: [shippingDistrictErrors.notFound(0)] },
      schema: {
        tags,
        summary: 'One district',
        params: intIdParams,
        response: { 200: envelopeSchema(s.shippingDistrict) },
      },
    },
    async (request) => ok(await districts.getShippingDistrict(ctx, request.params.id), 'Shipping district'),
  );

  app.patch(
    '/api/admin/shipping-districts/:id',
    {
      config: { access: access.admin(perms.UPDATE), errors: [shippingDistrictErrors.notFound(0)] },
      schema: {
        tags,
        summary: "Set a district's fee or whether the store ships there",
        params: intIdParams,
        body: s.updateShippingDistrictBody,
        response: { 200: envelopeSchema(s.shippingDistrict) },
      },
    },
    async (request) =>
      ok(
        await districts.updateShippingDistrict(ctx, currentUser(request), request.params.id, request.body),
        'Shipping district updated',
      ),
  );

  for (const prefix of ['/api', '/api/mobile']) {
    app.get(
      `${prefix}/cart/location/districts`,
      {
        config: { access: access.public(), operation: 'listShippingDistricts' },
        schema: {
          tags,
          summary: 'The districts the store ships to, with their fees, by name',
          response: { 200: envelopeSchema(z.array(s.publicShippingDistrict)) },
        },
      },
      async () => ok(await districts.listActiveShippingDistricts(ctx), 'Shipping districts'),
    );
  }
}
