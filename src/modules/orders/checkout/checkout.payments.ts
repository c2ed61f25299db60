// How checkout starts an online payment: the payments module's exported steps, handed to
// orders as a dependency (`createOrdersModule`; tests hand in a fake). A provider is never
// called inside a transaction: `open` runs in checkout's reserve transaction, `start` (the
// provider's call) with none open, and `abandon` in the compensating one.
import type { Db } from '../../../platform/db/database';
import { abandonPayment, openPayment, type PaymentsDeps, startPayment } from '../../payments';
import type { OnlineGateway } from './checkout.schemas';

export interface PaymentInitiation {
  paymentId: string;
  gatewayTransactionId: string | null;
  initiationType: 'redirect' | 'form_post' | 'none';
  redirectUrl: string | null;
  gatewayPayload: Record<string, unknown>;
}

export interface PaymentRequest {
  orderId: number;
  orderNumber: string;
  amount: number;
  gateway: OnlineGateway;
  returnUrl: string;
  /** For providers that take it (Khalti `customer_info`). */
  customer?: { name?: string | null; email?: string | null; phone?: string | null };
}

/** A payment written `pending` in the reserve transaction, not yet shown to its provider. */
export interface PendingPayment {
  paymentId: string;
  gatewayTransactionId: string;
  request: PaymentRequest;
}

export interface CheckoutPayments {
  /**
   * In the reserve transaction: the `pending` payment of the new order. Throws an AppError for
   * a return URL, gateway or amount the payment may not have (the order is not kept).
   */
  open(tx: Db, request: PaymentRequest): Promise<PendingPayment>;
  /**
   * With no transaction open: asks the provider how the customer pays and records its answer.
   * Throws (any error) when it refuses or cannot be reached: checkout takes the order back.
   */
  start(payment: PendingPayment): Promise<PaymentInitiation>;
  /** In the compensating transaction: the payment that never started is given up. */
  abandon(tx: Db, payment: PendingPayment): Promise<void>;
}

/** The payments module's steps, as checkout uses them. */
export function checkoutPayments(deps: PaymentsDeps): CheckoutPayments {
  return {
    async open(tx, request) {
      const { paymentId, gatewayTransactionId } = await openPayment(deps, tx, request);
      return { paymentId, gatewayTransactionId, request };
    },
    start: ({ paymentId, gatewayTransactionId, request }) =>
      startPayment(deps, { paymentId, gatewayTransactionId, input: request }),
    abandon: (tx, pending) => abandonPayment(deps, tx, pending),
  };
}
