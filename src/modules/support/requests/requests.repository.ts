// Every query of tickets and their messages. Status rules that race (closed tickets refusing
// replies, a reply reopening a resolved ticket) are single conditional UPDATEs.
import { and, asc, eq, ilike, inArray, isNotNull, isNull, lt, ne, or, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../../platform/db/database';
import type { PageWindow } from '../../../platform/http/pagination';
import { contains, pageOf } from '../support.repository';
import { type SUPPORT_REQUEST_STATUSES, supportRequestMessages, supportRequests } from './requests.table';

export type RequestRow = typeof supportRequests.$inferSelect;
export type NewRequest = typeof supportRequests.$inferInsert;
export type RequestMessageRow = typeof supportRequestMessages.$inferSelect;
export type NewRequestMessage = typeof supportRequestMessages.$inferInsert;
export type RequestStatus = (typeof SUPPORT_REQUEST_STATUSES)[number];

export async function findRequestOwner(db: Db, requestId: number) {
  const [row] = await db
    .select({ customerId: supportRequests.customerId })
    .from(supportRequests)
    .where(eq(supportRequests.id, requestId))
    .limit(1);
  return row;
}

export async function findRequest(db: Db, id: number): Promise<RequestRow | undefined> {
  const [row] = await db.select().from(supportRequests).where(eq(supportRequests.id, id));
  return row;
}

export async function lockRequest(db: Db, id: number): Promise<RequestRow | undefined> {
  const [row] = await db.select().from(supportRequests).where(eq(supportRequests.id, id)).for('update');
  return row;
}

export async function insertRequest(db: Db, values: NewRequest): Promise<RequestRow> {
  const [row] = await db.insert(supportRequests).values(values).returning();
  return row!;
}

export async function insertMessages(db: Db, values: NewRequestMessage[]): Promise<RequestMessageRow[]> {
  if (!values.length) return [];
  return db.insert(supportRequestMessages).values(values).returning();
}

export async function listMessages(db: Db, requestId: number): Promise<RequestMessageRow[]> {
  return db
    .select()
    .from(supportRequestMessages)
    .where(eq(supportRequestMessages.supportRequestId, requestId))
    .orderBy(asc(supportRequestMessages.createdAt), asc(supportRequestMessages.id));
}

export interface RequestFilter {
  customerId?: string;
  status?: RequestStatus;
  category?: RequestRow['category'];
  assignedAdminId?: string;
  search?: string;
}

function filterWhere(f: RequestFilter): SQL | undefined {
  return and(
    f.customerId ? eq(supportRequests.customerId, f.customerId) : undefined,
    f.status ? eq(supportRequests.status, f.status) : undefined,
    f.category ? eq(supportRequests.category, f.category) : undefined,
    f.assignedAdminId ? eq(supportRequests.assignedAdminId, f.assignedAdminId) : undefined,
    f.search ? ilike(supportRequests.subject, contains(f.search)) : undefined,
  );
}

export async function listRequests(
  db: Db,
  filter: RequestFilter,
  sort: { by: 'createdAt' | 'updatedAt'; order: 'asc' | 'desc' },
  page: PageWindow,
): Promise<{ rows: RequestRow[]; count: number }> {
  return pageOf(
    db,
    supportRequests,
    {
      where: filterWhere(filter),
      sortColumn: supportRequests[sort.by],
      idColumn: supportRequests.id,
      order: sort.order,
    },
    page,
  );
}

export async function updateRequest(
  db: Db,
  id: number,
  values: Partial<NewRequest>,
): Promise<RequestRow | undefined> {
  const [row] = await db.update(supportRequests).set(values).where(eq(supportRequests.id, id)).returning();
  return row;
}

/**
 * Notes a customer reply on a ticket that is not closed: a resolved ticket reopens (`open`,
 * `resolvedAt` and the resolution note cleared). Undefined when closed.
 */
export async function noteCustomerReply(db: Db, id: number, at: Date): Promise<RequestRow | undefined> {
  const reopening = sql`${supportRequests.status} = 'resolved'`;
  const [row] = await db
    .update(supportRequests)
    .set({
      status: sql`case when ${reopening} then 'open' else ${supportRequests.status} end`,
      resolvedAt: sql`case when ${reopening} then null else ${supportRequests.resolvedAt} end`,
      resolutionNote: sql`case when ${reopening} then null else ${supportRequests.resolutionNote} end`,
      lastCustomerMessageAt: at,
      updatedAt: at,
    })
    .where(and(eq(supportRequests.id, id), ne(supportRequests.status, 'closed')))
    .returning();
  return row;
}

/** Notes an admin reply on a ticket that is not closed; undefined when closed. */
export async function noteAdminReply(db: Db, id: number, at: Date): Promise<RequestRow | undefined> {
  const [row] = await db
    .update(supportRequests)
    .set({ lastAdminMessageAt: at, updatedAt: at })
    .where(and(eq(supportRequests.id, id), ne(supportRequests.status, 'closed')))
    .returning();
  return row;
}

/**
 * Sets a status with its coupled timestamps: `resolvedAt` set on becoming resolved, kept on
 * moving on to closed, cleared on reopening; `closedAt` set exactly while closed. The note is
 * replaced when given, kept from resolved to closed, cleared when the ticket reopens.
 */
export async function setRequestStatus(
  db: Db,
  id: number,
  change: { status: RequestStatus; resolutionNote?: string },
  at: Date,
): Promise<RequestRow | undefined> {
  const { status } = change;
  const wasClosedLike = sql`${supportRequests.status} in ('resolved', 'closed')`;
  const resolvedAt =
    status === 'resolved'
      ? sql`case when ${supportRequests.status} = 'resolved' then ${supportRequests.resolvedAt} else ${at} end`
      : status === 'closed'
        ? sql`${supportRequests.resolvedAt}`
        : null;
  const closedAt =
    status === 'closed'
      ? sql`case when ${supportRequests.status} = 'closed' then ${supportRequests.closedAt} else ${at} end`
      : null;
  const resolutionNote =
    change.resolutionNote !== undefined
      ? change.resolutionNote
      : status === 'resolved' || status === 'closed'
        ? sql`case when ${wasClosedLike} then ${supportRequests.resolutionNote} else null end`
        : null;
  const [row] = await db
    .update(supportRequests)
    .set({ status, resolvedAt, closedAt, resolutionNote, updatedAt: at })
    .where(eq(supportRequests.id, id))
    .returning();
  return row;
}

/**
 * Tickets a customer is waiting on: `open` or `in_progress`, and the customer wrote last (no
 * staff reply yet, or one older than the customer's last message).
 */
export async function countRequestsWaitingForStaff(db: Db): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(supportRequests)
    .where(
      and(
        inArray(supportRequests.status, ['open', 'in_progress']),
        isNotNull(supportRequests.lastCustomerMessageAt),
        or(
          isNull(supportRequests.lastAdminMessageAt),
          lt(supportRequests.lastAdminMessageAt, supportRequests.lastCustomerMessageAt),
        ),
      ),
    );
  return Number(row?.n ?? 0);
}
