// The POS back office's reads over in-store orders: a page of them, the export in batches
// (newest first, by keyset so a long export never rescans what it sent), and the revenue of
// completed payments per gateway and per district. Dates are store-local days (inclusive),
// turned into instants by PostgreSQL (`AT TIME ZONE`), as the order analytics do.
import { and, count, desc, eq, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../../platform/db/database';
import { orders } from '../orders.table';

export interface PosWindow {
  /** First and last store-local day, inclusive (YYYY-MM-DD); either may be open. */
  startDate: string | null;
  endDate: string | null;
  timeZone: string;
}

export type PosOrderRow = typeof orders.$inferSelect;

function within(w: PosWindow): SQL {
  const parts: SQL[] = [sql`${orders.orderSource} = 'pos_sale'`];
  if (w.startDate)
    parts.push(sql`${orders.createdAt} >= (${w.startDate}::date)::timestamp at time zone ${w.timeZone}`);
  if (w.endDate)
    parts.push(sql`${orders.createdAt} < (${w.endDate}::date + 1)::timestamp at time zone ${w.timeZone}`);
  return sql.join(parts, sql` and `);
}

export async function listPosOrders(
  db: Db,
  w: PosWindow,
  page: { limit: number; offset: number },
): Promise<{ rows: PosOrderRow[]; count: number }> {
  const where = within(w);
  const rows = await db
    .select()
    .from(orders)
    .where(where)
    .orderBy(desc(orders.createdAt), desc(orders.id))
    .limit(page.limit)
    .offset(page.offset);
  const [total] = await db.select({ n: count() }).from(orders).where(where);
  return { rows, count: Number(total?.n ?? 0) };
}

/** The next batch of the export after `after` (newest first; ties by id). */
export async function posOrdersBatch(
  db: Db,
  w: PosWindow,
  after: { createdAt: Date; id: number } | null,
  limit: number,
): Promise<PosOrderRow[]> {
  const keyset = after
    ? sql`(${orders.createdAt}, ${orders.id}) < (${after.createdAt.toISOString()}::timestamptz, ${after.id})`
    : undefined;
  return db
    .select()
    .from(orders)
    .where(and(within(w), keyset))
    .orderBy(desc(orders.createdAt), desc(orders.id))
    .limit(limit);
}

async function rows<T>(db: Db, query: SQL): Promise<T[]> {
  return ((await db.execute(query)) as unknown as { rows: T[] }).rows;
}

const completed = sql`${orders.paymentStatus} = 'completed'`;

export interface PosRevenueRow {
  key: string | null;
  /** The district as an order spelt it (the key is lowercased). */
  name: string | null;
  revenue: number;
  orderCount: number;
}

/**
 * Revenue (sum of `finalPayable`) and count of POS orders with a completed payment in the
 * window, grouped by `by` (`gateway` or the shipping district, compared ignoring case), and
 * filtered to `district` when given.
 */
export async function posRevenue(
  db: Db,
  w: PosWindow,
  by: 'gateway' | 'district' | 'none',
  district: string | null,
): Promise<PosRevenueRow[]> {
  const key =
    by === 'gateway'
      ? sql`${orders.gateway}`
      : by === 'district'
        ? sql`lower(${orders.shippingDistrict})`
        : sql`null`;
  const districtFilter = district ? sql` and lower(${orders.shippingDistrict}) = lower(${district})` : sql``;
  const found = await rows<{ key: string | null; name: string | null; revenue: string; orderCount: number }>(
    db,
    sql`select ${key} as key,
               min(${orders.shippingDistrict}) as name,
               coalesce(sum(${orders.finalPayable}), 0)::bigint::text as revenue,
               count(*)::int as "orderCount"
        from ${orders}
        where ${within(w)} and ${completed}${districtFilter}
        group by 1`,
  );
  return found.map((r) => ({
    key: r.key,
    name: r.name,
    revenue: Number(r.revenue),
    orderCount: Number(r.orderCount),
  }));
}

/** Names the counter gateway on the order (in the caller's transaction). */
export async function setGateway(tx: Db, orderId: number, gateway: string): Promise<void> {
  await tx.update(orders).set({ gateway }).where(eq(orders.id, orderId));
}
