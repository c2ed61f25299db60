// Admin blog categories: generated slugs and their collisions, partial updates, delete rules,
// counts, access, activity; the public and mobile category lists with published counts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blogTestApp } from './calls';

describe('blog categories', () => {
  let ctx: Awaited<ReturnType<typeof blogTestApp>>;
  beforeAll(async () => {
    ctx = await blogTestApp();
  });
  afterAll(() => ctx.t.close());

  it('creates a category with a slug made from the name; 201 with counts; activity recorded', async () => {
    const { http, admin } = ctx;
    const res = await http.call('POST', '/api/admin/blog/categories', admin.headers, {
      name: 'Singing Bowls & Sound',
      description: 'Sound healing',
    });
    expect(res.statusCode).toBe(201);
    const category = res.json().data;
    expect(category).toMatchObject({
      name: 'Singing Bowls & Sound',
      slug: 'singing-bowls-and-sound',
      description: 'Sound healing',
      postCount: 0,
      publishedPostCount: 0,
    });
    const entries = await http.activityOf(admin, 'blog_category', category.id);
    expect(entries[0]).toMatchObject({ adminId: admin.userId, action: 'create' });

    const got = await http.call('GET', `/api/admin/blog/categories/${category.id}`, admin.headers);
    expect(got.statusCode).toBe(200);
    expect(got.json().data).toEqual(category);
  });

  it('a name whose slug another category has: 409 BLOG_CATEGORY_SLUG_ALREADY_EXISTS (create and rename)', async () => {
    const { http, admin, createCategory } = ctx;
    await createCategory('Travel');
    const dup = await http.call('POST', '/api/admin/blog/categories', admin.headers, { name: 'travel!' });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().errorCode).toBe('BLOG_CATEGORY_SLUG_ALREADY_EXISTS');
    const other = await createCategory('Festivals');
    const rename = await http.call('PUT', `/api/admin/blog/categories/${other.id}`, admin.headers, {
      name: 'TRAVEL',
    });
    expect(rename.statusCode).toBe(409);
    expect(rename.json().errorCode).toBe('BLOG_CATEGORY_SLUG_ALREADY_EXISTS');
  });

  it('updates partially: description only keeps the name and slug; a new name brings a new slug', async () => {
    const { http, admin, createCategory } = ctx;
    const c = await createCategory('Guides', 'How-tos');
    const desc = await http.call('PUT', `/api/admin/blog/categories/${c.id}`, admin.headers, {
      description: null,
    });
    expect(desc.statusCode).toBe(200);
    expect(desc.json().data).toMatchObject({ name: 'Guides', slug: 'guides', description: null });
    const renamed = await http.call('PUT', `/api/admin/blog/categories/${c.id}`, admin.headers, {
      name: 'Care Guides',
    });
    expect(renamed.json().data).toMatchObject({
      name: 'Care Guides',
      slug: 'care-guides',
      description: null,
    });
    const empty = await http.call('PUT', `/api/admin/blog/categories/${c.id}`, admin.headers, {});
    expect(empty.statusCode).toBe(400);
    expect(empty.json().errorCode).toBe('VALIDATION_ERROR');
  });

  it('unknown ids: 404 BLOG_CATEGORY_NOT_FOUND on read, update and delete; bad ids 400', async () => {
    const { http, admin } = ctx;
    for (const [method, payload] of [
      ['GET', undefined],
      ['PUT', { name: 'X' }],
      ['DELETE', undefined],
    ] as const) {
      const res = await http.call(method, '/api/admin/blog/categories/999999', admin.headers, payload);
      expect(res.statusCode).toBe(404);
      expect(res.json().errorCode).toBe('BLOG_CATEGORY_NOT_FOUND');
    }
    const bad = await http.call('GET', '/api/admin/blog/categories/abc', admin.headers);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errorCode).toBe('VALIDATION_ERROR');
    const blank = await http.call('POST', '/api/admin/blog/categories', admin.headers, { name: '  ' });
    expect(blank.statusCode).toBe(400);
  });

  it('a category with posts (even drafts) cannot be deleted: 409 BLOG_CATEGORY_NOT_EMPTY; an empty one can', async () => {
    const { http, admin, createCategory, createPost } = ctx;
    const full = await createCategory('Recipes');
    const post = await createPost({ title: 'Butter tea', categoryId: full.id });
    const blocked = await http.call('DELETE', `/api/admin/blog/categories/${full.id}`, admin.headers);
    expect(blocked.statusCode).toBe(409);
    expect(blocked.json().errorCode).toBe('BLOG_CATEGORY_NOT_EMPTY');
    await http.call('DELETE', `/api/admin/blog/posts/${post.id}`, admin.headers);
    const deleted = await http.call('DELETE', `/api/admin/blog/categories/${full.id}`, admin.headers);
    expect(deleted.statusCode).toBe(200);
    expect(deleted.json().data).toBeNull();
    const gone = await http.call('GET', `/api/admin/blog/categories/${full.id}`, admin.headers);
    expect(gone.statusCode).toBe(404);
    expect((await http.activityOf(admin, 'blog_category', full.id))[0]).toMatchObject({ action: 'delete' });
  });

  it('admin list: counts of all and published posts, search, sort by name ascending by default, pagination', async () => {
    const { http, admin, createCategory, createPost, publish } = ctx;
    const a = await createCategory('Zen Living');
    await createPost({ title: 'Zen draft', categoryId: a.id });
    const p = await createPost({ title: 'Zen live', categoryId: a.id });
    await publish(p.id);
    const res = await http.call('GET', '/api/admin/blog/categories?search=zen', admin.headers);
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual([
      expect.objectContaining({ id: a.id, postCount: 2, publishedPostCount: 1 }),
    ]);
    expect(res.json().meta).toEqual({ count: 1, page: 1, size: 20 });

    const all = await http.call('GET', '/api/admin/blog/categories?size=2', admin.headers);
    const names = all.json().data.map((c: { name: string }) => c.name);
    expect(names).toEqual([...names].sort((x: string, y: string) => x.localeCompare(y)));
    expect(all.json().data).toHaveLength(2);
    const short = await http.call('GET', '/api/admin/blog/categories?search=z', admin.headers);
    expect(short.statusCode).toBe(400);
    expect(short.json().errorCode).toBe('VALIDATION_ERROR');
  });

  it('public and mobile category lists: every category with its published post count only', async () => {
    const { http, createCategory, createPost, publish } = ctx;
    const c = await createCategory('Heritage Walks');
    await createPost({ title: 'Unpublished walk', categoryId: c.id });
    await publish((await createPost({ title: 'Patan walk', categoryId: c.id })).id);
    await publish((await createPost({ title: 'Bhaktapur walk', categoryId: c.id })).id);
    for (const url of ['/api/blogs/categories', '/api/mobile/blogs/categories']) {
      const res = await http.call('GET', url);
      expect(res.statusCode).toBe(200);
      const found = res.json().data.find((x: { id: number }) => x.id === c.id);
      expect(found).toEqual({
        id: c.id,
        name: 'Heritage Walks',
        slug: 'heritage-walks',
        description: null,
        postCount: 2,
      });
    }
  });

  it('every admin category route needs the right Blog permission', async () => {
    const { http, customer, createCategory } = ctx;
    const c = await createCategory('Guarded');
    await http.expectGuarded('GET', '/api/admin/blog/categories', 'Blog_READ', customer);
    await http.expectGuarded('GET', `/api/admin/blog/categories/${c.id}`, 'Blog_READ', customer);
    await http.expectGuarded('POST', '/api/admin/blog/categories', 'Blog_CREATE', customer, { name: 'N' });
    await http.expectGuarded('PUT', `/api/admin/blog/categories/${c.id}`, 'Blog_UPDATE', customer, {
      name: 'N',
    });
    await http.expectGuarded('DELETE', `/api/admin/blog/categories/${c.id}`, 'Blog_DELETE', customer);
  });
});
