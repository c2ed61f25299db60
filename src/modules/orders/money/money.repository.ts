// The refunds queue's query: refund records of every order with the order they belong to,
// filtered by where they stand. Writes to refunds stay in orders.repository.ts.
import {
  and,
  asc,
  count,
  desc,
  eq,
  ilike,
  inArray,
  isNotNull,
  isNull,
  or,
  type SQL,
  type SQLWrapper,
} from 'drizzle-orm';
import type { Db } from '../../../platform/db/database';
import { containsPattern as contains } from '../../../platform/db/like';
import { type PaginationQuery, pageWindow } from '../../../platform/http/pagination';
import type { OrderRefundRow, OrderRow } from '../orders.repository';
import { orderRefunds, orders } from '../orders.table';
import type { RefundState } from './money.schemas';

const STATE_WHERE: Record<RefundState, SQL> = {
  to_decide: eq(orderRefunds.status, 'requested'),
  owed: and(inArray(orderRefunds.status, ['pending', 'approved']), isNull(orderRefunds.settledAt))!,
  settled: isNotNull(orderRefunds.settledAt),
  rejected: eq(orderRefunds.status, 'rejected'),
};

export interface RefundFilter {
  state?: RefundState | undefined;
  status?: OrderRefundRow['status'] | undefined;
  reason?: string | undefined;
  /** The identity module's subquery of customer ids for the term: the search hits them too. */
  search?: { term: string; matchingCustomers: SQLWrapper } | null;
}

export type RefundWithOrder = OrderRefundRow & {
  order: Pick<OrderRow, 'orderNumber' | 'status' | 'paymentMethod' | 'customerId'>;
};

/** Refund records with their order, newest first unless `order` says otherwise. */
export async function listRefunds(
  db: Db,
  f: RefundFilter,
  q: PaginationQuery,
): Promise<{ rows: RefundWithOrder[]; count: number }> {
  const where = and(
    f.state ? STATE_WHERE[f.state] : undefined,
    f.status ? eq(orderRefunds.status, f.status) : undefined,
    f.reason ? eq(orderRefunds.reason, f.reason) : undefined,
    f.search
      ? or(
          ilike(orders.orderNumber, contains(f.search.term)),
          inArray(orders.customerId, f.search.matchingCustomers),
        )
      : undefined,
  );
  const dir = q.order === 'asc' ? asc : desc;
  const { limit, offset } = pageWindow(q);
  const base = db
    .select({
      refund: orderRefunds,
      order: {
        orderNumber: orders.orderNumber,
        status: orders.status,
        paymentMethod: orders.paymentMethod,
        customerId: orders.customerId,
      },
    })
    .from(orderRefunds)
    .innerJoin(orders, eq(orders.id, orderRefunds.orderId))
    .where(where)
    .orderBy(dir(orderRefunds.createdAt), dir(orderRefunds.id))
    .offset(offset);
  const found = await (limit === undefined ? base : base.limit(limit));
  const [total] = await db
    .select({ n: count() })
    .from(orderRefunds)
    .innerJoin(orders, eq(orders.id, orderRefunds.orderId))
    .where(where);
  return {
    rows: found.map((r) => ({ ...r.refund, order: r.order })),
    count: Number(total?.n ?? 0),
  };
}
