// Every query of support inquiries, their messages, guest tokens and email codes. State rules
// that race (closed inquiries refusing messages, single-use codes) are conditional UPDATEs.
import { and, asc, eq, gt, ilike, inArray, isNull, lt, notInArray, or, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../../platform/db/database';
import type { PageWindow } from '../../../platform/http/pagination';
import { contains, pageOf } from '../support.repository';
import {
  type INQUIRY_STATUSES,
  supportInquiries,
  supportInquiryAccessTokens,
  supportInquiryEmailCodes,
  supportInquiryMessages,
} from './inquiries.table';

export type InquiryRow = typeof supportInquiries.$inferSelect;
export type NewInquiry = typeof supportInquiries.$inferInsert;
export type InquiryMessageRow = typeof supportInquiryMessages.$inferSelect;
export type NewInquiryMessage = typeof supportInquiryMessages.$inferInsert;
export type InquiryStatus = (typeof INQUIRY_STATUSES)[number];

/** Statuses that refuse messages. */
export const CLOSED_STATUSES: InquiryStatus[] = ['closed', 'spam'];
/** Statuses of a conversation still going on (not resolved, closed, spam or moved to a ticket). */
export const IN_CONVERSATION_STATUSES: InquiryStatus[] = ['open', 'active', 'waiting'];
/** Statuses the inactivity sweep closes. */
export const SWEEPABLE_STATUSES: InquiryStatus[] = [...IN_CONVERSATION_STATUSES, 'resolved'];

export async function findInquiryOwner(db: Db, inquiryId: number) {
  const [row] = await db
    .select({ customerId: supportInquiries.customerId })
    .from(supportInquiries)
    .where(eq(supportInquiries.id, inquiryId))
    .limit(1);
  return row;
}

export async function findLiveAccessToken(db: Db, tokenDigest: string, now: Date) {
  const [row] = await db
    .select({
      id: supportInquiryAccessTokens.id,
      inquiryId: supportInquiryAccessTokens.supportInquiryId,
      expiresAt: supportInquiryAccessTokens.expiresAt,
    })
    .from(supportInquiryAccessTokens)
    .where(
      and(
        eq(supportInquiryAccessTokens.tokenDigest, tokenDigest),
        isNull(supportInquiryAccessTokens.revokedAt),
        gt(supportInquiryAccessTokens.expiresAt, now),
      ),
    )
    .limit(1);
  return row;
}

/** Inserts unless the tracking code is taken (then undefined: the caller draws another). */
export async function insertInquiry(db: Db, values: NewInquiry): Promise<InquiryRow | undefined> {
  const [row] = await db
    .insert(supportInquiries)
    .values(values)
    .onConflictDoNothing({ target: supportInquiries.trackingCode })
    .returning();
  return row;
}

/** Revokes the inquiry's live guest tokens; answers their ids. */
export async function revokeLiveAccessTokens(db: Db, inquiryId: number, at: Date): Promise<number[]> {
  const rows = await db
    .update(supportInquiryAccessTokens)
    .set({ revokedAt: at })
    .where(
      and(
        eq(supportInquiryAccessTokens.supportInquiryId, inquiryId),
        isNull(supportInquiryAccessTokens.revokedAt),
        gt(supportInquiryAccessTokens.expiresAt, at),
      ),
    )
    .returning({ id: supportInquiryAccessTokens.id });
  return rows.map((r) => r.id);
}

export async function insertAccessToken(
  db: Db,
  values: typeof supportInquiryAccessTokens.$inferInsert,
): Promise<void> {
  await db.insert(supportInquiryAccessTokens).values(values);
}

export async function insertMessage(db: Db, values: NewInquiryMessage): Promise<InquiryMessageRow> {
  const [row] = await db.insert(supportInquiryMessages).values(values).returning();
  return row!;
}

export async function findInquiry(db: Db, id: number): Promise<InquiryRow | undefined> {
  const [row] = await db.select().from(supportInquiries).where(eq(supportInquiries.id, id));
  return row;
}

/** The inquiry, locked until the transaction ends (link-support-request runs one at a time). */
export async function lockInquiry(db: Db, id: number): Promise<InquiryRow | undefined> {
  const [row] = await db.select().from(supportInquiries).where(eq(supportInquiries.id, id)).for('update');
  return row;
}

export async function listMessages(db: Db, inquiryId: number): Promise<InquiryMessageRow[]> {
  return db
    .select()
    .from(supportInquiryMessages)
    .where(eq(supportInquiryMessages.supportInquiryId, inquiryId))
    .orderBy(asc(supportInquiryMessages.createdAt), asc(supportInquiryMessages.id));
}

export interface InquiryFilter {
  customerId?: string;
  status?: InquiryStatus;
  category?: InquiryRow['category'];
  assignedAdminId?: string;
  supportRequestId?: number;
  search?: string;
}

function filterWhere(f: InquiryFilter): SQL | undefined {
  const term = f.search ? contains(f.search) : undefined;
  return and(
    f.customerId ? eq(supportInquiries.customerId, f.customerId) : undefined,
    f.status ? eq(supportInquiries.status, f.status) : undefined,
    f.category ? eq(supportInquiries.category, f.category) : undefined,
    f.assignedAdminId ? eq(supportInquiries.assignedAdminId, f.assignedAdminId) : undefined,
    f.supportRequestId ? eq(supportInquiries.supportRequestId, f.supportRequestId) : undefined,
    term
      ? or(
          ilike(supportInquiries.trackingCode, term),
          ilike(supportInquiries.subject, term),
          ilike(supportInquiries.guestName, term),
          ilike(supportInquiries.guestEmail, term),
          ilike(supportInquiries.guestPhone, term),
        )
      : undefined,
  );
}

export async function listInquiries(
  db: Db,
  filter: InquiryFilter,
  sort: { by: 'createdAt' | 'updatedAt'; order: 'asc' | 'desc' },
  page: PageWindow,
): Promise<{ rows: InquiryRow[]; count: number }> {
  return pageOf(
    db,
    supportInquiries,
    {
      where: filterWhere(filter),
      sortColumn: supportInquiries[sort.by],
      idColumn: supportInquiries.id,
      order: sort.order,
    },
    page,
  );
}

export async function updateInquiry(
  db: Db,
  id: number,
  values: Partial<NewInquiry>,
): Promise<InquiryRow | undefined> {
  const [row] = await db.update(supportInquiries).set(values).where(eq(supportInquiries.id, id)).returning();
  return row;
}

/**
 * Notes a visitor message on an inquiry that still takes messages: `waiting` and `resolved`
 * become `active`, other open statuses stay. Undefined when the inquiry is closed or spam.
 */
export async function noteVisitorMessage(db: Db, id: number, at: Date): Promise<InquiryRow | undefined> {
  const [row] = await db
    .update(supportInquiries)
    .set({
      status: sql`case when ${supportInquiries.status} in ('waiting', 'resolved') then 'active' else ${supportInquiries.status} end`,
      lastVisitorMessageAt: at,
      updatedAt: at,
    })
    .where(and(eq(supportInquiries.id, id), notInArray(supportInquiries.status, CLOSED_STATUSES)))
    .returning();
  return row;
}

/** Notes an admin reply: `open` becomes `active`. Undefined when the inquiry is closed or spam. */
export async function noteAdminMessage(db: Db, id: number, at: Date): Promise<InquiryRow | undefined> {
  const [row] = await db
    .update(supportInquiries)
    .set({
      status: sql`case when ${supportInquiries.status} = 'open' then 'active' else ${supportInquiries.status} end`,
      lastAdminMessageAt: at,
      updatedAt: at,
    })
    .where(and(eq(supportInquiries.id, id), notInArray(supportInquiries.status, CLOSED_STATUSES)))
    .returning();
  return row;
}

/** Sets a status; `closedAt` is kept while the inquiry stays closed-like, set on entering, cleared on leaving. */
export async function setInquiryStatus(
  db: Db,
  id: number,
  status: InquiryStatus,
  at: Date,
): Promise<InquiryRow | undefined> {
  const closing = CLOSED_STATUSES.includes(status);
  const [row] = await db
    .update(supportInquiries)
    .set({
      status,
      closedAt: closing
        ? sql`case when ${supportInquiries.status} in ('closed', 'spam') then coalesce(${supportInquiries.closedAt}, ${at}) else ${at} end`
        : null,
      updatedAt: at,
    })
    .where(eq(supportInquiries.id, id))
    .returning();
  return row;
}

/** Closes every sweepable inquiry idle since `before`, in one statement (safe to run twice at once). */
export async function closeIdleInquiries(db: Db, before: Date, at: Date): Promise<number[]> {
  const rows = await db
    .update(supportInquiries)
    .set({ status: 'closed', closedAt: at, updatedAt: at })
    .where(
      and(
        inArray(supportInquiries.status, SWEEPABLE_STATUSES),
        lt(supportInquiries.updatedAt, before),
        or(isNull(supportInquiries.lastVisitorMessageAt), lt(supportInquiries.lastVisitorMessageAt, before)),
        or(isNull(supportInquiries.lastAdminMessageAt), lt(supportInquiries.lastAdminMessageAt, before)),
      ),
    )
    .returning({ id: supportInquiries.id });
  return rows.map((r) => r.id);
}

// ----- email codes -----

/** Issues a code for `email`; earlier live codes of the inquiry stop working. */
export async function replaceEmailCode(
  db: Db,
  values: { supportInquiryId: number; email: string; codeDigest: string; expiresAt: Date; createdAt: Date },
): Promise<void> {
  await db
    .update(supportInquiryEmailCodes)
    .set({ consumedAt: values.createdAt })
    .where(
      and(
        eq(supportInquiryEmailCodes.supportInquiryId, values.supportInquiryId),
        isNull(supportInquiryEmailCodes.consumedAt),
      ),
    );
  await db.insert(supportInquiryEmailCodes).values(values);
}

const liveCode = (inquiryId: number, email: string, now: Date, maxWrong: number) =>
  and(
    eq(supportInquiryEmailCodes.supportInquiryId, inquiryId),
    eq(supportInquiryEmailCodes.email, email),
    isNull(supportInquiryEmailCodes.consumedAt),
    gt(supportInquiryEmailCodes.expiresAt, now),
    lt(supportInquiryEmailCodes.failedAttempts, maxWrong),
  );

/**
 * Consumes the live code of the inquiry for `email` when its digest matches; otherwise counts
 * a wrong attempt against it. One statement each, so concurrent guesses cannot both win.
 */
export async function consumeEmailCode(
  db: Db,
  opts: { inquiryId: number; email: string; codeDigest: string; now: Date; maxWrong: number },
): Promise<boolean> {
  const live = liveCode(opts.inquiryId, opts.email, opts.now, opts.maxWrong);
  const [row] = await db
    .update(supportInquiryEmailCodes)
    .set({ consumedAt: opts.now })
    .where(and(live, eq(supportInquiryEmailCodes.codeDigest, opts.codeDigest)))
    .returning({ id: supportInquiryEmailCodes.id });
  if (row) return true;
  await db
    .update(supportInquiryEmailCodes)
    .set({ failedAttempts: sql`${supportInquiryEmailCodes.failedAttempts} + 1` })
    .where(live);
  return false;
}

/** Inquiries still in conversation (`IN_CONVERSATION_STATUSES`). */
export async function countOpenInquiries(db: Db): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(supportInquiries)
    .where(inArray(supportInquiries.status, IN_CONVERSATION_STATUSES));
  return Number(row?.n ?? 0);
}
