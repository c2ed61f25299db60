// What each webhook event type carries as `data` (docs/decisions.md, "Message"): order events the
// admin order detail under `order`, the others the record's admin shape under its name. Read
// in the publisher's transaction, through the owning module's exported reader, so a message
// shows the change exactly as it commits.
import type { Db } from '../../platform/db/database';
import type { DomainEventName, DomainEvents } from '../../platform/events/events';
import type { ModuleContext } from '../../platform/module';
import { getAdminProduct } from '../catalog';
import { getCustomer } from '../identity';
import { getTaxDocument } from '../invoices';
import { adminOrderDetail } from '../orders';
import { getRepairRequestForAdmin } from '../repairs';
import { getAdminReview } from '../reviews';
import { getInquiryForAdmin, getRequestForAdmin } from '../support';
import type { WebhookEventType } from './webhooks.catalogue';

export type PayloadDeps = Pick<
  ModuleContext,
  | 'clock'
  | 'storage'
  | 'config'
  | 'cache'
  | 'tokens'
  | 'mail'
  | 'sms'
  | 'log'
  | 'permissionCatalog'
  | 'realtime'
>;

/** A domain event made into a webhook message: its type and `data`, or null when it is no message (stock that did not cross the threshold). */
type Translate<N extends DomainEventName> = (
  deps: PayloadDeps,
  tx: Db,
  payload: DomainEvents[N],
) => { type: WebhookEventType; data: () => Promise<Record<string, unknown>> } | null;

const order =
  <N extends DomainEventName>(type: WebhookEventType): Translate<N> =>
  (_deps, tx, payload) => ({
    type,
    data: async () => ({
      order: await adminOrderDetail({ db: tx }, (payload as { orderId: number }).orderId),
    }),
  });

/** Every domain event webhooks listen to, and how each becomes a message. */
export const TRANSLATIONS: { [N in DomainEventName]?: Translate<N> } = {
  'order.created': order('order.created'),
  'order.paid': order('order.paid'),
  'order.payment_failed': order('order.payment_failed'),
  'order.cancelled': order('order.cancelled'),
  'order.refund_requested': order('order.refund_requested'),
  'order.fulfillment_changed': (_deps, tx, p) => ({
    type: 'order.fulfillment_changed',
    data: async () => ({
      order: await adminOrderDetail({ db: tx }, p.orderId),
      previousFulfillmentStatus: p.previousFulfillmentStatus,
    }),
  }),
  'refund.processed': (_deps, tx, p) => ({
    type: 'refund.processed',
    data: async () => {
      const detail = await adminOrderDetail({ db: tx }, p.orderId);
      // The decision just made is the newest processed refund of the order.
      const processed = detail.refunds
        .filter((r) => r.processedAt)
        .sort((a, b) => (b.processedAt ?? '').localeCompare(a.processedAt ?? '') || b.id - a.id)[0];
      return {
        refund: processed ? { ...processed, orderId: p.orderId, orderNumber: detail.orderNumber } : null,
      };
    },
  }),
  'product.stock_changed': (deps, tx, p) => {
    const threshold = deps.config.CATALOG_LOW_STOCK_THRESHOLD;
    if (!(p.availableBefore > threshold && p.availableAfter <= threshold)) return null;
    return {
      type: 'product.stock_low',
      data: async () => ({
        product: await getAdminProduct(
          { db: tx, clock: deps.clock, storage: deps.storage, config: deps.config },
          p.productId,
        ),
        available: p.availableAfter,
        threshold,
      }),
    };
  },
  'invoice.issued': (_deps, tx, p) => ({
    type: 'invoice.issued',
    data: async () => ({ invoice: await getTaxDocument({ db: tx }, 'invoice', p.invoiceId) }),
  }),
  'credit_note.issued': (_deps, tx, p) => ({
    type: 'credit_note.issued',
    data: async () => ({ creditNote: await getTaxDocument({ db: tx }, 'credit_note', p.creditNoteId) }),
  }),
  'inquiry.created': (_deps, tx, p) => ({
    type: 'inquiry.created',
    data: async () => ({ inquiry: await getInquiryForAdmin({ db: tx }, p.inquiryId) }),
  }),
  'ticket.created': (_deps, tx, p) => ({
    type: 'ticket.created',
    data: async () => ({ ticket: await getRequestForAdmin({ db: tx }, p.ticketId) }),
  }),
  'repair.status_changed': (_deps, tx, p) => ({
    type: 'repair.status_changed',
    data: async () => ({
      repairRequest: await getRepairRequestForAdmin({ db: tx }, p.repairRequestId),
      previousStatus: p.previousStatus,
    }),
  }),
  'review.submitted': (deps, tx, p) => ({
    type: 'review.submitted',
    data: async () => ({ review: await getAdminReview({ db: tx, clock: deps.clock }, p.reviewId) }),
  }),
  'customer.registered': (_deps, tx, p) => ({
    type: 'customer.registered',
    data: async () => ({ customer: await getCustomer({ db: tx }, p.customerId) }),
  }),
};

/** The webhook message a published domain event makes, if any (see `TRANSLATIONS`). */
export function webhookMessageOf<N extends DomainEventName>(
  deps: PayloadDeps,
  tx: Db,
  name: N,
  payload: DomainEvents[N],
): ReturnType<Translate<N>> {
  // The map is keyed by name, so the entry found is the one for N.
  const translate = TRANSLATIONS[name] as Translate<N> | undefined;
  return translate ? translate(deps, tx, payload) : null;
}
