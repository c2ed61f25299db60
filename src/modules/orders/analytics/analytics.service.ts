// Order analytics for the back office: revenue and order counts over a store-local date range,
// per day, week (from Sunday) or month of the store's calendar (STORE_TIMEZONE), and per
// shipping district. Orders count by the moment they were placed; revenue only from orders whose
// payment is `completed` or `cod_collected` (docs/decisions.md, "Analytics").
import type { Config } from '../../../config';
import type { Clock } from '../../../platform/clock';
import type { Db } from '../../../platform/db/database';
import { type PageMeta, pageMeta, pageWindow } from '../../../platform/http/pagination';
import { ORDER_STATUSES, type OrderStatus } from '../orders.table';
import { analyticsErrors } from './analytics.errors';
import * as repo from './analytics.repository';
import type {
  AnalyticsBucket,
  AnalyticsQuery,
  AnalyticsRange,
  AnalyticsView,
  DistrictAnalyticsView,
  GatewayAnalyticsView,
  OrderDashboardView,
  ProductAnalyticsItem,
  ProductAnalyticsQuery,
} from './analytics.schemas';

export interface AnalyticsDeps {
  db: Db;
  clock: Clock;
  config: Pick<Config, 'STORE_TIMEZONE'>;
}

/** The longest custom range: a year and its leap day, as long as the `12m` range can be. */
export const MAX_CUSTOM_RANGE_DAYS = 366;

const DAY_MS = 86_400_000;
const dayNumber = (date: string) => Date.parse(`${date}T00:00:00Z`) / DAY_MS;
const dateOf = (day: number) => new Date(day * DAY_MS).toISOString().slice(0, 10);
const addDays = (date: string, days: number) => dateOf(dayNumber(date) + days);

/** The store-local calendar date of an instant. */
export function storeDate(at: Date, timeZone: string): string {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).formatToParts(at);
  const part = (type: string) => parts.find((p) => p.type === type)!.value;
  return `${part('year')}-${part('month')}-${part('day')}`;
}

const defaultBucket: Record<AnalyticsRange, AnalyticsBucket> = {
  '7d': 'day',
  '30d': 'day',
  '90d': 'week',
  '12m': 'month',
  custom: 'day',
};

/**
 * The store-local days a query covers, both inclusive. `7d`, `30d`, `90d`: that many days
 * ending today. `12m`: this month and the 11 before it, from the 1st, so every month bucket is
 * whole. `custom`: fromDate to toDate (the schema checked both are there and in order).
 */
export function resolveRange(
  q: Pick<AnalyticsQuery, 'range' | 'fromDate' | 'toDate'>,
  today: string,
): { fromDate: string; toDate: string } {
  switch (q.range) {
    case '7d':
      return { fromDate: addDays(today, -6), toDate: today };
    case '30d':
      return { fromDate: addDays(today, -29), toDate: today };
    case '90d':
      return { fromDate: addDays(today, -89), toDate: today };
    case '12m': {
      const [year, month] = today.split('-').map(Number) as [number, number];
      const first = new Date(Date.UTC(year, month - 1 - 11, 1));
      return { fromDate: first.toISOString().slice(0, 10), toDate: today };
    }
    case 'custom': {
      const fromDate = q.fromDate!;
      const toDate = q.toDate!;
      if (dayNumber(toDate) - dayNumber(fromDate) + 1 > MAX_CUSTOM_RANGE_DAYS) {
        throw analyticsErrors.rangeTooLarge(MAX_CUSTOM_RANGE_DAYS);
      }
      return { fromDate, toDate };
    }
  }
}

function windowOf(deps: AnalyticsDeps, q: Omit<AnalyticsQuery, 'bucket'>): repo.AnalyticsWindow {
  const timeZone = deps.config.STORE_TIMEZONE;
  return {
    ...resolveRange(q, storeDate(deps.clock.now(), timeZone)),
    timeZone,
    district: q.district ?? null,
  };
}

export async function orderAnalytics(deps: AnalyticsDeps, q: AnalyticsQuery): Promise<AnalyticsView> {
  const buckets = await repo.bucketTotals(deps.db, windowOf(deps, q), q.bucket ?? defaultBucket[q.range]);
  let revenue = 0;
  let orderCount = 0;
  let paidCount = 0;
  for (const b of buckets) {
    revenue += b.revenue;
    orderCount += b.orderCount;
    paidCount += b.paidCount;
  }
  return {
    totals: { revenue, orderCount, averageOrderValue: paidCount ? Math.round(revenue / paidCount) : 0 },
    series: buckets.map((b) => ({
      bucketStart: b.bucketStart.toISOString(),
      revenue: b.revenue,
      orderCount: b.orderCount,
    })),
  };
}

export function districtAnalytics(deps: AnalyticsDeps, q: AnalyticsQuery): Promise<DistrictAnalyticsView> {
  return repo.districtTotals(deps.db, windowOf(deps, q));
}

/**
 * Sales per gateway asked for at checkout, by the analytics' rules (orders by when they were
 * placed; gross sales from completed or cod_collected payments), with the refunds owed or given
 * back on those same orders and the net.
 */
export async function gatewayAnalytics(
  deps: AnalyticsDeps,
  q: AnalyticsQuery,
): Promise<GatewayAnalyticsView> {
  const found = await repo.gatewayTotals(deps.db, windowOf(deps, q));
  return found.map((g) => ({
    gateway: g.gateway,
    orderCount: g.orderCount,
    paidOrderCount: g.paidCount,
    grossSales: g.grossSales,
    refunds: g.refunds,
    netSales: g.grossSales - g.refunds,
  }));
}

/** The products of the range's paid orders, most sales first, a page at a time. */
export async function productAnalytics(
  deps: AnalyticsDeps,
  q: ProductAnalyticsQuery,
): Promise<{ data: ProductAnalyticsItem[]; meta: PageMeta }> {
  const window = windowOf(deps, q);
  const page = { ...q, order: 'desc' as const };
  const { rows, count } = await repo.productTotals(deps.db, window, pageWindow(page));
  return { data: rows, meta: pageMeta(page, count) };
}

const DASHBOARD_DAYS = 30;

/** A period's revenue beside the refunds it owes or gave back, and what it kept. */
function moneyOf(days: repo.BucketRow[]) {
  const sum = (figure: (d: repo.BucketRow) => number) => days.reduce((total, d) => total + figure(d), 0);
  const revenue = sum((d) => d.revenue);
  const refunds = sum((d) => d.refunds);
  return { revenue, refunds, refundsOwed: sum((d) => d.refundsOwed), netRevenue: revenue - refunds };
}

/**
 * The orders part of the admin dashboard: today and the 30 days ending today in the store's
 * calendar, by the same rules as `orderAnalytics` (placed orders count whatever their state;
 * revenue from completed or cod_collected payments), so its figures equal the analytics screen's;
 * beside the revenue, the refunds owed or given back on those same orders and the net.
 * Two aggregate queries: the day series and the counts per status.
 */
export async function orderDashboard(deps: AnalyticsDeps): Promise<OrderDashboardView> {
  const timeZone = deps.config.STORE_TIMEZONE;
  const today = storeDate(deps.clock.now(), timeZone);
  const window: repo.AnalyticsWindow = {
    fromDate: addDays(today, -(DASHBOARD_DAYS - 1)),
    toDate: today,
    timeZone,
    district: null,
  };
  const [days, statuses] = await Promise.all([
    repo.bucketTotals(deps.db, window, 'day'),
    repo.statusCounts(deps.db, window),
  ]);
  const byStatus = (count: (s: repo.StatusCount) => number) => {
    const counts = Object.fromEntries(ORDER_STATUSES.map((s) => [s, 0])) as Record<OrderStatus, number>;
    for (const s of statuses) counts[s.status] = count(s);
    return counts;
  };
  const revenueByDay = days.map((d) => ({
    date: storeDate(d.bucketStart, timeZone),
    revenue: d.revenue,
    refunds: d.refunds,
    netRevenue: d.revenue - d.refunds,
    orders: d.orderCount,
  }));
  const todays = days.filter((d) => storeDate(d.bucketStart, timeZone) === today);
  return {
    today: {
      date: today,
      orders: todays.reduce((sum, d) => sum + d.orderCount, 0),
      ...moneyOf(todays),
      ordersByStatus: byStatus((s) => s.lastDayCount),
    },
    last30Days: {
      from: window.fromDate,
      to: window.toDate,
      orders: days.reduce((sum, d) => sum + d.orderCount, 0),
      ...moneyOf(days),
      ordersByStatus: byStatus((s) => s.orderCount),
      revenueByDay,
    },
  };
}
