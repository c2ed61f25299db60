// Request and response schemas of impression and click tracking.
import { z } from 'zod';
import { safeUrl } from '../../../platform/http/fields';

const trackingFields = {
  bannerPublicId: z.uuid(),
  placementPublicId: z.uuid(),
  campaignPublicId: z.uuid().optional(),
  sessionId: z.string().min(1).max(128).optional(),
  userId: z.uuid().optional(),
  deviceType: z.string().min(1).max(20).optional(),
  countryCode: z
    .string()
    .regex(/^[A-Za-z]{1,2}$/, 'must be a country code of at most 2 letters')
    .transform((c) => c.toUpperCase())
    .optional(),
  pageUrl: z.string().min(1).max(2048).optional(),
  occurredAt: z.iso.datetime({ offset: true }),
  correlationId: z.string().trim().min(1).max(128),
};
export const impressionBody = z.object({
  ...trackingFields,
  referrerUrl: z.string().min(1).max(2048).optional(),
});
export type ImpressionBody = z.output<typeof impressionBody>;
export const clickBody = z.object({ ...trackingFields, destinationUrl: safeUrl });
export type ClickBody = z.output<typeof clickBody>;

export const trackingAccepted = z.object({ message: z.string(), data: z.null() });

// ---------- daily figures (admin) ----------

const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date YYYY-MM-DD');
/** The longest range one read covers, in days. */
export const STATS_MAX_DAYS = 366;
export const statsQuery = z
  .object({
    from: day.optional().describe('First UTC day; with `to`, or neither (the last 30 days)'),
    to: day.optional().describe('Last UTC day; with `from`'),
    campaignPublicId: z.uuid().optional(),
    bannerPublicId: z.uuid().optional(),
  })
  .superRefine((q, ctx) => {
    if (!q.from !== !q.to) {
      const missing = q.from ? 'to' : 'from';
      ctx.addIssue({ code: 'custom', path: [missing], message: 'from and to go together' });
      return;
    }
    if (!q.from || !q.to) return;
    const days = (Date.parse(`${q.to}T00:00:00Z`) - Date.parse(`${q.from}T00:00:00Z`)) / 86_400_000 + 1;
    if (!(days >= 1)) ctx.addIssue({ code: 'custom', path: ['from'], message: 'must not be after to' });
    else if (days > STATS_MAX_DAYS) {
      ctx.addIssue({
        code: 'too_big',
        origin: 'array',
        maximum: STATS_MAX_DAYS,
        path: ['to'],
        message: `at most ${STATS_MAX_DAYS} days`,
      });
    }
  });
export type StatsQuery = z.output<typeof statsQuery>;

export const dailyFigure = z.object({
  date: z.string().describe('UTC day, YYYY-MM-DD'),
  bannerPublicId: z.uuid(),
  bannerTitle: z.string(),
  campaignPublicId: z.uuid(),
  campaignName: z.string(),
  impressions: z.number().int(),
  clicks: z.number().int(),
});
export const dailyFigures = z.object({ from: z.string(), to: z.string(), rows: z.array(dailyFigure) });
export type DailyFigures = z.infer<typeof dailyFigures>;
