import { and, eq, ilike, or, type SQL } from 'drizzle-orm';
import type { Db } from '../../../platform/db/database';
import type { PageWindow } from '../../../platform/http/pagination';
import { contains, pageOf } from '../support.repository';
import { type FEEDBACK_CATEGORIES, type FEEDBACK_STATUSES, feedbackSubmissions } from './feedback.table';

export type FeedbackRow = typeof feedbackSubmissions.$inferSelect;

export async function insertFeedback(
  db: Db,
  values: typeof feedbackSubmissions.$inferInsert,
): Promise<FeedbackRow> {
  const [row] = await db.insert(feedbackSubmissions).values(values).returning();
  return row!;
}

export async function findFeedback(db: Db, id: number): Promise<FeedbackRow | undefined> {
  const [row] = await db.select().from(feedbackSubmissions).where(eq(feedbackSubmissions.id, id));
  return row;
}

export interface FeedbackFilter {
  status?: (typeof FEEDBACK_STATUSES)[number];
  category?: (typeof FEEDBACK_CATEGORIES)[number];
  search?: string;
}

function filterWhere(f: FeedbackFilter): SQL | undefined {
  const term = f.search ? contains(f.search) : undefined;
  return and(
    f.status ? eq(feedbackSubmissions.status, f.status) : undefined,
    f.category ? eq(feedbackSubmissions.category, f.category) : undefined,
    term ? or(ilike(feedbackSubmissions.subject, term), ilike(feedbackSubmissions.message, term)) : undefined,
  );
}

export async function listFeedback(
  db: Db,
  filter: FeedbackFilter,
  sort: { by: 'createdAt' | 'updatedAt'; order: 'asc' | 'desc' },
  page: PageWindow,
): Promise<{ rows: FeedbackRow[]; count: number }> {
  return pageOf(
    db,
    feedbackSubmissions,
    {
      where: filterWhere(filter),
      sortColumn: feedbackSubmissions[sort.by],
      idColumn: feedbackSubmissions.id,
      order: sort.order,
    },
    page,
  );
}

/** Marks new feedback reviewed; undefined when it was reviewed already (or does not exist). */
export async function markReviewed(
  db: Db,
  id: number,
  adminId: string,
  at: Date,
): Promise<FeedbackRow | undefined> {
  const [row] = await db
    .update(feedbackSubmissions)
    .set({ status: 'reviewed', reviewedByAdminId: adminId, reviewedAt: at, updatedAt: at })
    .where(and(eq(feedbackSubmissions.id, id), eq(feedbackSubmissions.status, 'new')))
    .returning();
  return row;
}
