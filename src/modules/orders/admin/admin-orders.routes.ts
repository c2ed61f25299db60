// The back office's order routes, `/api/admin/orders`: list, detail, async requests, cancel,
// refund decisions, notes, serial numbers and COD collection.
import { access } from '../../../platform/auth/access';
import { currentUser } from '../../../platform/http/access-hook';
import {
  envelopeSchema,
  listEnvelopeSchema,
  ok,
  sendSerializedPageText,
} from '../../../platform/http/envelope';
import { intIdParams } from '../../../platform/http/params';
import type { ModuleContext } from '../../../platform/module';
import type { OrderDeps } from '../orders.commands';
import { orderErrors } from '../orders.errors';
import { processRefundJob } from '../orders.jobs';
import { orderPermissions as perms } from '../orders.permissions';
import { asyncRequest, cancelBody, orderItem, requestIdParams } from '../orders.schemas';
import * as s from './admin-orders.schemas';
import * as adminOrders from './admin-orders.service';

export function registerAdminOrders(ctx: ModuleContext, deps: OrderDeps) {
  const { app } = ctx;
  const tags = ['orders (admin)'];
  const base = '/api/admin/orders';
  const read = access.admin(perms.READ);
  const update = access.admin(perms.UPDATE);

  ctx.jobs.register(processRefundJob(deps));

  app.get(
    base,
    {
      config: { access: read },
      schema: {
        tags,
        summary:
          'Every order, newest first by default; filter by status, payment, type or fulfilment; search order number or customer',
        querystring: s.adminOrderListQuery,
        response: { 200: listEnvelopeSchema(s.adminOrderListItem) },
      },
    },
    async (request, reply) =>
      sendSerializedPageText(
        reply,
        'Orders',
        await adminOrders.listAdminOrdersText(deps, request.query),
      ) as never,
  );

  app.get(
    `${base}/requests/:requestId`,
    {
      config: { access: read, operation: 'getOrderRequest', errors: [orderErrors.requestNotFound()] },
      schema: {
        tags,
        summary: "Any async order request (a customer's or an admin's) and how it ended",
        params: requestIdParams,
        response: { 200: envelopeSchema(asyncRequest) },
      },
    },
    async (request) => ok(await adminOrders.getAnyRequest(deps, request.params.requestId), 'Request'),
  );

  app.get(
    `${base}/:id`,
    {
      config: { access: read, errors: [orderErrors.notFound()] },
      schema: {
        tags,
        summary:
          'One order with its customer, items, status and fulfilment history, notes, refunds and the fulfilment actions open now',
        params: intIdParams,
        response: { 200: envelopeSchema(s.adminOrderDetail) },
      },
    },
    async (request) => ok(await adminOrders.getAdminOrder(deps, request.params.id), 'Order'),
  );

  app.post(
    `${base}/:id/cancel`,
    {
      config: { access: update, idempotency: 'optional', errors: [orderErrors.notFound()] },
      schema: {
        tags,
        summary:
          'Cancel (async): before payment, or paid while fulfilment is received or ready (a pending refund is recorded); poll the request',
        params: intIdParams,
        body: cancelBody,
        response: { 202: envelopeSchema(asyncRequest) },
      },
    },
    async (request, reply) => {
      const view = await adminOrders.requestAdminCancel(
        deps,
        currentUser(request),
        request.params.id,
        request.body?.reason,
      );
      return reply.code(202).send(ok(view, 'Cancellation requested'));
    },
  );

  app.post(
    `${base}/:id/refunds/:refundId/settle`,
    {
      config: {
        access: update,
        idempotency: 'optional',
        errors: [orderErrors.notFound(), orderErrors.refundNotFound(), orderErrors.refundNotOwed('')],
      },
      schema: {
        tags,
        summary:
          'Record that a refund owed (pending or approved) was given back by hand: how, a reference, remarks; a repeat answers the same record',
        params: s.refundParams,
        body: s.settleRefundBody,
        response: { 200: envelopeSchema(s.orderRefund) },
      },
    },
    async (request) =>
      ok(
        await adminOrders.settleRefund(deps, currentUser(request), {
          orderId: request.params.id,
          refundId: request.params.refundId,
          body: request.body,
        }),
        'Refund settled',
      ),
  );

  app.post(
    `${base}/:id/process-refund`,
    {
      config: {
        access: update,
        idempotency: 'optional',
        errors: [orderErrors.notFound(), orderErrors.refundNotAllowed('digital_keys_delivered')],
      },
      schema: {
        tags,
        summary:
          'Approve or reject a refund request (async); approving before hand-over stops fulfilment and restocks',
        params: intIdParams,
        body: s.processRefundBody,
        response: { 202: envelopeSchema(asyncRequest) },
      },
    },
    async (request, reply) => {
      const view = await adminOrders.requestProcessRefund(
        deps,
        currentUser(request),
        request.params.id,
        request.body,
      );
      return reply.code(202).send(ok(view, 'Refund decision requested'));
    },
  );

  app.post(
    `${base}/:id/notes`,
    {
      config: { access: update, errors: [orderErrors.notFound()] },
      schema: {
        tags,
        summary: 'Add a staff note to the order (shown in the admin detail only)',
        params: intIdParams,
        body: s.noteBody,
        response: { 201: envelopeSchema(s.adminNote) },
      },
    },
    async (request, reply) => {
      const note = await adminOrders.addNote(
        deps,
        currentUser(request),
        request.params.id,
        request.body.note,
      );
      return reply.code(201).send(ok(note, 'Note added'));
    },
  );

  app.patch(
    `${base}/:id/items/:orderItemId/serial`,
    {
      config: {
        access: update,
        errors: [orderErrors.notFound(), orderErrors.itemNotFound(), orderErrors.itemNotPhysical()],
      },
      schema: {
        tags,
        summary: 'Set the serial number of a physical item of the order',
        params: s.itemParams,
        body: s.serialBody,
        response: { 200: envelopeSchema(orderItem) },
      },
    },
    async (request) =>
      ok(
        await adminOrders.setSerialNumber(
          deps,
          currentUser(request),
          request.params.id,
          request.params.orderItemId,
          request.body.serialNumber,
        ),
        'Serial number saved',
      ),
  );

  app.put(
    `${base}/:id/cod-collect`,
    {
      config: { access: update, errors: [orderErrors.notFound(), orderErrors.notCodPending()] },
      schema: {
        tags,
        summary:
          'Record the cash of a COD order (cod_pending → cod_collected, order paid); a repeat answers the same record',
        params: intIdParams,
        body: s.codCollectBody,
        response: { 200: envelopeSchema(s.codCollection) },
      },
    },
    async (request) =>
      ok(
        await adminOrders.collectCodPayment(
          deps,
          currentUser(request),
          request.params.id,
          request.body.remarks,
        ),
        'Cash on delivery collected',
      ),
  );
}
