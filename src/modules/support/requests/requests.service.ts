// Customer tickets: the customer opens one with a first message and replies; admins assign,
// reply (the customer is notified) and move it through open → in_progress → resolved → closed.
import type { UserPrincipal } from '../../../platform/auth/principal';
import type { Db } from '../../../platform/db/database';
import { type AfterCommit, inTransaction } from '../../../platform/db/transaction';
import { publishEvent } from '../../../platform/events/events';
import { type PageMeta, pageMeta, pageWindow } from '../../../platform/http/pagination';
import { findUserCard } from '../../identity';
import { requestRoom } from '../realtime/support-events';
import { type Desk, deskAssign, deskDetail, deskReply, deskSetStatus } from '../support.desk';
import { requestPermissions } from '../support.permissions';
import { customerNameIn, customerNamesOf, isoOrNull, type SupportDeps } from '../support.service';
import { assertRequestReadable } from './requests.access';
import { requestErrors } from './requests.errors';
import * as repo from './requests.repository';
import type {
  AdminRequest,
  AdminRequestDetail,
  AdminRequestListQuery,
  AdminRequestMessage,
  CreateRequestBody,
  CustomerRequest,
  CustomerRequestDetail,
  CustomerRequestListQuery,
  CustomerRequestMessage,
  RequestStatusBody,
} from './requests.schemas';

const ENTITY = 'support_request';

function common(row: repo.RequestRow) {
  return {
    id: row.id,
    customerId: row.customerId,
    category: row.category,
    subject: row.subject,
    status: row.status,
    resolutionNote: row.resolutionNote,
    resolvedAt: isoOrNull(row.resolvedAt),
    closedAt: isoOrNull(row.closedAt),
    lastCustomerMessageAt: isoOrNull(row.lastCustomerMessageAt),
    lastAdminMessageAt: isoOrNull(row.lastAdminMessageAt),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export const toCustomerRequest = (row: repo.RequestRow): CustomerRequest => ({
  ...common(row),
  isAssigned: row.assignedAdminId !== null,
});
export const toAdminRequest = (row: repo.RequestRow, names: Map<string, string>): AdminRequest => ({
  ...common(row),
  assignedAdminId: row.assignedAdminId,
  customerName: customerNameIn(names, row.customerId),
});

export const toCustomerMessage = (m: repo.RequestMessageRow): CustomerRequestMessage => ({
  id: m.id,
  supportRequestId: m.supportRequestId,
  authorType: m.authorType,
  authorName: m.authorName,
  body: m.body,
  createdAt: m.createdAt.toISOString(),
});
export const toAdminMessage = (m: repo.RequestMessageRow): AdminRequestMessage => ({
  ...toCustomerMessage(m),
  authorCustomerId: m.authorCustomerId,
  authorAdminId: m.authorAdminId,
});

/** Stores ticket messages and publishes each to the ticket's room, inside the write's transaction. */
export async function writeRequestMessages(
  deps: Pick<SupportDeps, 'events'>,
  tx: Db,
  afterCommit: AfterCommit,
  messages: repo.NewRequestMessage[],
): Promise<repo.RequestMessageRow[]> {
  const rows = await repo.insertMessages(tx, messages);
  for (const row of rows) {
    await deps.events.publishMessage(tx, afterCommit, {
      room: requestRoom(row.supportRequestId),
      eventType: 'support.request_message.created',
      forAdmin: toAdminMessage(row),
      forVisitor: toCustomerMessage(row),
    });
  }
  return rows;
}

/** Opens a ticket for `customerId` with `messages` (already authored), in the caller's transaction. */
export async function openRequest(
  deps: Pick<SupportDeps, 'events'>,
  tx: Db,
  afterCommit: AfterCommit,
  input: {
    customerId: string;
    category: repo.RequestRow['category'];
    subject: string;
    at: Date;
    messages: Omit<repo.NewRequestMessage, 'supportRequestId'>[];
  },
): Promise<repo.RequestRow> {
  const last = (type: 'customer' | 'admin') =>
    input.messages
      .filter((m) => m.authorType === type)
      .map((m) => m.createdAt!)
      .reduce<Date | null>((a, b) => (!a || b > a ? b : a), null);
  const request = await repo.insertRequest(tx, {
    customerId: input.customerId,
    category: input.category,
    subject: input.subject,
    status: 'open',
    lastCustomerMessageAt: last('customer'),
    lastAdminMessageAt: last('admin'),
    createdAt: input.at,
    updatedAt: input.at,
  });
  await writeRequestMessages(
    deps,
    tx,
    afterCommit,
    input.messages.map((m) => ({ ...m, supportRequestId: request.id })),
  );
  await publishEvent(tx, 'ticket.created', { ticketId: request.id });
  return request;
}

async function customerDetail(db: Db, row: repo.RequestRow): Promise<CustomerRequestDetail> {
  const messages = await repo.listMessages(db, row.id);
  return { ...toCustomerRequest(row), messages: messages.map(toCustomerMessage) };
}

async function adminDetail(db: Db, row: repo.RequestRow): Promise<AdminRequestDetail> {
  // One after the other: `db` may be a transaction, which runs one query at a time.
  const messages = await repo.listMessages(db, row.id);
  const names = await customerNamesOf(db, [row]);
  return { ...toAdminRequest(row, names), messages: messages.map(toAdminMessage) };
}

async function authorName(db: Db, userId: string, fallback: string): Promise<string> {
  return (await findUserCard(db, userId))?.name ?? fallback;
}

// ----- customer -----

export async function createRequest(
  deps: SupportDeps,
  customer: UserPrincipal,
  body: CreateRequestBody,
): Promise<CustomerRequestDetail> {
  return inTransaction(deps.db, async (tx, afterCommit) => {
    const at = deps.clock.now();
    const request = await openRequest(deps, tx, afterCommit, {
      customerId: customer.userId,
      category: body.category,
      subject: body.subject,
      at,
      messages: [
        {
          authorType: 'customer',
          authorCustomerId: customer.userId,
          authorName: await authorName(tx, customer.userId, 'Customer'),
          body: body.message,
          createdAt: at,
        },
      ],
    });
    // Staff hear of a new ticket at once (their inbox and feed), not at their next look.
    await deps.notifier.notifyAdmins(tx, afterCommit, {
      permission: requestPermissions.READ,
      type: 'support.request.created',
      title: 'New support ticket',
      body: `Ticket #${request.id}: ${request.subject}`,
      data: { requestId: request.id },
    });
    return customerDetail(tx, request);
  });
}

export async function listOwnRequests(
  deps: SupportDeps,
  customer: UserPrincipal,
  query: CustomerRequestListQuery,
): Promise<{ requests: CustomerRequest[]; meta: PageMeta }> {
  const { rows, count } = await repo.listRequests(
    deps.db,
    { customerId: customer.userId, status: query.status },
    { by: query.sort, order: query.order },
    pageWindow(query),
  );
  return { requests: rows.map(toCustomerRequest), meta: pageMeta(query, count) };
}

export async function getOwnRequest(
  deps: SupportDeps,
  customer: UserPrincipal,
  id: number,
): Promise<CustomerRequestDetail> {
  await assertRequestReadable(deps.db, customer, id);
  const row = await repo.findRequest(deps.db, id);
  if (!row) throw requestErrors.notFound();
  return customerDetail(deps.db, row);
}

export async function customerReply(
  deps: SupportDeps,
  customer: UserPrincipal,
  id: number,
  body: string,
): Promise<CustomerRequestDetail> {
  await assertRequestReadable(deps.db, customer, id);
  return inTransaction(deps.db, async (tx, afterCommit) => {
    const at = deps.clock.now();
    const row = await repo.noteCustomerReply(tx, id, at);
    if (!row) throw requestErrors.closed();
    await writeRequestMessages(deps, tx, afterCommit, [
      {
        supportRequestId: id,
        authorType: 'customer',
        authorCustomerId: customer.userId,
        authorName: await authorName(tx, customer.userId, 'Customer'),
        body,
        createdAt: at,
      },
    ]);
    return customerDetail(tx, row);
  });
}

// ----- admin -----

export async function listRequestsForAdmin(
  deps: SupportDeps,
  query: AdminRequestListQuery,
): Promise<{ requests: AdminRequest[]; meta: PageMeta }> {
  const { rows, count } = await repo.listRequests(
    deps.db,
    {
      status: query.status,
      category: query.category,
      customerId: query.customerId,
      assignedAdminId: query.assignedAdminId,
      search: query.search,
    },
    { by: query.sort, order: query.order },
    pageWindow(query),
  );
  const names = await customerNamesOf(deps.db, rows);
  return { requests: rows.map((row) => toAdminRequest(row, names)), meta: pageMeta(query, count) };
}

/** The admin desk's view of tickets (`support.desk.ts`: what inquiries share). */
const requestDesk: Desk<repo.RequestRow, AdminRequestDetail, RequestStatusBody> = {
  entity: ENTITY,
  nameOf: (row) => `support request #${row.id}`,
  notFound: requestErrors.notFound,
  closed: requestErrors.closed,
  find: repo.findRequest,
  lock: repo.lockRequest,
  assign: repo.updateRequest,
  setStatus: repo.setRequestStatus,
  noteAdminReply: repo.noteAdminReply,
  detail: adminDetail,
  async writeReply(deps, tx, afterCommit, { admin, body, at, row }) {
    await writeRequestMessages(deps, tx, afterCommit, [
      {
        supportRequestId: row.id,
        authorType: 'admin',
        authorAdminId: admin.userId,
        authorName: await authorName(tx, admin.userId, 'Support'),
        body,
        createdAt: at,
      },
    ]);
    await deps.notifier.notifyCustomer(tx, afterCommit, {
      customerId: row.customerId,
      type: 'support.request_reply',
      title: 'New reply to your support request',
      body: `${row.subject}: ${body.length > 140 ? `${body.slice(0, 139)}…` : body}`,
      data: { supportRequestId: row.id },
    });
  },
};

export const getRequestForAdmin = (deps: Pick<SupportDeps, 'db'>, id: number): Promise<AdminRequestDetail> =>
  deskDetail(requestDesk, deps, id);

export async function setRequestStatus(
  deps: SupportDeps,
  admin: UserPrincipal,
  id: number,
  body: RequestStatusBody,
): Promise<AdminRequestDetail> {
  if (body.resolutionNote !== undefined && body.status !== 'resolved' && body.status !== 'closed') {
    throw requestErrors.resolutionNoteInvalid();
  }
  return deskSetStatus(requestDesk, deps, { admin, id, change: body });
}

export const assignRequest = (
  deps: SupportDeps,
  admin: UserPrincipal,
  id: number,
  assignedAdminId: string | null,
) => deskAssign(requestDesk, deps, { admin, id, assignedAdminId });

export const adminReply = (deps: SupportDeps, admin: UserPrincipal, id: number, body: string) =>
  deskReply(requestDesk, deps, { admin, id, body });
