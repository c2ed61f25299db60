// The event catalogue (docs/decisions.md, "Event types"): each webhook event type, what it means, the
// console's group for it, and the domain event it is made from. A message's `data` is read
// inside the transaction that made the change (the outbox), so it shows the change exactly as
// committed, and a rolled-back change makes no message.
export const WEBHOOK_EVENT_TYPES = [
  'order.created',
  'order.paid',
  'order.payment_failed',
  'order.cancelled',
  'order.fulfillment_changed',
  'order.refund_requested',
  'refund.processed',
  'product.stock_low',
  'invoice.issued',
  'credit_note.issued',
  'inquiry.created',
  'ticket.created',
  'repair.status_changed',
  'review.submitted',
  'customer.registered',
  'webhook.test',
] as const;

export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

export type WebhookEventArea =
  | 'orders'
  | 'catalog'
  | 'invoices'
  | 'support'
  | 'repairs'
  | 'reviews'
  | 'customers'
  | 'webhooks';

export const WEBHOOK_EVENT_INFO: Record<WebhookEventType, { area: WebhookEventArea; description: string }> = {
  'order.created': {
    area: 'orders',
    description: 'An order was placed (checkout, buy-now or the POS counter).',
  },
  'order.paid': {
    area: 'orders',
    description: 'An order was paid (online payment verified, POS payment or COD cash collected).',
  },
  'order.payment_failed': { area: 'orders', description: "An online order's payment failed or expired." },
  'order.cancelled': {
    area: 'orders',
    description: 'An order was cancelled by the customer, an admin or the unpaid-order sweep.',
  },
  'order.fulfillment_changed': {
    area: 'orders',
    description: "An order's fulfilment status moved (data carries previousFulfillmentStatus).",
  },
  'order.refund_requested': { area: 'orders', description: 'A customer asked for a refund of a paid order.' },
  'refund.processed': { area: 'orders', description: 'An admin approved or rejected a refund.' },
  'product.stock_low': {
    area: 'catalog',
    description: "A product's available units fell to or below CATALOG_LOW_STOCK_THRESHOLD.",
  },
  'invoice.issued': { area: 'invoices', description: 'A tax invoice was issued.' },
  'credit_note.issued': { area: 'invoices', description: 'A credit note was issued.' },
  'inquiry.created': { area: 'support', description: 'A support inquiry (chat) was opened.' },
  'ticket.created': { area: 'support', description: 'A support ticket was opened.' },
  'repair.status_changed': { area: 'repairs', description: "A repair request's status changed." },
  'review.submitted': {
    area: 'reviews',
    description: 'A customer submitted a product review (pending moderation).',
  },
  'customer.registered': {
    area: 'customers',
    description: 'A customer account was made (registration, sign-in with a provider, or at the counter).',
  },
  'webhook.test': {
    area: 'webhooks',
    description: 'A test message sent from the back office (data: { webhookId }).',
  },
};
