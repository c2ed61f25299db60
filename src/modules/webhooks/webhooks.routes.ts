// Webhook routes (`/api/admin/webhooks`, Webhooks_READ / _CREATE / _UPDATE / _DELETE):
// endpoints, the event catalogue, the delivery log, redelivery and a test message.
import { z } from 'zod';
import { access } from '../../platform/auth/access';
import { currentUser } from '../../platform/http/access-hook';
import { envelopeSchema, listEnvelopeSchema, ok, okWithMeta } from '../../platform/http/envelope';
import { uuidIdParams } from '../../platform/http/params';
import type { ApiApp } from '../../platform/module';
import { webhookErrors } from './webhooks.errors';
import { webhookPermissions } from './webhooks.permissions';
import * as s from './webhooks.schemas';
import * as webhooks from './webhooks.service';

export function webhookRoutes(app: ApiApp, deps: webhooks.WebhookDeps) {
  const tags = ['webhooks'];
  const read = access.admin(webhookPermissions.READ);
  const create = access.admin(webhookPermissions.CREATE);
  const update = access.admin(webhookPermissions.UPDATE);
  const remove = access.admin(webhookPermissions.DELETE);
  const base = '/api/admin/webhooks';
  const notFound = webhookErrors.notFound();
  const endpoint = { 200: envelopeSchema(s.webhookEndpoint) };
  const accepted = { 202: envelopeSchema(s.acceptedDelivery) };

  app.get(
    `${base}/event-types`,
    {
      config: { access: read },
      schema: {
        tags,
        summary: 'The event types an endpoint can hear, with what each means',
        response: { 200: envelopeSchema(z.array(s.webhookEventTypeView)) },
      },
    },
    async () => ok(webhooks.listEventTypes(), 'Webhook event types'),
  );

  app.get(
    base,
    {
      config: { access: read },
      schema: {
        tags,
        summary: 'Webhook endpoints with their health (newest first)',
        querystring: s.webhookListQuery,
        response: { 200: listEnvelopeSchema(s.webhookEndpoint) },
      },
    },
    async (request) => {
      const { endpoints, meta } = await webhooks.listEndpoints(deps, request.query);
      return okWithMeta(endpoints, meta, 'Webhook endpoints');
    },
  );

  app.post(
    base,
    {
      config: { access: create, errors: [webhookErrors.urlNotAllowed('')] },
      schema: {
        tags,
        summary: 'Add an endpoint; the answer carries its signing secret, shown only here',
        body: s.createWebhookBody,
        response: { 201: envelopeSchema(s.createdWebhookEndpoint) },
      },
    },
    async (request, reply) => {
      const created = await webhooks.createEndpoint(deps, {
        admin: currentUser(request),
        body: request.body,
      });
      reply.status(201);
      return ok(created, 'Webhook endpoint created');
    },
  );

  app.get(
    `${base}/:id`,
    {
      config: { access: read, errors: [notFound] },
      schema: {
        tags,
        summary: 'One endpoint (without its secret)',
        params: uuidIdParams,
        response: endpoint,
      },
    },
    async (request) => ok(await webhooks.getEndpoint(deps, request.params.id), 'Webhook endpoint'),
  );

  app.patch(
    `${base}/:id`,
    {
      config: { access: update, errors: [notFound, webhookErrors.urlNotAllowed('')] },
      schema: {
        tags,
        summary: 'Change an endpoint; isActive false pauses it, true resumes it',
        params: uuidIdParams,
        body: s.updateWebhookBody,
        response: endpoint,
      },
    },
    async (request) =>
      ok(
        await webhooks.updateEndpoint(deps, {
          admin: currentUser(request),
          id: request.params.id,
          body: request.body,
        }),
        'Webhook endpoint updated',
      ),
  );

  app.delete(
    `${base}/:id`,
    {
      config: { access: remove, errors: [notFound] },
      schema: {
        tags,
        summary: 'Remove an endpoint with its delivery log',
        params: uuidIdParams,
        response: { 200: envelopeSchema(z.null()) },
      },
    },
    async (request) => {
      await webhooks.deleteEndpoint(deps, { admin: currentUser(request), id: request.params.id });
      return ok(null, 'Webhook endpoint removed');
    },
  );

  app.post(
    `${base}/:id/rotate-secret`,
    {
      config: { access: update, errors: [notFound] },
      schema: {
        tags,
        summary: 'A new signing secret; for 24 h messages are signed with the old one too',
        params: uuidIdParams,
        response: { 200: envelopeSchema(s.webhookSecret) },
      },
    },
    async (request) =>
      ok(
        await webhooks.rotateSecret(deps, { admin: currentUser(request), id: request.params.id }),
        'Webhook secret rotated',
      ),
  );

  app.post(
    `${base}/:id/test`,
    {
      config: { access: update, errors: [notFound] },
      schema: {
        tags,
        summary: 'Send a webhook.test message (data: { webhookId }) to this endpoint',
        params: uuidIdParams,
        response: accepted,
      },
    },
    async (request, reply) => {
      const queued = await webhooks.sendTestMessage(deps, { id: request.params.id });
      reply.status(202);
      return ok(queued, 'Test message queued');
    },
  );

  app.get(
    `${base}/:id/deliveries`,
    {
      config: { access: read, errors: [notFound] },
      schema: {
        tags,
        summary: "An endpoint's deliveries, newest first, optionally by status",
        params: uuidIdParams,
        querystring: s.deliveryListQuery,
        response: { 200: listEnvelopeSchema(s.webhookDelivery) },
      },
    },
    async (request) => {
      const { deliveries, meta } = await webhooks.listDeliveries(deps, {
        id: request.params.id,
        q: request.query,
      });
      return okWithMeta(deliveries, meta, 'Webhook deliveries');
    },
  );

  app.get(
    `${base}/:id/deliveries/:deliveryId`,
    {
      config: { access: read, errors: [notFound, webhookErrors.deliveryNotFound()] },
      schema: {
        tags,
        summary: 'One delivery with its payload and every attempt',
        params: s.deliveryParams,
        response: { 200: envelopeSchema(s.webhookDeliveryDetail) },
      },
    },
    async (request) => ok(await webhooks.getDelivery(deps, request.params), 'Webhook delivery'),
  );

  app.post(
    `${base}/:id/deliveries/:deliveryId/redeliver`,
    {
      config: { access: update, errors: [notFound, webhookErrors.deliveryNotFound()] },
      schema: {
        tags,
        summary: 'Deliver the message again (a new delivery, same webhook-id)',
        params: s.deliveryParams,
        response: accepted,
      },
    },
    async (request, reply) => {
      const queued = await webhooks.redeliver(deps, request.params);
      reply.status(202);
      return ok(queued, 'Redelivery queued');
    },
  );
}
