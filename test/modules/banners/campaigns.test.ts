// Placements, campaigns (with every lifecycle pair, allowed and refused), campaign placements,
// banner assignments and targeting rules: routes, defaults, codes, guards and activity.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { campaigns as campaignsTable } from '../../../src/modules/banners/banners.table';
import { createTestApp, type TestApp } from '../../helpers/app';
import { type SignedIn, signedInAdmin, signedInCustomer } from '../../helpers/factories';
import { bannerCalls, unique } from './banner-calls';

const NO_SUCH = '0190a000-0000-7000-8000-000000000000';

describe('placements, campaigns, assignments and targeting rules', () => {
  let t: TestApp;
  let admin: SignedIn;
  let customer: SignedIn;
  let http: ReturnType<typeof bannerCalls>;
  beforeAll(async () => {
    t = await createTestApp();
    admin = await signedInAdmin(t, { superadmin: true });
    customer = await signedInCustomer(t);
    http = bannerCalls(t, admin);
  });
  afterAll(() => t.close());

  describe('placements', () => {
    it('creates with defaults (201), keeps slugs unique (409 PLACEMENT_SLUG_EXISTS) and validates', async () => {
      const slug = `home-hero-${unique()}`;
      const p = await http.placement({ slug, label: 'Home hero', layoutType: 'full_slider' });
      expect(p).toMatchObject({
        slug,
        label: 'Home hero',
        layoutType: 'full_slider',
        maxBanners: 1,
        isActive: true,
        sortOrder: 0,
        allowPartialRender: false,
        pageContext: null,
        fallbackPlaceholderUrl: null,
      });
      await http.expectError(
        'POST',
        '/api/admin/placements',
        { slug, label: 'Again', layoutType: 'popup' },
        409,
        'PLACEMENT_SLUG_EXISTS',
      );
      const other = await http.placement();
      await http.expectError(
        'PATCH',
        `/api/admin/placements/${other.publicId}`,
        { slug },
        409,
        'PLACEMENT_SLUG_EXISTS',
      );
      for (const body of [
        { label: 'x', layoutType: 'popup' },
        { slug: 'Has Spaces', label: 'x', layoutType: 'popup' },
        { slug: `s-${unique()}`, label: 'x', layoutType: 'carousel' },
        { slug: `s-${unique()}`, label: 'x', layoutType: 'popup', maxBanners: 0 },
        { slug: `s-${unique()}`, label: 'x', layoutType: 'popup', sortOrder: -1 },
        { slug: `s-${unique()}`, label: '', layoutType: 'popup' },
        { slug: 'x'.repeat(101), label: 'x', layoutType: 'popup' },
      ]) {
        const res = await http.call('POST', '/api/admin/placements', body);
        expect(res.statusCode, JSON.stringify(body)).toBe(400);
        expect(res.json().errorCode).toBe('VALIDATION_ERROR');
      }
      expect((await http.activityOf('placement', p.publicId))[0]).toMatchObject({ action: 'create' });
    });

    it('gets, lists with meta and filters, patches, activates and deactivates', async () => {
      const ctx = `ctx-${unique()}`;
      const a = await http.placement({ pageContext: ctx, sortOrder: 2, label: 'A' });
      await http.placement({ pageContext: ctx, sortOrder: 1, label: 'B', layoutType: 'popup' });
      expect(await http.expectOk('GET', `/api/admin/placements/${a.publicId}`)).toEqual(a);
      await http.expectError(
        'GET',
        `/api/admin/placements/${NO_SUCH}`,
        undefined,
        404,
        'PLACEMENT_NOT_FOUND',
      );
      const list = (await http.call('GET', `/api/admin/placements?pageContext=${ctx}`)).json();
      expect(list.meta).toEqual({ count: 2, page: 1, size: 20 });
      expect(list.data.map((p: { label: string }) => p.label)).toEqual(['B', 'A']);
      const popups = (
        await http.call('GET', `/api/admin/placements?pageContext=${ctx}&layoutType=popup`)
      ).json();
      expect(popups.data.map((p: { label: string }) => p.label)).toEqual(['B']);
      const patched = await http.expectOk('PATCH', `/api/admin/placements/${a.publicId}`, {
        maxBanners: 3,
        allowPartialRender: true,
      });
      expect(patched).toMatchObject({ maxBanners: 3, allowPartialRender: true, label: 'A' });
      expect((await http.expectOk('PATCH', `/api/admin/placements/${a.publicId}/deactivate`)).isActive).toBe(
        false,
      );
      const inactive = (
        await http.call('GET', `/api/admin/placements?pageContext=${ctx}&isActive=false`)
      ).json();
      expect(inactive.data.map((p: { label: string }) => p.label)).toEqual(['A']);
      expect((await http.expectOk('PATCH', `/api/admin/placements/${a.publicId}/activate`)).isActive).toBe(
        true,
      );
      await http.expectError(
        'PATCH',
        `/api/admin/placements/${NO_SUCH}/activate`,
        undefined,
        404,
        'PLACEMENT_NOT_FOUND',
      );
      const actions = (await http.activityOf('placement', a.publicId)).map((x) => x.action);
      expect(actions.slice(0, 3)).toEqual(['activate', 'deactivate', 'update']);
    });

    it('deletes only without active assignments (409 PLACEMENT_HAS_ACTIVE_ASSIGNMENTS)', async () => {
      const p = await http.placement();
      const c = await http.campaign();
      const b = await http.banner();
      await http.link(c.publicId, p.publicId);
      await http.assign(c.publicId, p.publicId, b.publicId);
      await http.expectError(
        'DELETE',
        `/api/admin/placements/${p.publicId}`,
        undefined,
        409,
        'PLACEMENT_HAS_ACTIVE_ASSIGNMENTS',
      );
      await http.expectOk(
        'PATCH',
        `/api/admin/campaigns/${c.publicId}/placements/${p.publicId}/banners/${b.publicId}/deactivate`,
      );
      await http.expectOk('DELETE', `/api/admin/placements/${p.publicId}`);
      await http.expectError(
        'GET',
        `/api/admin/placements/${p.publicId}`,
        undefined,
        404,
        'PLACEMENT_NOT_FOUND',
      );
      // Its link went with it.
      await http.expectError(
        'GET',
        `/api/admin/campaigns/${c.publicId}/placements/${p.publicId}/banners`,
        undefined,
        404,
        'PLACEMENT_NOT_FOUND',
      );
      await http.expectError(
        'DELETE',
        `/api/admin/placements/${p.publicId}`,
        undefined,
        404,
        'PLACEMENT_NOT_FOUND',
      );
      expect((await http.activityOf('placement', p.publicId))[0]).toMatchObject({ action: 'delete' });
    });

    it('guards every route', async () => {
      const p = await http.placement();
      const id = p.publicId;
      for (const [method, url, permission, payload] of [
        ['GET', '/api/admin/placements', 'Placements_READ'],
        ['GET', `/api/admin/placements/${id}`, 'Placements_READ'],
        [
          'POST',
          '/api/admin/placements',
          'Placements_CREATE',
          { slug: 'g', label: 'g', layoutType: 'popup' },
        ],
        ['PATCH', `/api/admin/placements/${id}`, 'Placements_UPDATE', { label: 'x' }],
        ['DELETE', `/api/admin/placements/${id}`, 'Placements_DELETE'],
        ['PATCH', `/api/admin/placements/${id}/activate`, 'Placements_UPDATE'],
        ['PATCH', `/api/admin/placements/${id}/deactivate`, 'Placements_UPDATE'],
      ] as const)
        await http.expectGuarded(method, url, permission, customer, payload);
    });
  });

  describe('campaigns', () => {
    it('creates a draft whatever status is sent (201), with defaults; startsAt must be before endsAt', async () => {
      const c = await http.campaign({
        name: 'Tihar',
        status: 'active',
        startsAt: '2026-10-01T00:00:00Z',
        endsAt: '2026-11-01T00:00:00Z',
        budgetTotalPaisa: 500000,
        advertiserName: 'Patan Metalcraft',
      });
      expect(c).toMatchObject({
        name: 'Tihar',
        status: 'draft',
        source: 'internal',
        priority: 0,
        startsAt: '2026-10-01T00:00:00.000Z',
        endsAt: '2026-11-01T00:00:00.000Z',
        budgetTotalPaisa: 500000,
        budgetDailyPaisa: null,
        advertiserName: 'Patan Metalcraft',
        createdBy: admin.userId,
        deletedAt: null,
      });
      for (const [startsAt, endsAt] of [
        ['2026-11-01T00:00:00Z', '2026-10-01T00:00:00Z'],
        ['2026-10-01T00:00:00Z', '2026-10-01T00:00:00Z'],
      ])
        await http.expectError(
          'POST',
          '/api/admin/campaigns',
          { name: 'x', startsAt, endsAt },
          400,
          'CAMPAIGN_DATE_INVALID',
        );
      await http.expectError(
        'PATCH',
        `/api/admin/campaigns/${c.publicId}`,
        { endsAt: '2026-09-01T00:00:00Z' },
        400,
        'CAMPAIGN_DATE_INVALID',
      );
      for (const body of [
        {},
        { name: '' },
        { name: 'x', source: 'other' },
        { name: 'x', budgetTotalPaisa: -1 },
        { name: 'x', advertiserName: 'x'.repeat(256) },
      ]) {
        const res = await http.call('POST', '/api/admin/campaigns', body);
        expect(res.statusCode, JSON.stringify(body)).toBe(400);
        expect(res.json().errorCode).toBe('VALIDATION_ERROR');
      }
      expect((await http.activityOf('campaign', c.publicId))[0]).toMatchObject({ action: 'create' });
    });

    it('gets, lists with filters, patches', async () => {
      const tag = unique();
      const a = await http.campaign({ name: `${tag} A`, advertiserName: 'Acme' });
      const b = await http.activeCampaign({ name: `${tag} B` });
      expect(await http.expectOk('GET', `/api/admin/campaigns/${a.publicId}`)).toEqual(a);
      await http.expectError('GET', `/api/admin/campaigns/${NO_SUCH}`, undefined, 404, 'CAMPAIGN_NOT_FOUND');
      const list = (await http.call('GET', `/api/admin/campaigns?search=${tag}&sort=name&order=asc`)).json();
      expect(list.meta).toEqual({ count: 2, page: 1, size: 20 });
      expect(list.data.map((c: { name: string }) => c.name)).toEqual([`${tag} A`, `${tag} B`]);
      const active = (await http.call('GET', `/api/admin/campaigns?search=${tag}&status=active`)).json();
      expect(active.data.map((c: { publicId: string }) => c.publicId)).toEqual([b.publicId]);
      const patched = await http.expectOk('PATCH', `/api/admin/campaigns/${a.publicId}`, {
        priority: 7,
        description: 'd',
      });
      expect(patched).toMatchObject({ priority: 7, description: 'd', status: 'draft' });
      // status is not a PATCH field
      const res = await http.call('PATCH', `/api/admin/campaigns/${a.publicId}`, { status: 'active' });
      expect(res.statusCode).toBe(400);
    });

    describe('lifecycle: every transition pair', () => {
      const statuses = ['draft', 'scheduled', 'active', 'paused', 'ended', 'cancelled'] as const;
      const routes = {
        scheduled: 'schedule',
        active: 'activate',
        paused: 'pause',
        ended: 'end',
        cancelled: 'cancel',
      } as const;
      const allowed = new Set([
        'draft>scheduled',
        'draft>active',
        'draft>cancelled',
        'scheduled>active',
        'scheduled>paused',
        'scheduled>cancelled',
        'active>paused',
        'active>ended',
        'active>cancelled',
        'paused>active',
        'paused>ended',
        'paused>cancelled',
      ]);
      const pairs = statuses.flatMap((from) =>
        (Object.keys(routes) as Array<keyof typeof routes>).map((to) => [from, to] as const),
      );

      it.each(pairs)('%s → %s', async (from, to) => {
        const c = await http.campaign({ startsAt: '2030-01-01T00:00:00Z' });
        // Put the campaign in `from` directly: the test is about the move, not the way there.
        await t.platform.database.db
          .update(campaignsTable)
          .set({ status: from })
          .where(eq(campaignsTable.publicId, c.publicId));
        const res = await http.call('PATCH', `/api/admin/campaigns/${c.publicId}/${routes[to]}`);
        if (allowed.has(`${from}>${to}`)) {
          expect(res.statusCode, res.body).toBe(200);
          expect(res.json().data.status).toBe(to);
          expect((await http.activityOf('campaign', c.publicId))[0]).toMatchObject({ action: routes[to] });
        } else {
          expect(res.statusCode, res.body).toBe(400);
          expect(res.json()).toMatchObject({ errorCode: 'CAMPAIGN_INVALID_TRANSITION', from, to });
          expect((await http.expectOk('GET', `/api/admin/campaigns/${c.publicId}`)).status).toBe(from);
        }
      });

      it('scheduling needs startsAt (400 CAMPAIGN_DATE_INVALID); a scheduled campaign keeps it', async () => {
        const c = await http.campaign();
        await http.expectError(
          'PATCH',
          `/api/admin/campaigns/${c.publicId}/schedule`,
          undefined,
          400,
          'CAMPAIGN_DATE_INVALID',
        );
        expect((await http.expectOk('GET', `/api/admin/campaigns/${c.publicId}`)).status).toBe('draft');
        await http.expectOk('PATCH', `/api/admin/campaigns/${c.publicId}`, {
          startsAt: '2030-01-01T00:00:00Z',
        });
        expect((await http.expectOk('PATCH', `/api/admin/campaigns/${c.publicId}/schedule`)).status).toBe(
          'scheduled',
        );
        await http.expectError(
          'PATCH',
          `/api/admin/campaigns/${c.publicId}`,
          { startsAt: null },
          400,
          'CAMPAIGN_DATE_INVALID',
        );
      });

      it('a lifecycle move of an unknown or deleted campaign is 404 CAMPAIGN_NOT_FOUND', async () => {
        await http.expectError(
          'PATCH',
          `/api/admin/campaigns/${NO_SUCH}/activate`,
          undefined,
          404,
          'CAMPAIGN_NOT_FOUND',
        );
        const c = await http.campaign();
        await http.expectOk('DELETE', `/api/admin/campaigns/${c.publicId}`);
        await http.expectError(
          'PATCH',
          `/api/admin/campaigns/${c.publicId}/activate`,
          undefined,
          404,
          'CAMPAIGN_NOT_FOUND',
        );
        await http.expectError(
          'PATCH',
          `/api/admin/campaigns/${c.publicId}`,
          { name: 'x' },
          404,
          'CAMPAIGN_NOT_FOUND',
        );
      });

      it('two concurrent moves from one state: one wins, the other is refused', async () => {
        const c = await http.activeCampaign();
        const [a, b] = await Promise.all([
          http.call('PATCH', `/api/admin/campaigns/${c.publicId}/end`),
          http.call('PATCH', `/api/admin/campaigns/${c.publicId}/end`),
        ]);
        expect([a.statusCode, b.statusCode].sort()).toEqual([200, 400]);
      });
    });

    it('soft-deletes and restores, with CAMPAIGN_ALREADY_DELETED and CAMPAIGN_NOT_DELETED', async () => {
      const c = await http.campaign();
      await http.expectError(
        'POST',
        `/api/admin/campaigns/${c.publicId}/restore`,
        undefined,
        400,
        'CAMPAIGN_NOT_DELETED',
      );
      const deleted = await http.expectOk('DELETE', `/api/admin/campaigns/${c.publicId}`);
      expect(deleted.deletedAt).not.toBeNull();
      await http.expectError(
        'DELETE',
        `/api/admin/campaigns/${c.publicId}`,
        undefined,
        400,
        'CAMPAIGN_ALREADY_DELETED',
      );
      const listed = (
        await http.call('GET', `/api/admin/campaigns?search=${encodeURIComponent(c.name)}`)
      ).json();
      expect(listed.data).toHaveLength(0);
      const withDeleted = (
        await http.call(
          'GET',
          `/api/admin/campaigns?search=${encodeURIComponent(c.name)}&includeDeleted=true`,
        )
      ).json();
      expect(withDeleted.data).toHaveLength(1);
      expect(
        (await http.expectOk('POST', `/api/admin/campaigns/${c.publicId}/restore`)).deletedAt,
      ).toBeNull();
      await http.expectError(
        'DELETE',
        `/api/admin/campaigns/${NO_SUCH}`,
        undefined,
        404,
        'CAMPAIGN_NOT_FOUND',
      );
      await http.expectError(
        'POST',
        `/api/admin/campaigns/${NO_SUCH}/restore`,
        undefined,
        404,
        'CAMPAIGN_NOT_FOUND',
      );
      const actions = (await http.activityOf('campaign', c.publicId)).map((a) => a.action);
      expect(actions.slice(0, 2)).toEqual(['restore', 'delete']);
    });

    it('guards every route', async () => {
      const c = await http.campaign();
      const id = c.publicId;
      for (const [method, url, permission, payload] of [
        ['GET', '/api/admin/campaigns', 'Campaigns_READ'],
        ['GET', `/api/admin/campaigns/${id}`, 'Campaigns_READ'],
        ['POST', '/api/admin/campaigns', 'Campaigns_CREATE', { name: 'g' }],
        ['PATCH', `/api/admin/campaigns/${id}`, 'Campaigns_UPDATE', { name: 'g' }],
        ['DELETE', `/api/admin/campaigns/${id}`, 'Campaigns_DELETE'],
        ['POST', `/api/admin/campaigns/${id}/restore`, 'Campaigns_UPDATE'],
        ['PATCH', `/api/admin/campaigns/${id}/schedule`, 'Campaigns_UPDATE'],
        ['PATCH', `/api/admin/campaigns/${id}/activate`, 'Campaigns_UPDATE'],
        ['PATCH', `/api/admin/campaigns/${id}/pause`, 'Campaigns_UPDATE'],
        ['PATCH', `/api/admin/campaigns/${id}/end`, 'Campaigns_UPDATE'],
        ['PATCH', `/api/admin/campaigns/${id}/cancel`, 'Campaigns_UPDATE'],
      ] as const)
        await http.expectGuarded(method, url, permission, customer, payload);
    });
  });

  describe('campaign placements and assignments', () => {
    it('links a campaign to a placement (201), refuses a duplicate, toggles and removes the link', async () => {
      const c = await http.campaign();
      const p = await http.placement();
      const link = await http.link(c.publicId, p.publicId);
      expect(link).toMatchObject({
        campaignPublicId: c.publicId,
        placementPublicId: p.publicId,
        placementSlug: p.slug,
        isActive: true,
      });
      await http.expectError(
        'POST',
        `/api/admin/campaigns/${c.publicId}/placements`,
        { placementPublicId: p.publicId },
        409,
        'CAMPAIGN_PLACEMENT_ALREADY_EXISTS',
      );
      await http.expectError(
        'POST',
        `/api/admin/campaigns/${c.publicId}/placements`,
        { placementPublicId: NO_SUCH },
        404,
        'PLACEMENT_NOT_FOUND',
      );
      await http.expectError(
        'POST',
        `/api/admin/campaigns/${NO_SUCH}/placements`,
        { placementPublicId: p.publicId },
        404,
        'CAMPAIGN_NOT_FOUND',
      );
      await http.expectError(
        'POST',
        `/api/admin/campaigns/${c.publicId}/placements`,
        { placementPublicId: 'x' },
        400,
        'VALIDATION_ERROR',
      );
      const base = `/api/admin/campaigns/${c.publicId}/placements/${p.publicId}`;
      expect((await http.expectOk('PATCH', `${base}/deactivate`)).isActive).toBe(false);
      expect((await http.expectOk('PATCH', `${base}/activate`)).isActive).toBe(true);
      const other = await http.placement();
      await http.expectError(
        'PATCH',
        `/api/admin/campaigns/${c.publicId}/placements/${other.publicId}/activate`,
        undefined,
        404,
        'CAMPAIGN_PLACEMENT_NOT_FOUND',
      );
      const inactive = await http.link(c.publicId, other.publicId, { isActive: false });
      expect(inactive.isActive).toBe(false);
      await http.expectOk('DELETE', base);
      await http.expectError('DELETE', base, undefined, 404, 'CAMPAIGN_PLACEMENT_NOT_FOUND');
      const actions = (await http.activityOf('campaign_placement', `${c.publicId}/${p.publicId}`)).map(
        (a) => a.action,
      );
      expect(actions).toEqual(['delete', 'activate', 'deactivate', 'create']);
    });

    it('assigns banners with defaults (201), lists them in serving order, updates, toggles and removes them', async () => {
      const c = await http.campaign();
      const p = await http.placement();
      const [b1, b2, b3] = [await http.banner(), await http.banner(), await http.banner()];
      await http.link(c.publicId, p.publicId);
      const base = `/api/admin/campaigns/${c.publicId}/placements/${p.publicId}/banners`;
      const a1 = await http.assign(c.publicId, p.publicId, b1.publicId);
      expect(a1).toMatchObject({
        bannerPublicId: b1.publicId,
        bannerTitle: b1.title,
        displayOrder: 0,
        weight: 100,
        isFallback: false,
        fallbackPriority: 0,
        isActive: true,
        overrideCtaLabel: null,
        transitionDurationMs: null,
      });
      await http.assign(c.publicId, p.publicId, b2.publicId, {
        displayOrder: 0,
        weight: 200,
        overrideHeadline: 'Override',
      });
      await http.assign(c.publicId, p.publicId, b3.publicId, { isFallback: true, fallbackPriority: 1 });
      await http.expectError(
        'POST',
        base,
        { bannerPublicId: b1.publicId },
        409,
        'BANNER_ASSIGNMENT_ALREADY_EXISTS',
      );
      await http.expectError('POST', base, { bannerPublicId: NO_SUCH }, 404, 'BANNER_NOT_FOUND');
      await http.expectError(
        'POST',
        base,
        { bannerPublicId: b1.publicId, weight: -1 },
        400,
        'VALIDATION_ERROR',
      );
      const list = await http.expectOk('GET', base);
      expect(list.map((a: { bannerPublicId: string }) => a.bannerPublicId)).toEqual([
        b2.publicId,
        b1.publicId,
        b3.publicId,
      ]);

      const updated = await http.expectOk('PATCH', `${base}/${b1.publicId}`, {
        displayOrder: 5,
        overrideCtaUrl: 'https://x.example.com',
      });
      expect(updated).toMatchObject({
        displayOrder: 5,
        overrideCtaUrl: 'https://x.example.com',
        weight: 100,
      });
      await http.expectError(
        'PATCH',
        `${base}/${b1.publicId}`,
        { bannerPublicId: b2.publicId },
        400,
        'VALIDATION_ERROR',
      );
      expect((await http.expectOk('PATCH', `${base}/${b1.publicId}/deactivate`)).isActive).toBe(false);
      expect((await http.expectOk('PATCH', `${base}/${b1.publicId}/activate`)).isActive).toBe(true);
      await http.expectOk('DELETE', `${base}/${b1.publicId}`);
      await http.expectError(
        'DELETE',
        `${base}/${b1.publicId}`,
        undefined,
        404,
        'BANNER_ASSIGNMENT_NOT_FOUND',
      );
      await http.expectError(
        'PATCH',
        `${base}/${b1.publicId}`,
        { weight: 1 },
        404,
        'BANNER_ASSIGNMENT_NOT_FOUND',
      );
      await http.expectError(
        'PATCH',
        `${base}/${NO_SUCH}/activate`,
        undefined,
        404,
        'BANNER_ASSIGNMENT_NOT_FOUND',
      );
      const actions = (
        await http.activityOf('banner_assignment', `${c.publicId}/${p.publicId}/${b1.publicId}`)
      ).map((a) => a.action);
      expect(actions).toEqual(['delete', 'activate', 'deactivate', 'update', 'create']);

      // Without a link: CAMPAIGN_PLACEMENT_NOT_FOUND.
      const unlinked = await http.placement();
      await http.expectError(
        'POST',
        `/api/admin/campaigns/${c.publicId}/placements/${unlinked.publicId}/banners`,
        { bannerPublicId: b1.publicId },
        404,
        'CAMPAIGN_PLACEMENT_NOT_FOUND',
      );
      await http.expectError(
        'GET',
        `/api/admin/campaigns/${c.publicId}/placements/${unlinked.publicId}/banners`,
        undefined,
        404,
        'CAMPAIGN_PLACEMENT_NOT_FOUND',
      );
      // Removing the link removes its assignments.
      await http.expectOk('DELETE', `/api/admin/campaigns/${c.publicId}/placements/${p.publicId}`);
      await http.link(c.publicId, p.publicId);
      expect(await http.expectOk('GET', base)).toEqual([]);
    });

    it('guards every route', async () => {
      const c = await http.campaign();
      const p = await http.placement();
      const b = await http.banner();
      await http.link(c.publicId, p.publicId);
      await http.assign(c.publicId, p.publicId, b.publicId);
      const link = `/api/admin/campaigns/${c.publicId}/placements/${p.publicId}`;
      for (const [method, url, permission, payload] of [
        [
          'POST',
          `/api/admin/campaigns/${c.publicId}/placements`,
          'Assignments_CREATE',
          { placementPublicId: p.publicId },
        ],
        ['DELETE', link, 'Assignments_DELETE'],
        ['PATCH', `${link}/activate`, 'Assignments_UPDATE'],
        ['PATCH', `${link}/deactivate`, 'Assignments_UPDATE'],
        ['GET', `${link}/banners`, 'Assignments_READ'],
        ['POST', `${link}/banners`, 'Assignments_CREATE', { bannerPublicId: b.publicId }],
        ['PATCH', `${link}/banners/${b.publicId}`, 'Assignments_UPDATE', { weight: 1 }],
        ['DELETE', `${link}/banners/${b.publicId}`, 'Assignments_DELETE'],
        ['PATCH', `${link}/banners/${b.publicId}/activate`, 'Assignments_UPDATE'],
        ['PATCH', `${link}/banners/${b.publicId}/deactivate`, 'Assignments_UPDATE'],
      ] as const)
        await http.expectGuarded(method, url, permission, customer, payload);
    });
  });

  describe('targeting rules', () => {
    it('creates (201), lists per campaign, updates and deletes rules', async () => {
      const c = await http.campaign();
      const r1 = await http.rule(c.publicId, { ruleType: 'country', operator: 'in', value: ['np', 'in'] });
      expect(r1).toMatchObject({
        campaignPublicId: c.publicId,
        ruleType: 'country',
        operator: 'in',
        value: ['NP', 'IN'],
        isActive: true,
      });
      const r2 = await http.rule(c.publicId, {
        ruleType: 'hour_of_day',
        operator: 'between',
        value: { from: 22, to: 2, timezone: 'Asia/Kathmandu' },
        isActive: false,
      });
      expect(r2.isActive).toBe(false);
      const list = await http.expectOk('GET', `/api/admin/targeting-rules?campaignPublicId=${c.publicId}`);
      expect(list.map((r: { publicId: string }) => r.publicId)).toEqual([r1.publicId, r2.publicId]);
      await http.expectError(
        'GET',
        `/api/admin/targeting-rules?campaignPublicId=${NO_SUCH}`,
        undefined,
        404,
        'CAMPAIGN_NOT_FOUND',
      );
      await http.expectError('GET', '/api/admin/targeting-rules', undefined, 400, 'VALIDATION_ERROR');

      const updated = await http.expectOk('PATCH', `/api/admin/targeting-rules/${r1.publicId}`, {
        operator: 'not_in',
      });
      expect(updated).toMatchObject({ operator: 'not_in', value: ['NP', 'IN'] });
      const retyped = await http.expectOk('PATCH', `/api/admin/targeting-rules/${r1.publicId}`, {
        ruleType: 'login_state',
        operator: 'eq',
        value: 'logged_in',
      });
      expect(retyped).toMatchObject({ ruleType: 'login_state', operator: 'eq', value: 'logged_in' });
      await http.expectError(
        'PATCH',
        `/api/admin/targeting-rules/${r1.publicId}`,
        { operator: 'in' },
        400,
        'TARGETING_RULE_INVALID_OPERATOR',
      );
      await http.expectError(
        'PATCH',
        `/api/admin/targeting-rules/${r1.publicId}`,
        { value: 'sometimes' },
        400,
        'VALIDATION_ERROR',
      );
      await http.expectError(
        'PATCH',
        `/api/admin/targeting-rules/${NO_SUCH}`,
        { isActive: false },
        404,
        'TARGETING_RULE_NOT_FOUND',
      );
      await http.expectOk('DELETE', `/api/admin/targeting-rules/${r1.publicId}`);
      await http.expectError(
        'DELETE',
        `/api/admin/targeting-rules/${r1.publicId}`,
        undefined,
        404,
        'TARGETING_RULE_NOT_FOUND',
      );
      const actions = (await http.activityOf('targeting_rule', r1.publicId)).map((a) => a.action);
      expect(actions).toEqual(['delete', 'update', 'update', 'create']);
    });

    it('checks the operator per rule type (TARGETING_RULE_INVALID_OPERATOR) and the value shape (VALIDATION_ERROR)', async () => {
      const c = await http.campaign();
      const post = (body: Record<string, unknown>) =>
        http.call('POST', '/api/admin/targeting-rules', { campaignPublicId: c.publicId, ...body });
      for (const [ruleType, operator] of [
        ['device', 'eq'],
        ['country', 'between'],
        ['login_state', 'in'],
        ['new_visitor', 'not_in'],
        ['hour_of_day', 'in'],
        ['day_of_week', 'not_in'],
        ['referrer_domain', 'eq'],
        ['user_segment', 'contains'],
        ['language', 'eq'],
      ]) {
        const res = await post({ ruleType, operator, value: ['x'] });
        expect(res.statusCode, `${ruleType} ${operator}`).toBe(400);
        expect(res.json().errorCode).toBe('TARGETING_RULE_INVALID_OPERATOR');
      }
      for (const body of [
        { ruleType: 'device', operator: 'in', value: ['watch'] },
        { ruleType: 'country', operator: 'in', value: 'NP' },
        { ruleType: 'new_visitor', operator: 'eq', value: 'true' },
        { ruleType: 'hour_of_day', operator: 'between', value: { from: 9 } },
        { ruleType: 'day_of_week', operator: 'in', value: { days: [9] } },
        { ruleType: 'referrer_domain', operator: 'in', value: [] },
        { ruleType: 'weather', operator: 'in', value: ['sunny'] },
        { ruleType: 'device', operator: 'in' },
      ]) {
        const res = await post(body);
        expect(res.statusCode, JSON.stringify(body)).toBe(400);
        expect(res.json().errorCode).toBe('VALIDATION_ERROR');
      }
      const unknown = await http.call('POST', '/api/admin/targeting-rules', {
        campaignPublicId: NO_SUCH,
        ruleType: 'device',
        operator: 'in',
        value: ['mobile'],
      });
      expect(unknown.json().errorCode).toBe('CAMPAIGN_NOT_FOUND');
    });

    it('guards every route', async () => {
      const c = await http.campaign();
      const r = await http.rule(c.publicId, { ruleType: 'new_visitor', operator: 'eq', value: true });
      for (const [method, url, permission, payload] of [
        ['GET', `/api/admin/targeting-rules?campaignPublicId=${c.publicId}`, 'TargetingRules_READ'],
        [
          'POST',
          '/api/admin/targeting-rules',
          'TargetingRules_CREATE',
          { campaignPublicId: c.publicId, ruleType: 'new_visitor', operator: 'eq', value: true },
        ],
        ['PATCH', `/api/admin/targeting-rules/${r.publicId}`, 'TargetingRules_UPDATE', { isActive: false }],
        ['DELETE', `/api/admin/targeting-rules/${r.publicId}`, 'TargetingRules_DELETE'],
      ] as const)
        await http.expectGuarded(method, url, permission, customer, payload);
    });
  });
});
