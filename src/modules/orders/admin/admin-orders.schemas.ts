import { z } from 'zod';
import { listQuery } from '../../../platform/http/pagination';
import { intId } from '../../../platform/http/params';
import { FULFILLMENT_STATUSES, ORDER_TYPES } from '../fulfillment/fulfillment.rules';
import { HISTORY_NOTE_CODES } from '../orders.history-notes';
import { orderDetail, orderListItem } from '../orders.schemas';
import {
  ACTOR_TYPES,
  ORDER_STATUSES,
  PAYMENT_METHODS,
  PAYMENT_STATUSES,
  REFUND_SETTLEMENT_METHODS,
  REFUND_STATUSES,
} from '../orders.table';

const text = (max: number) => z.string().trim().min(1).max(max);

/** Who placed the order, as the back office shows it. */
export const orderCustomer = z.object({
  id: z.uuid(),
  name: z.string(),
  email: z.string(),
  phone: z.string().nullable(),
});

export const adminOrderListItem = orderListItem.extend({ customer: orderCustomer });
export type AdminOrderListItem = z.infer<typeof adminOrderListItem>;

export const adminOrderListQuery = listQuery(['createdAt', 'updatedAt'] as const).extend({
  status: z.enum(ORDER_STATUSES).optional(),
  paymentMethod: z.enum(PAYMENT_METHODS).optional(),
  paymentStatus: z.enum(PAYMENT_STATUSES).optional(),
  orderType: z.enum(ORDER_TYPES).optional(),
  fulfillmentStatus: z.enum(FULFILLMENT_STATUSES).optional(),
  /** Part of the order number, or of the customer's name, email or phone; blank searches nothing. */
  search: z.string().trim().max(100).optional(),
});
export type AdminOrderListQuery = z.output<typeof adminOrderListQuery>;

export const statusHistoryEntry = z.object({
  status: z.enum(ORDER_STATUSES),
  notes: z.string().nullable(),
  noteCode: z
    .enum(HISTORY_NOTE_CODES)
    .nullable()
    .describe(
      'Set when the server wrote the note: its code, for the back office to word in its own language (`notes` holds the English). Null for a note a person typed, and on rows older than the code.',
    ),
  noteParams: z
    .record(z.string(), z.string())
    .nullable()
    .describe("The code's parameters (`reference`, `gateway`, `reason`); null when the code has none."),
  actorType: z.enum(ACTOR_TYPES),
  createdByCustomerId: z.uuid().nullable(),
  createdByAdminId: z.uuid().nullable(),
  /** The name of the customer or admin who made the change; null for the system. */
  createdBy: z.string().nullable(),
  createdAt: z.iso.datetime(),
});

export const fulfillmentHistoryEntry = z.object({
  fromStatus: z.enum(FULFILLMENT_STATUSES),
  toStatus: z.enum(FULFILLMENT_STATUSES),
  remarks: z.string().nullable(),
  remarksCode: z
    .enum(HISTORY_NOTE_CODES)
    .nullable()
    .describe(
      'Set when the server wrote the remarks (`picked_up_in_store`), for the back office to word in its own language; null for remarks an admin typed.',
    ),
  actorType: z.enum(ACTOR_TYPES),
  createdByAdminId: z.uuid().nullable(),
  createdAt: z.iso.datetime(),
});

export const adminNote = z.object({
  id: z.number().int(),
  note: z.string(),
  createdByAdminId: z.uuid(),
  createdBy: z.string().nullable(),
  createdAt: z.iso.datetime(),
});
export type AdminNoteView = z.infer<typeof adminNote>;

export const orderRefund = z.object({
  id: z.number().int(),
  amount: z.number().int(),
  status: z.enum(REFUND_STATUSES),
  reason: z.string(),
  remarks: z.string().nullable(),
  processedByAdminId: z.uuid().nullable(),
  processedAt: z.iso.datetime().nullable(),
  /** Set once the money owed went back (`POST …/refunds/:refundId/settle`); null while owed. */
  settlement: z
    .object({
      method: z.enum(REFUND_SETTLEMENT_METHODS),
      reference: z.string().nullable(),
      remarks: z.string(),
      settledByAdminId: z.uuid().nullable(),
      settledAt: z.iso.datetime(),
    })
    .nullable(),
  createdAt: z.iso.datetime(),
});
export type OrderRefundView = z.infer<typeof orderRefund>;

export const refundParams = z.object({ id: intId, refundId: intId });
export const settleRefundBody = z.object({
  method: z
    .enum(REFUND_SETTLEMENT_METHODS)
    .describe('How the money went back: cash, wallet or bank_transfer'),
  reference: text(255).optional().describe("The wallet's or bank's transaction reference, if any"),
  remarks: text(2000),
});
export type SettleRefundBody = z.output<typeof settleRefundBody>;

/** The answer of `cod-collect`, the same for every repeat. */
export const codCollection = z.object({
  orderId: z.number().int(),
  orderNumber: z.string(),
  orderStatus: z.enum(ORDER_STATUSES),
  paymentStatus: z.enum(PAYMENT_STATUSES),
  amount: z.number().int(),
  collectedAt: z.iso.datetime(),
  collectedByAdminId: z.uuid().nullable(),
  remarks: z.string().nullable(),
});
export type CodCollectionView = z.infer<typeof codCollection>;

export const adminOrderDetail = orderDetail.extend({
  customer: orderCustomer,
  statusHistory: z.array(statusHistoryEntry),
  fulfillmentHistory: z.array(fulfillmentHistoryEntry),
  eligibleFulfillmentActions: z.array(z.enum(['advance', 'send-digital-delivery', 'activate-care-package'])),
  adminNotes: z.array(adminNote),
  refunds: z.array(orderRefund),
  codCollection: codCollection
    .pick({ amount: true, collectedAt: true, collectedByAdminId: true, remarks: true })
    .nullable(),
});
export type AdminOrderDetail = z.infer<typeof adminOrderDetail>;

export const itemParams = z.object({ id: intId, orderItemId: intId });

export const processRefundBody = z.object({
  action: z.enum(['approve', 'reject']),
  remarks: text(2000),
  revokeKeys: z
    .boolean()
    .optional()
    .describe(
      'Approving the refund of an order whose licence keys were delivered: revoke those keys (never sold again). Without it such an approval answers 400 ORDER_REFUND_NOT_ALLOWED with reason digital_keys_delivered.',
    ),
});
export type ProcessRefundBody = z.output<typeof processRefundBody>;

export const noteBody = z.object({ note: text(2000) });
export const serialBody = z.object({ serialNumber: text(100) });
export const codCollectBody = z.object({ remarks: text(2000) });
