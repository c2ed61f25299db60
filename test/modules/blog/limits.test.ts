// The blog admin limits: reads 30 and writes 10 per minute per IP, each one counter shared
// by the routes of its kind; 429 RATE_LIMITED with Retry-After. Public reads are not limited.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BLOG_ADMIN_LIMITS } from '../../../src/modules/blog/blog.limits';
import { blogTestApp } from './calls';

describe('blog admin rate limits', () => {
  let ctx: Awaited<ReturnType<typeof blogTestApp>>;
  beforeAll(async () => {
    ctx = await blogTestApp();
  });
  afterAll(() => ctx.t.close());

  it('the interface numbers', () => {
    expect(BLOG_ADMIN_LIMITS).toEqual({
      read: { max: 30, timeWindow: 60_000 },
      write: { max: 10, timeWindow: 60_000 },
    });
  });

  it('31st admin read from one IP in a minute is 429 across blog read routes; another IP still reads', async () => {
    const { http, admin } = ctx;
    const post = await ctx.createPost({ title: 'Limited reads' });
    const ip = '203.0.113.7';
    const urls = ['/api/admin/blog/posts', `/api/admin/blog/posts/${post.id}`, '/api/admin/blog/categories'];
    for (let i = 0; i < 30; i++) {
      const res = await http.call('GET', urls[i % urls.length]!, admin.headers, undefined, ip);
      expect(res.statusCode, `read ${i + 1}`).toBe(200);
    }
    const limited = await http.call('GET', '/api/admin/blog/categories', admin.headers, undefined, ip);
    expect(limited.statusCode).toBe(429);
    expect(limited.json().errorCode).toBe('RATE_LIMITED');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(limited.headers['retry-after'])).toBeLessThanOrEqual(60);
    // Writes have their own counter; other addresses and public reads are unaffected.
    const write = await http.call(
      'POST',
      '/api/admin/blog/categories',
      admin.headers,
      { name: 'Still writes' },
      ip,
    );
    expect(write.statusCode).toBe(201);
    expect(
      (await http.call('GET', '/api/admin/blog/posts', admin.headers, undefined, '203.0.113.8')).statusCode,
    ).toBe(200);
    for (let i = 0; i < 40; i++) {
      expect((await http.call('GET', '/api/blogs', {}, undefined, ip)).statusCode).toBe(200);
    }
  });

  it('11th admin write from one IP in a minute is 429, whatever the write', async () => {
    const { http, admin } = ctx;
    const ip = '203.0.113.9';
    const post = await ctx.createPost({ title: 'Limited writes' });
    const writes: Array<() => ReturnType<typeof http.call>> = [
      () => http.call('POST', '/api/admin/blog/posts', admin.headers, { title: 'w' }, ip),
      () => http.call('PUT', `/api/admin/blog/posts/${post.id}`, admin.headers, { excerpt: 'e' }, ip),
      () => http.call('POST', `/api/admin/blog/posts/${post.id}/publish`, admin.headers, undefined, ip),
      () => http.call('POST', `/api/admin/blog/posts/${post.id}/unpublish`, admin.headers, undefined, ip),
      () => http.call('POST', '/api/admin/blog/categories', admin.headers, { name: `c${Math.random()}` }, ip),
    ];
    for (let i = 0; i < 10; i++) {
      const res = await writes[i % writes.length]!();
      expect(res.statusCode, `write ${i + 1}`).toBeLessThan(300);
    }
    const limited = await http.call(
      'DELETE',
      `/api/admin/blog/posts/${post.id}`,
      admin.headers,
      undefined,
      ip,
    );
    expect(limited.statusCode).toBe(429);
    expect(limited.json().errorCode).toBe('RATE_LIMITED');
    expect(limited.headers['retry-after']).toBeDefined();
    // The post is still there: the limited write did nothing.
    expect((await http.call('GET', `/api/admin/blog/posts/${post.id}`, admin.headers)).statusCode).toBe(200);
  });
});
