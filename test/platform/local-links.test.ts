// docs/decisions.md, "Local links": one check of "an http(s) URL or a path on the storefront"
// (platform/http/fields.ts), and every module that takes a link refuses what a browser would
// read as another origin: banners (CTA, campaign override), the blog's call to action, content
// pages' links.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isSafeLink } from '../../src/platform/http/fields';
import { bannerCalls } from '../modules/banners/banner-calls';
import { blogTestApp } from '../modules/blog/calls';

const REFUSED = [
  '//evil.example',
  '/\\evil.example',
  '\\\\evil.example',
  '/\\/evil.example',
  ' /leading-space',
  '\t/tab',
  '/ok\u0000nul',
  'javascript:alert(1)',
  'data:text/html,x',
  'products/relative',
  '',
];
const ACCEPTED = [
  '/',
  '/collections/dashain?sort=new#top',
  'https://shop.example.com/x',
  'HTTP://EXAMPLE.COM',
];

describe('isSafeLink', () => {
  it.each(REFUSED)('refuses %j', (value) => expect(isSafeLink(value)).toBe(false));
  it.each(ACCEPTED)('accepts %j', (value) => expect(isSafeLink(value)).toBe(true));
});

describe('link fields across modules', () => {
  let ctx: Awaited<ReturnType<typeof blogTestApp>>;
  let banners: ReturnType<typeof bannerCalls>;
  beforeAll(async () => {
    ctx = await blogTestApp();
    banners = bannerCalls(ctx.t, ctx.admin);
  });
  afterAll(() => ctx?.t.close());

  const refusedAs = (res: { statusCode: number; json(): { errorCode: string } }) => [
    res.statusCode,
    res.json().errorCode,
  ];

  it('a banner CTA and a campaign override refuse every other-origin spelling', async () => {
    const p = await banners.placement();
    const c = await banners.activeCampaign();
    const b = await banners.banner();
    await banners.link(c.publicId, p.publicId);
    const bannerBody = (ctaUrl: string) => ({
      title: 'Sale',
      primaryImageUrl: '/files/public/a.webp',
      primaryImageAlt: 'Sale',
      ctaUrl,
    });
    // The same bodies with a storefront path go through: only the link is refused below.
    const good = await ctx.http.call('POST', '/api/admin/banners', ctx.admin.headers, bannerBody('/dashain'));
    expect(good.statusCode, good.body).toBeLessThan(300);
    for (const ctaUrl of REFUSED.slice(0, 7)) {
      const made = await ctx.http.call('POST', '/api/admin/banners', ctx.admin.headers, bannerBody(ctaUrl));
      expect(refusedAs(made), `${JSON.stringify(ctaUrl)}: ${made.body}`).toEqual([400, 'VALIDATION_ERROR']);
      const assigned = await ctx.http.call(
        'POST',
        `/api/admin/campaigns/${c.publicId}/placements/${p.publicId}/banners`,
        ctx.admin.headers,
        { bannerPublicId: b.publicId, overrideCtaUrl: ctaUrl },
      );
      expect(refusedAs(assigned), `${JSON.stringify(ctaUrl)}: ${assigned.body}`).toEqual([
        400,
        'VALIDATION_ERROR',
      ]);
    }
    const kept = await ctx.http.call(
      'POST',
      `/api/admin/campaigns/${c.publicId}/placements/${p.publicId}/banners`,
      ctx.admin.headers,
      { bannerPublicId: b.publicId, overrideCtaUrl: '/dashain' },
    );
    expect(kept.statusCode, kept.body).toBeLessThan(300);
  });

  it("a blog post's call to action refuses them too", async () => {
    for (const ctaButtonLink of REFUSED.slice(0, 7)) {
      const res = await ctx.http.call('POST', '/api/admin/blog/posts', ctx.admin.headers, {
        title: 'Dashain offers',
        cta: { ctaTitle: 'Shop', ctaButtonLabel: 'Go', ctaButtonLink },
      });
      expect(refusedAs(res), `${JSON.stringify(ctaButtonLink)}: ${res.body}`).toEqual([
        400,
        'VALIDATION_ERROR',
      ]);
    }
    const ok = await ctx.createPost({
      title: 'Dashain offers, fine',
      cta: { ctaTitle: 'Shop', ctaButtonLabel: 'Go', ctaButtonLink: '/collections/dashain' },
    });
    expect(ok.cta?.ctaButtonLink).toBe('/collections/dashain');
  });
});
