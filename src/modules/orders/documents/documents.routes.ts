// The back office's invoice download (Orders_READ).
import { access } from '../../../platform/auth/access';
import { intIdParams } from '../../../platform/http/params';
import type { ModuleContext } from '../../../platform/module';
import { orderErrors } from '../orders.errors';
import { orderPermissions } from '../orders.permissions';
import { invoicePdfResponse } from './documents.schemas';
import { orderInvoice } from './documents.service';

export function invoiceRoutes(ctx: ModuleContext) {
  ctx.app.get(
    '/api/admin/orders/:id/invoice-download',
    {
      config: {
        access: access.admin(orderPermissions.READ),
        operation: 'downloadOrderInvoice',
        errors: [orderErrors.notFound()],
      },
      schema: {
        tags: ['orders'],
        summary: 'The order’s invoice as a PDF download (unknown order: 404 ORDER_NOT_FOUND)',
        params: intIdParams,
        response: { 200: invoicePdfResponse },
      },
    },
    async (request, reply) => {
      const { fileName, pdf } = await orderInvoice(ctx, request.params.id);
      return (
        reply
          .type('application/pdf')
          .header('content-disposition', `attachment; filename="${fileName}"`)
          // It names the customer and their address: no shared cache may keep it.
          .header('cache-control', 'private, no-store')
          .send(pdf)
      );
    },
  );
}
