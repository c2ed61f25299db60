import { z } from 'zod';

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
