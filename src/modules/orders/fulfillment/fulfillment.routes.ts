// The back office's fulfilment routes under /api/admin/orders/:id, and the job that applies
// fulfilment-status requests. Registered by the orders module with one call.
import { access } from '../../../platform/auth/access';
import { currentUser } from '../../../platform/http/access-hook';
import { envelopeSchema, ok } from '../../../platform/http/envelope';
import { intIdParams } from '../../../platform/http/params';
import type { ModuleContext } from '../../../platform/module';
import { carePackageSubscriptionPermissions, digitalKeyPermissions } from '../../catalog';
import { orderErrors } from '../orders.errors';
import { orderPermissions } from '../orders.permissions';
import { fulfillmentErrors } from './fulfillment.errors';
import * as s from './fulfillment.schemas';
import * as fulfillment from './fulfillment.service';

export function registerFulfillment(ctx: ModuleContext) {
  const { app } = ctx;
  const deps: fulfillment.FulfillmentServiceDeps = ctx;
  const tags = ['orders (admin)'];
  ctx.jobs.register(fulfillment.fulfillmentStatusJob(deps));

  app.post(
    '/api/admin/orders/:id/fulfillment-status',
    {
      config: {
        access: access.admin(orderPermissions.UPDATE),
        operation: 'setOrderFulfillmentStatus',
        errors: [
          orderErrors.notFound(),
          fulfillmentErrors.invalidTransition(null, ''),
          fulfillmentErrors.closed(''),
        ],
      },
      schema: {
        tags,
        summary:
          'Advance a physical or mixed order one fulfilment step (async: poll the request). A move that is not one step forward: 400 ORDER_FULFILLMENT_INVALID_TRANSITION; a delivered or cancelled order: 409 ORDER_FULFILLMENT_CLOSED',
        params: intIdParams,
        body: s.fulfillmentStatusBody,
        response: { 202: envelopeSchema(s.fulfillmentRequested) },
      },
    },
    async (request, reply) => {
      const view = await fulfillment.requestFulfillmentStatus(
        deps,
        currentUser(request).userId,
        request.params.id,
        request.body,
      );
      return reply.code(202).send(ok(view, 'Fulfilment update requested'));
    },
  );

  app.post(
    '/api/admin/orders/:id/send-digital-delivery',
    {
      config: {
        access: access.admin(digitalKeyPermissions.SEND_DELIVERY),
        operation: 'sendOrderDigitalDelivery',
        errors: [
          orderErrors.notFound(),
          fulfillmentErrors.notDigital(),
          fulfillmentErrors.notPaid(),
          fulfillmentErrors.keysUnavailable(0, 0, 0),
        ],
      },
      schema: {
        tags,
        summary:
          "Assign a paid digital order's keys and email them to the customer (received → key_sent); sending again mails the same keys",
        params: intIdParams,
        response: { 200: envelopeSchema(s.digitalDelivery) },
      },
    },
    async (request) =>
      ok(
        await fulfillment.sendDigitalDelivery(deps, currentUser(request).userId, request.params.id),
        'Digital delivery sent',
      ),
  );

  app.get(
    '/api/admin/orders/:id/digital-keys',
    {
      config: { access: access.admin(orderPermissions.READ), errors: [orderErrors.notFound()] },
      schema: {
        tags,
        summary: "The order's digital lines with the keys sold with each",
        description:
          'Full key values need DigitalKeys_READ as well; without it each key shows only its maskedValue (value null).',
        params: intIdParams,
        response: { 200: envelopeSchema(s.orderItemKeys.array()) },
      },
    },
    async (request) =>
      ok(
        await fulfillment.orderDigitalKeys(
          deps,
          request.params.id,
          currentUser(request).permissions.has(digitalKeyPermissions.READ),
        ),
        'Digital keys',
      ),
  );

  app.post(
    '/api/admin/orders/:id/activate-care-package',
    {
      config: {
        access: access.admin(carePackageSubscriptionPermissions.UPDATE),
        operation: 'activateOrderCarePackage',
        errors: [
          orderErrors.notFound(),
          fulfillmentErrors.carePackageNotApplicable(),
          fulfillmentErrors.closed(''),
          fulfillmentErrors.noPendingSubscriptions(),
        ],
      },
      schema: {
        tags,
        summary: "Activate a care-package order's pending subscriptions (received → activated)",
        params: intIdParams,
        response: { 200: envelopeSchema(s.carePackageActivation) },
      },
    },
    async (request) =>
      ok(
        await fulfillment.activateCarePackage(deps, currentUser(request).userId, request.params.id),
        'Care package activated',
      ),
  );
}
