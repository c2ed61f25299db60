// The content admin limits with their defaults (30 reads and 10 writes a minute, per admin
// user; the three write routes share one counter), a failing limiter store, and concurrent
// writes: last write wins on one row, and racing first calls make one page.
import rateLimit from '@fastify/rate-limit';
import { eq } from 'drizzle-orm';
import Fastify from 'fastify';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contentAdminLimits } from '../../../src/modules/content/content.routes';
import { contentPages, contentSections } from '../../../src/modules/content/content.table';
import { createTestApp, type TestApp } from '../../helpers/app';
import { signedInAdmin } from '../../helpers/factories';
import { contentCalls } from './calls';
import { rt, VALID_PAYLOADS } from './fixtures';

describe('content admin limits and concurrency', () => {
  let t: TestApp;
  let http: ReturnType<typeof contentCalls>;
  beforeAll(async () => {
    t = await createTestApp();
    http = contentCalls(t);
  });
  afterAll(() => t.close());

  it('allows 30 admin reads a minute per admin user', async () => {
    const one = await signedInAdmin(t, { permissions: ['Content_READ'] });
    const two = await signedInAdmin(t, { permissions: ['Content_READ'] });
    for (let i = 0; i < 30; i++) {
      expect((await http.call('GET', http.admin('home'), one.headers)).statusCode).toBe(200);
    }
    const limited = await http.call('GET', http.admin('home'), one.headers);
    expect(limited.statusCode).toBe(429);
    expect(limited.json().errorCode).toBe('RATE_LIMITED');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(limited.headers['retry-after'])).toBeLessThanOrEqual(60);
    // Another admin has a counter of their own; public reads are not limited.
    expect((await http.call('GET', http.admin('home'), two.headers)).statusCode).toBe(200);
    for (let i = 0; i < 5; i++)
      expect((await http.call('GET', '/api/content/pages/home')).statusCode).toBe(200);
  });

  it('allows 10 writes a minute per admin user, counted together over meta, upsert and delete', async () => {
    const editor = await signedInAdmin(t, {
      permissions: ['Content_READ', 'Content_UPDATE', 'Content_DELETE'],
    });
    const other = await signedInAdmin(t, { permissions: ['Content_UPDATE'] });
    for (let i = 0; i < 4; i++) {
      const res = await http.call('PUT', http.section('faq', 'faq_intro'), editor.headers, {
        payloadJson: VALID_PAYLOADS.faq_intro,
      });
      expect(res.statusCode).toBe(200);
    }
    for (let i = 0; i < 3; i++) {
      const res = await http.call('PATCH', `${http.admin('faq')}/meta`, editor.headers, {
        title: `FAQ ${i}`,
      });
      expect(res.statusCode).toBe(200);
    }
    expect((await http.call('DELETE', http.section('faq', 'faq_intro'), editor.headers)).statusCode).toBe(
      200,
    );
    // Failed calls count too: a 404 and a refused payload.
    expect((await http.call('DELETE', http.section('faq', 'faq_intro'), editor.headers)).statusCode).toBe(
      404,
    );
    const refused = await http.call('PUT', http.section('faq', 'faq_intro'), editor.headers, {
      payloadJson: {},
    });
    expect(refused.statusCode).toBe(400);

    for (const [method, url, body] of [
      ['PUT', http.section('faq', 'faq_intro'), { payloadJson: VALID_PAYLOADS.faq_intro }],
      ['PATCH', `${http.admin('faq')}/meta`, { title: 'FAQ' }],
      ['DELETE', http.section('faq', 'faq_intro'), undefined],
    ] as const) {
      const limited = await http.call(method, url, editor.headers, body);
      expect(limited.statusCode, method).toBe(429);
      expect(limited.json().errorCode).toBe('RATE_LIMITED');
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    }
    // Reads have their own counter; another admin writes freely.
    expect((await http.call('GET', http.admin('faq'), editor.headers)).statusCode).toBe(200);
    const res = await http.call('PUT', http.section('faq', 'faq_intro'), other.headers, {
      payloadJson: VALID_PAYLOADS.faq_intro,
    });
    expect(res.statusCode).toBe(200);
  });

  it('lets admin calls through when the limiter store fails', async () => {
    // A Redis that refuses every command at once: nothing listens on port 1.
    const broken = new Redis({
      port: 1,
      lazyConnect: true,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
    });
    broken.on('error', () => {});
    const app = Fastify();
    await app.register(rateLimit, { global: false, redis: broken });
    const limits = { ...t.platform.config, CONTENT_ADMIN_WRITE_RATE_LIMIT: 1 };
    app.put('/write', { onRequest: app.rateLimit(contentAdminLimits(limits, 'write')) }, async () => ({
      ok: true,
    }));
    try {
      for (let i = 0; i < 3; i++)
        expect((await app.inject({ method: 'PUT', url: '/write' })).statusCode).toBe(200);
    } finally {
      await app.close();
      broken.disconnect();
    }
  });

  it('concurrent writes to one section leave one row holding one of the writes (last write wins)', async () => {
    const writers = await Promise.all(
      Array.from({ length: 6 }, () =>
        signedInAdmin(t, { permissions: ['Content_READ', 'Content_UPDATE', 'Content_DELETE'] }),
      ),
    );
    const payloads = writers.map((_, i) => ({ heading: rt(`Stories ${i}`) }));
    const results = await Promise.all(
      writers.map((w, i) =>
        http.call('PUT', http.section('products_statues', 'blogs_header'), w.headers, {
          payloadJson: payloads[i],
          position: i,
        }),
      ),
    );
    expect(results.map((r) => r.statusCode)).toEqual(writers.map(() => 200));
    const pages = await t.platform.database.db
      .select()
      .from(contentPages)
      .where(eq(contentPages.pageKey, 'products_statues'));
    expect(pages).toHaveLength(1);
    const rows = await t.platform.database.db
      .select()
      .from(contentSections)
      .where(eq(contentSections.pageId, pages[0]!.id));
    expect(rows).toHaveLength(1);
    const winner = rows[0]!;
    // The stored row is one whole write, never a mix of two.
    expect(payloads[winner.position]).toEqual(winner.payloadJson);
    expect(new Set(results.map((r) => r.json().data.id))).toEqual(new Set([winner.id]));
    // And the reads show it.
    const page = (await http.call('GET', '/api/content/pages/products_statues')).json().data;
    expect(page.sections).toEqual([
      expect.objectContaining({ id: winner.id, payloadJson: winner.payloadJson }),
    ]);
  });

  it('racing first admin reads of a missing page make exactly one page', async () => {
    const readers = await Promise.all(
      Array.from({ length: 6 }, () => signedInAdmin(t, { permissions: ['Content_READ'] })),
    );
    const results = await Promise.all(readers.map((r) => http.call('GET', http.admin('about'), r.headers)));
    expect(results.map((r) => r.statusCode)).toEqual(readers.map(() => 200));
    expect(new Set(results.map((r) => r.json().data.id)).size).toBe(1);
    const pages = await t.platform.database.db
      .select()
      .from(contentPages)
      .where(eq(contentPages.pageKey, 'about'));
    expect(pages).toHaveLength(1);
  });
});
