// Reorder on both customer prefixes (/api/orders and /api/mobile/orders).
import { access } from '../../../platform/auth/access';
import { currentUser } from '../../../platform/http/access-hook';
import { envelopeSchema, ok } from '../../../platform/http/envelope';
import { httpErrors } from '../../../platform/http/errors';
import type { ModuleContext } from '../../../platform/module';
import { cartErrors } from '../../cart';
import { orderErrors } from '../orders.errors';
import { reorderErrors } from './reorder.errors';
import * as s from './reorder.schemas';
import { reorder } from './reorder.service';

/** A customer permission: the built-in `customer` role holds it by default (identity.permissions.ts). */
const REORDER_PERMISSION = 'ORDERS_REORDER';

export function reorderRoutes(ctx: ModuleContext) {
  for (const prefix of ['/api/orders', '/api/mobile/orders']) {
    ctx.app.post(
      `${prefix}/:orderId/reorder`,
      {
        config: {
          access: access.customer(REORDER_PERMISSION),
          errors: [
            orderErrors.notFound(),
            orderErrors.accessDenied(),
            reorderErrors.notDelivered(),
            reorderErrors.productNotInOrder(0),
            reorderErrors.digitalOnly(),
            cartErrors.quantityExceeded(99),
            cartErrors.insufficientStock(0, 0),
            httpErrors.rateLimited(1),
          ],
        },
        schema: {
          tags: ['orders'],
          summary:
            'Put the physical products of a delivered order back in the cart (added to what the cart holds); on an error, refetch the cart',
          params: s.reorderParams,
          body: s.reorderBody,
          response: { 200: envelopeSchema(s.reorderView) },
        },
      },
      async (request) =>
        ok(
          await reorder(ctx, currentUser(request).userId, request.params.orderId, request.body),
          'Items added to the cart',
        ),
    );
  }
}
