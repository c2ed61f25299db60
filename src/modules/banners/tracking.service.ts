// Impression and click tracking: the public routes resolve the public ids, queue the event and
// answer 202; a job writes the row. The correlation id names the job (a repeat while it waits
// is dropped by the queue) and is unique in the table (a later repeat, or the same event on two
// processes at once, makes no second row: ON CONFLICT DO NOTHING).
import { z } from 'zod';
import type { JobDefinition } from '../../platform/jobs/jobs';
import { bannerErrors } from './banners.errors';
import * as repo from './banners.repository';
import type { ClickBody, ImpressionBody } from './banners.schemas';
import type { BannerDeps } from './banners.service';

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

async function resolve(deps: BannerDeps, body: ImpressionBody | ClickBody) {
  const bannerId = await internalId(deps, 'banner', body.bannerPublicId);
  if (bannerId === undefined) throw bannerErrors.bannerNotFound();
  const placementId = await internalId(deps, 'placement', body.placementPublicId);
  if (placementId === undefined) throw bannerErrors.placementNotFound();
  // An unknown campaign is accepted (interface): the event counts for the banner, without one.
  const campaignId = body.campaignPublicId
    ? await internalId(deps, 'campaign', body.campaignPublicId)
    : undefined;
  return {
    bannerId,
    placementId,
    ...(campaignId === undefined ? {} : { campaignId }),
    sessionId: body.sessionId,
    userId: body.userId,
    deviceType: body.deviceType,
    countryCode: body.countryCode,
    pageUrl: body.pageUrl,
    occurredAt: new Date(body.occurredAt).toISOString(),
    correlationId: body.correlationId,
  };
}

export async function trackImpression(
  deps: BannerDeps,
  job: TrackingJobs['impression'],
  body: ImpressionBody,
): Promise<void> {
  const payload = { ...(await resolve(deps, body)), referrerUrl: body.referrerUrl };
  await deps.jobs.enqueue(job, payload, { jobId: body.correlationId });
}

export async function trackClick(
  deps: BannerDeps,
  job: TrackingJobs['click'],
  body: ClickBody,
): Promise<void> {
  const payload = { ...(await resolve(deps, body)), destinationUrl: body.destinationUrl };
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
