// Placing an order on both prefixes (/api/orders and /api/mobile/orders): checkout and buy-now.
import { access } from '../../../platform/auth/access';
import { currentUser } from '../../../platform/http/access-hook';
import { envelopeSchema, ok } from '../../../platform/http/envelope';
import type { ModuleContext } from '../../../platform/module';
import { cartErrors } from '../../cart';
import { paymentErrors } from '../../payments';
import { orderErrors } from '../orders.errors';
import * as s from './checkout.schemas';
import * as checkout from './checkout.service';

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

export function checkoutRoutes(ctx: ModuleContext, deps: checkout.CheckoutDeps) {
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
        ok(await checkout.checkout(deps, currentUser(request).userId, request.body), 'Order created'),
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
        ok(await checkout.buyNow(deps, currentUser(request).userId, request.body), 'Order created'),
    );
  }
}
