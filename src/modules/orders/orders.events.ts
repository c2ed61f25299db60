// The domain events orders publishes (platform/events), named as the webhook event types are.
// Each is published inside the transaction that makes the change; payloads carry ids, and a
// subscriber reads what it needs in that transaction (the admin detail: `adminOrderDetail`).
export {};

declare module '../../platform/events/events' {
  interface DomainEvents {
    'order.created': { orderId: number };
    /** `paidByAdminId`: the admin who collected the cash or rang up the counter sale; null online. */
    'order.paid': { orderId: number; paidByAdminId: string | null };
    'order.payment_failed': { orderId: number };
    /**
     * `refundDue`: the order was paid, so its money goes back (a return: invoices issues a
     * credit note); `adminId` is the admin who cancelled it, `reason` theirs or the customer's.
     */
    'order.cancelled': { orderId: number; refundDue: boolean; adminId: string | null; reason: string | null };
    'order.fulfillment_changed': { orderId: number; previousFulfillmentStatus: string | null };
    'order.refund_requested': { orderId: number };
    /** An admin approved or rejected the order's refund. */
    'refund.processed': { orderId: number; approved: boolean; adminId: string; reason: string | null };
  }
}
