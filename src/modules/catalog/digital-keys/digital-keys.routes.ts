import { access } from '../../../platform/auth/access';
import { currentUser } from '../../../platform/http/access-hook';
import { envelopeSchema, listEnvelopeSchema, ok, okWithMeta } from '../../../platform/http/envelope';
import { intIdParams } from '../../../platform/http/params';
import type { ModuleContext } from '../../../platform/module';
import { catalogErrors } from '../catalog.errors';
import { digitalKeyErrors } from './digital-keys.errors';
import { digitalKeyPermissions as perms } from './digital-keys.permissions';
import * as s from './digital-keys.schemas';
import * as keys from './digital-keys.service';

/** Every key route names a product, which must exist and be digital. */
const keyProductErrors = [catalogErrors.productNotFound(), digitalKeyErrors.notDigital()];

export function digitalKeyRoutes(ctx: ModuleContext) {
  const { app } = ctx;
  const tags = ['digital keys'];

  app.post(
    '/api/admin/products/:id/digital-keys',
    {
      config: { access: access.admin(perms.CREATE), errors: keyProductErrors },
      schema: {
        tags,
        summary:
          'Add licence keys in bulk (`keys` array or `text`, one a line); duplicates are skipped and counted',
        params: intIdParams,
        body: s.addDigitalKeysBody,
        response: { 201: envelopeSchema(s.addedDigitalKeys) },
      },
    },
    async (request, reply) => {
      const result = await keys.addDigitalKeys(ctx, currentUser(request), request.params.id, request.body);
      reply.status(201);
      return ok(result, 'Digital keys added');
    },
  );

  app.get(
    '/api/admin/products/:id/digital-keys',
    {
      config: { access: access.admin(perms.READ), errors: keyProductErrors },
      schema: {
        tags,
        summary: "A digital product's keys, masked, newest first; filter by status",
        params: intIdParams,
        querystring: s.digitalKeyListQuery,
        response: { 200: listEnvelopeSchema(s.digitalKey) },
      },
    },
    async (request) => {
      const { keys: data, meta } = await keys.listDigitalKeys(ctx, request.params.id, request.query);
      return okWithMeta(data, meta, 'Digital keys');
    },
  );

  app.post(
    '/api/admin/products/:id/digital-keys/:keyId/revoke',
    {
      config: {
        access: access.admin(perms.UPDATE),
        errors: [...keyProductErrors, digitalKeyErrors.notFound(''), digitalKeyErrors.notAvailable('')],
      },
      schema: {
        tags,
        summary: 'Revoke an available key (409 DIGITAL_KEY_NOT_AVAILABLE when assigned or revoked)',
        params: s.digitalKeyParams,
        response: { 200: envelopeSchema(s.digitalKey) },
      },
    },
    async (request) =>
      ok(
        await keys.revokeDigitalKey(ctx, currentUser(request), request.params.id, request.params.keyId),
        'Digital key revoked',
      ),
  );
}
