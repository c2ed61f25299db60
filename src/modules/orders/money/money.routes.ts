// The back office's money lists, read with Orders_READ like the order pages they lead to:
// `GET /api/admin/payments`, `GET /api/admin/payments/late-refunds`, `GET /api/admin/refunds`.
// Acting on a refund stays on the order's routes (process-refund, refunds/:refundId/settle).
import { access } from '../../../platform/auth/access';
import { listEnvelopeSchema, okWithMeta } from '../../../platform/http/envelope';
import type { ModuleContext } from '../../../platform/module';
import { adminPaymentItem, adminPaymentListQuery, listPaymentsForStaff } from '../../payments';
import { orderPermissions } from '../orders.permissions';
import { lateRefundItem, lateRefundQuery, refundQueueItem, refundQueueQuery } from './money.schemas';
import * as money from './money.service';

export function moneyRoutes(ctx: ModuleContext) {
  const { app } = ctx;
  const tags = ['money (admin)'];
  const options = { config: { access: access.admin(orderPermissions.READ) } };

  app.get(
    '/api/admin/payments',
    {
      ...options,
      schema: {
        tags,
        summary:
          'Payments across orders, newest first; filter by gateway, status, overdue (stale), order number or reference, and store-local dates',
        description:
          '`stale` marks an online payment still pending after PAYMENT_RECONCILE_AFTER_SECONDS (reconciliation should have settled it).',
        querystring: adminPaymentListQuery,
        response: { 200: listEnvelopeSchema(adminPaymentItem) },
      },
    },
    async (request) => {
      const { data, meta } = await listPaymentsForStaff(ctx, request.query);
      return okWithMeta(data, meta, 'Payments');
    },
  );

  app.get(
    '/api/admin/payments/late-refunds',
    {
      ...options,
      schema: {
        tags,
        summary:
          'Refunds owed for payments completed after their order was given up (reason late_payment), with those payments',
        querystring: lateRefundQuery,
        response: { 200: listEnvelopeSchema(lateRefundItem) },
      },
    },
    async (request) => {
      const { data, meta } = await money.lateRefunds(ctx, request.query);
      return okWithMeta(data, meta, 'Late-payment refunds');
    },
  );

  app.get(
    '/api/admin/refunds',
    {
      ...options,
      schema: {
        tags,
        summary:
          'Every refund record with its order and customer, newest first; filter by state (to decide, owed, settled, rejected), status or reason',
        description:
          'Decide a requested refund with `POST /api/admin/orders/{id}/process-refund`; record money given back with `POST /api/admin/orders/{id}/refunds/{refundId}/settle`.',
        querystring: refundQueueQuery,
        response: { 200: listEnvelopeSchema(refundQueueItem) },
      },
    },
    async (request) => {
      const { data, meta } = await money.refundQueue(ctx, request.query);
      return okWithMeta(data, meta, 'Refunds');
    },
  );
}
