// Admin blog posts: create with every field, partial updates, replace semantics of products,
// FAQs, CTA and videos, the video SEO rules, slug generation against current and old slugs,
// sanitised HTML, references, publish/unpublish, delete, the list, access and activity.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_SLUG_SUFFIX } from '../../../src/modules/blog/blog.slugs';
import { blogPostSlugHistory, blogPosts } from '../../../src/modules/blog/blog.table';
import { blogTestApp, insertProduct } from './calls';

describe('admin blog posts', () => {
  let ctx: Awaited<ReturnType<typeof blogTestApp>>;
  beforeAll(async () => {
    ctx = await blogTestApp();
  });
  afterAll(() => ctx.t.close());

  const errorOf = async (method: 'POST' | 'PUT', url: string, body: unknown) => {
    const res = await ctx.http.call(method, url, ctx.admin.headers, body);
    return { status: res.statusCode, code: res.json().errorCode as string, body: res.json() };
  };

  it('creates a post with every field: 201, draft, generated slug, sanitised body, ordered sets, activity', async () => {
    const { createCategory, createSeo, createPost, http, admin } = ctx;
    const category = await createCategory('Craft Stories');
    const seoId = await createSeo('Post SEO');
    const [videoSeoA, videoSeoB] = [await createSeo('Video A'), await createSeo('Video B')];
    const [p1, p2] = [await insertProduct(ctx.t), await insertProduct(ctx.t)];
    const post = await createPost({
      title: 'How a Thangka Is Painted',
      excerpt: 'From canvas to gold',
      heroIntro: 'A day in a Bhaktapur studio',
      body: '<p>Mineral <b>pigments</b><script>alert(1)</script><img src="javascript:x" onerror="y()"></p><a href="javascript:evil()" onclick="x()">x</a><a href="https://example.com">ok</a>',
      featuredImageUrl: '/files/public/thangka.webp',
      featuredImageAlt: 'A thangka',
      displayDate: '2026-02-01',
      categoryId: category.id,
      seoId,
      productIds: [p2, p1, p2],
      faqs: [
        { question: 'How long does it take?', answer: 'Weeks to months.', position: 2 },
        { question: 'Is the gold real?', answer: '24K gold.', position: 1 },
      ],
      cta: { ctaTitle: 'Own one', ctaButtonLabel: 'Shop thangkas', ctaButtonLink: '/collections/thangka' },
      videos: [
        { title: 'Grinding pigments', videoUrl: 'https://video.example.com/a', seoId: videoSeoA },
        {
          title: 'Gold leaf',
          videoUrl: 'https://video.example.com/b',
          seoId: videoSeoB,
          description: 'Applying gold',
          thumbnailUrl: 'https://video.example.com/b.jpg',
        },
      ],
    });
    expect(post).toMatchObject({
      title: 'How a Thangka Is Painted',
      slug: 'how-a-thangka-is-painted',
      excerpt: 'From canvas to gold',
      heroIntro: 'A day in a Bhaktapur studio',
      featuredImageUrl: '/files/public/thangka.webp',
      featuredImageAlt: 'A thangka',
      displayDate: '2026-02-01T00:00:00.000Z',
      categoryId: category.id,
      category: { id: category.id, name: 'Craft Stories', slug: 'craft-stories' },
      seoId,
      status: 'draft',
      publishedAt: null,
      authorId: admin.userId,
      authorName: 'Test Admin',
      productIds: [p2, p1],
      cta: {
        ctaTitle: 'Own one',
        ctaButtonLabel: 'Shop thangkas',
        ctaButtonLink: '/collections/thangka',
        position: 0,
      },
      previousSlugs: [],
    });
    expect(post.body).not.toMatch(/script|onerror|onclick|javascript/);
    expect(post.body).toContain('<b>pigments</b>');
    expect(post.body).toContain('href="https://example.com"');
    expect(post.faqs.map((f) => [f.question, f.position])).toEqual([
      ['Is the gold real?', 1],
      ['How long does it take?', 2],
    ]);
    expect(post.videos).toEqual([
      expect.objectContaining({
        title: 'Grinding pigments',
        seoId: videoSeoA,
        position: 0,
        description: null,
        thumbnailUrl: null,
      }),
      expect.objectContaining({
        title: 'Gold leaf',
        seoId: videoSeoB,
        position: 1,
        description: 'Applying gold',
      }),
    ]);
    const got = await http.call('GET', `/api/admin/blog/posts/${post.id}`, admin.headers);
    expect(got.statusCode).toBe(200);
    expect(got.json().data).toEqual(post);
    const entries = await http.activityOf(admin, 'blog_post', post.id);
    expect(entries[0]).toMatchObject({ adminId: admin.userId, action: 'create' });
  });

  it('a created post with status published is live at once; unknown ids are 404 BLOG_POST_NOT_FOUND', async () => {
    const post = await ctx.createPost({ title: 'Born published', status: 'published' });
    expect(post.status).toBe('published');
    expect(post.publishedAt).not.toBeNull();
    for (const [method, url, body] of [
      ['GET', '/api/admin/blog/posts/999999', undefined],
      ['PUT', '/api/admin/blog/posts/999999', { title: 'x' }],
      ['DELETE', '/api/admin/blog/posts/999999', undefined],
      ['POST', '/api/admin/blog/posts/999999/publish', undefined],
      ['POST', '/api/admin/blog/posts/999999/unpublish', undefined],
    ] as const) {
      const res = await ctx.http.call(method, url, ctx.admin.headers, body);
      expect(res.statusCode, url).toBe(404);
      expect(res.json().errorCode).toBe('BLOG_POST_NOT_FOUND');
    }
  });

  it('validation: title required, at most 20 videos, safe URLs only, dates ISO-8601, an empty update', async () => {
    const seo = await ctx.createSeo();
    const videos = Array.from({ length: 21 }, (_, i) => ({ title: `v${i}`, videoUrl: '/v', seoId: seo }));
    const post = await ctx.createPost({ title: 'Validation target' });
    for (const [method, url, body] of [
      ['POST', '/api/admin/blog/posts', { excerpt: 'no title' }],
      ['POST', '/api/admin/blog/posts', { title: 'Too many', videos }],
      ['POST', '/api/admin/blog/posts', { title: 'x', featuredImageUrl: 'javascript:alert(1)' }],
      [
        'POST',
        '/api/admin/blog/posts',
        { title: 'x', cta: { ctaTitle: 'a', ctaButtonLabel: 'b', ctaButtonLink: 'ftp://x' } },
      ],
      ['POST', '/api/admin/blog/posts', { title: 'x', videos: [{ title: 'v', videoUrl: '', seoId: seo }] }],
      ['POST', '/api/admin/blog/posts', { title: 'x', displayDate: 'yesterday' }],
      ['POST', '/api/admin/blog/posts', { title: 'x', status: 'archived' }],
      ['POST', '/api/admin/blog/posts', { title: 'x', seoId: 'not-a-uuid' }],
      ['PUT', `/api/admin/blog/posts/${post.id}`, {}],
    ] as const) {
      const e = await errorOf(method, url, body);
      expect(e.status, JSON.stringify(body)).toBe(400);
      expect(e.code).toBe('VALIDATION_ERROR');
    }
  });

  it('slugs: numeric suffixes against current slugs, and against old slugs of other posts', async () => {
    const { createPost, updatePost } = ctx;
    const a = await createPost({ title: 'Momo Recipes' });
    const b = await createPost({ title: 'Momo recipes!' });
    expect([a.slug, b.slug]).toEqual(['momo-recipes', 'momo-recipes-2']);
    // a moves away: its old slug stays in the history and is not handed out again.
    const renamed = await updatePost(a.id, { title: 'Dumpling Recipes' });
    expect(renamed.slug).toBe('dumpling-recipes');
    expect(renamed.previousSlugs).toEqual(['momo-recipes']);
    const c = await createPost({ title: 'Momo Recipes' });
    expect(c.slug).toBe('momo-recipes-3');
    // An explicit slug is a base like the title: normalised and made unique.
    const d = await createPost({ title: 'Anything', slug: 'Dumpling Recipes' });
    expect(d.slug).toBe('dumpling-recipes-2');
    // The category list path is never a post slug.
    expect((await createPost({ title: 'Categories' })).slug).toBe('categories-2');
    // A Devanagari title reads as Latin letters; a title with no letters at all still gets a slug.
    expect((await createPost({ title: 'नमस्ते' })).slug).toBe('namaste');
    expect((await createPost({ title: '!!!' })).slug).toMatch(/^post(-\d+)?$/);
  });

  it('slugs: a post may take back its own old slug; other posts never take it', async () => {
    const { createPost, updatePost } = ctx;
    const a = await createPost({ title: 'Tea Season' });
    const b = await updatePost(a.id, { title: 'Tea Harvest' });
    expect(b.slug).toBe('tea-harvest');
    const back = await updatePost(a.id, { title: 'Tea Season' });
    expect(back.slug).toBe('tea-season');
    expect(back.previousSlugs).toEqual(['tea-harvest']);
    // A title change that gives the same slug keeps it (and writes no history).
    const same = await updatePost(a.id, { title: 'Tea season' });
    expect(same.slug).toBe('tea-season');
    expect(same.previousSlugs).toEqual(['tea-harvest']);
    expect((await createPost({ title: 'Tea Harvest' })).slug).toBe('tea-harvest-2');
  });

  it('slugs: after every numeric suffix is taken (now or before), a timestamp suffix', async () => {
    const { db, createPost } = ctx;
    const taken = ['busy', ...Array.from({ length: MAX_SLUG_SUFFIX - 1 }, (_, i) => `busy-${i + 2}`)];
    // Half of them in use now, half only in the history of a post.
    const holder = await createPost({ title: 'Holder of old slugs' });
    for (const [i, slug] of taken.entries()) {
      if (i % 2 === 0) await db.insert(blogPosts).values({ title: slug, slug });
      else await db.insert(blogPostSlugHistory).values({ slug, postId: holder.id });
    }
    const post = await createPost({ title: 'Busy' });
    expect(post.slug).toMatch(/^busy-\d{13}$/);
  });

  it('updates are partial: fields left out keep their values, products, FAQs, CTA and videos included', async () => {
    const { createPost, updatePost, createSeo, createCategory } = ctx;
    const category = await createCategory('Partial');
    const product = await insertProduct(ctx.t);
    const seo = await createSeo();
    const before = await createPost({
      title: 'Partial target',
      excerpt: 'Keep me',
      body: '<p>Keep</p>',
      categoryId: category.id,
      productIds: [product],
      faqs: [{ question: 'Q', answer: 'A' }],
      cta: { ctaTitle: 'T', ctaButtonLabel: 'L', ctaButtonLink: 'https://x.example' },
      videos: [{ title: 'V', videoUrl: '/v.mp4', seoId: seo }],
    });
    const after = await updatePost(before.id, { heroIntro: 'New intro' });
    expect(after).toEqual({ ...before, heroIntro: 'New intro', updatedAt: after.updatedAt });
    // null clears a nullable field.
    const cleared = await updatePost(before.id, {
      excerpt: null,
      categoryId: null,
      displayDate: '2026-05-01T10:00:00+05:45',
    });
    expect(cleared).toMatchObject({
      excerpt: null,
      categoryId: null,
      category: null,
      displayDate: '2026-05-01T04:15:00.000Z',
    });
    expect(cleared.faqs).toHaveLength(1);
    expect(cleared.videos).toHaveLength(1);
    const entries = await ctx.http.activityOf(ctx.admin, 'blog_post', before.id);
    expect(entries[0]?.summary).toContain('excerpt, displayDate, categoryId');
  });

  it('replace semantics: productIds, faqs and videos replace the whole set ([] clears); cta replaces, null removes', async () => {
    const { createPost, updatePost, createSeo } = ctx;
    const [p1, p2, p3] = [await insertProduct(ctx.t), await insertProduct(ctx.t), await insertProduct(ctx.t)];
    const [s1, s2, s3] = [await createSeo(), await createSeo(), await createSeo()];
    const post = await createPost({
      title: 'Replace target',
      productIds: [p1, p2],
      faqs: [
        { question: 'Q1', answer: 'A1' },
        { question: 'Q2', answer: 'A2' },
      ],
      cta: { ctaTitle: 'Old', ctaButtonLabel: 'Old', ctaButtonLink: '/old' },
      videos: [
        { title: 'V1', videoUrl: '/1', seoId: s1 },
        { title: 'V2', videoUrl: '/2', seoId: s2 },
      ],
    });
    const replaced = await updatePost(post.id, {
      productIds: [p3, p1],
      faqs: [{ question: 'Q3', answer: 'A3' }],
      cta: { ctaTitle: 'New', ctaButtonLabel: 'Go', ctaButtonLink: '/new', position: 3 },
      // s1 moves to the new set (the post's own), s3 is new, s2 is released.
      videos: [
        { title: 'V3', videoUrl: '/3', seoId: s3 },
        { title: 'V1 again', videoUrl: '/1', seoId: s1 },
      ],
    });
    expect(replaced.productIds).toEqual([p3, p1]);
    expect(replaced.faqs.map((f) => f.question)).toEqual(['Q3']);
    expect(replaced.cta).toEqual({
      ctaTitle: 'New',
      ctaButtonLabel: 'Go',
      ctaButtonLink: '/new',
      position: 3,
    });
    expect(replaced.videos.map((v) => [v.title, v.seoId])).toEqual([
      ['V3', s3],
      ['V1 again', s1],
    ]);
    // The released SEO record is free for another post's video.
    await createPost({ title: 'Takes s2', videos: [{ title: 'V2', videoUrl: '/2', seoId: s2 }] });

    const emptied = await updatePost(post.id, { productIds: [], faqs: [], cta: null, videos: [] });
    expect(emptied).toMatchObject({ productIds: [], faqs: [], cta: null, videos: [] });
  });

  it('video SEO rules: missing, invalid, unknown, repeated or taken seoId is 400 BLOG_VIDEO_SEO_INVALID; nothing is written', async () => {
    const { createPost, createSeo, http, admin } = ctx;
    const [own, other] = [await createSeo(), await createSeo()];
    await createPost({
      title: 'Owner of a video',
      videos: [{ title: 'Mine', videoUrl: '/m', seoId: other }],
    });
    const target = await createPost({
      title: 'Video rules',
      videos: [{ title: 'Own', videoUrl: '/o', seoId: own }],
    });
    const cases: Array<[string, unknown[], string]> = [
      ['missing', [{ title: 'x', videoUrl: '/x' }], 'is required'],
      ['null', [{ title: 'x', videoUrl: '/x', seoId: null }], 'is required'],
      ['not a uuid', [{ title: 'x', videoUrl: '/x', seoId: 'seo-1' }], 'must be a uuid'],
      ['a number', [{ title: 'x', videoUrl: '/x', seoId: 12 }], 'must be a uuid'],
      [
        'unknown',
        [{ title: 'x', videoUrl: '/x', seoId: '0192f3a4-0000-7000-8000-000000000000' }],
        'names no SEO record',
      ],
      [
        'repeated',
        [
          { title: 'x', videoUrl: '/x', seoId: own },
          { title: 'y', videoUrl: '/y', seoId: own },
        ],
        'is repeated in the payload',
      ],
      [
        'taken by another post',
        [{ title: 'x', videoUrl: '/x', seoId: other }],
        'is used by another post’s video',
      ],
    ];
    for (const [name, videos, message] of cases) {
      for (const [method, url] of [
        ['PUT', `/api/admin/blog/posts/${target.id}`],
        ['POST', '/api/admin/blog/posts'],
      ] as const) {
        const e = await errorOf(method, url, { title: `Video case ${name}`, videos });
        expect(e.status, `${method} ${name}`).toBe(400);
        expect(e.code, name).toBe('BLOG_VIDEO_SEO_INVALID');
        expect(
          e.body.details.map((d: { message: string }) => d.message),
          name,
        ).toContain(message);
      }
    }
    const unchanged = await http.call('GET', `/api/admin/blog/posts/${target.id}`, admin.headers);
    expect(unchanged.json().data).toMatchObject({
      title: 'Video rules',
      videos: [expect.objectContaining({ seoId: own })],
    });
    // Re-saving the post's own videos is not a "taken" seoId.
    const resaved = await ctx.updatePost(target.id, {
      videos: [{ title: 'Own, renamed', videoUrl: '/o', seoId: own }],
    });
    expect(resaved.videos[0]).toMatchObject({ title: 'Own, renamed', seoId: own });
  });

  it('references: unknown or unpublished products 400 PRODUCT_NOT_FOUND; unknown category 404; unknown seoId 400', async () => {
    const draft = await insertProduct(ctx.t, { status: 'draft' });
    const archived = await insertProduct(ctx.t, { status: 'archived' });
    const live = await insertProduct(ctx.t);
    const post = await ctx.createPost({ title: 'Reference target', productIds: [live] });
    for (const productIds of [[live, 999999], [draft], [archived]]) {
      for (const [method, url] of [
        ['POST', '/api/admin/blog/posts'],
        ['PUT', `/api/admin/blog/posts/${post.id}`],
      ] as const) {
        const e = await errorOf(method, url, { title: 'Refs', productIds });
        expect(e.status).toBe(400);
        expect(e.code).toBe('PRODUCT_NOT_FOUND');
      }
    }
    const cat = await errorOf('POST', '/api/admin/blog/posts', { title: 'Refs', categoryId: 999999 });
    expect([cat.status, cat.code]).toEqual([404, 'BLOG_CATEGORY_NOT_FOUND']);
    const seo = await errorOf('PUT', `/api/admin/blog/posts/${post.id}`, {
      seoId: '0192f3a4-0000-7000-8000-000000000001',
    });
    expect([seo.status, seo.code]).toEqual([400, 'BLOG_POST_SEO_NOT_FOUND']);
    const still = await ctx.http.call('GET', `/api/admin/blog/posts/${post.id}`, ctx.admin.headers);
    expect(still.json().data).toMatchObject({ title: 'Reference target', productIds: [live], seoId: null });
  });

  it('publish and unpublish: draft ↔ published; the wrong move is 400 BLOG_POST_INVALID_STATUS_TRANSITION', async () => {
    const { createPost, http, admin } = ctx;
    const post = await createPost({ title: 'State machine' });
    const published = await http.call('POST', `/api/admin/blog/posts/${post.id}/publish`, admin.headers);
    expect(published.statusCode).toBe(200);
    expect(published.json().data).toMatchObject({ status: 'published', publishedAt: expect.any(String) });
    const again = await http.call('POST', `/api/admin/blog/posts/${post.id}/publish`, admin.headers);
    expect(again.statusCode).toBe(400);
    expect(again.json().errorCode).toBe('BLOG_POST_INVALID_STATUS_TRANSITION');
    const unpublished = await http.call('POST', `/api/admin/blog/posts/${post.id}/unpublish`, admin.headers);
    expect(unpublished.json().data).toMatchObject({ status: 'draft', publishedAt: null });
    const twice = await http.call('POST', `/api/admin/blog/posts/${post.id}/unpublish`, admin.headers);
    expect(twice.statusCode).toBe(400);
    expect(twice.json().errorCode).toBe('BLOG_POST_INVALID_STATUS_TRANSITION');
    const actions = (await http.activityOf(admin, 'blog_post', post.id)).map((e) => e.action);
    expect(actions.slice(0, 3)).toEqual(['unpublish', 'publish', 'create']);
    // status through PUT moves the post too.
    const viaPut = await ctx.updatePost(post.id, { status: 'published' });
    expect(viaPut).toMatchObject({ status: 'published', publishedAt: expect.any(String) });
  });

  it('two concurrent publishes of one draft: exactly one succeeds', async () => {
    const post = await ctx.createPost({ title: 'Race to publish' });
    const results = await Promise.all(
      [1, 2, 3].map(() =>
        ctx.http.call('POST', `/api/admin/blog/posts/${post.id}/publish`, ctx.admin.headers),
      ),
    );
    const statuses = results.map((r) => r.statusCode).sort();
    expect(statuses).toEqual([200, 400, 400]);
    const actions = (await ctx.http.activityOf(ctx.admin, 'blog_post', post.id)).filter(
      (e) => e.action === 'publish',
    );
    expect(actions).toHaveLength(1);
  });

  it('concurrent creates with one title get distinct slugs', async () => {
    const results = await Promise.all(
      [1, 2, 3, 4].map(() =>
        ctx.http.call('POST', '/api/admin/blog/posts', ctx.admin.headers, { title: 'Same Title Race' }),
      ),
    );
    expect(results.map((r) => r.statusCode)).toEqual([201, 201, 201, 201]);
    const slugs = results.map((r) => r.json().data.slug).sort();
    expect(slugs).toEqual(['same-title-race', 'same-title-race-2', 'same-title-race-3', 'same-title-race-4']);
  });

  it('delete removes the post with its sets and old slugs (the slugs become free); activity recorded', async () => {
    const { createPost, updatePost, http, admin, db } = ctx;
    const post = await createPost({ title: 'Short Lived', faqs: [{ question: 'q', answer: 'a' }] });
    await updatePost(post.id, { title: 'Shorter Lived' });
    const res = await http.call('DELETE', `/api/admin/blog/posts/${post.id}`, admin.headers);
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toBeNull();
    expect((await http.call('GET', `/api/admin/blog/posts/${post.id}`, admin.headers)).statusCode).toBe(404);
    expect(
      await db.select().from(blogPostSlugHistory).where(eq(blogPostSlugHistory.postId, post.id)),
    ).toEqual([]);
    expect((await createPost({ title: 'Short Lived' })).slug).toBe('short-lived');
    expect((await http.activityOf(admin, 'blog_post', post.id))[0]).toMatchObject({ action: 'delete' });
  });

  it('admin list: every status, filters, search of at least 2 characters, sorts, pagination', async () => {
    const { createPost, createCategory, publish, http, admin } = ctx;
    const cat = await createCategory('Listing');
    const a = await createPost({ title: 'Listing Alpha', categoryId: cat.id, excerpt: 'needle in here' });
    const b = await createPost({ title: 'Listing Beta', categoryId: cat.id });
    await publish(b.id);
    const list = async (query: string) => {
      const res = await http.call('GET', `/api/admin/blog/posts?${query}`, admin.headers);
      expect(res.statusCode, res.body).toBe(200);
      return res.json() as { data: Array<{ id: number; title: string; status: string }>; meta: object };
    };
    const both = await list(`categoryId=${cat.id}&sort=title&order=asc`);
    expect(both.data.map((p) => p.title)).toEqual(['Listing Alpha', 'Listing Beta']);
    expect(both.meta).toEqual({ count: 2, page: 1, size: 20 });
    expect(both.data[0]).not.toHaveProperty('body');
    expect((await list(`categoryId=${cat.id}&status=published`)).data.map((p) => p.id)).toEqual([b.id]);
    expect((await list('search=NEEDLE')).data.map((p) => p.id)).toEqual([a.id]);
    expect(
      (await list(`categoryId=${cat.id}&size=1&page=2&sort=title&order=asc`)).data.map((p) => p.id),
    ).toEqual([b.id]);
    const all = await list(`categoryId=${cat.id}&pagination=false`);
    expect(all.meta).toEqual({ count: 2 });
    // Default: most recently updated first.
    expect((await list(`categoryId=${cat.id}`)).data[0]?.id).toBe(b.id);
    for (const bad of ['search=x', 'size=101', 'sort=views', 'status=archived']) {
      const res = await http.call('GET', `/api/admin/blog/posts?${bad}`, admin.headers);
      expect(res.statusCode, bad).toBe(400);
      expect(res.json().errorCode).toBe('VALIDATION_ERROR');
    }
  });

  it('every admin post route needs the right Blog permission', async () => {
    const { http, customer } = ctx;
    const post = await ctx.createPost({ title: 'Guarded post' });
    await http.expectGuarded('GET', '/api/admin/blog/posts', 'Blog_READ', customer);
    await http.expectGuarded('GET', `/api/admin/blog/posts/${post.id}`, 'Blog_READ', customer);
    await http.expectGuarded('POST', '/api/admin/blog/posts', 'Blog_CREATE', customer, { title: 'x' });
    await http.expectGuarded('PUT', `/api/admin/blog/posts/${post.id}`, 'Blog_UPDATE', customer, {
      title: 'x',
    });
    await http.expectGuarded('DELETE', `/api/admin/blog/posts/${post.id}`, 'Blog_DELETE', customer);
    await http.expectGuarded('POST', `/api/admin/blog/posts/${post.id}/publish`, 'Blog_UPDATE', customer);
    await http.expectGuarded('POST', `/api/admin/blog/posts/${post.id}/unpublish`, 'Blog_UPDATE', customer);
  });
});
