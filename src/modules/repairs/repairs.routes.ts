// Repair routes: the customer's (`/api/repair-requests`, by publicId) and the back office's
// (`/api/admin/repair-requests`, by id; RepairRequests_READ / _UPDATE).
import { access } from '../../platform/auth/access';
import { currentUser } from '../../platform/http/access-hook';
import { envelopeSchema, listEnvelopeSchema, ok, okWithMeta } from '../../platform/http/envelope';
import { intIdParams } from '../../platform/http/params';
import type { ApiApp } from '../../platform/module';
import { repairErrors } from './repairs.errors';
import { repairPermissions } from './repairs.permissions';
import * as s from './repairs.schemas';
import * as repairs from './repairs.service';

export function customerRepairRoutes(app: ApiApp, deps: repairs.RepairDeps) {
  const tags = ['repair requests'];
  const customer = access.customer();
  const detail = { 200: envelopeSchema(s.customerRepairDetail) };

  app.post(
    '/api/repair-requests',
    {
      config: {
        access: customer,
        errors: [
          repairErrors.noDevices(),
          repairErrors.brandRequired(0),
          repairErrors.brandConflict(0),
          repairErrors.brandNotFound(0),
          repairErrors.orderNotFound(),
          repairErrors.orderNotOwned(),
          repairErrors.orderItemNotInOrder(0),
          repairErrors.createFailed(),
        ],
      },
      schema: {
        tags,
        summary: 'Book a free repair for one or more devices',
        body: s.createRepairBody,
        response: { 201: envelopeSchema(s.customerRepairDetail) },
      },
    },
    async (request, reply) => {
      const created = await repairs.createRepairRequest(deps, currentUser(request), request.body);
      reply.status(201);
      return ok(created, 'Repair request created');
    },
  );

  app.get(
    '/api/repair-requests',
    {
      config: { access: customer },
      schema: {
        tags,
        summary: "The customer's own repair requests, newest first",
        querystring: s.customerRepairListQuery,
        response: { 200: listEnvelopeSchema(s.customerRepair) },
      },
    },
    async (request) => {
      const { requests, meta } = await repairs.listOwnRepairRequests(
        deps,
        currentUser(request),
        request.query,
      );
      return okWithMeta(requests, meta, 'Repair requests');
    },
  );

  app.get(
    '/api/repair-requests/:publicId',
    {
      config: { access: customer, errors: [repairErrors.notFound(), repairErrors.notOwned()] },
      schema: { tags, summary: 'One own repair request', params: s.publicIdParams, response: detail },
    },
    async (request) =>
      ok(
        await repairs.getOwnRepairRequest(deps, currentUser(request), request.params.publicId),
        'Repair request',
      ),
  );

  app.patch(
    '/api/repair-requests/:publicId/cancel',
    {
      config: {
        access: customer,
        errors: [repairErrors.notFound(), repairErrors.notOwned(), repairErrors.cannotCancel('')],
      },
      schema: {
        tags,
        summary: 'Cancel while still request_received (else 422 REPAIR_REQUEST_CANNOT_CANCEL)',
        params: s.publicIdParams,
        response: detail,
      },
    },
    async (request) =>
      ok(
        await repairs.cancelOwnRepairRequest(deps, currentUser(request), request.params.publicId),
        'Repair request cancelled',
      ),
  );
}

export function adminRepairRoutes(app: ApiApp, deps: repairs.RepairDeps) {
  const tags = ['repair requests (admin)'];
  const read = access.admin(repairPermissions.READ);
  const update = access.admin(repairPermissions.UPDATE);
  const detail = { 200: envelopeSchema(s.adminRepairDetail) };

  app.get(
    '/api/admin/repair-requests',
    {
      config: { access: read },
      schema: {
        tags,
        summary: 'Repair requests with filters; search matches part of the ticket number',
        querystring: s.adminRepairListQuery,
        response: { 200: listEnvelopeSchema(s.adminRepair) },
      },
    },
    async (request) => {
      const { requests, meta } = await repairs.listRepairRequestsForAdmin(deps, request.query);
      return okWithMeta(requests, meta, 'Repair requests');
    },
  );

  app.get(
    '/api/admin/repair-requests/:id',
    {
      config: { access: read, errors: [repairErrors.notFound()] },
      schema: { tags, summary: 'One repair request with its history', params: intIdParams, response: detail },
    },
    async (request) => ok(await repairs.getRepairRequestForAdmin(deps, request.params.id), 'Repair request'),
  );

  app.patch(
    '/api/admin/repair-requests/:id/status',
    {
      config: { access: update, errors: [repairErrors.notFound(), repairErrors.invalidTransition('', '')] },
      schema: {
        tags,
        summary: 'Move to the next status; the customer is notified (in-app and push)',
        params: intIdParams,
        body: s.repairStatusBody,
        response: detail,
      },
    },
    async (request) =>
      ok(
        await repairs.setRepairStatus(deps, currentUser(request), request.params.id, request.body),
        'Repair request status updated',
      ),
  );

  app.patch(
    '/api/admin/repair-requests/:id/collection-method',
    {
      config: { access: update, errors: [repairErrors.notFound(), repairErrors.collectionMethodLocked('')] },
      schema: {
        tags,
        summary: 'Change pickup or dropoff before collection; the customer is notified',
        params: intIdParams,
        body: s.collectionMethodBody,
        response: detail,
      },
    },
    async (request) =>
      ok(
        await repairs.setCollectionMethod(
          deps,
          currentUser(request),
          request.params.id,
          request.body.collectionMethod,
        ),
        'Repair request collection method updated',
      ),
  );

  app.patch(
    '/api/admin/repair-requests/:id/notes',
    {
      config: { access: update, errors: [repairErrors.notFound()] },
      schema: {
        tags,
        summary: 'Replace the internal admin notes',
        params: intIdParams,
        body: s.adminNotesBody,
        response: detail,
      },
    },
    async (request) =>
      ok(
        await repairs.setAdminNotes(deps, currentUser(request), request.params.id, request.body.adminNotes),
        'Repair request notes updated',
      ),
  );
}
