// The admin reads the back office's banner screens need beyond the interface (docs/api-notes.md,
// "Banner figures per day"): a campaign's placement links, and impressions and clicks per UTC
// day, banner and campaign (rolled-up days from the rollup, today from the events).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rollupStats } from '../../../src/modules/banners/banners.jobs';
import type { BannerDeps } from '../../../src/modules/banners/banners.service';
import { TestClock } from '../../../src/platform/clock';
import { createTestApp, type TestApp } from '../../helpers/app';
import { type SignedIn, signedInAdmin, signedInCustomer } from '../../helpers/factories';
import { bannerCalls, depsOf, unique } from './banner-calls';

describe('banner figures per day and campaign placement links', () => {
  let t: TestApp;
  let customer: SignedIn;
  let http: ReturnType<typeof bannerCalls>;
  let deps: BannerDeps;
  const clock = new TestClock('2026-03-02T10:00:00Z');
  let f: {
    p: { publicId: string; slug: string };
    c: { publicId: string; name: string };
    b: { publicId: string; title: string };
  };
  let other: { publicId: string };
  let ip = 0;

  const track = async (
    kind: 'impression' | 'click',
    occurredAt: string,
    campaignPublicId: string | null = f.c.publicId,
  ) => {
    ip += 1;
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/banners/events/${kind}`,
      remoteAddress: `10.7.0.${ip}`,
      payload: {
        bannerPublicId: f.b.publicId,
        placementPublicId: f.p.publicId,
        ...(campaignPublicId ? { campaignPublicId } : {}),
        occurredAt,
        correlationId: `figures-${unique()}`,
        ...(kind === 'click' ? { destinationUrl: '/sale' } : {}),
      },
    });
    expect(res.statusCode, res.body).toBe(202);
  };

  beforeAll(async () => {
    t = await createTestApp({ clock });
    deps = depsOf(t);
    customer = await signedInCustomer(t);
    http = bannerCalls(t, await signedInAdmin(t, { superadmin: true }));
    const p = await http.placement({ sortOrder: 2 });
    const c = await http.activeCampaign();
    const b = await http.banner();
    await http.link(c.publicId, p.publicId);
    await http.assign(c.publicId, p.publicId, b.publicId);
    f = { p, c, b };
    other = await http.activeCampaign();
  });
  afterAll(() => t.close());

  describe('GET /api/admin/campaigns/:publicId/placements', () => {
    it("lists the campaign's links in the placements' order, with their slugs", async () => {
      const first = await http.placement({ sortOrder: 1 });
      await http.link(f.c.publicId, first.publicId, { isActive: false });
      const links = await http.expectOk('GET', `/api/admin/campaigns/${f.c.publicId}/placements`);
      expect(
        links.map((l: { placementSlug: string; isActive: boolean }) => [l.placementSlug, l.isActive]),
      ).toEqual([
        [first.slug, false],
        [f.p.slug, true],
      ]);
      expect(links[1]).toMatchObject({ campaignPublicId: f.c.publicId, placementPublicId: f.p.publicId });
      expect(await http.expectOk('GET', `/api/admin/campaigns/${other.publicId}/placements`)).toEqual([]);
      await http.expectOk('DELETE', `/api/admin/campaigns/${f.c.publicId}/placements/${first.publicId}`);
    });

    it('answers 404 CAMPAIGN_NOT_FOUND for an unknown or deleted campaign, and is guarded', async () => {
      await http.expectError(
        'GET',
        '/api/admin/campaigns/01900000-0000-7000-8000-000000000000/placements',
        undefined,
        404,
        'CAMPAIGN_NOT_FOUND',
      );
      const gone = await http.campaign();
      await http.expectOk('DELETE', `/api/admin/campaigns/${gone.publicId}`);
      await http.expectError(
        'GET',
        `/api/admin/campaigns/${gone.publicId}/placements`,
        undefined,
        404,
        'CAMPAIGN_NOT_FOUND',
      );
      await http.expectGuarded(
        'GET',
        `/api/admin/campaigns/${f.c.publicId}/placements`,
        'Assignments_READ',
        customer,
      );
    });
  });

  describe('GET /api/admin/banner-stats/daily', () => {
    const url = '/api/admin/banner-stats/daily';

    it('gives rolled-up days from the rollup and today from the events, per banner and campaign', async () => {
      await track('impression', '2026-03-01T12:00:00Z');
      await track('click', '2026-03-01T12:01:00Z');
      await t.drainJobs();
      await rollupStats(deps, '2026-03-01');
      // After the rollup: a late event of yesterday counts from the next rollup on, not before.
      await track('impression', '2026-03-01T23:00:00Z');
      await track('impression', '2026-03-02T09:00:00Z');
      await track('impression', '2026-03-02T09:30:00Z');
      await track('click', '2026-03-02T09:31:00Z');
      // Without a campaign there is no figure (the rollup's rule).
      await track('impression', '2026-03-02T09:40:00Z', null);
      await t.drainJobs();

      const figures = await http.expectOk('GET', url);
      expect(figures).toMatchObject({ from: '2026-02-01', to: '2026-03-02' });
      const row = {
        bannerPublicId: f.b.publicId,
        bannerTitle: f.b.title,
        campaignPublicId: f.c.publicId,
        campaignName: f.c.name,
      };
      expect(figures.rows).toEqual([
        { date: '2026-03-01', ...row, impressions: 1, clicks: 1 },
        { date: '2026-03-02', ...row, impressions: 2, clicks: 1 },
      ]);

      await rollupStats(deps, '2026-03-01');
      const again = await http.expectOk('GET', `${url}?from=2026-03-01&to=2026-03-01`);
      expect(again).toEqual({
        from: '2026-03-01',
        to: '2026-03-01',
        rows: [{ date: '2026-03-01', ...row, impressions: 2, clicks: 1 }],
      });
    });

    it('filters by campaign and by banner', async () => {
      expect((await http.expectOk('GET', `${url}?campaignPublicId=${other.publicId}`)).rows).toEqual([]);
      const byCampaign = await http.expectOk('GET', `${url}?campaignPublicId=${f.c.publicId}`);
      expect(byCampaign.rows).toHaveLength(2);
      const byBanner = await http.expectOk(
        'GET',
        `${url}?bannerPublicId=${f.b.publicId}&from=2026-03-02&to=2026-03-02`,
      );
      expect(byBanner.rows.map((r: { date: string }) => r.date)).toEqual(['2026-03-02']);
      const otherBanner = await http.banner();
      expect((await http.expectOk('GET', `${url}?bannerPublicId=${otherBanner.publicId}`)).rows).toEqual([]);
    });

    it('checks the range: from and to together, in order, at most 366 days', async () => {
      const onlyFrom = await http.expectError(
        'GET',
        `${url}?from=2026-03-01`,
        undefined,
        400,
        'VALIDATION_ERROR',
      );
      expect(onlyFrom.details.map((d: { path: string }) => d.path)).toContain('to');
      const reversed = await http.expectError(
        'GET',
        `${url}?from=2026-03-02&to=2026-03-01`,
        undefined,
        400,
        'VALIDATION_ERROR',
      );
      expect(reversed.details.map((d: { path: string }) => d.path)).toContain('from');
      await http.expectError(
        'GET',
        `${url}?from=2025-03-01&to=2026-03-02`,
        undefined,
        400,
        'VALIDATION_ERROR',
      );
      expect((await http.expectOk('GET', `${url}?from=2025-03-02&to=2026-03-02`)).rows).toHaveLength(2);
      await http.expectError('GET', `${url}?from=2026-3-1&to=2026-03-02`, undefined, 400, 'VALIDATION_ERROR');
    });

    it('is guarded by Campaigns_READ', async () => {
      await http.expectGuarded('GET', url, 'Campaigns_READ', customer);
    });
  });
});
