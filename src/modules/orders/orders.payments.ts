// The seam between orders and the payments module. Orders create the order and ask a
// `PaymentInitiator` (provided by payments) to start an online payment inside the checkout's
// transaction; payments call back `markOrderPaid` / `markOrderPaymentFailed` (orders.service.ts).

import type { Db } from '../../platform/db/database';
import type { ApiApp } from '../../platform/module';
import type { OnlineGateway } from './orders.schemas';

export interface PaymentInitiation {
  paymentId: string;
  gatewayTransactionId: string | null;
  initiationType: 'redirect' | 'form_post' | 'none';
  redirectUrl: string | null;
  gatewayPayload: Record<string, unknown>;
}

export interface PaymentInitiator {
  /**
   * Starts an online payment for a new order, in the checkout's transaction (so a payment row
   * it writes rolls back with the order). Throw (any error) when the provider cannot be reached
   * or refuses: the checkout answers 502 PAYMENT_GATEWAY_UNAVAILABLE and no order is kept. An
   * AppError is passed through as it is (e.g. PAYMENT_AMOUNT_BELOW_GATEWAY_MINIMUM).
   */
  initiate(
    tx: Db,
    p: {
      orderId: number;
      orderNumber: string;
      amount: number;
      gateway: OnlineGateway;
      returnUrl: string;
      /** For providers that take it (Khalti `customer_info`). */
      customer?: { name?: string | null; email?: string | null; phone?: string | null };
    },
  ): Promise<PaymentInitiation>;
}

const initiators = new WeakMap<object, { initiator: PaymentInitiator | null }>();

/** The holder orders read at each checkout; created when orders register in the API scope. */
export function paymentInitiatorHolder(app: ApiApp): { initiator: PaymentInitiator | null } {
  let holder = initiators.get(app);
  if (!holder) {
    holder = { initiator: null };
    initiators.set(app, holder);
  }
  return holder;
}

/** Called by the payments module's `register` (or a test) with the API scope it was handed. */
export function setPaymentInitiator(app: ApiApp, initiator: PaymentInitiator | null): void {
  paymentInitiatorHolder(app).initiator = initiator;
}
