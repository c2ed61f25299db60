// The banner scenarios of `npm run bench` (see bench/README.md, "Banners"): serving a placement
// from the cache and without it, and impression tracking throughput with a check, once the
// queue has drained, that every unique correlation id sent became exactly one row.
import { randomBytes } from 'node:crypto';
import autocannon from 'autocannon';
import { count, eq, like } from 'drizzle-orm';
import {
  bannerAssignments,
  bannerImpressions,
  banners,
  campaignPlacements,
  campaigns,
  placements,
} from '../src/modules/banners/banners.table';
import { newUuid } from '../src/platform/ids';
import { withDatabase } from './database';

export const BENCH_PLACEMENT = 'bench-hero';
/** Passed to the Pasal child as METRICS_TOKEN: the drain check reads its job counters. */
export const METRICS_TOKEN = randomBytes(24).toString('base64url');
/** Every correlation id of this run starts with it, so a reused PostgreSQL database counts only this run. */
const RUN = randomBytes(4).toString('hex');

export interface BannerFixture {
  bannerPublicId: string;
  placementPublicId: string;
  campaignPublicId: string;
}

/**
 * A placement with a running campaign and three banners (written straight to the tables before
 * the server starts: PGlite admits one process). Kept when it is already there.
 */
export function prepareBanners(env: NodeJS.ProcessEnv): Promise<BannerFixture> {
  return withDatabase(env, async (db) => {
    const [existing] = await db
      .select({ placement: placements, link: campaignPlacements })
      .from(placements)
      .innerJoin(campaignPlacements, eq(campaignPlacements.placementId, placements.id))
      .where(eq(placements.slug, BENCH_PLACEMENT));
    if (existing) {
      const [c] = await db.select().from(campaigns).where(eq(campaigns.id, existing.link.campaignId));
      const [a] = await db
        .select({ publicId: banners.publicId })
        .from(bannerAssignments)
        .innerJoin(banners, eq(banners.id, bannerAssignments.bannerId))
        .where(eq(bannerAssignments.placementId, existing.placement.id));
      return {
        bannerPublicId: a!.publicId,
        placementPublicId: existing.placement.publicId,
        campaignPublicId: c!.publicId,
      };
    }
    const [placement] = await db
      .insert(placements)
      .values({
        publicId: newUuid(),
        slug: BENCH_PLACEMENT,
        label: 'Bench hero',
        layoutType: 'full_slider',
        maxBanners: 3,
      })
      .returning();
    const [campaign] = await db
      .insert(campaigns)
      .values({ publicId: newUuid(), name: 'Bench campaign', status: 'active' })
      .returning();
    await db.insert(campaignPlacements).values({ campaignId: campaign!.id, placementId: placement!.id });
    let first: string | undefined;
    for (let i = 0; i < 3; i++) {
      const [banner] = await db
        .insert(banners)
        .values({
          publicId: newUuid(),
          title: `Bench banner ${i + 1}`,
          primaryImageUrl: `/images/bench-${i + 1}.webp`,
          headline: 'Headline',
          ctaLabel: 'Shop now',
          ctaUrl: '/products',
        })
        .returning();
      first ??= banner!.publicId;
      await db.insert(bannerAssignments).values({
        campaignId: campaign!.id,
        placementId: placement!.id,
        bannerId: banner!.id,
        displayOrder: i,
      });
    }
    return {
      bannerPublicId: first!,
      placementPublicId: placement!.publicId,
      campaignPublicId: campaign!.publicId,
    };
  });
}

export const servePath = `/api/banners/serve/${BENCH_PLACEMENT}`;

export interface TrackingFigures {
  /**
   * Requests sent (warm-up included), each with a correlation id; every fifth repeats the one
   * before. The last request of each connection may be cut off by the end of the run, so rows
   * must lie between the unique ids answered 202 and the unique ids sent (at most `connections` apart).
   */
  sent: number;
  uniqueSent: number;
  /** 202 answers received, and the distinct correlation ids among them. */
  accepted: number;
  uniqueAccepted: number;
  acceptedPerSecond: number;
  /** Rows in banner_impressions with this run's ids, counted after the queue drained. */
  recorded?: number;
}

/** POSTs impressions for `duration` seconds (after a warm-up that counts as sent too). */
export async function measureTracking(
  baseUrl: string,
  fixture: BannerFixture,
  duration: number,
  opts: { connections: number; warmupSeconds: number },
): Promise<{ result: autocannon.Result; figures: TrackingFigures; latencies: number[] }> {
  let seq = 0;
  const unique = new Set<number>();
  const acceptedIds = new Set<number>();
  const next = (context: { id?: number }) => {
    const n = seq++;
    const id = n % 5 === 4 ? n - 1 : n; // a repeat: must not make a second row
    unique.add(id);
    context.id = id; // one request in flight per connection: its answer is this id's
    return JSON.stringify({
      bannerPublicId: fixture.bannerPublicId,
      placementPublicId: fixture.placementPublicId,
      campaignPublicId: fixture.campaignPublicId,
      occurredAt: new Date().toISOString(),
      sessionId: 'bench',
      correlationId: `bench-${RUN}-${id}`,
    });
  };
  let accepted = 0;
  const latencies: number[] = [];
  const run = (seconds: number, record: boolean) =>
    new Promise<autocannon.Result>((resolve, reject) => {
      const instance = autocannon(
        {
          url: `${baseUrl}/api/banners/events/impression`,
          connections: opts.connections,
          duration: seconds,
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          requests: [
            {
              setupRequest: (request, context) => ({ ...request, body: next(context as { id?: number }) }),
              onResponse: (status, _body, context) => {
                if (status !== 202) return;
                accepted += 1;
                acceptedIds.add((context as { id: number }).id);
              },
            },
          ],
        },
        (error, result) => (error ? reject(error) : resolve(result)),
      );
      if (record) instance.on('response', (_client, _status, _bytes, ms) => latencies.push(ms));
    });
  await run(opts.warmupSeconds, false);
  const acceptedBefore = accepted;
  const result = await run(duration, true);
  return {
    result,
    latencies,
    figures: {
      sent: seq,
      uniqueSent: unique.size,
      accepted,
      uniqueAccepted: acceptedIds.size,
      acceptedPerSecond: (accepted - acceptedBefore) / duration,
    },
  };
}

/** Waits until the impression jobs stop completing (the in-process queue drops waiting jobs on stop). */
export async function waitForTrackingDrain(baseUrl: string, timeoutMs = 120_000): Promise<number> {
  const completed = async () => {
    const response = await fetch(`${baseUrl}/metrics`, {
      headers: { authorization: `Bearer ${METRICS_TOKEN}` },
    });
    const text = await response.text();
    const line = text
      .split('\n')
      .find(
        (l) =>
          l.startsWith('jobs_total{') &&
          l.includes('name="banner.record_impression"') &&
          l.includes('outcome="completed"'),
      );
    return line ? Number(line.split(' ').at(-1)) : 0;
  };
  const deadline = Date.now() + timeoutMs;
  let last = -1;
  let stableSince = Date.now();
  while (Date.now() < deadline) {
    const now = await completed();
    if (now !== last) {
      last = now;
      stableSince = Date.now();
    } else if (Date.now() - stableSince >= 2_000) return now;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error('impression jobs did not drain in time');
}

/** Rows of this run's correlation ids (open the database only once the server has stopped). */
export function countRecordedImpressions(env: NodeJS.ProcessEnv): Promise<number> {
  return withDatabase(env, async (db) => {
    const [row] = await db
      .select({ n: count() })
      .from(bannerImpressions)
      .where(like(bannerImpressions.correlationId, `bench-${RUN}-%`));
    return row?.n ?? 0;
  });
}
