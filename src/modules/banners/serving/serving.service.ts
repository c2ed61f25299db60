// Banner serving: the banners a placement shows to one visitor context (interface document 3,
// "Banner serving"). The placement is checked before the result is used; results are cached per
// slug and context hash; `servedAt` is stamped after the cache and never stored in it.

import { serializedWith } from '../../../platform/http/envelope';
import { servableAt } from '../banners/banners.schedule';
import { bannerErrors } from '../banners.errors';
import { type BannerDeps, SERVE_CACHE_PREFIX } from '../banners.service';
import { rulesMatch, type ServingContext } from '../campaigns/campaigns.targeting';
import * as placementRepo from '../placements/placements.repository';
import { contextHash } from './serving.context';
import * as repo from './serving.repository';
import { type ServedBanner, type ServedPlacement, servedSelection } from './serving.schemas';

interface PlacementEntry {
  id: number;
  view: ServedPlacement;
}

const placementKey = (slug: string) => `${SERVE_CACHE_PREFIX}placement:${slug}`;
const resultKey = (slug: string, hash: string) => `${SERVE_CACHE_PREFIX}result:${slug}:${hash}`;

/**
 * The active placement of a slug, or PLACEMENT_NOT_FOUND. Its lookup is kept under the serving
 * prefix, so the writes that clear serving results clear it too: a deactivated placement is
 * never served from a cached result.
 */
async function activePlacement(
  deps: BannerDeps,
  slug: string,
  ttlMs: number,
  cachedEntry: PlacementEntry | { missing: true } | undefined,
): Promise<PlacementEntry> {
  let entry = cachedEntry;
  if (!entry) {
    const row = await placementRepo.findPlacementBySlug(deps.db, slug);
    entry = row?.isActive
      ? {
          id: row.id,
          view: {
            slug: row.slug,
            label: row.label,
            layoutType: row.layoutType,
            maxBanners: row.maxBanners,
            allowPartialRender: row.allowPartialRender,
            fallbackPlaceholderUrl: row.fallbackPlaceholderUrl,
          },
        }
      : { missing: true };
    await cacheSet(deps, placementKey(slug), entry, ttlMs);
  }
  if ('missing' in entry) throw bannerErrors.placementNotFound();
  return entry;
}

/** The cache is an accelerator: when it fails, serving reads the database (and logs). */
async function cacheGet<T>(deps: BannerDeps, key: string, ttlMs: number): Promise<T | undefined> {
  if (ttlMs <= 0) return undefined;
  try {
    return await deps.cache.get<T>(key, { local: true });
  } catch (error) {
    deps.log.warn({ err: error }, 'banner serving cache read failed');
    return undefined;
  }
}

async function cacheSet(deps: BannerDeps, key: string, value: unknown, ttlMs: number): Promise<void> {
  if (ttlMs <= 0) return;
  try {
    await deps.cache.set(key, value, ttlMs, { local: true });
  } catch (error) {
    deps.log.warn({ err: error }, 'banner serving cache write failed');
  }
}

type Candidate = Awaited<ReturnType<typeof repo.servingCandidates>>[number];

const toServed = (c: Candidate): ServedBanner => {
  const { banner: b, assignment: a } = c;
  return {
    publicId: b.publicId,
    title: b.title,
    primaryImageUrl: b.primaryImageUrl,
    primaryImageAlt: b.primaryImageAlt,
    mobileImageUrl: b.mobileImageUrl,
    videoUrl: b.videoUrl,
    mediaVariants: b.mediaVariants,
    headline: a.overrideHeadline ?? b.headline,
    subheadline: a.overrideSubheadline ?? b.subheadline,
    ctaLabel: a.overrideCtaLabel ?? b.ctaLabel,
    ctaUrl: a.overrideCtaUrl ?? b.ctaUrl,
    ctaOpenNewTab: b.ctaOpenNewTab,
    utmSource: b.utmSource,
    utmMedium: b.utmMedium,
    utmCampaign: b.utmCampaign,
    utmContent: b.utmContent,
    bgColor: b.bgColor,
    transitionDurationMs: a.transitionDurationMs,
    isFallback: a.isFallback,
    displayOrder: a.displayOrder,
  };
};

/** Ties after the interface's keys: campaign priority, banner priority, then the oldest assignment. */
const tieBreak = (x: Candidate, y: Candidate) =>
  y.campaignPriority - x.campaignPriority ||
  y.banner.priority - x.banner.priority ||
  x.assignment.id - y.assignment.id;

/** The selection itself, without caches: exported for the tests of its ordering rules. */
export async function selectBanners(
  deps: Pick<BannerDeps, 'db'>,
  placement: { id: number; maxBanners: number; allowPartialRender: boolean },
  ctx: ServingContext,
  now: Date,
): Promise<ServedBanner[]> {
  const candidates = (await repo.servingCandidates(deps.db, placement.id, now)).filter((c) =>
    servableAt(c.banner, now),
  );
  const campaignIds = [...new Set(candidates.map((c) => c.assignment.campaignId))];
  const rules = await repo.activeRulesOf(deps.db, campaignIds);
  const matching = new Set(
    campaignIds.filter((id) =>
      rulesMatch(
        rules.filter((r) => r.campaignId === id),
        ctx,
        now,
      ),
    ),
  );
  const eligible = candidates.filter((c) => matching.has(c.assignment.campaignId));

  const primaries = eligible
    .filter((c) => !c.assignment.isFallback)
    .sort(
      (x, y) =>
        x.assignment.displayOrder - y.assignment.displayOrder ||
        y.assignment.weight - x.assignment.weight ||
        tieBreak(x, y),
    );
  const fallbacks = eligible
    .filter((c) => c.assignment.isFallback)
    .sort((x, y) => x.assignment.fallbackPriority - y.assignment.fallbackPriority || tieBreak(x, y));

  // A banner assigned through two campaigns is shown once, in its best place.
  const chosen: Candidate[] = [];
  const seen = new Set<number>();
  const take = (list: Candidate[]) => {
    for (const c of list) {
      if (chosen.length >= placement.maxBanners) return;
      if (seen.has(c.banner.id)) continue;
      seen.add(c.banner.id);
      chosen.push(c);
    }
  };
  take(primaries);
  if (chosen.length < placement.maxBanners && placement.allowPartialRender) take(fallbacks);
  return chosen.map(toServed);
}

/**
 * The `data` of a serving answer: the selection as JSON text and the time it is served. The
 * cache holds the selection already serialised (through the response schema, `servedSelection`),
 * so a hit costs no parsing or serialising; `servedAt` is never cached and is added to every
 * answer (`sendSerializedServed`).
 */
export async function serveBannersJson(
  deps: BannerDeps,
  slug: string,
  ctx: ServingContext,
): Promise<{ selection: string; servedAt: string }> {
  const ttlMs = deps.config.BANNER_SERVE_CACHE_TTL_SECONDS * 1000;
  const key = resultKey(slug, contextHash(ctx));
  // Both entries are asked for at once (one round trip to Redis), but the result is used only
  // once the placement is known to be active: the placement is still decided first.
  const [placementEntry, cached] = await Promise.all([
    cacheGet<PlacementEntry | { missing: true }>(deps, placementKey(slug), ttlMs),
    cacheGet<unknown>(deps, key, ttlMs),
  ]);
  const placement = await activePlacement(deps, slug, ttlMs, placementEntry);
  // Anything but text (an entry written by an older version) is read as a miss.
  let selection = typeof cached === 'string' ? cached : undefined;
  if (selection === undefined) {
    const banners = await selectBanners(
      deps,
      {
        id: placement.id,
        maxBanners: placement.view.maxBanners,
        allowPartialRender: placement.view.allowPartialRender,
      },
      ctx,
      deps.clock.now(),
    );
    selection = serializedWith(servedSelection, { placement: placement.view, banners });
    await cacheSet(deps, key, selection, ttlMs);
  }
  return { selection, servedAt: deps.clock.now().toISOString() };
}
