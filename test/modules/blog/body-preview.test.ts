// The body preview (POST /api/admin/blog/posts/sanitise-preview, ours): what a save keeps of a
// post body, the same HTML the save stores, and whether anything was taken away; Blog_UPDATE;
// its own per-IP counter, apart from the writes. Nothing is written.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BLOG_PREVIEW_LIMIT } from '../../../src/modules/blog/blog.limits';
import { blogTestApp } from './calls';

const PREVIEW = '/api/admin/blog/posts/sanitise-preview';

describe('blog post body preview', () => {
  let ctx: Awaited<ReturnType<typeof blogTestApp>>;
  beforeAll(async () => {
    ctx = await blogTestApp();
  });
  afterAll(() => ctx.t.close());

  const preview = async (body: string) => {
    const res = await ctx.http.call('POST', PREVIEW, ctx.admin.headers, { body });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data as { body: string; removed: boolean };
  };

  it('answers exactly the body a save stores, and says when something is removed', async () => {
    const html =
      '<p><strong>Gilded</strong> by hand</p><script>alert(1)</script><p onclick="steal()">Patan</p>' +
      '<a href="javascript:evil()">x</a>';
    const shown = await preview(html);
    expect(shown.removed).toBe(true);
    expect(shown.body).toContain('<strong>Gilded</strong> by hand');
    expect(shown.body).not.toMatch(/script|onclick|javascript/);
    const saved = await ctx.createPost({ title: 'Preview equals save', body: html });
    expect(shown.body).toBe(saved.body);
    // The preview wrote nothing: the list holds the one post this test saved, no other.
    const list = await ctx.http.call('GET', '/api/admin/blog/posts?search=Preview', ctx.admin.headers);
    expect(list.json().data.map((p: { id: number }) => p.id)).toEqual([saved.id]);
  });

  it('markup the sanitiser allows is kept whole: nothing removed, spelling differences aside', async () => {
    const html =
      '<h2>Lost-wax casting</h2><p>Bronze &amp; copper, <em>fired</em> <u>twice</u>, <s>once</s><br/>' +
      "it's 1 &lt; 2</p><ul><li><p>Wax</p></li></ul><ol><li><p>Clay</p></li></ol><blockquote><p>Q</p></blockquote>" +
      '<pre><code class="language-js">a &lt; b</code></pre><hr>' +
      '<p><a href="https://example.com" target="_blank" rel="noopener noreferrer nofollow">link</a></p>';
    const shown = await preview(html);
    expect(shown.removed).toBe(false);
    expect(shown.body).toContain('<h2>Lost-wax casting</h2>');
    expect(shown.body).toContain('target="_blank"');
    expect(shown.body).toContain('<code class="language-js">');
  });

  it('each kind of removal is reported: a tag, an attribute, a URL scheme, a style', async () => {
    for (const html of [
      '<p>a</p><iframe src="https://example.com"></iframe>',
      '<p title="x">a</p>',
      '<p><img src="data:image/png;base64,AAAA" alt="x"></p>',
      '<p style="color:red">a</p>',
    ]) {
      expect((await preview(html)).removed, html).toBe(true);
    }
    expect(await preview('')).toEqual({ body: '', removed: false });
  });

  it('needs Blog_UPDATE and a body', async () => {
    const { http, customer } = ctx;
    await http.expectGuarded('POST', PREVIEW, 'Blog_UPDATE', customer, { body: '<p>x</p>' });
    const missing = await http.call('POST', PREVIEW, ctx.admin.headers, {});
    expect(missing.statusCode).toBe(400);
    expect(missing.json().errorCode).toBe('VALIDATION_ERROR');
  });

  it('has its own counter: previews do not use up the writes of that address', async () => {
    const ip = '203.0.113.91';
    for (let i = 0; i < BLOG_PREVIEW_LIMIT.max; i++) {
      const res = await ctx.http.call('POST', PREVIEW, ctx.admin.headers, { body: '<p>x</p>' }, ip);
      expect(res.statusCode, `preview ${i + 1}`).toBe(200);
    }
    const limited = await ctx.http.call('POST', PREVIEW, ctx.admin.headers, { body: '<p>x</p>' }, ip);
    expect(limited.statusCode).toBe(429);
    expect(limited.json().errorCode).toBe('RATE_LIMITED');
    const write = await ctx.http.call(
      'POST',
      '/api/admin/blog/categories',
      ctx.admin.headers,
      { name: 'After previews' },
      ip,
    );
    expect(write.statusCode).toBe(201);
  });
});
