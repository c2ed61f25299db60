// In-store (POS) payments: staff record money already taken at the counter (cash, a wallet
// scan, a card slip). There is no provider to ask, so the record is created and completed in
// the caller's transaction, and `payment.completed` is published as for an online payment
// (orders, subscribed in the transaction, makes the order `paid`). A slip reference taken twice on
// the same gateway is refused by the unique index `payments_pos_reference_key`.
import type { Clock } from '../../platform/clock';
import type { Db } from '../../platform/db/database';
import { isUniqueViolation } from '../../platform/db/errors';
import { publishEvent } from '../../platform/events/events';
import { newUuid } from '../../platform/ids';
import { completeIfStatus, insertPayment } from './payments.repository';
import { newGatewayTransactionId } from './payments.service';
import type { PosGateway } from './payments.table';

export interface PosPaymentInput {
  orderId: number;
  orderNumber: string;
  /** Whole NPR, as taken at the counter. */
  amount: number;
  gateway: PosGateway;
  /** The slip, wallet or till reference staff typed (already trimmed), unique per gateway. */
  transactionReference: string;
  adminId: string;
}

export interface RecordedPosPayment {
  paymentId: string;
  transactionReference: string;
}

/** Thrown (inside the caller's transaction, which must roll back) for a reference taken already. */
export class DuplicatePosReference extends Error {
  constructor(
    readonly gateway: PosGateway,
    readonly transactionReference: string,
  ) {
    super('POS payment reference taken already');
  }
}

export async function recordPosPayment(
  deps: { clock: Clock },
  tx: Db,
  input: PosPaymentInput,
): Promise<RecordedPosPayment> {
  const at = deps.clock.now();
  const id = newUuid();
  try {
    await insertPayment(tx, {
      id,
      orderId: input.orderId,
      orderNumber: input.orderNumber,
      method: 'pos',
      gateway: input.gateway,
      provider: 'pos',
      amount: input.amount,
      status: 'pending',
      gatewayTransactionId: newGatewayTransactionId(),
      // Nobody is sent anywhere after a counter payment.
      returnUrl: '',
      providerReference: input.transactionReference,
      providerPayload: { recordedByAdminId: input.adminId },
      createdAt: at,
      updatedAt: at,
    });
  } catch (error) {
    if (isUniqueViolation(error, 'payments_pos_reference_key'))
      throw new DuplicatePosReference(input.gateway, input.transactionReference);
    throw error;
  }
  const row = await completeIfStatus(tx, id, 'pending', {
    providerReference: input.transactionReference,
    providerPayload: { recordedByAdminId: input.adminId },
    at,
  });
  await publishEvent(tx, 'payment.completed', {
    orderId: input.orderId,
    paymentId: row!.id,
    // The counter's own reference is what proves this payment (online: the gateway's id).
    paymentReference: input.transactionReference,
    amount: row!.amount,
    late: false,
  });
  return { paymentId: id, transactionReference: input.transactionReference };
}
