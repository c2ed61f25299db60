// Ticket routes: the customer's (mobile) and the back office's (SupportRequests_READ / _UPDATE).
import { access } from '../../../platform/auth/access';
import { currentUser } from '../../../platform/http/access-hook';
import { envelopeSchema, listEnvelopeSchema, ok, okWithMeta } from '../../../platform/http/envelope';
import { intIdParams } from '../../../platform/http/params';
import type { ApiApp } from '../../../platform/module';
import { requestPermissions } from '../support.permissions';
import { assignBody, messageBody } from '../support.schemas';
import type { SupportDeps } from '../support.service';
import { requestErrors } from './requests.errors';
import * as s from './requests.schemas';
import * as requests from './requests.service';

export function requestRoutes(app: ApiApp, deps: SupportDeps) {
  const tags = ['support requests'];
  const customer = access.customer();

  app.post(
    '/api/mobile/support-requests',
    {
      config: { access: customer },
      schema: {
        tags,
        summary: 'Open a ticket with its first message',
        body: s.createRequestBody,
        response: { 201: envelopeSchema(s.customerRequestDetail) },
      },
    },
    async (request, reply) => {
      const ticket = await requests.createRequest(deps, currentUser(request), request.body);
      reply.status(201);
      return ok(ticket, 'Support request created');
    },
  );

  app.get(
    '/api/mobile/support-requests',
    {
      config: { access: customer },
      schema: {
        tags,
        summary: "The customer's own tickets",
        querystring: s.customerRequestListQuery,
        response: { 200: listEnvelopeSchema(s.customerRequest) },
      },
    },
    async (request) => {
      const { requests: list, meta } = await requests.listOwnRequests(
        deps,
        currentUser(request),
        request.query,
      );
      return okWithMeta(list, meta, 'Support requests');
    },
  );

  app.get(
    '/api/mobile/support-requests/:id',
    {
      config: { access: customer, errors: [requestErrors.notFound()] },
      schema: {
        tags,
        summary: 'One own ticket with its messages',
        params: intIdParams,
        response: { 200: envelopeSchema(s.customerRequestDetail) },
      },
    },
    async (request) =>
      ok(await requests.getOwnRequest(deps, currentUser(request), request.params.id), 'Support request'),
  );

  app.post(
    '/api/mobile/support-requests/:id/messages',
    {
      config: { access: customer, errors: [requestErrors.notFound(), requestErrors.closed()] },
      schema: {
        tags,
        summary: 'Reply; a resolved ticket reopens, a closed one refuses',
        params: intIdParams,
        body: messageBody,
        response: { 201: envelopeSchema(s.customerRequestDetail) },
      },
    },
    async (request, reply) => {
      const ticket = await requests.customerReply(
        deps,
        currentUser(request),
        request.params.id,
        request.body.body,
      );
      reply.status(201);
      return ok(ticket, 'Message sent');
    },
  );
}

export function adminRequestRoutes(app: ApiApp, deps: SupportDeps) {
  const tags = ['support requests (admin)'];
  const read = access.admin(requestPermissions.READ);
  const update = access.admin(requestPermissions.UPDATE);
  const detail = { 200: envelopeSchema(s.adminRequestDetail) };

  app.get(
    '/api/admin/support-requests',
    {
      config: { access: read },
      schema: {
        tags,
        summary: 'Tickets with filters; search matches the subject',
        querystring: s.adminRequestListQuery,
        response: { 200: listEnvelopeSchema(s.adminRequest) },
      },
    },
    async (request) => {
      const { requests: list, meta } = await requests.listRequestsForAdmin(deps, request.query);
      return okWithMeta(list, meta, 'Support requests');
    },
  );

  app.get(
    '/api/admin/support-requests/:id',
    {
      config: { access: read, errors: [requestErrors.notFound()] },
      schema: { tags, summary: 'One ticket with its messages', params: intIdParams, response: detail },
    },
    async (request) => ok(await requests.getRequestForAdmin(deps, request.params.id), 'Support request'),
  );

  app.patch(
    '/api/admin/support-requests/:id/status',
    {
      config: { access: update, errors: [requestErrors.notFound(), requestErrors.resolutionNoteInvalid()] },
      schema: {
        tags,
        summary: 'Set the status; a resolution note only with resolved or closed',
        params: intIdParams,
        body: s.requestStatusBody,
        response: detail,
      },
    },
    async (request) =>
      ok(
        await requests.setRequestStatus(deps, currentUser(request), request.params.id, request.body),
        'Support request status updated',
      ),
  );

  app.patch(
    '/api/admin/support-requests/:id/assign',
    {
      config: { access: update, errors: [requestErrors.notFound()] },
      schema: {
        tags,
        summary: 'Assign to an admin, or unassign with null',
        params: intIdParams,
        body: assignBody,
        response: detail,
      },
    },
    async (request) =>
      ok(
        await requests.assignRequest(
          deps,
          currentUser(request),
          request.params.id,
          request.body.assignedAdminId,
        ),
        'Support request assigned',
      ),
  );

  app.post(
    '/api/admin/support-requests/:id/messages',
    {
      config: { access: update, errors: [requestErrors.notFound(), requestErrors.closed()] },
      schema: {
        tags,
        summary: 'Reply (refused when closed); the customer is notified',
        params: intIdParams,
        body: messageBody,
        response: { 201: envelopeSchema(s.adminRequestDetail) },
      },
    },
    async (request, reply) => {
      const ticket = await requests.adminReply(
        deps,
        currentUser(request),
        request.params.id,
        request.body.body,
      );
      reply.status(201);
      return ok(ticket, 'Reply sent');
    },
  );
}
