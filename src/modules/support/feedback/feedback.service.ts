// Feedback: customers send bug reports, feature requests and general feedback; admins read
// and mark them reviewed (once; reviewing again answers the record unchanged).
import type { UserPrincipal } from '../../../platform/auth/principal';
import type { Db } from '../../../platform/db/database';
import { inTransaction } from '../../../platform/db/transaction';
import { type PageMeta, pageMeta, pageWindow } from '../../../platform/http/pagination';
import { recordActivity } from '../../activity';
import type { SupportDeps } from '../support.service';
import { isoOrNull } from '../support.service';
import { feedbackErrors } from './feedback.errors';
import * as repo from './feedback.repository';
import type { CreateFeedbackBody, Feedback, FeedbackListQuery } from './feedback.schemas';

const toFeedback = (row: repo.FeedbackRow): Feedback => ({
  id: row.id,
  customerId: row.customerId,
  category: row.category,
  subject: row.subject,
  message: row.message,
  status: row.status,
  reviewedByAdminId: row.reviewedByAdminId,
  reviewedAt: isoOrNull(row.reviewedAt),
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

type Deps = Pick<SupportDeps, 'db' | 'clock'>;

export async function submitFeedback(deps: Deps, customer: UserPrincipal, body: CreateFeedbackBody) {
  const at = deps.clock.now();
  const row = await repo.insertFeedback(deps.db, {
    customerId: customer.userId,
    ...body,
    status: 'new',
    createdAt: at,
    updatedAt: at,
  });
  return toFeedback(row);
}

export async function listFeedback(
  deps: Deps,
  query: FeedbackListQuery,
): Promise<{ feedback: Feedback[]; meta: PageMeta }> {
  const { rows, count } = await repo.listFeedback(
    deps.db,
    { status: query.status, category: query.category, search: query.search },
    { by: query.sort, order: query.order },
    pageWindow(query),
  );
  return { feedback: rows.map(toFeedback), meta: pageMeta(query, count) };
}

async function findOrFail(db: Db, id: number) {
  const row = await repo.findFeedback(db, id);
  if (!row) throw feedbackErrors.notFound();
  return row;
}

export async function getFeedback(deps: Deps, id: number): Promise<Feedback> {
  return toFeedback(await findOrFail(deps.db, id));
}

export async function reviewFeedback(deps: Deps, admin: UserPrincipal, id: number): Promise<Feedback> {
  return inTransaction(deps.db, async (tx) => {
    const at = deps.clock.now();
    const row = await repo.markReviewed(tx, id, admin.userId, at);
    // Reviewed already: nothing is written, the record answers unchanged.
    if (!row) return toFeedback(await findOrFail(tx, id));
    await recordActivity(tx, {
      adminId: admin.userId,
      action: 'review',
      entityType: 'feedback',
      entityId: id,
      summary: `Reviewed feedback #${id}: ${row.subject}`,
      at,
    });
    return toFeedback(row);
  });
}
