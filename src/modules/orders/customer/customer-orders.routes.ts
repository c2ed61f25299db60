// The customer's own orders on both prefixes (/api/orders and /api/mobile/orders): the list,
// one order, the async cancel and its request, and the refund request.
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
import * as s from '../orders.schemas';
import * as orders from './customer-orders.service';

/** A customer's order: unknown, or another customer's. */
const ownOrderErrors = [orderErrors.notFound(), orderErrors.accessDenied()];

export function customerOrderRoutes(ctx: ModuleContext, deps: OrderDeps) {
  const { app } = ctx;
  const tags = ['orders'];
  const customer = access.customer();

  for (const prefix of ['/api/orders', '/api/mobile/orders']) {
    app.get(
      prefix,
      {
        config: { access: customer },
        schema: {
          tags,
          summary: "The customer's orders, newest first by default",
          querystring: s.orderListQuery,
          response: { 200: listEnvelopeSchema(s.orderListItem) },
        },
      },
      async (request, reply) =>
        sendSerializedPageText(
          reply,
          'Orders',
          await orders.listOrdersText(deps, currentUser(request).userId, request.query),
        ) as never,
    );

    app.get(
      `${prefix}/requests/:requestId`,
      {
        config: { access: customer, operation: 'getOrderRequest', errors: [orderErrors.requestNotFound()] },
        schema: {
          tags,
          summary: 'An async order request (cancel) and how it ended',
          params: s.requestIdParams,
          response: { 200: envelopeSchema(s.asyncRequest) },
        },
      },
      async (request) =>
        ok(await orders.getRequest(deps, currentUser(request).userId, request.params.requestId), 'Request'),
    );

    app.get(
      `${prefix}/:id`,
      {
        config: { access: customer, errors: ownOrderErrors },
        schema: {
          tags,
          summary: 'One of the customer’s orders (another customer’s: 403 ORDER_ACCESS_DENIED)',
          params: intIdParams,
          response: { 200: envelopeSchema(s.orderDetail) },
        },
      },
      async (request) =>
        ok(await orders.getOrder(deps, currentUser(request).userId, request.params.id), 'Order'),
    );

    app.post(
      `${prefix}/:id/cancel`,
      {
        config: { access: customer, idempotency: 'optional', errors: ownOrderErrors },
        schema: {
          tags,
          summary: 'Ask to cancel (async): poll the request; it fails with invalid_transition when too late',
          params: intIdParams,
          body: s.cancelBody,
          response: { 202: envelopeSchema(s.asyncRequest) },
        },
      },
      async (request, reply) => {
        const body = request.body ?? {};
        const view = await orders.requestCancel(
          deps,
          currentUser(request).userId,
          request.params.id,
          body.reason,
        );
        return reply.code(202).send(ok(view, 'Cancellation requested'));
      },
    );

    app.post(
      `${prefix}/:id/request-refund`,
      {
        config: {
          access: customer,
          idempotency: 'optional',
          errors: [...ownOrderErrors, orderErrors.refundNotAllowed()],
        },
        schema: {
          tags,
          summary:
            'Ask for a refund of a paid order (before dispatch or within REFUND_WINDOW_DAYS of delivery)',
          params: intIdParams,
          body: s.refundBody,
          response: { 200: envelopeSchema(s.orderDetail) },
        },
      },
      async (request) =>
        ok(
          await orders.requestRefund(deps, currentUser(request).userId, request.params.id, request.body),
          'Refund requested',
        ),
    );
  }
}
