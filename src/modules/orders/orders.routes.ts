// The customer's order routes on both prefixes (/api/orders and /api/mobile/orders).
import { access } from '../../platform/auth/access';
import { currentUser } from '../../platform/http/access-hook';
import { envelopeSchema, listEnvelopeSchema, ok, okWithMeta } from '../../platform/http/envelope';
import { intIdParams } from '../../platform/http/params';
import type { ModuleContext } from '../../platform/module';
import { cartErrors } from '../cart';
import { paymentErrors } from '../payments';
import { orderErrors } from './orders.errors';
import * as s from './orders.schemas';
import * as orders from './orders.service';

/**
 * What placing an order can be refused for, checkout and buy-now alike: the return URL, COD's
 * verified phone, the cart's district, stock, the coupon (used up by the time the order claims
 * it, or buy-now's promoCode), the customer's unpaid online orders, and the payment gateway
 * (its minimum, its answer).
 */
const placeOrderErrors = [
  orderErrors.returnUrlNotAllowed(),
  orderErrors.phoneVerificationRequired(),
  orderErrors.shippingDistrictRequired(),
  cartErrors.districtInvalid(''),
  cartErrors.insufficientStock(0, 0),
  cartErrors.couponInvalid('usage_limit_reached'),
  orderErrors.tooManyPendingPayments(0),
  orderErrors.gatewayUnavailable(),
  paymentErrors.amountBelowMinimum('', 0),
];

/** A customer's order: unknown, or another customer's. */
const ownOrderErrors = [orderErrors.notFound(), orderErrors.accessDenied()];

export function orderRoutes(ctx: ModuleContext, deps: orders.OrdersServiceDeps) {
  const { app } = ctx;
  const tags = ['orders'];
  const customer = access.customer();

  for (const prefix of ['/api/orders', '/api/mobile/orders']) {
    app.post(
      `${prefix}/checkout`,
      {
        config: {
          access: customer,
          idempotency: 'optional',
          operation: 'checkout',
          errors: [
            ...placeOrderErrors,
            orderErrors.cartEmpty(),
            orderErrors.productNotAvailable(0),
            cartErrors.pricesChanged([]),
          ],
        },
        schema: {
          tags,
          summary: 'Turn the active cart into an order and start its payment (COD: confirmed at once)',
          body: s.checkoutBody,
          response: { 200: envelopeSchema(s.paymentInit) },
        },
      },
      async (request) =>
        ok(await orders.checkout(deps, currentUser(request).userId, request.body), 'Order created'),
    );

    app.post(
      `${prefix}/buy-now`,
      {
        config: {
          access: customer,
          idempotency: 'optional',
          operation: 'buyNow',
          // One unit of one product, without a care package: the quote's own checks.
          errors: [...placeOrderErrors, cartErrors.productNotFound(0)],
        },
        schema: {
          tags,
          summary: 'Order one unit of one product, shipped to the cart location; the cart is untouched',
          body: s.buyNowBody,
          response: { 200: envelopeSchema(s.paymentInit) },
        },
      },
      async (request) =>
        ok(await orders.buyNow(deps, currentUser(request).userId, request.body), 'Order created'),
    );

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
      async (request) => {
        const { data, meta } = await orders.listOrders(deps, currentUser(request).userId, request.query);
        return okWithMeta(data, meta, 'Orders');
      },
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
