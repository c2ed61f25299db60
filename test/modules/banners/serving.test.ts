// GET /api/banners/serve/:slug: the selection (campaign status and window, links and
// assignments, banner schedule and recurrence windows, AND of targeting rules, ordering,
// maxBanners, fallbacks, overrides), the context headers, the per-slug-and-context cache
// (placement checked first, servedAt never cached, every write clears it) and the rate limit.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVE_CACHE_PREFIX } from '../../../src/modules/banners/banners.service';
import { banners as bannersTable } from '../../../src/modules/banners/banners.table';
import { contextHash, servingContext } from '../../../src/modules/banners/serving/serving.context';
import { TestClock } from '../../../src/platform/clock';
import { createTestApp, type TestApp } from '../../helpers/app';
import { type SignedIn, signedInAdmin } from '../../helpers/factories';
import { servicesTier } from '../../helpers/services';
import { bannerCalls } from './banner-calls';

let ipSeq = 0;
const newIp = () => {
  ipSeq += 1;
  return `10.${(ipSeq >> 16) & 255}.${(ipSeq >> 8) & 255}.${ipSeq & 255}`;
};

function server(t: TestApp) {
  return async (slug: string, headers: Record<string, string> = {}, remoteAddress = newIp()) =>
    t.app.inject({ method: 'GET', url: `/api/banners/serve/${slug}`, headers, remoteAddress });
}

const START = '2026-03-02T10:30:00.000Z'; // a Monday

describe('banner serving: selection', () => {
  let t: TestApp;
  let admin: SignedIn;
  let http: ReturnType<typeof bannerCalls>;
  let serve: ReturnType<typeof server>;
  const clock = new TestClock(START);
  beforeAll(async () => {
    // No result cache here: these tests move the clock between reads.
    t = await createTestApp({ clock, env: { BANNER_SERVE_CACHE_TTL_SECONDS: '0' } });
    admin = await signedInAdmin(t, { superadmin: true });
    http = bannerCalls(t, admin);
    serve = server(t);
  });
  afterAll(() => t.close());

  /** A placement with one active campaign linked to it. */
  async function slot(placement: Record<string, unknown> = {}, campaign: Record<string, unknown> = {}) {
    const p = await http.placement(placement);
    const c = await http.activeCampaign(campaign);
    await http.link(c.publicId, p.publicId);
    return { p, c };
  }
  const servedIds = async (slug: string, headers: Record<string, string> = {}) => {
    const res = await serve(slug, headers);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data.banners.map((b: { publicId: string }) => b.publicId) as string[];
  };

  it('answers 404 PLACEMENT_NOT_FOUND for an unknown or inactive placement, and an empty list for an empty one', async () => {
    const missing = await serve('no-such-slot');
    expect(missing.statusCode).toBe(404);
    expect(missing.json().errorCode).toBe('PLACEMENT_NOT_FOUND');
    const p = await http.placement({
      label: 'Empty',
      layoutType: 'popup',
      fallbackPlaceholderUrl: '/ph.webp',
    });
    const res = await serve(p.slug);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      message: expect.any(String),
      data: {
        placement: {
          slug: p.slug,
          label: 'Empty',
          layoutType: 'popup',
          maxBanners: 1,
          allowPartialRender: false,
          fallbackPlaceholderUrl: '/ph.webp',
        },
        banners: [],
        servedAt: START,
      },
    });
    await http.expectOk('PATCH', `/api/admin/placements/${p.publicId}/deactivate`);
    expect((await serve(p.slug)).json().errorCode).toBe('PLACEMENT_NOT_FOUND');
  });

  it('serves the banner fields with the assignment overrides', async () => {
    const { p, c } = await slot();
    const b = await http.banner({
      title: 'Bowls',
      primaryImageAlt: 'Alt',
      mobileImageUrl: '/m.webp',
      mediaVariants: { ne: '/ne.webp' },
      headline: 'Own headline',
      subheadline: 'Own sub',
      ctaLabel: 'Own label',
      ctaUrl: '/own',
      ctaOpenNewTab: true,
      utmSource: 'us',
      utmMedium: 'um',
      utmCampaign: 'uc',
      utmContent: 'ux',
      bgColor: '#112233',
    });
    await http.assign(c.publicId, p.publicId, b.publicId, {
      overrideHeadline: 'Campaign headline',
      overrideCtaUrl: '/campaign',
      transitionDurationMs: 4000,
      displayOrder: 3,
    });
    const served = (await serve(p.slug)).json().data.banners;
    expect(served).toEqual([
      {
        publicId: b.publicId,
        title: 'Bowls',
        primaryImageUrl: b.primaryImageUrl,
        primaryImageAlt: 'Alt',
        mobileImageUrl: '/m.webp',
        videoUrl: null,
        mediaVariants: { ne: '/ne.webp' },
        headline: 'Campaign headline',
        subheadline: 'Own sub',
        ctaLabel: 'Own label',
        ctaUrl: '/campaign',
        ctaOpenNewTab: true,
        utmSource: 'us',
        utmMedium: 'um',
        utmCampaign: 'uc',
        utmContent: 'ux',
        bgColor: '#112233',
        transitionDurationMs: 4000,
        isFallback: false,
        displayOrder: 3,
      },
    ]);
  });

  it('uses only active, live campaigns inside their window, through active links and assignments', async () => {
    const p = await http.placement({ maxBanners: 20 });
    const cases: Array<[string, boolean, (c: { publicId: string }) => Promise<void>]> = [
      ['active', true, async () => {}],
      [
        'draft',
        false,
        async (c) =>
          void (await http.expectOk('PATCH', `/api/admin/campaigns/${c.publicId}`, { name: 'draft' })),
      ],
      [
        'paused',
        false,
        async (c) => void (await http.expectOk('PATCH', `/api/admin/campaigns/${c.publicId}/pause`)),
      ],
      [
        'ended',
        false,
        async (c) => void (await http.expectOk('PATCH', `/api/admin/campaigns/${c.publicId}/end`)),
      ],
      [
        'deleted',
        false,
        async (c) => void (await http.expectOk('DELETE', `/api/admin/campaigns/${c.publicId}`)),
      ],
      [
        'starts later',
        false,
        async (c) =>
          void (await http.expectOk('PATCH', `/api/admin/campaigns/${c.publicId}`, {
            startsAt: '2026-03-03T00:00:00Z',
          })),
      ],
      [
        'started',
        true,
        async (c) =>
          void (await http.expectOk('PATCH', `/api/admin/campaigns/${c.publicId}`, {
            startsAt: '2026-03-01T00:00:00Z',
          })),
      ],
      [
        'ended by date',
        false,
        async (c) =>
          void (await http.expectOk('PATCH', `/api/admin/campaigns/${c.publicId}`, {
            endsAt: '2026-03-02T10:30:00Z',
          })),
      ],
      [
        'ends later',
        true,
        async (c) =>
          void (await http.expectOk('PATCH', `/api/admin/campaigns/${c.publicId}`, {
            endsAt: '2026-03-02T10:30:01Z',
          })),
      ],
      [
        'link inactive',
        false,
        async (c) =>
          void (await http.expectOk(
            'PATCH',
            `/api/admin/campaigns/${c.publicId}/placements/${p.publicId}/deactivate`,
          )),
      ],
    ];
    const expected: string[] = [];
    for (const [name, shown, arrange] of cases) {
      const isDraft = name === 'draft';
      const c = isDraft ? await http.campaign() : await http.activeCampaign();
      await http.link(c.publicId, p.publicId);
      const b = await http.banner({ title: name });
      await http.assign(c.publicId, p.publicId, b.publicId);
      await arrange(c);
      if (shown) expected.push(b.publicId);
    }
    // An inactive assignment in an otherwise good campaign.
    const c = await http.activeCampaign();
    await http.link(c.publicId, p.publicId);
    const hidden = await http.banner({ title: 'assignment inactive' });
    await http.assign(c.publicId, p.publicId, hidden.publicId);
    await http.expectOk(
      'PATCH',
      `/api/admin/campaigns/${c.publicId}/placements/${p.publicId}/banners/${hidden.publicId}/deactivate`,
    );
    expect((await servedIds(p.slug)).sort()).toEqual(expected.sort());
  });

  it('serves banners by schedule status, window and recurrence window; inactive and deleted banners never', async () => {
    const { p, c } = await slot({ maxBanners: 20 });
    const make = async (title: string, body: Record<string, unknown>) => {
      const b = await http.banner({ title, ...body });
      await http.assign(c.publicId, p.publicId, b.publicId);
      return b.publicId as string;
    };
    const evergreen = await make('evergreen', {});
    await make('draft', { scheduleStatus: 'draft' });
    await make('expired', { scheduleStatus: 'expired' });
    const published = await make('scheduled, published', {
      scheduleStatus: 'scheduled',
      publishAt: '2026-03-02T10:00:00Z',
    });
    const later = await make('scheduled, later', {
      scheduleStatus: 'scheduled',
      publishAt: '2026-03-02T11:00:00Z',
    });
    const active = await make('active', {
      scheduleStatus: 'active',
      publishAt: '2026-03-01T00:00:00Z',
      expiresAt: '2026-03-02T10:31:00Z',
    });
    const morning = await make('window 09–11', {
      recurrenceWindowStart: '09:00:00',
      recurrenceWindowEnd: '11:00:00',
    });
    const evening = await make('window 18–20 Kathmandu', {
      scheduleTimezone: 'Asia/Kathmandu',
      recurrenceWindowStart: '18:00:00',
      recurrenceWindowEnd: '20:00:00',
    });
    const inactive = await make('inactive', {});
    await http.expectOk('PATCH', `/api/admin/banners/${inactive}/deactivate`);
    const deleted = await make('deleted', {});
    await http.expectOk('DELETE', `/api/admin/banners/${deleted}`);

    expect((await servedIds(p.slug)).sort()).toEqual([evergreen, published, active, morning].sort());
    clock.set('2026-03-02T11:00:00Z'); // 16:45 in Kathmandu: the active one has expired, the later one starts
    expect((await servedIds(p.slug)).sort()).toEqual([evergreen, published, later, morning].sort());
    clock.set('2026-03-02T12:30:00Z'); // 18:15 in Kathmandu
    expect((await servedIds(p.slug)).sort()).toEqual([evergreen, published, later, evening].sort());
    clock.set(START);
  });

  it('orders primaries by displayOrder then weight, fills maxBanners, then fallbacks by fallbackPriority when partial render is allowed', async () => {
    const { p, c } = await slot({ maxBanners: 4, allowPartialRender: true });
    const add = async (title: string, body: Record<string, unknown>) => {
      const b = await http.banner({ title });
      await http.assign(c.publicId, p.publicId, b.publicId, body);
      return b.publicId as string;
    };
    const second = await add('order 1 weight 50', { displayOrder: 1, weight: 50 });
    const first = await add('order 1 weight 300', { displayOrder: 1, weight: 300 });
    const zero = await add('order 0', { displayOrder: 0, weight: 1 });
    const fb2 = await add('fallback 2', { isFallback: true, fallbackPriority: 2 });
    const fb1 = await add('fallback 1', { isFallback: true, fallbackPriority: 1 });
    const res = (await serve(p.slug)).json().data.banners;
    expect(res.map((b: { publicId: string }) => b.publicId)).toEqual([zero, first, second, fb1]);
    expect(res.map((b: { isFallback: boolean }) => b.isFallback)).toEqual([false, false, false, true]);

    // Without partial render, fallbacks stay out.
    await http.expectOk('PATCH', `/api/admin/placements/${p.publicId}`, { allowPartialRender: false });
    expect(await servedIds(p.slug)).toEqual([zero, first, second]);
    // maxBanners cuts the primaries.
    await http.expectOk('PATCH', `/api/admin/placements/${p.publicId}`, {
      maxBanners: 2,
      allowPartialRender: true,
    });
    expect(await servedIds(p.slug)).toEqual([zero, first]);
    // Fallbacks alone when no primary is eligible.
    for (const id of [zero, first, second])
      await http.expectOk(
        'PATCH',
        `/api/admin/campaigns/${c.publicId}/placements/${p.publicId}/banners/${id}/deactivate`,
      );
    expect(await servedIds(p.slug)).toEqual([fb1, fb2]);
  });

  it('shows a banner assigned through two campaigns once', async () => {
    const { p, c } = await slot({ maxBanners: 5 });
    const c2 = await http.activeCampaign();
    await http.link(c2.publicId, p.publicId);
    const b = await http.banner();
    await http.assign(c.publicId, p.publicId, b.publicId);
    await http.assign(c2.publicId, p.publicId, b.publicId);
    expect(await servedIds(p.slug)).toEqual([b.publicId]);
  });

  it('applies the active targeting rules of each campaign with AND, from the context headers', async () => {
    const p = await http.placement({ maxBanners: 10 });
    const campaignWith = async (title: string, rules: Array<Record<string, unknown>>) => {
      const c = await http.activeCampaign();
      await http.link(c.publicId, p.publicId);
      const b = await http.banner({ title });
      await http.assign(c.publicId, p.publicId, b.publicId);
      for (const r of rules) await http.rule(c.publicId, r);
      return b.publicId as string;
    };
    const everyone = await campaignWith('everyone', []);
    const mobileNepal = await campaignWith('mobile in Nepal', [
      { ruleType: 'device', operator: 'in', value: ['mobile'] },
      { ruleType: 'country', operator: 'in', value: ['NP'] },
    ]);
    const loggedIn = await campaignWith('logged in', [
      { ruleType: 'login_state', operator: 'eq', value: 'logged_in' },
    ]);
    const nepali = await campaignWith('nepali speakers', [
      { ruleType: 'language', operator: 'in', value: ['ne'] },
    ]);
    const returning = await campaignWith('returning', [
      { ruleType: 'new_visitor', operator: 'eq', value: false },
    ]);
    const fromNews = await campaignWith('from news', [
      { ruleType: 'referrer_domain', operator: 'in', value: ['news.example'] },
    ]);
    const vip = await campaignWith('vip', [{ ruleType: 'user_segment', operator: 'in', value: ['vip'] }]);
    const mondayMorning = await campaignWith('monday 10–11 UTC', [
      { ruleType: 'day_of_week', operator: 'in', value: { days: [1] } },
      { ruleType: 'hour_of_day', operator: 'between', value: { from: 10, to: 11 } },
    ]);
    const inactiveRule = await campaignWith('inactive rule', [
      { ruleType: 'device', operator: 'in', value: ['tablet'], isActive: false },
    ]);

    const anonymous = await servedIds(p.slug, { 'user-agent': 'Mozilla/5.0 (Windows NT 10.0)' });
    expect(anonymous.sort()).toEqual([everyone, mondayMorning, inactiveRule].sort());
    const everything = await servedIds(p.slug, {
      'user-agent': 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0) Mobile/15E148',
      'x-country-code': 'np',
      authorization: 'Bearer not-checked',
      'accept-language': 'ne-NP,en;q=0.8',
      'x-device-id': 'device-1',
      referer: 'https://www.news.example/story',
      'x-user-segment': 'VIP',
    });
    expect(everything.sort()).toEqual(
      [everyone, mobileNepal, loggedIn, nepali, returning, fromNews, vip, mondayMorning, inactiveRule].sort(),
    );
    // cf-ipcountry is the fallback of x-country-code; one failing rule of two hides the campaign.
    const tabletNepal = await servedIds(p.slug, { 'user-agent': 'iPad', 'cf-ipcountry': 'NP' });
    expect(tabletNepal).not.toContain(mobileNepal);
    const mobileIndia = await servedIds(p.slug, { 'user-agent': 'iPhone Mobile', 'cf-ipcountry': 'IN' });
    expect(mobileIndia).not.toContain(mobileNepal);
    const mobileNepalByCf = await servedIds(p.slug, { 'user-agent': 'iPhone Mobile', 'cf-ipcountry': 'NP' });
    expect(mobileNepalByCf).toContain(mobileNepal);
    clock.set('2026-03-03T10:30:00Z'); // Tuesday
    expect(await servedIds(p.slug)).not.toContain(mondayMorning);
    clock.set(START);
  });
});

describe('banner serving: cache', () => {
  let t: TestApp;
  let http: ReturnType<typeof bannerCalls>;
  let serve: ReturnType<typeof server>;
  const clock = new TestClock(START);
  beforeAll(async () => {
    t = await createTestApp({ clock });
    http = bannerCalls(t, await signedInAdmin(t, { superadmin: true }));
    serve = server(t);
  });
  afterAll(() => t.close());

  async function servedSlot() {
    const p = await http.placement({ maxBanners: 5 });
    const c = await http.activeCampaign();
    await http.link(c.publicId, p.publicId);
    const b = await http.banner({ title: 'Original' });
    await http.assign(c.publicId, p.publicId, b.publicId);
    return { p, c, b };
  }
  const titles = async (slug: string, headers: Record<string, string> = {}) =>
    (await serve(slug, headers)).json().data.banners.map((b: { title: string }) => b.title);
  const renameBehindTheBack = (publicId: string, title: string) =>
    t.platform.database.db.update(bannersTable).set({ title }).where(eq(bannersTable.publicId, publicId));

  it('caches the result per slug and context; servedAt is stamped on every answer', async () => {
    const { p, b } = await servedSlot();
    const first = (await serve(p.slug)).json().data;
    expect(first.servedAt).toBe(START);
    await renameBehindTheBack(b.publicId, 'Renamed');
    clock.advance(5_000);
    const second = (await serve(p.slug)).json().data;
    expect(second.banners[0].title).toBe('Original');
    expect(second.servedAt).toBe(new Date(Date.parse(START) + 5_000).toISOString());
    // Another context is another entry, read fresh.
    expect(await titles(p.slug, { 'accept-language': 'ne' })).toEqual(['Renamed']);
    clock.set(START);
  });

  it('reads an entry that is not JSON text (left by an older version) as a miss and replaces it', async () => {
    const { p, b } = await servedSlot();
    const key = `${SERVE_CACHE_PREFIX}result:${p.slug}:${contextHash(servingContext({}))}`;
    await t.platform.cache.set(key, { placement: {}, banners: [{ title: 'Old shape' }] }, 60_000);
    await renameBehindTheBack(b.publicId, 'Fresh');
    const res = await serve(p.slug);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.banners.map((x: { title: string }) => x.title)).toEqual(['Fresh']);
    expect(typeof (await t.platform.cache.get(key))).toBe('string');
  });

  it.runIf(!servicesTier)('keeps a result for BANNER_SERVE_CACHE_TTL_SECONDS (60 s)', async () => {
    const { p, b } = await servedSlot();
    await serve(p.slug);
    await renameBehindTheBack(b.publicId, 'Later');
    clock.advance(59_000);
    expect(await titles(p.slug)).toEqual(['Original']);
    clock.advance(2_000);
    expect(await titles(p.slug)).toEqual(['Later']);
    clock.set(START);
  });

  it('checks the placement before the cache: a deactivated placement is 404 at once', async () => {
    const { p } = await servedSlot();
    expect((await serve(p.slug)).statusCode).toBe(200);
    await http.expectOk('PATCH', `/api/admin/placements/${p.publicId}/deactivate`);
    const res = await serve(p.slug);
    expect(res.statusCode).toBe(404);
    expect(res.json().errorCode).toBe('PLACEMENT_NOT_FOUND');
    await http.expectOk('PATCH', `/api/admin/placements/${p.publicId}/activate`);
    expect((await serve(p.slug)).statusCode).toBe(200);
  });

  it('is cleared by every banner, placement, campaign, assignment and rule write', async () => {
    const { p, c, b } = await servedSlot();
    const other = await http.banner();
    const otherCampaign = await http.campaign();
    const writes: Array<[string, () => Promise<unknown>]> = [
      ['banner create', () => http.banner()],
      [
        'banner update',
        () => http.expectOk('PATCH', `/api/admin/banners/${other.publicId}`, { headline: 'h' }),
      ],
      [
        'banner schedule',
        () =>
          http.expectOk('PATCH', `/api/admin/banners/${other.publicId}/schedule`, {
            scheduleStatus: 'evergreen',
          }),
      ],
      ['banner deactivate', () => http.expectOk('PATCH', `/api/admin/banners/${other.publicId}/deactivate`)],
      ['banner delete', () => http.expectOk('DELETE', `/api/admin/banners/${other.publicId}`)],
      ['banner restore', () => http.expectOk('POST', `/api/admin/banners/${other.publicId}/restore`)],
      ['placement create', () => http.placement()],
      [
        'placement update',
        () => http.expectOk('PATCH', `/api/admin/placements/${p.publicId}`, { notes: 'n' }),
      ],
      ['campaign create', () => http.campaign()],
      [
        'campaign update',
        () => http.expectOk('PATCH', `/api/admin/campaigns/${otherCampaign.publicId}`, { priority: 1 }),
      ],
      [
        'campaign move',
        () => http.expectOk('PATCH', `/api/admin/campaigns/${otherCampaign.publicId}/cancel`),
      ],
      ['link create', () => http.link(otherCampaign.publicId, p.publicId)],
      [
        'assignment update',
        () =>
          http.expectOk(
            'PATCH',
            `/api/admin/campaigns/${c.publicId}/placements/${p.publicId}/banners/${b.publicId}`,
            { weight: 7 },
          ),
      ],
      [
        'rule create',
        () => http.rule(otherCampaign.publicId, { ruleType: 'new_visitor', operator: 'eq', value: true }),
      ],
    ];
    let n = 0;
    for (const [name, write] of writes) {
      n += 1;
      expect((await serve(p.slug)).statusCode).toBe(200); // fills the cache
      await renameBehindTheBack(b.publicId, `Title ${n}`);
      expect(await titles(p.slug), `${name}: still cached`).not.toEqual([`Title ${n}`]);
      await write();
      expect(await titles(p.slug), `${name}: cleared`).toEqual([`Title ${n}`]);
    }
  });
});

describe('banner serving: rate limit', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('allows 300 per minute per IP, then 429 RATE_LIMITED with Retry-After', async () => {
    const serve = server(t);
    const ip = newIp();
    for (let i = 0; i < 300; i++) expect((await serve('rate-limited-slot', {}, ip)).statusCode).toBe(404);
    const limited = await serve('rate-limited-slot', {}, ip);
    expect(limited.statusCode).toBe(429);
    expect(limited.json().errorCode).toBe('RATE_LIMITED');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect((await serve('rate-limited-slot', {}, newIp())).statusCode).toBe(404);
  });
});
