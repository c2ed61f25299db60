// The cart of both surfaces (/api/cart and /api/mobile/cart; care packages and sync on the
// mobile prefix, as the interface lists them), the public guest quote, and the admin's read of
// a customer's cart. The districts list of /cart/location/districts is the catalog's.
import { access } from '../../../platform/auth/access';
import { currentUser } from '../../../platform/http/access-hook';
import { envelopeSchema, ok, sendSerializedText } from '../../../platform/http/envelope';
import { httpErrors } from '../../../platform/http/errors';
import type { ModuleContext } from '../../../platform/module';
import { cartErrors } from '../cart.errors';
import { cartPermissions } from '../cart.permissions';
import { clearAfterOrderJob, EXPIRE_CARTS_CRON, expireCartsJob } from './carts.jobs';
import { guestQuote } from './carts.quote';
import * as s from './carts.schemas';
import * as carts from './carts.service';

/** Every change of a customer's cart counts against CART_CUSTOMER_OPERATION_RATE_LIMIT (carts.service.ts). */
const cartLimit = [httpErrors.rateLimited(1)];
/** What changing a line's quantity can answer (increase, set quantity). */
const lineQuantityChange = [
  ...cartLimit,
  cartErrors.itemNotFound(),
  cartErrors.quantityExceeded(99),
  cartErrors.productNotFound(0),
  cartErrors.insufficientStock(0, 0),
];

export async function registerCarts(ctx: ModuleContext) {
  const { app } = ctx;
  const tags = ['cart'];

  const expire = expireCartsJob(ctx);
  ctx.jobs.register(expire);
  await ctx.jobs.schedule(expire, EXPIRE_CARTS_CRON, {});
  ctx.jobs.register(clearAfterOrderJob(ctx));

  const cartReply = { 200: envelopeSchema(s.cart) };
  const customer = access.customer();

  for (const prefix of ['/api/cart', '/api/mobile/cart']) {
    app.get(
      prefix,
      {
        config: { access: customer },
        schema: {
          tags,
          summary: 'The active cart (an empty one is created on first use)',
          response: cartReply,
        },
      },
      async (request, reply) =>
        sendSerializedText(reply, 'Cart', await carts.getCartText(ctx, currentUser(request).userId)) as never,
    );

    app.post(
      `${prefix}/items`,
      {
        config: {
          access: customer,
          operation: 'addCartItem',
          errors: [
            ...cartLimit,
            cartErrors.quantityExceeded(99),
            cartErrors.productNotFound(0),
            cartErrors.carePackageAlreadyAttached(),
            cartErrors.carePackageInvalid('not_eligible'),
            cartErrors.insufficientStock(0, 0),
          ],
        },
        schema: {
          tags,
          summary: 'Add a product (an existing line gains the quantity); optional care package',
          body: s.addItemBody,
          response: cartReply,
        },
      },
      async (request) =>
        ok(await carts.addItem(ctx, currentUser(request).userId, request.body), 'Item added'),
    );

    app.delete(
      `${prefix}/items/:itemId`,
      {
        config: {
          access: customer,
          operation: 'removeCartItem',
          errors: [...cartLimit, cartErrors.itemNotFound()],
        },
        schema: { tags, summary: 'Remove a line', params: s.itemIdParams, response: cartReply },
      },
      async (request) =>
        ok(await carts.removeItem(ctx, currentUser(request).userId, request.params.itemId), 'Item removed'),
    );

    app.post(
      `${prefix}/items/:itemId/increase`,
      {
        config: {
          access: customer,
          errors: lineQuantityChange,
        },
        schema: { tags, summary: 'Quantity + 1', params: s.itemIdParams, response: cartReply },
      },
      async (request) =>
        ok(
          await carts.increaseItem(ctx, currentUser(request).userId, request.params.itemId),
          'Quantity increased',
        ),
    );

    app.post(
      `${prefix}/items/:itemId/decrease`,
      {
        config: {
          access: customer,
          errors: [...cartLimit, cartErrors.itemNotFound(), cartErrors.insufficientStock(0, 0)],
        },
        schema: {
          tags,
          summary: 'Quantity - 1; a line of 1 is removed',
          params: s.itemIdParams,
          response: cartReply,
        },
      },
      async (request) =>
        ok(
          await carts.decreaseItem(ctx, currentUser(request).userId, request.params.itemId),
          'Quantity decreased',
        ),
    );

    app.put(
      `${prefix}/items/:itemId/quantity`,
      {
        config: {
          access: customer,
          errors: lineQuantityChange,
        },
        schema: {
          tags,
          summary: 'Set the quantity (1 to 99)',
          params: s.itemIdParams,
          body: s.setQuantityBody,
          response: cartReply,
        },
      },
      async (request) =>
        ok(
          await carts.setItemQuantity(
            ctx,
            currentUser(request).userId,
            request.params.itemId,
            request.body.quantity,
          ),
          'Quantity set',
        ),
    );

    app.post(
      `${prefix}/coupon`,
      {
        config: {
          access: customer,
          operation: 'applyCartCoupon',
          errors: [...cartLimit, cartErrors.couponInvalid('not_found')],
        },
        schema: {
          tags,
          summary: 'Apply a coupon; one that does not apply: 400 CART_COUPON_INVALID with `reason`',
          body: s.couponBody,
          response: cartReply,
        },
      },
      async (request) =>
        ok(await carts.applyCoupon(ctx, currentUser(request).userId, request.body.code), 'Coupon applied'),
    );

    app.delete(
      `${prefix}/coupon`,
      {
        config: { access: customer, operation: 'removeCartCoupon', errors: cartLimit },
        schema: { tags, summary: 'Remove the coupon', response: cartReply },
      },
      async (request) => ok(await carts.removeCoupon(ctx, currentUser(request).userId), 'Coupon removed'),
    );

    app.get(
      `${prefix}/location`,
      {
        config: { access: customer },
        schema: {
          tags,
          summary: 'The shipping location with its district fee; an empty object when none is set',
          response: { 200: envelopeSchema(s.locationProjection) },
        },
      },
      async (request) => ok(await carts.getLocation(ctx, currentUser(request).userId), 'Shipping location'),
    );

    app.post(
      `${prefix}/location`,
      {
        config: {
          access: customer,
          operation: 'setCartLocation',
          errors: [...cartLimit, cartErrors.districtInvalid('')],
        },
        schema: {
          tags,
          summary: 'Set the shipping location (the district must be one the store ships to)',
          body: s.setLocationBody,
          response: cartReply,
        },
      },
      async (request) =>
        ok(await carts.setLocation(ctx, currentUser(request).userId, request.body), 'Shipping location set'),
    );

    app.post(
      `${prefix}/location/auto`,
      {
        config: {
          access: customer,
          operation: 'detectCartLocation',
          errors: [...cartLimit, cartErrors.autoLocationDisabled(), cartErrors.autoLocationUnresolved()],
        },
        schema: {
          tags,
          summary:
            '410 CART_LOCATION_AUTO_DISABLED unless CART_AUTO_LOCATE_ENABLED; enabled, adds coordinates to the location set',
          body: s.autoLocationBody,
          response: cartReply,
        },
      },
      async (request) =>
        ok(
          await carts.autoLocation(ctx, currentUser(request).userId, request.body),
          'Shipping location updated',
        ),
    );

    app.delete(
      `${prefix}/location`,
      {
        config: { access: customer, operation: 'clearCartLocation', errors: cartLimit },
        schema: { tags, summary: 'Clear the shipping location', response: cartReply },
      },
      async (request) =>
        ok(await carts.clearLocation(ctx, currentUser(request).userId), 'Shipping location cleared'),
    );

    app.post(
      `${prefix}/guest/quote`,
      {
        config: {
          access: access.public(),
          operation: 'quoteGuestCart',
          errors: [
            cartErrors.quantityExceeded(99),
            cartErrors.productNotFound(0),
            cartErrors.carePackageInvalid('not_eligible'),
            cartErrors.districtInvalid(''),
          ],
        },
        schema: {
          tags,
          summary: 'Price a guest cart (and district); persists and reserves nothing',
          body: s.guestQuoteBody,
          response: { 200: envelopeSchema(s.cartQuote) },
        },
      },
      async (request) => ok(await guestQuote(ctx, request.body), 'Quote'),
    );
  }

  app.post(
    '/api/mobile/cart/items/:cartItemId/care-package',
    {
      config: {
        access: customer,
        operation: 'addCartItemCarePackage',
        errors: [
          ...cartLimit,
          cartErrors.itemNotFound(),
          cartErrors.carePackageAlreadyAttached(),
          cartErrors.carePackageInvalid('not_eligible'),
        ],
      },
      schema: {
        tags,
        summary: 'Attach a care package to a line (one per line)',
        params: s.cartItemIdParams,
        body: s.carePackageChoice,
        response: cartReply,
      },
    },
    async (request) =>
      ok(
        await carts.attachCarePackage(
          ctx,
          currentUser(request).userId,
          request.params.cartItemId,
          request.body,
        ),
        'Care package attached',
      ),
  );

  app.delete(
    '/api/mobile/cart/items/:cartItemId/care-package',
    {
      config: {
        access: customer,
        operation: 'removeCartItemCarePackage',
        errors: [...cartLimit, cartErrors.itemNotFound(), cartErrors.noCarePackage()],
      },
      schema: {
        tags,
        summary: "Detach a line's care package",
        params: s.cartItemIdParams,
        response: cartReply,
      },
    },
    async (request) =>
      ok(
        await carts.detachCarePackage(ctx, currentUser(request).userId, request.params.cartItemId),
        'Care package detached',
      ),
  );

  app.post(
    '/api/mobile/cart/sync',
    {
      config: {
        access: customer,
        errors: [
          ...cartLimit,
          cartErrors.quantityExceeded(99),
          cartErrors.productNotFound(0),
          cartErrors.carePackageInvalid('not_eligible'),
          cartErrors.insufficientStock(0, 0),
        ],
      },
      schema: {
        tags,
        summary: 'Persist a guest cart after login (the larger quantity wins; syncing twice changes nothing)',
        body: s.syncBody,
        response: cartReply,
      },
    },
    async (request) =>
      ok(await carts.syncCart(ctx, currentUser(request).userId, request.body.items), 'Cart synced'),
  );

  for (const path of ['/api/admin/cart/users/:userId', '/api/admin/cart/:userId']) {
    app.get(
      path,
      {
        config: { access: access.admin(cartPermissions.READ), errors: [cartErrors.cartNotFound()] },
        schema: {
          tags,
          summary: 'The active cart of a customer, for support (404 CART_NOT_FOUND when there is none)',
          params: s.userIdParams,
          response: cartReply,
        },
      },
      async (request) => ok(await carts.adminGetCart(ctx, request.params.userId), 'Cart'),
    );
  }
}
