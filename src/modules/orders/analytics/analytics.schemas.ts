import { z } from 'zod';
import { paginationQuery } from '../../../platform/http/pagination';
import { ORDER_STATUSES, type OrderStatus } from '../orders.table';

export const ANALYTICS_RANGES = ['7d', '30d', '90d', '12m', 'custom'] as const;
export type AnalyticsRange = (typeof ANALYTICS_RANGES)[number];
export const ANALYTICS_BUCKETS = ['day', 'week', 'month'] as const;
export type AnalyticsBucket = (typeof ANALYTICS_BUCKETS)[number];

const storeDate = z.iso.date({ error: 'must be a date YYYY-MM-DD' });

const analyticsFields = {
  range: z.enum(ANALYTICS_RANGES).default('30d'),
  bucket: z
    .enum(ANALYTICS_BUCKETS)
    .optional()
    .describe('Default: `day` for 7d, 30d and custom, `week` for 90d, `month` for 12m'),
  fromDate: storeDate.optional().describe('First store-local day (inclusive); only with range=custom'),
  toDate: storeDate.optional().describe('Last store-local day (inclusive); only with range=custom'),
  district: z.string().trim().min(1).max(100).optional().describe('Shipping district name'),
};

function checkRange(
  q: { range: AnalyticsRange; fromDate?: string | undefined; toDate?: string | undefined },
  ctx: z.RefinementCtx,
) {
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
}

/** Every analytics route takes this query; those that are not a series ignore `bucket`. */
export const analyticsQuery = z.object(analyticsFields).superRefine(checkRange);
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

/** The products route: the analytics query and a page of products (`size` products per page). */
export const productAnalyticsQuery = z
  .object({
    ...analyticsFields,
    page: paginationQuery.shape.page,
    size: paginationQuery.shape.size,
    pagination: paginationQuery.shape.pagination,
  })
  .superRefine(checkRange);
export type ProductAnalyticsQuery = z.output<typeof productAnalyticsQuery>;

export const gatewayAnalyticsView = z
  .array(
    z.object({
      gateway: z
        .string()
        .describe('The gateway asked for at checkout (`cod`, `gateway_card`, `pos_cash`, …)'),
      orderCount: z.number().int().describe('Orders placed on the gateway, whatever their state'),
      paidOrderCount: z.number().int().describe('Of those, the ones paid (completed or cod_collected)'),
      grossSales: amount.describe('finalPayable of the paid ones (the analytics revenue)'),
      refunds: refundFigures.refunds,
      netSales: amount.describe('grossSales − refunds'),
    }),
  )
  .describe('One row per gateway with orders in the range, most gross sales first');
export type GatewayAnalyticsView = z.infer<typeof gatewayAnalyticsView>;

export const productAnalyticsItem = z.object({
  productId: z.number().int(),
  productTitle: z.string().describe("The title on the product's latest order line in the range"),
  orderCount: z.number().int().describe('Paid orders holding the product'),
  quantity: z.number().int().describe('Units sold on paid orders'),
  sales: amount.describe("The lines' value (effective price × quantity), before coupons and shipping"),
});
export type ProductAnalyticsItem = z.infer<typeof productAnalyticsItem>;
