// Orders: checkout and buy-now (COD completely; online payments through the payments module's
// steps, `checkoutPayments`), the customer's orders, async cancel, refund requests, the
// unpaid-order sweep, and the back office's order routes (`admin/`) and money lists (`money/`:
// payments across orders, read through the payments module, and the refunds queue).
// Events (docs/architecture.md, "Modules and their events"): hears `payment.completed` /
// `payment.failed` in the payment's transaction (the order becomes paid or payment_failed);
// publishes the order's events, which invoices, webhooks and others hear.
import type { ModuleContext, PasalModule } from '../../platform/module';
import { checkPaymentsBeforeCancel } from '../payments';
import { registerAdminOrders } from './admin/admin-orders.routes';
import { analyticsRoutes } from './analytics/analytics.routes';
import { type CheckoutPayments, checkoutPayments } from './checkout/checkout.payments';
import { checkoutRoutes } from './checkout/checkout.routes';
import { customerOrderRoutes } from './customer/customer-orders.routes';
import { invoiceRoutes } from './documents/documents.routes';
import { registerFulfillment } from './fulfillment/fulfillment.routes';
import { moneyRoutes } from './money/money.routes';
import { markOrderPaid, markOrderPaymentFailed } from './orders.commands';
import { autoCancelJob, cancelJob, EXPIRE_UNPAID_CRON, expireUnpaidJob } from './orders.jobs';
import { orderPermissions } from './orders.permissions';
import { reorderRoutes } from './reorder/reorder.routes';

export { loadAdminOrder as adminOrderDetail } from './admin/admin-orders.service';
export { analyticsErrors } from './analytics/analytics.errors';
export { type OrderDashboardView, orderDashboardView } from './analytics/analytics.schemas';
export { orderDashboard } from './analytics/analytics.service';
export type {
  CheckoutPayments,
  PaymentInitiation,
  PaymentRequest,
  PendingPayment,
} from './checkout/checkout.payments';
export { buyerFields } from './checkout/checkout.schemas';
export { orderTypeOf } from './checkout/checkout.service';
export * as posSales from './counter-sale/counter-sale.service';
export { printedOrderDate } from './documents/documents.service';
export {
  type DocumentLine,
  type DocumentOrder,
  documentOrderOf,
  type OrderDocumentEvent,
} from './documents/documents.tax';
export {
  type ChangeOutcome,
  cancelOrder,
  collectCod,
  markOrderPaid,
  markOrderPaymentFailed,
  type OrderDeps,
} from './orders.commands';
export { orderErrors } from './orders.errors';
export { queueUnpaidOrderCancels } from './orders.jobs';
export { orderPermissions } from './orders.permissions';
// What other modules read of an order: repairs link a request to it, reviews check an item.
export {
  findDeliveredOrderItem,
  findOrderLink,
  type OrderLink,
  type ReviewableOrderItem,
} from './orders.repository';

export interface OrdersModuleOptions {
  /** How checkout starts online payments; the payments module's steps unless given (tests). */
  payments?: (ctx: ModuleContext) => CheckoutPayments;
}

export function createOrdersModule(options: OrdersModuleOptions = {}): PasalModule {
  return {
    name: 'orders',
    tags: {
      orders: "Checkout and a customer's orders; order analytics and invoices for the back office.",
      'orders (admin)': 'Managing orders in the back office: fulfilment, cancellation, refunds, notes.',
      'money (admin)':
        "The back office's money lists: payments across orders, the refunds queue, refunds owed for late payments.",
    },
    permissions: [{ module: orderPermissions.module, codes: orderPermissions.codes }],
    events: {
      publishes: [
        'order.created',
        'order.paid',
        'order.payment_failed',
        'order.cancelled',
        'order.fulfillment_changed',
        'order.refund_requested',
        'refund.processed',
      ],
      subscribes: ['payment.completed', 'payment.failed'],
    },
    async register(ctx) {
      const deps = { ...ctx, payments: options.payments?.(ctx) ?? checkoutPayments(ctx) };
      // A verified (or failed) payment, online or at the counter, moves the order inside the
      // transaction that moves the payment out of `pending`.
      ctx.events.inTransaction('payment.completed', async (tx, e, { afterCommit }) => {
        await markOrderPaid(ctx, tx, afterCommit, {
          orderId: e.orderId,
          paymentReference: e.paymentReference,
          amount: e.amount,
        });
      });
      ctx.events.inTransaction('payment.failed', async (tx, e, { afterCommit }) => {
        await markOrderPaymentFailed(ctx, tx, afterCommit, { orderId: e.orderId, reason: e.reason });
      });
      ctx.jobs.register(cancelJob(ctx));
      // The provider is asked once more right before an unpaid order is given up.
      ctx.jobs.register(
        autoCancelJob({ ...ctx, beforeCancel: (orderId) => checkPaymentsBeforeCancel(ctx, orderId) }),
      );
      const sweep = expireUnpaidJob(ctx);
      ctx.jobs.register(sweep);
      await ctx.jobs.schedule(sweep, EXPIRE_UNPAID_CRON, {});
      checkoutRoutes(ctx, deps);
      customerOrderRoutes(ctx, deps);
      registerAdminOrders(ctx, deps);
      analyticsRoutes(ctx);
      moneyRoutes(ctx);
      invoiceRoutes(ctx);
      reorderRoutes(ctx);
      registerFulfillment(ctx);
    },
  };
}

export const ordersModule: PasalModule = createOrdersModule();
