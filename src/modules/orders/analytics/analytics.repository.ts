// The analytics queries: orders placed in a store-local date range, grouped into store-local
// buckets by PostgreSQL itself (`AT TIME ZONE`), so PGlite and PostgreSQL agree and every
// zone's rules (offsets, daylight saving) come from the database's time zone data.
import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../../platform/db/database';
import { type OrderStatus, orderItems, orderRefunds, orders } from '../orders.table';
import type { AnalyticsBucket } from './analytics.schemas';

export interface AnalyticsWindow {
  /** First and last store-local day, inclusive (YYYY-MM-DD). */
  fromDate: string;
  toDate: string;
  timeZone: string;
  district: string | null;
}

const paid = sql`${orders.paymentStatus} in ('completed', 'cod_collected')`;

/** The local bucket a local timestamp falls in; weeks start on Sunday (date_trunc's on Monday). */
function bucketOf(local: SQL, bucket: AnalyticsBucket): SQL {
  if (bucket === 'week') return sql`(date_trunc('week', ${local} + interval '1 day') - interval '1 day')`;
  return sql`date_trunc(${sql.raw(`'${bucket}'`)}, ${local})`;
}

function placedWithin(w: AnalyticsWindow): SQL {
  const start = sql`(${w.fromDate}::date)::timestamp at time zone ${w.timeZone}`;
  const end = sql`(${w.toDate}::date + 1)::timestamp at time zone ${w.timeZone}`;
  const district = w.district ? sql` and lower(${orders.shippingDistrict}) = lower(${w.district})` : sql``;
  return sql`${orders.createdAt} >= ${start} and ${orders.createdAt} < ${end}${district}`;
}

export interface BucketRow {
  bucketStart: Date;
  revenue: number;
  orderCount: number;
  /** Orders of the bucket that count as revenue. */
  paidCount: number;
  /**
   * Of that revenue, what is owed back or was given back: refunds `pending` or `approved` of the
   * bucket's paid orders (requested and rejected ones are not owed), at most each order's total.
   */
  refunds: number;
  /** Of `refunds`, what has not been given back yet (not settled). */
  refundsOwed: number;
}

/**
 * `owed`: per order, the refunds `pending` or `approved` (requested and rejected ones are not
 * owed) and, of them, what is not settled yet.
 */
const owedRefunds = sql`owed as (
        select ${orderRefunds.orderId} as order_id,
               sum(${orderRefunds.amount}) as amount,
               coalesce(sum(${orderRefunds.amount}) filter (where ${orderRefunds.settledAt} is null), 0) as unsettled
        from ${orderRefunds}
        where ${orderRefunds.status} in ('pending', 'approved')
        group by 1
      )`;

async function rows<T>(db: Db, query: SQL): Promise<T[]> {
  return ((await db.execute(query)) as unknown as { rows: T[] }).rows;
}

/** One row per bucket from the one holding `fromDate` to the one holding `toDate`, empty ones too. */
export async function bucketTotals(
  db: Db,
  w: AnalyticsWindow,
  bucket: AnalyticsBucket,
): Promise<BucketRow[]> {
  const local = sql`(${orders.createdAt} at time zone ${w.timeZone})`;
  const found = await rows<{
    bucketStart: Date | string;
    revenue: string;
    orderCount: number;
    paidCount: number;
    refunds: string;
    refundsOwed: string;
  }>(
    db,
    sql`
      with ${owedRefunds},
      placed as (
        select ${bucketOf(local, bucket)} as bucket,
               count(*)::int as order_count,
               (count(*) filter (where ${paid}))::int as paid_count,
               coalesce(sum(${orders.finalPayable}) filter (where ${paid}), 0)::bigint as revenue,
               coalesce(sum(least(coalesce(owed.amount, 0), ${orders.finalPayable})) filter (where ${paid}), 0)::bigint
                 as refunds,
               coalesce(sum(least(coalesce(owed.unsettled, 0), ${orders.finalPayable})) filter (where ${paid}), 0)::bigint
                 as refunds_owed
        from ${orders}
        left join owed on owed.order_id = ${orders.id}
        where ${placedWithin(w)}
        group by 1
      )
      select (s.bucket at time zone ${w.timeZone}) as "bucketStart",
             coalesce(p.revenue, 0)::text as revenue,
             coalesce(p.order_count, 0) as "orderCount",
             coalesce(p.paid_count, 0) as "paidCount",
             coalesce(p.refunds, 0)::text as refunds,
             coalesce(p.refunds_owed, 0)::text as "refundsOwed"
      from generate_series(
             ${bucketOf(sql`${w.fromDate}::date::timestamp`, bucket)},
             ${bucketOf(sql`${w.toDate}::date::timestamp`, bucket)},
             ${sql.raw(`interval '1 ${bucket}'`)}
           ) as s(bucket)
      left join placed p on p.bucket = s.bucket
      order by s.bucket`,
  );
  return found.map((r) => ({
    bucketStart: new Date(r.bucketStart),
    revenue: Number(r.revenue),
    orderCount: Number(r.orderCount),
    paidCount: Number(r.paidCount),
    refunds: Number(r.refunds),
    refundsOwed: Number(r.refundsOwed),
  }));
}

/** Orders with a shipping district, per district, most revenue first. */
export async function districtTotals(
  db: Db,
  w: AnalyticsWindow,
): Promise<Array<{ districtName: string; revenue: number; orderCount: number }>> {
  const found = await rows<{ districtName: string; revenue: string; orderCount: number }>(
    db,
    sql`
      select ${orders.shippingDistrict} as "districtName",
             count(*)::int as "orderCount",
             coalesce(sum(${orders.finalPayable}) filter (where ${paid}), 0)::text as revenue
      from ${orders}
      where ${placedWithin(w)} and ${orders.shippingDistrict} is not null
      group by ${orders.shippingDistrict}
      order by coalesce(sum(${orders.finalPayable}) filter (where ${paid}), 0) desc,
               count(*) desc, ${orders.shippingDistrict} asc`,
  );
  return found.map((r) => ({
    districtName: r.districtName,
    revenue: Number(r.revenue),
    orderCount: Number(r.orderCount),
  }));
}

export interface StatusCount {
  status: OrderStatus;
  /** Orders in this status placed within the window. */
  orderCount: number;
  /** Of those, the ones placed on the window's last day. */
  lastDayCount: number;
}

/** Orders placed within the window per current status, and per status on its last day: one scan. */
export async function statusCounts(db: Db, w: AnalyticsWindow): Promise<StatusCount[]> {
  const lastDayStart = sql`(${w.toDate}::date)::timestamp at time zone ${w.timeZone}`;
  const found = await rows<{ status: OrderStatus; orderCount: number; lastDayCount: number }>(
    db,
    sql`
      select ${orders.status} as status,
             count(*)::int as "orderCount",
             (count(*) filter (where ${orders.createdAt} >= ${lastDayStart}))::int as "lastDayCount"
      from ${orders}
      where ${placedWithin(w)}
      group by ${orders.status}`,
  );
  return found.map((r) => ({
    status: r.status,
    orderCount: Number(r.orderCount),
    lastDayCount: Number(r.lastDayCount),
  }));
}

export interface GatewayRow {
  gateway: string;
  /** Orders placed on the gateway, whatever their state. */
  orderCount: number;
  /** Of those, the ones whose payment is completed or cod_collected. */
  paidCount: number;
  /** finalPayable of the paid ones. */
  grossSales: number;
  /** Of gross sales, refunds owed or given back (pending or approved), at most each order's total. */
  refunds: number;
}

/** Orders placed within the window per gateway asked for at checkout, most gross sales first. */
export async function gatewayTotals(db: Db, w: AnalyticsWindow): Promise<GatewayRow[]> {
  const found = await rows<{
    gateway: string;
    orderCount: number;
    paidCount: number;
    grossSales: string;
    refunds: string;
  }>(
    db,
    sql`
      with ${owedRefunds}
      select ${orders.gateway} as gateway,
             count(*)::int as "orderCount",
             (count(*) filter (where ${paid}))::int as "paidCount",
             coalesce(sum(${orders.finalPayable}) filter (where ${paid}), 0)::text as "grossSales",
             coalesce(sum(least(coalesce(owed.amount, 0), ${orders.finalPayable})) filter (where ${paid}), 0)::text
               as refunds
      from ${orders}
      left join owed on owed.order_id = ${orders.id}
      where ${placedWithin(w)}
      group by ${orders.gateway}
      order by coalesce(sum(${orders.finalPayable}) filter (where ${paid}), 0) desc, count(*) desc,
               ${orders.gateway} asc`,
  );
  return found.map((r) => ({
    gateway: r.gateway,
    orderCount: Number(r.orderCount),
    paidCount: Number(r.paidCount),
    grossSales: Number(r.grossSales),
    refunds: Number(r.refunds),
  }));
}

export interface ProductRow {
  productId: number;
  /** The title on the product's latest order line in the window. */
  productTitle: string;
  /** Paid orders holding the product. */
  orderCount: number;
  quantity: number;
  /** The lines' value (effective price × quantity), before coupons and shipping. */
  sales: number;
}

/**
 * The products of the paid orders placed within the window, most sales first (then most units,
 * then product id), a page of them, and how many products there are in all.
 */
export async function productTotals(
  db: Db,
  w: AnalyticsWindow,
  page: { limit: number | undefined; offset: number },
): Promise<{ rows: ProductRow[]; count: number }> {
  const lines = sql`
    select ${orderItems.productId} as product_id,
           ${orderItems.productTitle} as product_title,
           ${orderItems.orderId} as order_id,
           ${orderItems.quantity} as quantity,
           ${orderItems.finalValue} as final_value,
           ${orders.createdAt} as placed_at,
           ${orderItems.id} as line_id
    from ${orderItems}
    join ${orders} on ${orders.id} = ${orderItems.orderId}
    where ${placedWithin(w)} and ${paid}`;
  const limit = page.limit === undefined ? sql`` : sql` limit ${page.limit}`;
  const found = await rows<{
    productId: number;
    productTitle: string;
    orderCount: number;
    quantity: string;
    sales: string;
  }>(
    db,
    sql`
      with lines as (${lines})
      select product_id as "productId",
             (array_agg(product_title order by placed_at desc, line_id desc))[1] as "productTitle",
             count(distinct order_id)::int as "orderCount",
             sum(quantity)::text as quantity,
             sum(final_value)::text as sales
      from lines
      group by product_id
      order by sum(final_value) desc, sum(quantity) desc, product_id asc
      offset ${page.offset}${limit}`,
  );
  const [total] = await rows<{ n: number }>(
    db,
    sql`with lines as (${lines}) select count(distinct product_id)::int as n from lines`,
  );
  return {
    rows: found.map((r) => ({
      productId: Number(r.productId),
      productTitle: r.productTitle,
      orderCount: Number(r.orderCount),
      quantity: Number(r.quantity),
      sales: Number(r.sales),
    })),
    count: Number(total?.n ?? 0),
  };
}
