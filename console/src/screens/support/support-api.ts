// What the inbox reads and writes, typed from the generated client. Inquiries (chats opened by
// guests or customers) and tickets (support requests of signed-in customers) are two API
// resources; the inbox shows them as one kind of thing, a conversation.
import type { components, PasalClient } from '@pasal/client';

type Schemas = components['schemas'];
export type InquiryRow = Schemas['SupportInquiryAdmin'];
export type InquiryDetail = Schemas['SupportInquiryAdminDetail'];
export type InquiryMessage = Schemas['SupportInquiryMessageAdmin'];
export type TicketRow = Schemas['SupportRequestAdmin'];
export type TicketDetail = Schemas['SupportRequestAdminDetail'];
export type TicketMessage = Schemas['SupportRequestMessageAdmin'];
export type InquiryStatus = InquiryRow['status'];
export type TicketStatus = TicketRow['status'];

export type ConversationKind = 'inquiry' | 'ticket';

export const INQUIRY_STATUSES: readonly InquiryStatus[] = [
  'open',
  'active',
  'waiting',
  'linked',
  'resolved',
  'closed',
  'spam',
];
export const TICKET_STATUSES: readonly TicketStatus[] = ['open', 'in_progress', 'resolved', 'closed'];
/** Every status of either kind, in the order a filter lists them. */
export const ANY_STATUSES = [
  'open',
  'active',
  'waiting',
  'in_progress',
  'linked',
  'resolved',
  'closed',
  'spam',
] as const;
export type AnyStatus = (typeof ANY_STATUSES)[number];

/** One line of the inbox, whichever kind it is. */
export interface InboxItem {
  kind: ConversationKind;
  id: number;
  subject: string;
  status: AnyStatus;
  category: string;
  /** Who wrote in: the account holder's name, or a guest's name or email. */
  customerName: string | null;
  guestName: string | null;
  guestEmail: string | null;
  customerId: string | null;
  trackingCode: string | null;
  assignedAdminId: string | null;
  updatedAt: string;
  /** The visitor wrote last and nobody of the staff has answered since. */
  awaitingStaff: boolean;
}

const later = (a: string | null, b: string | null) => a !== null && (b === null || a > b);

export function inboxItemOfInquiry(row: InquiryRow): InboxItem {
  return {
    kind: 'inquiry',
    id: row.id,
    subject: row.subject,
    status: row.status,
    category: row.category,
    customerName: row.customerName,
    guestName: row.guestName,
    guestEmail: row.guestEmail,
    customerId: row.customerId,
    trackingCode: row.trackingCode,
    assignedAdminId: row.assignedAdminId,
    updatedAt: row.updatedAt,
    awaitingStaff:
      !['closed', 'spam', 'linked'].includes(row.status) &&
      later(row.lastVisitorMessageAt, row.lastAdminMessageAt),
  };
}

export function inboxItemOfTicket(row: TicketRow): InboxItem {
  return {
    kind: 'ticket',
    id: row.id,
    subject: row.subject,
    status: row.status,
    category: row.category,
    customerName: row.customerName,
    guestName: null,
    guestEmail: null,
    customerId: row.customerId,
    trackingCode: null,
    assignedAdminId: row.assignedAdminId,
    updatedAt: row.updatedAt,
    awaitingStaff: row.status !== 'closed' && later(row.lastCustomerMessageAt, row.lastAdminMessageAt),
  };
}

export interface InboxFilters {
  kind: 'all' | 'inquiries' | 'tickets';
  status: AnyStatus | undefined;
  search: string | undefined;
  /** Only conversations assigned to this admin. */
  assignedAdminId: string | undefined;
}

/**
 * The newest `limit` conversations of each kind the admin may read, merged newest first. The
 * API lists the two kinds separately; an inbox is read from the top, so the console takes the
 * top of both lists and offers "show more" rather than page numbers (which could not be exact
 * across two lists). A status only one kind has leaves the other kind out.
 */
export async function fetchInbox(
  client: PasalClient,
  filters: InboxFilters,
  limit: number,
  may: { inquiries: boolean; tickets: boolean },
): Promise<{ items: InboxItem[]; total: number; more: boolean }> {
  const { status, search, assignedAdminId } = filters;
  const wantInquiries =
    may.inquiries &&
    filters.kind !== 'tickets' &&
    (!status || (INQUIRY_STATUSES as string[]).includes(status));
  const wantTickets =
    may.tickets &&
    filters.kind !== 'inquiries' &&
    (!status || (TICKET_STATUSES as string[]).includes(status));
  const common = {
    page: 1,
    size: limit,
    sort: 'updatedAt' as const,
    order: 'desc' as const,
    search,
    assignedAdminId,
  };
  const [inquiries, tickets] = await Promise.all([
    wantInquiries
      ? client.list('/api/admin/support-inquiries', {
          params: { query: { ...common, status: status as InquiryStatus | undefined } },
        })
      : null,
    wantTickets
      ? client.list('/api/admin/support-requests', {
          params: { query: { ...common, status: status as TicketStatus | undefined } },
        })
      : null,
  ]);
  const items = [
    ...(inquiries?.data ?? []).map(inboxItemOfInquiry),
    ...(tickets?.data ?? []).map(inboxItemOfTicket),
  ].sort((a, b) => (a.updatedAt < b.updatedAt ? 1 : a.updatedAt > b.updatedAt ? -1 : 0));
  const total = (inquiries?.meta.count ?? 0) + (tickets?.meta.count ?? 0);
  return { items, total, more: items.length < total };
}

export const roomOf = (kind: ConversationKind, id: number) =>
  kind === 'inquiry' ? `support:inquiry:${id}:messages` : `support:request:${id}:messages`;

/** The realtime names of one kind (docs/decisions.md, "Realtime calls"). */
export const liveNames = {
  inquiry: {
    event: 'support.inquiry_message.created',
    join: 'support:join_inquiry_messages',
    leave: 'support:leave_inquiry_messages',
    sync: 'support:sync_inquiry_messages',
    payload: (id: number) => ({ supportInquiryId: id }),
    parentOf: (data: Record<string, unknown>) => data.supportInquiryId,
  },
  ticket: {
    event: 'support.request_message.created',
    join: 'support:join_request_messages',
    leave: 'support:leave_request_messages',
    sync: 'support:sync_request_messages',
    payload: (id: number) => ({ supportRequestId: id }),
    parentOf: (data: Record<string, unknown>) => data.supportRequestId,
  },
} as const;

export const inboxKey = ['support', 'inbox'] as const;
export const conversationKey = (kind: ConversationKind, id: number) => ['support', kind, id] as const;
