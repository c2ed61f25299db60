// The public and mobile blog: published posts only, the list envelope, detail with the
// old-slug fallback, only published linked products, schema.org JSON-LD, and the public
// caches that every admin blog change clears.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blogPosts } from '../../../src/modules/blog/blog.table';
import { products } from '../../../src/modules/catalog/products/products.table';
import { blogTestApp, insertProduct } from './calls';

const PREFIXES = ['/api/blogs', '/api/mobile/blogs'];

describe('public blog', () => {
  let ctx: Awaited<ReturnType<typeof blogTestApp>>;
  beforeAll(async () => {
    ctx = await blogTestApp();
  });
  afterAll(() => ctx.t.close());

  const get = async (url: string) => {
    const res = await ctx.http.call('GET', url);
    return { status: res.statusCode, body: res.json() };
  };

  it('lists published posts only, with the list envelope (count, currentPage, totalPage) on both surfaces', async () => {
    const { createCategory, createPost, publish } = ctx;
    const cat = await createCategory('Public List');
    await createPost({ title: 'Hidden draft', categoryId: cat.id });
    const first = await createPost({
      title: 'First public',
      categoryId: cat.id,
      excerpt: 'Alpha excerpt',
      featuredImageUrl: 'https://cdn.example.com/1.jpg',
      featuredImageAlt: 'One',
      displayDate: '2026-01-10',
    });
    await publish(first.id);
    const second = await createPost({ title: 'Second public', categoryId: cat.id, excerpt: 'Beta excerpt' });
    await publish(second.id);
    for (const prefix of PREFIXES) {
      const { status, body } = await get(`${prefix}?categoryId=${cat.id}`);
      expect(status).toBe(200);
      expect(Object.keys(body).sort()).toEqual(['count', 'currentPage', 'data', 'message', 'totalPage']);
      expect(body).toMatchObject({ count: 2, currentPage: 1, totalPage: 1 });
      // Default: newest publishedAt first.
      expect(body.data.map((p: { id: number }) => p.id)).toEqual([second.id, first.id]);
      expect(body.data[1]).toEqual({
        id: first.id,
        title: 'First public',
        slug: 'first-public',
        excerpt: 'Alpha excerpt',
        featuredImageUrl: 'https://cdn.example.com/1.jpg',
        featuredImageAlt: 'One',
        displayDate: '2026-01-10T00:00:00.000Z',
        publishedAt: expect.any(String),
        categoryName: 'Public List',
        categorySlug: 'public-list',
      });
      const paged = await get(`${prefix}?categoryId=${cat.id}&size=1&page=2&sort=title&order=asc`);
      expect(paged.body).toMatchObject({ count: 2, currentPage: 2, totalPage: 2 });
      expect(paged.body.data.map((p: { id: number }) => p.id)).toEqual([second.id]);
      const search = await get(`${prefix}?search=beta`);
      expect(search.body.data.map((p: { id: number }) => p.id)).toEqual([second.id]);
      const none = await get(`${prefix}?search=nothing-matches-this`);
      expect(none.body).toMatchObject({ data: [], count: 0, currentPage: 1, totalPage: 0 });
      const whole = await get(`${prefix}?categoryId=${cat.id}&pagination=false`);
      expect(whole.body).toMatchObject({ count: 2, currentPage: 1, totalPage: 1 });
      for (const bad of ['search=a', 'size=101', 'sort=status', 'page=0']) {
        const res = await get(`${prefix}?${bad}`);
        expect(res.status, bad).toBe(400);
        expect(res.body.errorCode).toBe('VALIDATION_ERROR');
      }
    }
  });

  it('detail: a published post by slug with everything, identical on both surfaces; drafts and unknown slugs 404', async () => {
    const { createCategory, createPost, publish, createSeo } = ctx;
    const cat = await createCategory('Detail Cat');
    const seoId = await createSeo('Bowl care');
    const [videoSeo1, videoSeo2] = [await createSeo('v1'), await createSeo('v2')];
    const live = await insertProduct(ctx.t, {
      title: 'Live Bowl',
      mrp: 5000,
      sp: 4500,
      images: [{ relativePath: 'public/products/bowl.webp', alt: 'Bowl' }],
    });
    const other = await insertProduct(ctx.t, { title: 'Other Bowl', mrp: 3000 });
    const goingAway = await insertProduct(ctx.t, { title: 'Soon unpublished' });
    const post = await createPost({
      title: 'Caring for a Singing Bowl',
      excerpt: 'Keep it ringing',
      heroIntro: 'Intro',
      body: '<p>Wipe it <em>gently</em>.</p>',
      featuredImageUrl: '/files/public/bowl-hero.webp',
      categoryId: cat.id,
      seoId,
      productIds: [other, goingAway, live],
      faqs: [
        { question: 'Can I wash it?', answer: 'Soft cloth only.' },
        { question: 'Does it rust?', answer: 'No.' },
      ],
      cta: { ctaTitle: 'Find your bowl', ctaButtonLabel: 'Shop', ctaButtonLink: '/collections/bowls' },
      videos: [
        {
          title: 'How to play',
          videoUrl: 'https://video.example.com/play',
          seoId: videoSeo1,
          description: 'Playing',
        },
        {
          title: 'Cleaning',
          videoUrl: 'https://video.example.com/clean',
          seoId: videoSeo2,
          thumbnailUrl: '/t.jpg',
        },
      ],
    });
    const draftOnly = await createPost({ title: 'Draft detail' });
    expect((await get(`/api/blogs/${draftOnly.slug}`)).body.errorCode).toBe('BLOG_POST_NOT_FOUND');
    expect((await get(`/api/blogs/${post.slug}`)).status).toBe(404);
    await publish(post.id);
    // A linked product unpublished after linking drops out of the post.
    await ctx.db.update(products).set({ status: 'draft' }).where(eq(products.id, goingAway));

    const [web, mobile] = [await get(`/api/blogs/${post.slug}`), await get(`/api/mobile/blogs/${post.slug}`)];
    expect(web.status).toBe(200);
    expect(mobile.body).toEqual(web.body);
    const d = web.body.data;
    expect(d).toMatchObject({
      id: post.id,
      title: 'Caring for a Singing Bowl',
      slug: 'caring-for-a-singing-bowl',
      excerpt: 'Keep it ringing',
      heroIntro: 'Intro',
      body: '<p>Wipe it <em>gently</em>.</p>',
      authorName: 'Test Admin',
      categoryName: 'Detail Cat',
      categorySlug: 'detail-cat',
      publishedAt: expect.any(String),
      faqs: [
        { question: 'Can I wash it?', answer: 'Soft cloth only.', position: 0 },
        { question: 'Does it rust?', answer: 'No.', position: 1 },
      ],
      cta: {
        ctaTitle: 'Find your bowl',
        ctaButtonLabel: 'Shop',
        ctaButtonLink: '/collections/bowls',
        position: 0,
      },
      seo: expect.objectContaining({ id: seoId, metaTitle: 'Bowl care' }),
    });
    expect(d.linkedProducts).toEqual([
      {
        id: other,
        title: 'Other Bowl',
        slug: expect.any(String),
        mrp: 3000,
        sp: 0,
        thumbnailUrl: null,
        position: 0,
      },
      {
        id: live,
        title: 'Live Bowl',
        slug: expect.any(String),
        mrp: 5000,
        sp: 4500,
        thumbnailUrl: expect.stringContaining('public/products/bowl.webp'),
        position: 2,
      },
    ]);
    expect(d.videos).toEqual([
      {
        id: expect.any(Number),
        title: 'How to play',
        videoUrl: 'https://video.example.com/play',
        description: 'Playing',
        thumbnailUrl: null,
        position: 0,
      },
      {
        id: expect.any(Number),
        title: 'Cleaning',
        videoUrl: 'https://video.example.com/clean',
        description: null,
        thumbnailUrl: '/t.jpg',
        position: 1,
      },
    ]);

    // Structured data: valid schema.org JSON-LD documents.
    const web0 = ctx.t.platform.config.PUBLIC_WEB_URL.replace(/\/$/, '');
    const { article, faq, breadcrumb } = d.structuredData;
    expect(article).toMatchObject({
      '@context': 'https://schema.org',
      '@type': 'BlogPosting',
      headline: 'Caring for a Singing Bowl',
      description: 'Keep it ringing',
      image: [`${web0}/files/public/bowl-hero.webp`],
      datePublished: d.publishedAt,
      author: { '@type': 'Person', name: 'Test Admin' },
      mainEntityOfPage: { '@type': 'WebPage', '@id': `${web0}/blogs/caring-for-a-singing-bowl` },
    });
    expect(article.video).toHaveLength(2);
    for (const v of article.video) {
      expect(v).toMatchObject({
        '@type': 'VideoObject',
        name: expect.any(String),
        contentUrl: expect.any(String),
      });
      expect(v.uploadDate).toBe(d.publishedAt);
    }
    expect(article.video[1].thumbnailUrl).toBe(`${web0}/t.jpg`);
    expect(faq).toEqual({
      '@context': 'https://schema.org',
      '@type': 'FAQPage',
      mainEntity: [
        {
          '@type': 'Question',
          name: 'Can I wash it?',
          acceptedAnswer: { '@type': 'Answer', text: 'Soft cloth only.' },
        },
        { '@type': 'Question', name: 'Does it rust?', acceptedAnswer: { '@type': 'Answer', text: 'No.' } },
      ],
    });
    expect(breadcrumb['@context']).toBe('https://schema.org');
    expect(breadcrumb['@type']).toBe('BreadcrumbList');
    expect(breadcrumb.itemListElement).toEqual([
      { '@type': 'ListItem', position: 1, name: 'Home', item: `${web0}/` },
      { '@type': 'ListItem', position: 2, name: 'Blog', item: `${web0}/blogs` },
      { '@type': 'ListItem', position: 3, name: 'Detail Cat', item: `${web0}/blogs?category=detail-cat` },
      {
        '@type': 'ListItem',
        position: 4,
        name: 'Caring for a Singing Bowl',
        item: `${web0}/blogs/caring-for-a-singing-bowl`,
      },
    ]);
    // JSON-LD survives a JSON round trip unchanged (what a storefront embeds).
    expect(JSON.parse(JSON.stringify(d.structuredData))).toEqual(d.structuredData);

    expect((await get('/api/blogs/no-such-post')).body.errorCode).toBe('BLOG_POST_NOT_FOUND');
    expect((await get('/api/mobile/blogs/no-such-post')).status).toBe(404);
  });

  it('a post without FAQs or videos has no faq entry and an article without video', async () => {
    const post = await ctx.createPost({ title: 'Plain post' });
    await ctx.publish(post.id);
    const { body } = await get(`/api/blogs/${post.slug}`);
    expect(Object.keys(body.data.structuredData).sort()).toEqual(['article', 'breadcrumb']);
    expect(body.data.structuredData.article).not.toHaveProperty('video');
    expect(
      body.data.structuredData.breadcrumb.itemListElement.map((i: { position: number }) => i.position),
    ).toEqual([1, 2, 3]);
    expect(body.data).toMatchObject({ linkedProducts: [], faqs: [], videos: [], cta: null, seo: null });
  });

  it('old slugs: answer 200 with the current post and its current slug (no redirect); only for published posts', async () => {
    const { createPost, updatePost, publish, http, admin } = ctx;
    const post = await createPost({ title: 'Original Name' });
    await publish(post.id);
    await updatePost(post.id, { title: 'Second Name' });
    await updatePost(post.id, { title: 'Third Name' });
    for (const old of ['original-name', 'second-name']) {
      for (const prefix of PREFIXES) {
        const { status, body } = await get(`${prefix}/${old}`);
        expect(status).toBe(200);
        expect(body.data).toMatchObject({ id: post.id, slug: 'third-name', title: 'Third Name' });
      }
    }
    // A draft is found neither by its slug nor by its old slugs.
    await http.call('POST', `/api/admin/blog/posts/${post.id}/unpublish`, admin.headers);
    for (const slug of ['third-name', 'original-name'])
      expect((await get(`/api/blogs/${slug}`)).status).toBe(404);
  });

  it('public reads are cached, and every admin blog change clears them', async () => {
    const { createPost, createCategory, publish, http, admin, db } = ctx;
    const cat = await createCategory('Cache Cat');
    const post = await createPost({ title: 'Cached post', excerpt: 'v0', categoryId: cat.id });
    await publish(post.id);
    const other = await createPost({ title: 'Other cached post' });
    const spare = await createCategory('Cache spare');
    let version = 0;
    // Change the row behind the service's back: a cached read still shows the old excerpt.
    const sneak = async () => {
      version += 1;
      await db
        .update(blogPosts)
        .set({ excerpt: `v${version}` })
        .where(eq(blogPosts.id, post.id));
    };
    const reads = async () => ({
      detail: (await get(`/api/blogs/${post.slug}`)).body.data.excerpt,
      mobile: (await get(`/api/mobile/blogs/${post.slug}`)).body.data.excerpt,
      list: (await get(`/api/blogs?categoryId=${cat.id}`)).body.data[0].excerpt,
      categories: (await get('/api/blogs/categories')).body.data.find((c: { id: number }) => c.id === cat.id)
        .description,
    });
    const changes: Array<[string, () => Promise<unknown>]> = [
      [
        'post update',
        () => http.call('PUT', `/api/admin/blog/posts/${other.id}`, admin.headers, { heroIntro: 'x' }),
      ],
      ['post create', () => http.call('POST', '/api/admin/blog/posts', admin.headers, { title: 'New one' })],
      ['publish', () => http.call('POST', `/api/admin/blog/posts/${other.id}/publish`, admin.headers)],
      ['unpublish', () => http.call('POST', `/api/admin/blog/posts/${other.id}/unpublish`, admin.headers)],
      ['post delete', () => http.call('DELETE', `/api/admin/blog/posts/${other.id}`, admin.headers)],
      [
        'category create',
        () => http.call('POST', '/api/admin/blog/categories', admin.headers, { name: 'Cache 2' }),
      ],
      [
        'category update',
        () =>
          http.call('PUT', `/api/admin/blog/categories/${cat.id}`, admin.headers, {
            description: 'described',
          }),
      ],
      ['category delete', () => http.call('DELETE', `/api/admin/blog/categories/${spare.id}`, admin.headers)],
    ];
    await reads(); // fill the cache
    for (const [name, change] of changes) {
      await sneak();
      const stale = await reads();
      expect(stale.detail, name).toBe(`v${version - 1}`);
      expect(stale.mobile, name).toBe(`v${version - 1}`);
      expect(stale.list, name).toBe(`v${version - 1}`);
      const res = (await change()) as { statusCode: number };
      expect(res.statusCode, name).toBeLessThan(300);
      const fresh = await reads();
      expect(fresh.detail, name).toBe(`v${version}`);
      expect(fresh.mobile, name).toBe(`v${version}`);
      expect(fresh.list, name).toBe(`v${version}`);
    }
    expect((await reads()).categories).toBe('described');
  });

  it('a failing cache does not fail public reads: they come from the database', async () => {
    const post = await ctx.createPost({ title: 'Cache outage' });
    await ctx.publish(post.id);
    const cache = ctx.t.platform.cache;
    const { get: realGet, set: realSet } = cache;
    cache.get = async () => {
      throw new Error('cache down');
    };
    cache.set = async () => {
      throw new Error('cache down');
    };
    try {
      expect((await get(`/api/blogs/${post.slug}`)).body.data.title).toBe('Cache outage');
      expect((await get('/api/blogs')).status).toBe(200);
      expect((await get('/api/mobile/blogs/categories')).status).toBe(200);
    } finally {
      cache.get = realGet;
      cache.set = realSet;
    }
  });
});
