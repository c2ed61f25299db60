// The domain events orders publishes (platform/events), named as the webhook event types are.
// Each is published inside the transaction that makes the change; payloads carry ids, and a
// subscriber reads what it needs in that transaction (the admin detail: `adminOrderDetail`).
export {};

declare module '../../platform/events/events' {
  interface DomainEvents {
    'order.created': { orderId: number };
    'order.paid': { orderId: number };
    'order.payment_failed': { orderId: number };
    'order.cancelled': { orderId: number };
    'order.fulfillment_changed': { orderId: number; previousFulfillmentStatus: string | null };
    'order.refund_requested': { orderId: number };
    /** An admin approved or rejected the order's refund. */
    'refund.processed': { orderId: number };
  }
}
