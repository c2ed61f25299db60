import { access } from '../../../platform/auth/access';
import { currentUser } from '../../../platform/http/access-hook';
import { envelopeSchema, listEnvelopeSchema, ok, okWithMeta } from '../../../platform/http/envelope';
import { intIdParams } from '../../../platform/http/params';
import type { ModuleContext } from '../../../platform/module';
import { catalogErrors } from '../catalog.errors';
import { stockErrors } from './stock.errors';
import { EXPIRE_RESERVATIONS_CRON, expireReservationsJob } from './stock.jobs';
import { inventoryPermissions as perms } from './stock.permissions';
import * as s from './stock.schemas';
import * as stock from './stock.service';

export async function registerStock(ctx: ModuleContext) {
  const { app } = ctx;
  const tags = ['inventory'];

  const expire = expireReservationsJob(ctx);
  ctx.jobs.register(expire);
  await ctx.jobs.schedule(expire, EXPIRE_RESERVATIONS_CRON, {});

  app.patch(
    '/api/admin/products/:id/stock',
    {
      config: {
        access: access.admin(perms.UPDATE),
        errors: [catalogErrors.productNotFound(), stockErrors.notPhysical(), stockErrors.belowReserved(0, 0)],
      },
      schema: {
        tags,
        summary:
          'Add or remove units (`delta`) or set the counted stock (`onHand`); never below what is reserved',
        params: intIdParams,
        body: s.adjustStockBody,
        response: { 200: envelopeSchema(s.stockLevel) },
      },
    },
    async (request) =>
      ok(
        await stock.adjustStock(ctx, currentUser(request), request.params.id, request.body),
        'Stock updated',
      ),
  );

  app.get(
    '/api/admin/products/:id/stock/ledger',
    {
      config: {
        access: access.admin(perms.READ),
        errors: [catalogErrors.productNotFound(), stockErrors.notPhysical()],
      },
      schema: {
        tags,
        summary: "Every change to a product's stock, newest first",
        params: intIdParams,
        querystring: s.stockLedgerQuery,
        response: { 200: listEnvelopeSchema(s.stockLedgerEntry) },
      },
    },
    async (request) => {
      const { entries, meta } = await stock.listStockLedger(ctx, request.params.id, request.query);
      return okWithMeta(entries, meta, 'Stock ledger');
    },
  );
}
