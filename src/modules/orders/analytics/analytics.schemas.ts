import { z } from 'zod';
import { ORDER_STATUSES, type OrderStatus } from '../orders.table';

export const ANALYTICS_RANGES = ['7d', '30d', '90d', '12m', 'custom'] as const;
export type AnalyticsRange = (typeof ANALYTICS_RANGES)[number];
export const ANALYTICS_BUCKETS = ['day', 'week', 'month'] as const;
export type AnalyticsBucket = (typeof ANALYTICS_BUCKETS)[number];

const storeDate = z.iso.date({ error: 'must be a date YYYY-MM-DD' });

/** Both analytics routes take this query; the districts route ignores `bucket`. */
export const analyticsQuery = z
  .object({
    range: z.enum(ANALYTICS_RANGES).default('30d'),
    bucket: z
      .enum(ANALYTICS_BUCKETS)
      .optional()
      .describe('Default: `day` for 7d, 30d and custom, `week` for 90d, `month` for 12m'),
    fromDate: storeDate.optional().describe('First store-local day (inclusive); only with range=custom'),
    toDate: storeDate.optional().describe('Last store-local day (inclusive); only with range=custom'),
    district: z.string().trim().min(1).max(100).optional().describe('Shipping district name'),
  })
  .superRefine((q, ctx) => {
    if (q.range === 'custom') {
      for (const key of ['fromDate', 'toDate'] as const) {
        if (!q[key]) ctx.addIssue({ code: 'custom', path: [key], message: 'is required with range=custom' });
      }
      if (q.fromDate && q.toDate && q.fromDate > q.toDate) {
        ctx.addIssue({ code: 'custom', path: ['toDate'], message: 'must not be before fromDate' });
      }
    } else {
      for (const key of ['fromDate', 'toDate'] as const) {
        if (q[key]) ctx.addIssue({ code: 'custom', path: [key], message: 'is only taken with range=custom' });
      }
    }
  });
export type AnalyticsQuery = z.output<typeof analyticsQuery>;

const amount = z.number().int().describe('Whole NPR');

export const analyticsView = z.object({
  totals: z.object({
    revenue: amount,
    orderCount: z.number().int(),
    averageOrderValue: amount.describe('Revenue per paid order, rounded to whole NPR; 0 without one'),
  }),
  series: z.array(
    z.object({
      bucketStart: z.iso
        .datetime()
        .describe('The instant the store-local day, week (Sunday) or month starts'),
      revenue: amount,
      orderCount: z.number().int(),
    }),
  ),
});
export type AnalyticsView = z.infer<typeof analyticsView>;

export const districtAnalyticsView = z.array(
  z.object({ districtName: z.string(), revenue: amount, orderCount: z.number().int() }),
);
export type DistrictAnalyticsView = z.infer<typeof districtAnalyticsView>;

const orderCount = z.number().int();

/** Every order status with its count, zeros included, so a chart needs no missing-key check. */
const ordersByStatus = z
  .object(Object.fromEntries(ORDER_STATUSES.map((status) => [status, orderCount])))
  .describe('Orders placed in the period by their current status; every status is present') as z.ZodObject<
  Record<OrderStatus, typeof orderCount>
>;

const storeDay = z.iso.date().describe('A store-local calendar day (STORE_TIMEZONE)');

/**
 * Refunds beside the revenue they take back (docs/api-notes.md, "Dashboard"): the same orders as
 * `revenue`, so `netRevenue` = `revenue` − `refunds` is what the period's sales kept.
 */
const refundFigures = {
  refunds: amount.describe(
    'Of revenue, what is owed back or was given back: pending or approved refunds of those orders',
  ),
  refundsOwed: amount.describe('Of refunds, what has not been given back yet (not settled)'),
  netRevenue: amount.describe('revenue − refunds'),
};

/** The orders part of the admin dashboard: today and the 30 days ending today, store-local. */
export const orderDashboardView = z.object({
  today: z.object({
    date: storeDay,
    orders: orderCount.describe('Orders placed today, whatever their state'),
    revenue: amount.describe(
      'finalPayable of the orders placed today whose payment is completed or cod_collected',
    ),
    ...refundFigures,
    ordersByStatus,
  }),
  last30Days: z.object({
    from: storeDay.describe('First day of the period, 29 days before today'),
    to: storeDay.describe('Last day of the period: today'),
    orders: orderCount,
    revenue: amount,
    ...refundFigures,
    ordersByStatus,
    revenueByDay: z
      .array(
        z.object({
          date: storeDay,
          revenue: amount,
          refunds: refundFigures.refunds,
          netRevenue: refundFigures.netRevenue,
          orders: orderCount,
        }),
      )
      .describe('One entry per day, oldest first, 30 in all; days without orders are zeros'),
  }),
});
export type OrderDashboardView = z.infer<typeof orderDashboardView>;
