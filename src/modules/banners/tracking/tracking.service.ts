// Impression and click tracking: the public routes resolve the public ids, check the event
// against what can have been served (docs/decisions.md, "Banner events"), queue it and answer 202; a
// job writes the row. The correlation id names the job (a repeat while it waits
// is dropped by the queue) and is unique in the table (a later repeat, or the same event on two
// processes at once, makes no second row: ON CONFLICT DO NOTHING).
import { z } from 'zod';
import type { JobDefinition } from '../../../platform/jobs/jobs';
import { bannerErrors } from '../banners.errors';
import type { BannerDeps } from '../banners.service';
import * as repo from './tracking.repository';
import type { ClickBody, DailyFigures, ImpressionBody, StatsQuery } from './tracking.schemas';

const common = {
  bannerId: z.number().int(),
  placementId: z.number().int(),
  campaignId: z.number().int().optional(),
  sessionId: z.string().optional(),
  userId: z.string().optional(),
  deviceType: z.string().optional(),
  countryCode: z.string().optional(),
  pageUrl: z.string().optional(),
  occurredAt: z.string(),
  correlationId: z.string(),
};
export const impressionPayload = z.object({ ...common, referrerUrl: z.string().optional() });
export type ImpressionPayload = z.infer<typeof impressionPayload>;
export const clickPayload = z.object({ ...common, destinationUrl: z.string().optional() });
export type ClickPayload = z.infer<typeof clickPayload>;

export interface TrackingJobs {
  impression: JobDefinition<ImpressionPayload>;
  click: JobDefinition<ClickPayload>;
}

/** Public ids never change nor get reused, so their internal ids are cached for a while. */
const ID_CACHE_TTL_MS = 600_000;

async function internalId(
  deps: BannerDeps,
  kind: 'banner' | 'placement' | 'campaign',
  publicId: string,
): Promise<number | undefined> {
  const key = `banner-ids:${kind}:${publicId}`;
  try {
    const hit = await deps.cache.get<number>(key);
    if (hit !== undefined) return hit;
  } catch (error) {
    deps.log.warn({ err: error }, 'banner id cache read failed');
  }
  const lookup = { banner: repo.bannerIdOf, placement: repo.placementIdOf, campaign: repo.campaignIdOf }[
    kind
  ];
  const id = await lookup(deps.db, publicId);
  if (id !== undefined) await deps.cache.set(key, id, ID_CACHE_TTL_MS).catch(() => {});
  return id;
}

/** How long a banner's placements (its assignments) are trusted from the cache. */
const LINK_CACHE_TTL_MS = 60_000;

/** The campaigns that show the banner in the placement; cached only when there are some. */
async function campaignsShowing(deps: BannerDeps, bannerId: number, placementId: number): Promise<number[]> {
  const key = `banner-links:${bannerId}:${placementId}`;
  const hit = await deps.cache.get<number[]>(key).catch(() => undefined);
  if (hit !== undefined) return hit;
  const ids = await repo.campaignsShowingBannerIn(deps.db, bannerId, placementId);
  if (ids.length) await deps.cache.set(key, ids, LINK_CACHE_TTL_MS).catch(() => {});
  return ids;
}

/** An event's time more than this far from the server's clock is replaced by the server's time. */
export const EVENT_CLOCK_SKEW_MS = 24 * 3_600_000;

/**
 * Who sent the event: the customer of a valid customer access token on the request, or null.
 * Only that customer's id is kept as the event's `userId` (anyone can post an event).
 */
export type TrackingCaller = { customerId: string | null };

async function resolve(deps: BannerDeps, body: ImpressionBody | ClickBody, caller: TrackingCaller) {
  const bannerId = await internalId(deps, 'banner', body.bannerPublicId);
  if (bannerId === undefined) throw bannerErrors.bannerNotFound();
  const placementId = await internalId(deps, 'placement', body.placementPublicId);
  if (placementId === undefined) throw bannerErrors.placementNotFound();
  // A banner never assigned to the placement cannot have been seen there.
  const showing = await campaignsShowing(deps, bannerId, placementId);
  if (showing.length === 0) throw bannerErrors.bannerNotFound();
  // An unknown campaign, or one that does not link the two, is dropped: the event counts for
  // the banner, without a campaign.
  const campaignId = body.campaignPublicId
    ? await internalId(deps, 'campaign', body.campaignPublicId)
    : undefined;
  const now = deps.clock.now();
  const claimed = new Date(body.occurredAt);
  const occurredAt = Math.abs(claimed.getTime() - now.getTime()) > EVENT_CLOCK_SKEW_MS ? now : claimed;
  return {
    bannerId,
    placementId,
    ...(campaignId !== undefined && showing.includes(campaignId) ? { campaignId } : {}),
    sessionId: body.sessionId,
    userId: body.userId && body.userId === caller.customerId ? body.userId : undefined,
    deviceType: body.deviceType,
    countryCode: body.countryCode,
    pageUrl: body.pageUrl,
    occurredAt: occurredAt.toISOString(),
    correlationId: body.correlationId,
  };
}

export async function trackImpression(
  deps: BannerDeps,
  job: TrackingJobs['impression'],
  body: ImpressionBody,
  caller: TrackingCaller,
): Promise<void> {
  const payload = { ...(await resolve(deps, body, caller)), referrerUrl: body.referrerUrl };
  await deps.jobs.enqueue(job, payload, { jobId: body.correlationId });
}

export async function trackClick(
  deps: BannerDeps,
  job: TrackingJobs['click'],
  body: ClickBody,
  caller: TrackingCaller,
): Promise<void> {
  const payload = { ...(await resolve(deps, body, caller)), destinationUrl: body.destinationUrl };
  await deps.jobs.enqueue(job, payload, { jobId: body.correlationId });
}

const row = (p: ImpressionPayload | ClickPayload) => ({
  correlationId: p.correlationId,
  bannerId: p.bannerId,
  placementId: p.placementId,
  campaignId: p.campaignId ?? null,
  sessionId: p.sessionId ?? null,
  userId: p.userId ?? null,
  deviceType: p.deviceType ?? null,
  countryCode: p.countryCode ?? null,
  pageUrl: p.pageUrl ?? null,
  occurredAt: new Date(p.occurredAt),
});

/** Writes an impression; false when its correlation id was recorded before. */
export const recordImpression = (deps: Pick<BannerDeps, 'db'>, p: ImpressionPayload) =>
  repo.insertImpression(deps.db, { ...row(p), referrerUrl: p.referrerUrl ?? null });

export const recordClick = (deps: Pick<BannerDeps, 'db'>, p: ClickPayload) =>
  repo.insertClick(deps.db, { ...row(p), destinationUrl: p.destinationUrl ?? null });

const DAY_MS = 86_400_000;
const utcDay = (at: Date) => at.toISOString().slice(0, 10);

/**
 * The daily figures staff read (docs/api-notes.md, "Banner figures per day"): the asked UTC days
 * (the query schema checks the range) or the last 30; today's come from the events.
 */
export async function dailyFigures(
  deps: Pick<BannerDeps, 'db' | 'clock'>,
  q: StatsQuery,
): Promise<DailyFigures> {
  const today = utcDay(deps.clock.now());
  const to = q.to ?? today;
  const from = q.from ?? utcDay(new Date(deps.clock.now().getTime() - 29 * DAY_MS));
  const rows = await repo.dailyFigures(deps.db, {
    from,
    to,
    today,
    campaignPublicId: q.campaignPublicId,
    bannerPublicId: q.bannerPublicId,
  });
  return { from, to, rows };
}
