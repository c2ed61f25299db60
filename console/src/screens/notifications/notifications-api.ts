// The admin's own feed (docs/decisions.md, "Admin notifications"), with its types from the client:
//   GET   /api/admin/notifications              newest first, `meta.unreadCount` whatever the page
//   PATCH /api/admin/notifications/{id}/read    one read (again: unchanged)
//   POST  /api/admin/notifications/read-all     every one read
import type { PasalClient, paths } from '@pasal/client';

type Data<Answer> = Answer extends { content: { 'application/json': { data: infer D } } } ? D : never;

export type StaffNotification = Data<paths['/api/admin/notifications']['get']['responses'][200]>[number];

/** How many of the newest the bell shows. */
export const FEED_SIZE = 20;

export const feedKey = ['notifications', 'feed'] as const;

export async function fetchFeed(client: PasalClient) {
  const answer = await client.list('/api/admin/notifications', {
    params: { query: { page: 1, size: FEED_SIZE } },
  });
  return { items: answer.data, unread: answer.meta.unreadCount, count: answer.meta.count };
}

export function markRead(client: PasalClient, id: string) {
  return client.patch('/api/admin/notifications/{id}/read', { params: { path: { id } } });
}

export function markAllRead(client: PasalClient) {
  return client.post('/api/admin/notifications/read-all');
}

/**
 * Where a notification leads in the console, from its type and `data` (the ids the API puts
 * there); null when no screen shows it.
 */
export function targetOf(n: Pick<StaffNotification, 'type' | 'data'>): string | null {
  const id = (key: string) => {
    const value = n.data[key];
    return typeof value === 'number' || typeof value === 'string' ? String(value) : null;
  };
  switch (n.type) {
    case 'support.inquiry.created':
      return id('inquiryId') && `/support/inquiries/${id('inquiryId')}`;
    case 'support.request.created':
      return id('requestId') && `/support/tickets/${id('requestId')}`;
    case 'order.late_payment':
    case 'order.digital_keys_short':
      return id('orderId') && `/orders/${id('orderId')}`;
    case 'CBMS_CREDENTIALS_REJECTED': {
      const kind = n.data.documentType === 'credit_note' ? 'credit-notes' : 'invoices';
      return id('documentId') && `/tax/${kind}/${id('documentId')}`;
    }
    case 'webhook.disabled':
      return id('webhookId') && `/settings/webhooks/${id('webhookId')}`;
    default:
      return null;
  }
}
