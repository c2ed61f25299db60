import { z } from 'zod';
import { listQuery } from '../../../platform/http/pagination';
import { adminPaymentItem } from '../../payments';
import { orderCustomer, orderRefund } from '../admin/admin-orders.schemas';
import { ORDER_STATUSES, PAYMENT_METHODS, REFUND_STATUSES } from '../orders.table';

/**
 * Where a refund stands for the shop: `to_decide` (requested by the customer, waiting for the
 * shop's decision), `owed` (pending or approved, the money not given back yet), `settled` (given
 * back), `rejected`.
 */
export const REFUND_STATES = ['to_decide', 'owed', 'settled', 'rejected'] as const;
export type RefundState = (typeof REFUND_STATES)[number];

/** The reason of the refunds a late payment owes (docs/decisions.md, "Real gateways"). */
export const LATE_PAYMENT_REASON = 'late_payment';

export const refundQueueQuery = listQuery(['createdAt'] as const).extend({
  state: z.enum(REFUND_STATES).optional().describe('Where the refund stands (see `state` of an item)'),
  status: z.enum(REFUND_STATUSES).optional().describe("The refund record's own status"),
  reason: z
    .string()
    .trim()
    .min(1)
    .max(100)
    .optional()
    .describe('Exact reason: `admin_cancel`, `late_payment`, or the words a customer gave'),
  search: z
    .string()
    .trim()
    .max(100)
    .optional()
    .describe("Part of the order number, or of the customer's name, email or phone; blank searches nothing"),
});
export type RefundQueueQuery = z.output<typeof refundQueueQuery>;

const refundOrder = {
  orderId: z.number().int(),
  orderNumber: z.string(),
  orderStatus: z.enum(ORDER_STATUSES),
  paymentMethod: z.enum(PAYMENT_METHODS),
  customer: orderCustomer,
};

export const refundQueueItem = orderRefund.extend({
  ...refundOrder,
  state: z.enum(REFUND_STATES),
  updatedAt: z.iso.datetime(),
});
export type RefundQueueItem = z.infer<typeof refundQueueItem>;

export const lateRefundQuery = listQuery(['createdAt'] as const).extend({
  state: z
    .enum(['owed', 'settled'])
    .optional()
    .describe('`owed`: the money not given back yet; `settled`: given back'),
});
export type LateRefundQuery = z.output<typeof lateRefundQuery>;

export const lateRefundItem = refundQueueItem.extend({
  payments: z
    .array(
      adminPaymentItem.pick({
        id: true,
        gateway: true,
        provider: true,
        amount: true,
        reference: true,
        providerReference: true,
        completedAt: true,
      }),
    )
    .describe('The completed online payments of the order: the money that arrived after it was given up'),
});
export type LateRefundItem = z.infer<typeof lateRefundItem>;
