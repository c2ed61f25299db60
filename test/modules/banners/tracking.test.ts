// Impression and click tracking (202 after queueing, deduplicated by correlationId, also when
// two processes race on PostgreSQL; nothing lost when no worker runs), the schedule sync job
// (condition-based, catches up) and the daily rollup (overwrite, batches, identical re-runs).
import { and, count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ROLLUP_BATCH_SIZE,
  rollupStats,
  scheduleJobs,
  syncScheduleStatus,
} from '../../../src/modules/banners/banners.jobs';
import type { BannerDeps } from '../../../src/modules/banners/banners.service';
import {
  bannerClicks,
  bannerDailyStats,
  bannerImpressions,
} from '../../../src/modules/banners/banners.table';
import { recordImpression } from '../../../src/modules/banners/tracking/tracking.service';
import { TestClock } from '../../../src/platform/clock';
import { createTestApp, type TestApp } from '../../helpers/app';
import { signedInAdmin, signedInCustomer } from '../../helpers/factories';
import { servicesTier } from '../../helpers/services';
import { bannerCalls, depsOf, unique } from './banner-calls';

let ipSeq = 0;
const newIp = () => {
  ipSeq += 1;
  return `10.9.${(ipSeq >> 8) & 255}.${ipSeq & 255}`;
};

function tracker(t: TestApp) {
  return (kind: 'impression' | 'click', payload: Record<string, unknown>, remoteAddress = newIp()) =>
    t.app.inject({ method: 'POST', url: `/api/banners/events/${kind}`, payload, remoteAddress });
}

async function fixture(t: TestApp) {
  const http = bannerCalls(t, await signedInAdmin(t, { superadmin: true }));
  const p = await http.placement();
  const c = await http.activeCampaign();
  const b = await http.banner();
  await http.link(c.publicId, p.publicId);
  await http.assign(c.publicId, p.publicId, b.publicId);
  return { http, p, c, b };
}

const impressionsOf = (t: TestApp, correlationId: string) =>
  t.platform.database.db
    .select()
    .from(bannerImpressions)
    .where(eq(bannerImpressions.correlationId, correlationId));

describe('banner tracking', () => {
  let t: TestApp;
  let track: ReturnType<typeof tracker>;
  let f: Awaited<ReturnType<typeof fixture>>;
  beforeAll(async () => {
    // The events below happen within a day of the server's clock (docs/decisions.md, "Banner events").
    t = await createTestApp({ clock: new TestClock('2026-03-02T06:00:00Z') });
    track = tracker(t);
    f = await fixture(t);
  });
  afterAll(() => t.close());

  const event = (extra: Record<string, unknown> = {}) => ({
    bannerPublicId: f.b.publicId,
    placementPublicId: f.p.publicId,
    campaignPublicId: f.c.publicId,
    occurredAt: '2026-03-02T10:30:00+05:45',
    correlationId: `corr-${unique()}`,
    ...extra,
  });

  it('accepts an impression with 202 { message, data: null } and records it through the job', async () => {
    const me = await signedInCustomer(t);
    const body = event({
      sessionId: 's-1',
      userId: me.userId,
      deviceType: 'mobile',
      countryCode: 'np',
      pageUrl: 'https://shop.example.com/',
      referrerUrl: 'https://news.example.com/',
    });
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/banners/events/impression',
      payload: body,
      headers: me.headers,
      remoteAddress: newIp(),
    });
    expect(res.statusCode).toBe(202);
    expect(res.json()).toEqual({ message: expect.any(String), data: null });
    await t.drainJobs();
    const rows = await impressionsOf(t, body.correlationId);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      sessionId: 's-1',
      userId: me.userId,
      deviceType: 'mobile',
      countryCode: 'NP',
      pageUrl: 'https://shop.example.com/',
      referrerUrl: 'https://news.example.com/',
      occurredAt: new Date('2026-03-02T04:45:00Z'),
    });
    expect(rows[0]!.campaignId).toEqual(expect.any(Number));
  });

  it('accepts a click with its destinationUrl', async () => {
    const body = event({ destinationUrl: 'https://shop.example.com/bowls' });
    expect((await track('click', body)).statusCode).toBe(202);
    await t.drainJobs();
    const rows = await t.platform.database.db
      .select()
      .from(bannerClicks)
      .where(eq(bannerClicks.correlationId, body.correlationId));
    expect(rows).toHaveLength(1);
    expect(rows[0]!.destinationUrl).toBe('https://shop.example.com/bowls');
    const missing = await track('click', event());
    expect(missing.statusCode).toBe(400);
    expect(missing.json().errorCode).toBe('VALIDATION_ERROR');
  });

  describe('what an event may claim (docs/decisions.md, "Banner events")', () => {
    it('a banner not assigned to the placement: 404 BANNER_NOT_FOUND, nothing recorded', async () => {
      const elsewhere = await f.http.placement();
      const body = event({ placementPublicId: elsewhere.publicId });
      const res = await track('click', { ...body, destinationUrl: '/x' });
      expect(res.statusCode, res.body).toBe(404);
      expect(res.json().errorCode).toBe('BANNER_NOT_FOUND');
      await t.drainJobs();
      expect(await impressionsOf(t, body.correlationId)).toHaveLength(0);
    });

    it('a campaign that does not link the banner and placement is dropped; the event stays', async () => {
      const other = await f.http.activeCampaign();
      const body = event({ campaignPublicId: other.publicId });
      expect((await track('impression', body)).statusCode).toBe(202);
      await t.drainJobs();
      const [row] = await impressionsOf(t, body.correlationId);
      expect(row).toMatchObject({ bannerId: expect.any(Number), campaignId: null });
    });

    it('a time more than a day from the server clock becomes the server time', async () => {
      for (const occurredAt of ['1999-01-01T00:00:00Z', '2999-01-01T00:00:00Z', '2026-03-03T06:00:01Z']) {
        const body = event({ occurredAt });
        expect((await track('impression', body)).statusCode).toBe(202);
        await t.drainJobs();
        const [row] = await impressionsOf(t, body.correlationId);
        expect(row!.occurredAt).toEqual(t.platform.clock.now());
      }
      const within = event({ occurredAt: '2026-03-01T06:00:01Z' });
      await track('impression', within);
      await t.drainJobs();
      expect((await impressionsOf(t, within.correlationId))[0]!.occurredAt).toEqual(
        new Date('2026-03-01T06:00:01Z'),
      );
    });

    it("a userId is kept only with that customer's own access token", async () => {
      const me = await signedInCustomer(t);
      const someoneElse = await signedInCustomer(t);
      const admin = await signedInAdmin(t, { superadmin: true });
      const cases: Array<[Record<string, string>, string | null]> = [
        [{}, null],
        [someoneElse.headers, null],
        [admin.headers, null],
        [{ authorization: 'Bearer not-a-token' }, null],
        [me.headers, me.userId],
      ];
      for (const [headers, kept] of cases) {
        const body = event({ userId: me.userId });
        const res = await t.app.inject({
          method: 'POST',
          url: '/api/banners/events/impression',
          payload: body,
          headers,
          remoteAddress: newIp(),
        });
        expect(res.statusCode, res.body).toBe(202);
        await t.drainJobs();
        expect((await impressionsOf(t, body.correlationId))[0]!.userId).toBe(kept);
      }
    });

    it.each([
      'javascript:alert(1)',
      '//evil.example',
      '/\\evil.example',
      ' /leading-space',
      'data:text/html,x',
    ])('a click to %j: 400 VALIDATION_ERROR', async (destinationUrl) => {
      const res = await track('click', event({ destinationUrl }));
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().errorCode).toBe('VALIDATION_ERROR');
    });
  });

  it('answers 404 for an unknown banner or placement, and accepts an unknown or missing campaign', async () => {
    const noBanner = await track(
      'impression',
      event({ bannerPublicId: '0190a000-0000-7000-8000-000000000000' }),
    );
    expect(noBanner.statusCode).toBe(404);
    expect(noBanner.json().errorCode).toBe('BANNER_NOT_FOUND');
    const noPlacement = await track(
      'click',
      event({ placementPublicId: '0190a000-0000-7000-8000-000000000000', destinationUrl: '/x' }),
    );
    expect(noPlacement.statusCode).toBe(404);
    expect(noPlacement.json().errorCode).toBe('PLACEMENT_NOT_FOUND');
    const unknownCampaign = event({ campaignPublicId: '0190a000-0000-7000-8000-000000000000' });
    expect((await track('impression', unknownCampaign)).statusCode).toBe(202);
    const noCampaign = event({ campaignPublicId: undefined });
    expect((await track('impression', noCampaign)).statusCode).toBe(202);
    await t.drainJobs();
    expect((await impressionsOf(t, unknownCampaign.correlationId))[0]!.campaignId).toBeNull();
    expect((await impressionsOf(t, noCampaign.correlationId))[0]!.campaignId).toBeNull();
  });

  it('validates the body', async () => {
    for (const body of [
      event({ occurredAt: undefined }),
      event({ occurredAt: 'yesterday' }),
      event({ correlationId: undefined }),
      event({ correlationId: 'x'.repeat(129) }),
      event({ sessionId: 'x'.repeat(129) }),
      event({ deviceType: 'x'.repeat(21) }),
      event({ countryCode: 'NPL' }),
      event({ userId: 'not-a-uuid' }),
      event({ bannerPublicId: 'x' }),
    ]) {
      const res = await track('impression', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().errorCode).toBe('VALIDATION_ERROR');
    }
  });

  it('ignores a repeated correlationId: one row, whether the repeat comes later or at once', async () => {
    const body = event();
    for (let i = 0; i < 3; i++) expect((await track('impression', body)).statusCode).toBe(202);
    await t.drainJobs();
    expect((await track('impression', body)).statusCode).toBe(202);
    const burst = event();
    const answers = await Promise.all(Array.from({ length: 10 }, () => track('impression', burst)));
    expect(answers.every((r) => r.statusCode === 202)).toBe(true);
    await t.drainJobs();
    expect(await impressionsOf(t, body.correlationId)).toHaveLength(1);
    expect(await impressionsOf(t, burst.correlationId)).toHaveLength(1);
    // The same id as a click is another event.
    const click = { ...body, destinationUrl: '/x' };
    expect((await track('click', click)).statusCode).toBe(202);
    await t.drainJobs();
    const [clicks] = await t.platform.database.db
      .select({ n: count() })
      .from(bannerClicks)
      .where(eq(bannerClicks.correlationId, body.correlationId));
    expect(clicks!.n).toBe(1);
  });

  it('allows 600 events per minute per IP, then 429 RATE_LIMITED', async () => {
    const ip = newIp();
    // Invalid bodies: the limit counts requests before validation, and nothing is queued.
    for (let i = 0; i < 600; i++) expect((await track('impression', {}, ip)).statusCode).toBe(400);
    const limited = await track('click', {}, ip);
    expect(limited.statusCode).toBe(429);
    expect(limited.json().errorCode).toBe('RATE_LIMITED');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
  });
});

describe('a correlationId recorded by two processes at once', () => {
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => {
    a = await createTestApp();
    b = await createTestApp({
      database: a.platform.database,
      env: { REDIS_PREFIX: a.platform.config.REDIS_PREFIX },
    });
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  it('makes exactly one row (unique constraint, ON CONFLICT DO NOTHING)', async () => {
    const f = await fixture(a);
    const ids = { bannerId: 0, placementId: 0 };
    // The job payload carries internal ids: read them from a first recorded event.
    await tracker(a)('impression', {
      bannerPublicId: f.b.publicId,
      placementPublicId: f.p.publicId,
      occurredAt: '2026-03-02T10:30:00Z',
      correlationId: 'seed',
    });
    await a.drainJobs();
    const [seed] = await impressionsOf(a, 'seed');
    ids.bannerId = seed!.bannerId;
    ids.placementId = seed!.placementId;

    for (let round = 0; round < 5; round++) {
      const correlationId = `race-${round}-${unique()}`;
      const payload = { ...ids, occurredAt: '2026-03-02T10:30:00.000Z', correlationId };
      // Straight to the writer on both processes' pools, bypassing the queue's job-id dedup.
      const results = await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          recordImpression({ db: (i % 2 ? a : b).platform.database.db }, payload),
        ),
      );
      expect(results.filter(Boolean)).toHaveLength(1);
      expect(await impressionsOf(a, correlationId)).toHaveLength(1);
    }

    // And through HTTP on both processes at once.
    const body = {
      bannerPublicId: f.b.publicId,
      placementPublicId: f.p.publicId,
      occurredAt: '2026-03-02T10:30:00Z',
      correlationId: `http-race-${unique()}`,
    };
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, i) => tracker(i % 2 ? a : b)('impression', body)),
    );
    expect(answers.map((r) => r.statusCode)).toEqual(Array(6).fill(202));
    await a.drainJobs();
    await b.drainJobs();
    expect(await impressionsOf(a, body.correlationId)).toHaveLength(1);
  });
});

describe.runIf(servicesTier)('tracking while no worker runs (BullMQ)', () => {
  let api: TestApp;
  let worker: TestApp | undefined;
  beforeAll(async () => {
    api = await createTestApp({ role: 'api', startJobs: false });
  });
  afterAll(async () => {
    await worker?.close();
    await api?.close();
  });

  it('keeps the queued events and records them once a worker starts', async () => {
    expect(api.platform.jobs.driver).toBe('bullmq');
    const f = await fixture(api);
    const track = tracker(api);
    const sent: string[] = [];
    for (let i = 0; i < 20; i++) {
      const correlationId = `offline-${i}-${unique()}`;
      sent.push(correlationId);
      const res = await track(i % 2 ? 'click' : 'impression', {
        bannerPublicId: f.b.publicId,
        placementPublicId: f.p.publicId,
        campaignPublicId: f.c.publicId,
        occurredAt: '2026-03-02T10:30:00Z',
        correlationId,
        ...(i % 2 ? { destinationUrl: '/x' } : {}),
      });
      expect(res.statusCode).toBe(202);
    }
    await new Promise((r) => setTimeout(r, 300));
    const db = api.platform.database.db;
    const counted = async () => {
      const [i] = await db.select({ n: count() }).from(bannerImpressions);
      const [c] = await db.select({ n: count() }).from(bannerClicks);
      return i!.n + c!.n;
    };
    expect(await counted()).toBe(0);

    // A worker process of the same deployment starts later and takes the waiting jobs.
    worker = await createTestApp({
      role: 'worker',
      database: api.platform.database,
      env: { REDIS_PREFIX: api.platform.config.REDIS_PREFIX },
    });
    await worker.drainJobs();
    for (let i = 0; i < 50 && (await counted()) < 20; i++) await new Promise((r) => setTimeout(r, 100));
    expect(await counted()).toBe(20);
  });
});

describe('banner jobs', () => {
  let t: TestApp;
  let deps: BannerDeps;
  let http: Awaited<ReturnType<typeof fixture>>['http'];
  const clock = new TestClock('2026-03-02T10:00:00Z');
  beforeAll(async () => {
    t = await createTestApp({ clock, env: { BANNER_SERVE_CACHE_TTL_SECONDS: '3600' } });
    deps = depsOf(t);
    http = bannerCalls(t, await signedInAdmin(t, { superadmin: true }));
  });
  afterAll(() => t.close());

  it('sync: moves banners and campaigns by their dates, catches up missed runs, clears the serving cache', async () => {
    const p = await http.placement({ maxBanners: 5 });
    const live = await http.activeCampaign();
    await http.link(live.publicId, p.publicId);
    const soon = await http.banner({ scheduleStatus: 'scheduled', publishAt: '2026-03-02T10:05:00Z' });
    const ending = await http.banner({
      scheduleStatus: 'active',
      publishAt: '2026-03-01T00:00:00Z',
      expiresAt: '2026-03-02T10:05:00Z',
    });
    const both = await http.banner({
      scheduleStatus: 'scheduled',
      publishAt: '2026-03-02T10:02:00Z',
      expiresAt: '2026-03-02T10:04:00Z',
    });
    for (const b of [soon, ending, both]) await http.assign(live.publicId, p.publicId, b.publicId);
    const starting = await http.campaign({
      startsAt: '2026-03-02T10:05:00Z',
      endsAt: '2026-03-02T12:00:00Z',
    });
    await http.expectOk('PATCH', `/api/admin/campaigns/${starting.publicId}/schedule`);
    const finishing = await http.activeCampaign({ endsAt: '2026-03-02T10:05:00Z' });
    const status = async (kind: 'banners' | 'campaigns', id: string) => {
      const r = await http.expectOk('GET', `/api/admin/${kind}/${id}`);
      return kind === 'banners' ? r.scheduleStatus : r.status;
    };
    const serveTitles = async () =>
      (await t.app.inject({ method: 'GET', url: `/api/banners/serve/${p.slug}` }))
        .json()
        .data.banners.map((b: { publicId: string }) => b.publicId);

    expect(await syncScheduleStatus(deps)).toBe(0);
    expect(await serveTitles()).toEqual([ending.publicId]);

    // Ten minutes pass without a run: one run catches up every change.
    clock.set('2026-03-02T10:10:00Z');
    expect(await serveTitles()).toEqual([ending.publicId]); // still the cached answer
    expect(await syncScheduleStatus(deps)).toBe(5);
    expect(await status('banners', soon.publicId)).toBe('active');
    expect(await status('banners', ending.publicId)).toBe('expired');
    expect(await status('banners', both.publicId)).toBe('expired');
    expect(await status('campaigns', starting.publicId)).toBe('active');
    expect(await status('campaigns', finishing.publicId)).toBe('ended');
    // The serving cache was cleared by the changes.
    expect(await serveTitles()).toEqual([soon.publicId]);
    // Nothing left to do: nothing changes, the cache stays.
    expect(await syncScheduleStatus(deps)).toBe(0);

    // A deleted banner is left alone.
    const deleted = await http.banner({ scheduleStatus: 'scheduled', publishAt: '2026-03-02T10:11:00Z' });
    await http.expectOk('DELETE', `/api/admin/banners/${deleted.publicId}`);
    clock.set('2026-03-02T10:12:00Z'); // (the admin's token lives 15 min)
    await syncScheduleStatus(deps);
    expect(await status('banners', deleted.publicId)).toBe('scheduled');
  });

  it(`rollup: aggregates one UTC day per (banner, placement, campaign) in batches of ${ROLLUP_BATCH_SIZE}, overwriting; re-runs give identical rows`, async () => {
    const db = t.platform.database.db;
    const day = '2026-02-10';
    const combos = 250; // more than two batches
    const impressions = [];
    for (let i = 0; i < combos; i++) {
      const n = (i % 3) + 1;
      for (let k = 0; k < n; k++) {
        impressions.push({
          correlationId: `r-${i}-${k}`,
          bannerId: 100_000 + i,
          placementId: 7,
          campaignId: 9,
          occurredAt: new Date(`${day}T${String((i + k) % 24).padStart(2, '0')}:15:00Z`),
        });
      }
    }
    // Outside the day, or without a campaign: not counted.
    impressions.push(
      {
        correlationId: 'r-before',
        bannerId: 100_000,
        placementId: 7,
        campaignId: 9,
        occurredAt: new Date('2026-02-09T23:59:59Z'),
      },
      {
        correlationId: 'r-after',
        bannerId: 100_000,
        placementId: 7,
        campaignId: 9,
        occurredAt: new Date('2026-02-11T00:00:00Z'),
      },
      {
        correlationId: 'r-none',
        bannerId: 100_000,
        placementId: 7,
        campaignId: null,
        occurredAt: new Date(`${day}T12:00:00Z`),
      },
    );
    for (let i = 0; i < impressions.length; i += 200)
      await db.insert(bannerImpressions).values(impressions.slice(i, i + 200));
    await db.insert(bannerClicks).values([
      {
        correlationId: 'c-1',
        bannerId: 100_000,
        placementId: 7,
        campaignId: 9,
        occurredAt: new Date(`${day}T00:00:00Z`),
      },
      {
        correlationId: 'c-2',
        bannerId: 100_000,
        placementId: 7,
        campaignId: 9,
        occurredAt: new Date(`${day}T23:59:59Z`),
      },
      // A click-only combination still gets its row.
      {
        correlationId: 'c-3',
        bannerId: 200_000,
        placementId: 7,
        campaignId: 9,
        occurredAt: new Date(`${day}T08:00:00Z`),
      },
    ]);

    expect(await rollupStats(deps, '2026-02-09')).toBe(1);
    expect(await rollupStats(deps, day)).toBe(combos + 1);
    const read = () =>
      db
        .select()
        .from(bannerDailyStats)
        .where(eq(bannerDailyStats.statDate, day))
        .orderBy(bannerDailyStats.bannerId);
    const first = await read();
    expect(first).toHaveLength(combos + 1);
    expect(first[0]).toMatchObject({
      bannerId: 100_000,
      placementId: 7,
      campaignId: 9,
      impressions: 1,
      clicks: 2,
      spendPaisa: null,
    });
    expect(first[2]).toMatchObject({ bannerId: 100_002, impressions: 3, clicks: 0 });
    expect(first.at(-1)).toMatchObject({ bannerId: 200_000, impressions: 0, clicks: 1 });

    clock.advance(3_600_000);
    await rollupStats(deps, day);
    expect(await read()).toEqual(first);

    // A late event: the next run overwrites that row (no double counting), the rest stay as they were.
    await db.insert(bannerImpressions).values({
      correlationId: 'r-late',
      bannerId: 100_000,
      placementId: 7,
      campaignId: 9,
      occurredAt: new Date(`${day}T13:00:00Z`),
    });
    await rollupStats(deps, day);
    const third = await read();
    expect(third[0]).toMatchObject({ impressions: 2, clicks: 2 });
    expect(third.slice(1)).toEqual(first.slice(1));
    await rollupStats(deps, day);
    expect(await read()).toEqual(third);
    // Other days are untouched.
    const [other] = await db
      .select({ n: count() })
      .from(bannerDailyStats)
      .where(eq(bannerDailyStats.statDate, '2026-02-09'));
    expect(other!.n).toBe(1);
  });

  it('rollup: the nightly tick rolls up yesterday (UTC) under the date as job id', async () => {
    const db = t.platform.database.db;
    clock.set('2026-03-05T01:00:00Z');
    await db.insert(bannerImpressions).values({
      correlationId: `y-${unique()}`,
      bannerId: 300_000,
      placementId: 8,
      campaignId: 10,
      occurredAt: new Date('2026-03-04T18:00:00Z'),
    });
    await scheduleJobs(deps).rollup.handler({}, { attempt: 1, jobId: 'tick' });
    await t.drainJobs();
    for (let i = 0; i < 50; i++) {
      const rows = await db
        .select()
        .from(bannerDailyStats)
        .where(and(eq(bannerDailyStats.statDate, '2026-03-04'), eq(bannerDailyStats.bannerId, 300_000)));
      if (rows.length) {
        expect(rows[0]).toMatchObject({ impressions: 1, clicks: 0, campaignId: 10 });
        return;
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error('the rollup of yesterday did not run');
  });
});
