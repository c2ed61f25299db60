// Orders: checkout and buy-now (COD completely; online payments through the `PaymentInitiator`
// the payments module provides), the customer's orders, async cancel, refund requests, the
// unpaid-order sweep, and the back office's order routes (`admin/`). Payments call `markOrderPaid` / `markOrderPaymentFailed` (docs/architecture.md, "orders").
import type { PasalModule } from '../../platform/module';
import { checkPaymentsBeforeCancel, initiatePayment, registerPaymentOutcomeHandlers } from '../payments';
import { registerAdminOrders } from './admin/admin-orders.routes';
import { analyticsRoutes } from './analytics/analytics.routes';
import { registerFulfillment } from './fulfillment/fulfillment.routes';
import { invoiceRoutes } from './invoice/invoice.routes';
import { markOrderPaid, markOrderPaymentFailed } from './orders.commands';
import { autoCancelJob, cancelJob, EXPIRE_UNPAID_CRON, expireUnpaidJob } from './orders.jobs';
import { paymentInitiatorHolder, setPaymentInitiator } from './orders.payments';
import { orderPermissions } from './orders.permissions';
import { orderRoutes } from './orders.routes';
import { reorderRoutes } from './reorder/reorder.routes';

export { loadAdminOrder as adminOrderDetail } from './admin/admin-orders.service';
export { analyticsErrors } from './analytics/analytics.errors';
export { type OrderDashboardView, orderDashboardView } from './analytics/analytics.schemas';
export { orderDashboard } from './analytics/analytics.service';
export { printedOrderDate } from './invoice/invoice.service';
export {
  type ChangeOutcome,
  cancelOrder,
  collectCod,
  markOrderPaid,
  markOrderPaymentFailed,
  type OrderDeps,
} from './orders.commands';
export {
  type DocumentLine,
  type DocumentOrder,
  type OrderDocumentEvent,
  type OrderDocumentHandler,
  onOrderPaidInTransaction,
  onOrderReturnedInTransaction,
} from './orders.documents';
export { orderErrors } from './orders.errors';
export { queueUnpaidOrderCancels } from './orders.jobs';
export { findOrderLink, type OrderLink } from './orders.links';
export { type PaymentInitiation, type PaymentInitiator, setPaymentInitiator } from './orders.payments';
export { orderPermissions } from './orders.permissions';
export * as posSales from './orders.pos';
export { findDeliveredOrderItem, type ReviewableOrderItem } from './orders.reviews';
export { buyerFields } from './orders.schemas';
export { orderTypeOf } from './orders.service';

export const ordersModule: PasalModule = {
  name: 'orders',
  tags: {
    orders: "Checkout and a customer's orders; order analytics and invoices for the back office.",
    'orders (admin)': 'Managing orders in the back office: fulfilment, cancellation, refunds, notes.',
  },
  permissions: [{ module: orderPermissions.module, codes: orderPermissions.codes }],
  async register(ctx) {
    const deps = { ...ctx, payments: paymentInitiatorHolder(ctx.app) };
    // Online checkout goes through the payments module, and a verified (or failed) payment
    // comes back here, inside the transaction that moves the payment out of `pending`.
    setPaymentInitiator(ctx.app, { initiate: (tx, p) => initiatePayment(ctx.app, tx, p) });
    registerPaymentOutcomeHandlers(ctx.app, {
      onCompleted: async (tx, afterCommit, e) => {
        // Online and counter (POS) payments complete through the same event.
        await markOrderPaid(ctx, tx, afterCommit, {
          orderId: e.orderId,
          paymentReference: e.paymentReference,
          amount: e.amount,
        });
      },
      onFailed: async (tx, afterCommit, e) => {
        await markOrderPaymentFailed(ctx, tx, afterCommit, { orderId: e.orderId, reason: e.reason });
      },
    });
    ctx.jobs.register(cancelJob(ctx));
    // The provider is asked once more right before an unpaid order is given up.
    ctx.jobs.register(
      autoCancelJob({ ...ctx, beforeCancel: (orderId) => checkPaymentsBeforeCancel(ctx.app, orderId) }),
    );
    const sweep = expireUnpaidJob(ctx);
    ctx.jobs.register(sweep);
    await ctx.jobs.schedule(sweep, EXPIRE_UNPAID_CRON, {});
    orderRoutes(ctx, deps);
    registerAdminOrders(ctx, deps);
    analyticsRoutes(ctx);
    invoiceRoutes(ctx);
    reorderRoutes(ctx);
    registerFulfillment(ctx);
  },
};
