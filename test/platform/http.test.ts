// docs/decisions.md "Everywhere", row by row, through test routes that use the same
// shared helpers (envelopes, pagination, id params, access) as every module.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { access } from '../../src/platform/auth/access';
import { currentUser } from '../../src/platform/http/access-hook';
import {
  envelopeSchema,
  listEnvelopeSchema,
  ok,
  okWithMeta,
  sendSerialized,
  sendSerializedPage,
  sendSerializedServed,
} from '../../src/platform/http/envelope';
import { AppError } from '../../src/platform/http/errors';
import { listQuery, pageMeta, pageWindow } from '../../src/platform/http/pagination';
import { intIdParams, uuidIdParams } from '../../src/platform/http/params';
import type { ApiApp } from '../../src/platform/module';
import { createTestApp, type TestApp } from '../helpers/app';
import { signedInAdmin, signedInCustomer } from '../helpers/factories';

const widgets = Array.from({ length: 45 }, (_, i) => ({ id: i + 1, name: `widget ${i + 1}` }));

function testRoutes(app: ApiApp) {
  app.post(
    '/api/test/widgets',
    {
      config: { access: access.public() },
      schema: {
        body: z.object({
          name: z.string().trim().min(1),
          kind: z.enum(['small', 'large']),
          quantity: z.number().int().min(1).max(99),
        }),
        response: { 201: envelopeSchema(z.object({ id: z.number(), name: z.string() })) },
      },
    },
    async (request, reply) => {
      reply.status(201);
      return ok({ id: 46, name: request.body.name }, 'Widget created');
    },
  );
  app.get(
    '/api/test/widgets',
    {
      config: { access: access.public() },
      schema: {
        querystring: listQuery(['id', 'name']),
        response: { 200: listEnvelopeSchema(z.object({ id: z.number(), name: z.string() })) },
      },
    },
    async (request) => {
      const q = request.query;
      const sorted = [...widgets].sort((a, b) => (q.order === 'asc' ? a.id - b.id : b.id - a.id));
      const { limit, offset } = pageWindow(q);
      const page = sorted.slice(offset, limit === undefined ? undefined : offset + limit);
      return okWithMeta(page, pageMeta(q, widgets.length));
    },
  );
  app.get(
    '/api/test/widgets/:id',
    { config: { access: access.public() }, schema: { params: intIdParams } },
    async (request) => ok({ id: request.params.id }),
  );
  app.get(
    '/api/test/accounts/:id',
    { config: { access: access.public() }, schema: { params: uuidIdParams } },
    async (request) => ok({ id: request.params.id }),
  );
  // What a handler returns goes through the response schema: checked and stripped.
  const secretive = envelopeSchema(z.object({ id: z.number(), name: z.string() }));
  app.get(
    '/api/test/stripped',
    { config: { access: access.public() }, schema: { response: { 200: secretive } } },
    async () => ok({ id: 1, name: 'visible', passwordHash: 'never sent' }) as never,
  );
  app.get(
    '/api/test/misshapen',
    { config: { access: access.public() }, schema: { response: { 200: secretive } } },
    async () => ok({ id: 'not a number', name: 'x' }) as never,
  );
  app.get('/api/test/boom', { config: { access: access.public() } }, async () => {
    throw new Error('secret connection string postgres://user:hunter2@db select * from users');
  });
  app.get('/api/test/conflict', { config: { access: access.public() } }, async () => {
    throw new AppError(409, 'TEST_CONFLICT', 'Already there', { reason: 'duplicate' });
  });
  app.get(
    '/api/test/limited',
    { config: { access: access.public(), rateLimit: { max: 2, timeWindow: 60_000 } } },
    async () => ok(null),
  );
  app.get('/api/test/admin-only', { config: { access: access.admin('Widgets_READ') } }, async (request) =>
    ok({ userId: currentUser(request).userId }),
  );
  app.get('/api/test/customer-only', { config: { access: access.customer() } }, async (request) =>
    ok({ userId: currentUser(request).userId }),
  );
}

describe('the "Everywhere" decisions', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ testRoutes });
  });
  afterAll(() => t.close());

  const expectErrorEnvelope = (
    res: { statusCode: number; json(): Record<string, unknown> },
    status: number,
    errorCode: string,
    path: string,
  ) => {
    expect(res.statusCode).toBe(status);
    const body = res.json();
    expect(body).toMatchObject({ statusCode: status, errorCode, path });
    expect(body.message).toBeTypeOf('string');
    expect(new Date(body.timestamp as string).toISOString()).toBe(body.timestamp);
    return body;
  };

  describe('status codes and success envelope', () => {
    it('a POST that creates answers 201 with { message, data }', async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/test/widgets',
        payload: { name: 'Lamp', kind: 'small', quantity: 2 },
      });
      expect(res.statusCode).toBe(201);
      expect(res.json()).toEqual({ message: 'Widget created', data: { id: 46, name: 'Lamp' } });
    });

    it('every other success answers 200 and carries the request id header', async () => {
      const res = await t.app.inject({
        method: 'GET',
        url: '/api/test/widgets/3',
        headers: { 'x-request-id': 'abc-123' },
      });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ message: 'OK', data: { id: 3 } });
      expect(res.headers['x-request-id']).toBe('abc-123');
      const generated = await t.app.inject({ method: 'GET', url: '/health' });
      expect(generated.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    });
  });

  describe('security headers', () => {
    // The headers helmet chooses with the content security policy off (see security-headers.ts).
    const HELMET = {
      'cross-origin-opener-policy': 'same-origin',
      'cross-origin-resource-policy': 'same-origin',
      'origin-agent-cluster': '?1',
      'referrer-policy': 'no-referrer',
      'strict-transport-security': 'max-age=31536000; includeSubDomains',
      'x-content-type-options': 'nosniff',
      'x-dns-prefetch-control': 'off',
      'x-download-options': 'noopen',
      'x-frame-options': 'SAMEORIGIN',
      'x-permitted-cross-domain-policies': 'none',
      'x-xss-protection': '0',
    };

    it.each([
      ['a success', 'GET', '/api/test/widgets/3', 200],
      ['an unknown route', 'GET', '/api/nothing-here', 404],
      ['a validation error', 'GET', '/api/test/widgets?size=101', 400],
      ['an unauthenticated admin call', 'GET', '/api/admin/system/info', 401],
      ['an operations route', 'GET', '/health', 200],
      ['a malformed URL (answered before any hook)', 'GET', '/api/test/widgets/%E0%A4%A', 400],
    ] as const)('%s carries them, and no content security policy', async (_case, method, url, status) => {
      const res = await t.app.inject({ method, url });
      expect(res.statusCode).toBe(status);
      expect(res.headers).toMatchObject(HELMET);
      expect(res.headers['x-request-id']).toMatch(/^[\w.:-]+$/);
      expect(res.headers['content-security-policy']).toBeUndefined();
      expect(res.headers['x-powered-by']).toBeUndefined();
    });
  });

  describe('validation errors', () => {
    it.each([
      ['unknown enum value', { name: 'Lamp', kind: 'huge', quantity: 1 }, 'kind'],
      ['wrong type', { name: 'Lamp', kind: 'small', quantity: 'two' }, 'quantity'],
      ['blank required string', { name: '   ', kind: 'small', quantity: 1 }, 'name'],
      ['out-of-range number', { name: 'Lamp', kind: 'small', quantity: 100 }, 'quantity'],
      ['missing field', { kind: 'small', quantity: 1 }, 'name'],
    ])('%s: 400 VALIDATION_ERROR with details', async (_case, payload, field) => {
      const res = await t.app.inject({ method: 'POST', url: '/api/test/widgets', payload });
      const body = expectErrorEnvelope(res, 400, 'VALIDATION_ERROR', '/api/test/widgets');
      expect(body.details).toEqual(
        expect.arrayContaining([expect.objectContaining({ path: field, message: expect.any(String) })]),
      );
    });

    it('each detail has a stable code and its parameters beside the English message (issue 27)', async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/test/widgets',
        payload: { name: '  ', kind: 'huge', quantity: 100 },
      });
      const body = expectErrorEnvelope(res, 400, 'VALIDATION_ERROR', '/api/test/widgets');
      expect(body.details).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ path: 'name', code: 'too_small', minimum: 1, origin: 'string' }),
          expect.objectContaining({ path: 'kind', code: 'invalid_value', values: ['small', 'large'] }),
          expect.objectContaining({ path: 'quantity', code: 'too_big', maximum: 99, origin: 'number' }),
        ]),
      );
      for (const detail of body.details as { message: unknown }[])
        expect(detail.message).toEqual(expect.any(String));
      // A missing value is `required`; one of the wrong type stays zod's `invalid_type`.
      const missing = await t.app.inject({
        method: 'POST',
        url: '/api/test/widgets',
        payload: { kind: 'small', quantity: 'two' },
      });
      expect(missing.json().details).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ path: 'name', code: 'required' }),
          expect.objectContaining({ path: 'quantity', code: 'invalid_type', expected: 'number' }),
        ]),
      );
      // The input itself never comes back in a detail.
      expect(JSON.stringify(missing.json().details)).not.toContain('"input"');
    });

    it('a bad query value is a validation error too', async () => {
      const res = await t.app.inject({ method: 'GET', url: '/api/test/widgets?size=101' });
      const body = expectErrorEnvelope(res, 400, 'VALIDATION_ERROR', '/api/test/widgets');
      expect(body.details).toEqual([expect.objectContaining({ path: 'size', location: 'querystring' })]);
    });
  });

  describe('unknown route, malformed JSON, body size', () => {
    it('unknown route: 404 ROUTE_NOT_FOUND, path without the query', async () => {
      const res = await t.app.inject({ method: 'GET', url: '/api/nothing-here?x=1' });
      expectErrorEnvelope(res, 404, 'ROUTE_NOT_FOUND', '/api/nothing-here');
    });

    it('malformed JSON: 400 INVALID_JSON', async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/test/widgets',
        headers: { 'content-type': 'application/json' },
        payload: '{"name": "Lamp",',
      });
      expectErrorEnvelope(res, 400, 'INVALID_JSON', '/api/test/widgets');
    });

    it('a JSON body over 1 MB: 413 PAYLOAD_TOO_LARGE; just under passes the size check', async () => {
      const big = JSON.stringify({ name: 'x'.repeat(1_048_576), kind: 'small', quantity: 1 });
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/test/widgets',
        headers: { 'content-type': 'application/json' },
        payload: big,
      });
      expectErrorEnvelope(res, 413, 'PAYLOAD_TOO_LARGE', '/api/test/widgets');

      const fits = JSON.stringify({ name: 'x'.repeat(1_000_000), kind: 'small', quantity: 1 });
      const ok = await t.app.inject({
        method: 'POST',
        url: '/api/test/widgets',
        headers: { 'content-type': 'application/json' },
        payload: fits,
      });
      expect(ok.statusCode).toBe(201);
    });

    it('a malformed URL escape gets the envelope too', async () => {
      const res = await t.app.inject({ method: 'GET', url: '/api/test/widgets/%E0%A4%A' });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ statusCode: 400, errorCode: 'VALIDATION_ERROR' });
      expect(res.json().timestamp).toBeTypeOf('string');
      expect(res.json().path).toBeTypeOf('string');
    });
  });

  describe('auth failures', () => {
    it('missing, malformed, forged and expired JWTs: 401 AUTH_UNAUTHORIZED', async () => {
      const admin = await signedInAdmin(t, { permissions: ['Widgets_READ'] });
      const forged = `${admin.tokens.accessToken.slice(0, -4)}AAAA`;
      for (const authorization of [
        undefined,
        'Basic abc',
        'Bearer',
        'Bearer not-a-jwt',
        `Bearer ${forged}`,
      ]) {
        const res = await t.app.inject({
          method: 'GET',
          url: '/api/test/admin-only',
          headers: authorization ? { authorization } : {},
        });
        expectErrorEnvelope(res, 401, 'AUTH_UNAUTHORIZED', '/api/test/admin-only');
      }
    });

    it('a customer on an admin route and an admin on a customer route: 403 AUTH_FORBIDDEN', async () => {
      const admin = await signedInAdmin(t, { permissions: ['Widgets_READ'] });
      const customer = await signedInCustomer(t);
      const a = await t.app.inject({ method: 'GET', url: '/api/test/admin-only', headers: customer.headers });
      expectErrorEnvelope(a, 403, 'AUTH_FORBIDDEN', '/api/test/admin-only');
      const c = await t.app.inject({ method: 'GET', url: '/api/test/customer-only', headers: admin.headers });
      expectErrorEnvelope(c, 403, 'AUTH_FORBIDDEN', '/api/test/customer-only');
    });

    it('an admin without the permission: 403 AUTH_PERMISSION_DENIED; with it: 200', async () => {
      const without = await signedInAdmin(t, { permissions: ['Other_READ'] });
      const res = await t.app.inject({
        method: 'GET',
        url: '/api/test/admin-only',
        headers: without.headers,
      });
      expectErrorEnvelope(res, 403, 'AUTH_PERMISSION_DENIED', '/api/test/admin-only');
      const withIt = await signedInAdmin(t, { permissions: ['Widgets_READ'] });
      const allowed = await t.app.inject({
        method: 'GET',
        url: '/api/test/admin-only',
        headers: withIt.headers,
      });
      expect(allowed.statusCode).toBe(200);
      expect(allowed.json().data.userId).toBe(withIt.userId);
    });
  });

  describe('rate limits', () => {
    it('429 RATE_LIMITED with a Retry-After header in seconds', async () => {
      const call = () => t.app.inject({ method: 'GET', url: '/api/test/limited', remoteAddress: '10.1.1.1' });
      expect((await call()).statusCode).toBe(200);
      expect((await call()).statusCode).toBe(200);
      const limited = await call();
      expectErrorEnvelope(limited, 429, 'RATE_LIMITED', '/api/test/limited');
      const retryAfter = Number(limited.headers['retry-after']);
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(60);
    });

    it('"per IP" is the connection address: X-Forwarded-For is ignored without TRUST_PROXY', async () => {
      const call = (xff: string) =>
        t.app.inject({
          method: 'GET',
          url: '/api/test/limited',
          remoteAddress: '10.2.2.2',
          headers: { 'x-forwarded-for': xff },
        });
      await call('1.1.1.1');
      await call('2.2.2.2');
      expect((await call('3.3.3.3')).statusCode).toBe(429);
    });
  });

  describe('unexpected failures and error shape', () => {
    it('500 INTERNAL_ERROR never carries the stack, SQL or secrets', async () => {
      const res = await t.app.inject({ method: 'GET', url: '/api/test/boom' });
      const body = expectErrorEnvelope(res, 500, 'INTERNAL_ERROR', '/api/test/boom');
      const text = res.body;
      expect(text).not.toMatch(/hunter2|select \*|postgres:\/\/|at .*\.ts/);
      expect(body.stack).toBeUndefined();
    });

    it('an answer is stripped to its response schema; one that does not fit it is our 500, not sent', async () => {
      const stripped = await t.app.inject({ method: 'GET', url: '/api/test/stripped' });
      expect(stripped.statusCode).toBe(200);
      expect(stripped.json()).toEqual({ message: 'OK', data: { id: 1, name: 'visible' } });
      const res = await t.app.inject({ method: 'GET', url: '/api/test/misshapen' });
      expectErrorEnvelope(res, 500, 'INTERNAL_ERROR', '/api/test/misshapen');
      expect(res.body).not.toContain('not a number');
    });

    it('a module error keeps its code, status and extra fields', async () => {
      const res = await t.app.inject({ method: 'GET', url: '/api/test/conflict' });
      const body = expectErrorEnvelope(res, 409, 'TEST_CONFLICT', '/api/test/conflict');
      expect(body.reason).toBe('duplicate');
    });
  });

  describe('paginated lists', () => {
    it('default page: meta { count, page, size } with count = all matching rows', async () => {
      const res = await t.app.inject({ method: 'GET', url: '/api/test/widgets' });
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(body.meta).toEqual({ count: 45, page: 1, size: 20 });
      expect(body.data).toHaveLength(20);
      expect(body.data[0].id).toBe(45); // order defaults to desc
    });

    it('page, size and order select the window', async () => {
      const res = await t.app.inject({ method: 'GET', url: '/api/test/widgets?page=3&size=20&order=asc' });
      const body = res.json();
      expect(body.meta).toEqual({ count: 45, page: 3, size: 20 });
      expect(body.data.map((w: { id: number }) => w.id)).toEqual([41, 42, 43, 44, 45]);
    });

    it('pagination=false returns the whole list with meta { count }', async () => {
      const res = await t.app.inject({ method: 'GET', url: '/api/test/widgets?pagination=false' });
      const body = res.json();
      expect(body.meta).toEqual({ count: 45 });
      expect(body.data).toHaveLength(45);
    });

    it.each(['page=0', 'size=0', 'page=abc', 'order=up', 'sort=price', 'pagination=maybe'])(
      'a bad pagination value (%s) is a validation error',
      async (query) => {
        const res = await t.app.inject({ method: 'GET', url: `/api/test/widgets?${query}` });
        expectErrorEnvelope(res, 400, 'VALIDATION_ERROR', '/api/test/widgets');
      },
    );
  });

  describe('ids in paths', () => {
    it.each(['0', '-1', '1.5', 'abc', '99999999999'])('integer id %s: 400 VALIDATION_ERROR', async (id) => {
      const res = await t.app.inject({ method: 'GET', url: `/api/test/widgets/${id}` });
      expectErrorEnvelope(res, 400, 'VALIDATION_ERROR', `/api/test/widgets/${id}`);
    });

    it('a uuid id that is not a uuid: 400 VALIDATION_ERROR; a uuid passes', async () => {
      const bad = await t.app.inject({ method: 'GET', url: '/api/test/accounts/123' });
      expectErrorEnvelope(bad, 400, 'VALIDATION_ERROR', '/api/test/accounts/123');
      const good = await t.app.inject({
        method: 'GET',
        url: '/api/test/accounts/0195f3a0-7c1e-7b3a-9d2e-3f4a5b6c7d8e',
      });
      expect(good.statusCode).toBe(200);
    });
  });
});

// Cached JSON text goes out as bytes encoded once per text (a Nepali word makes the whole text a
// two-byte string, whose UTF-8 encoding on every request was a quarter of a cached page's CPU).
describe('answers cached as text (sendSerialized, sendSerializedPage)', () => {
  const Fastify = async () => (await import('fastify')).default;
  const dataJson = JSON.stringify({ title: 'दशैं Sale', price: 1200 });
  const pageJson = JSON.stringify({ data: [{ title: 'थाङ्का' }], meta: { total: 1 } });

  it('sends the envelope as UTF-8 bytes with their length, the same on every request, each with its own message', async () => {
    const app = (await Fastify())();
    app.get('/one', (_request, reply) => sendSerialized(reply, 'Content page', dataJson));
    app.get('/other', (_request, reply) => sendSerialized(reply, 'Banner', dataJson));
    app.get('/page', (_request, reply) => sendSerializedPage(reply, 'Products', pageJson));
    app.get('/served', (_request, reply) =>
      sendSerializedServed(reply, 'Served', dataJson, `2026-10-0${i}T00:00:00.000Z`),
    );
    const i = 0;
    try {
      for (let i = 0; i < 2; i++) {
        const one = await app.inject({ method: 'GET', url: '/one' });
        expect(one.headers['content-type']).toBe('application/json; charset=utf-8');
        expect(one.json()).toEqual({ message: 'Content page', data: { title: 'दशैं Sale', price: 1200 } });
        expect(Number(one.headers['content-length'])).toBe(Buffer.byteLength(one.body, 'utf8'));
        // The same text under another message is not answered with the first one's bytes.
        expect((await app.inject({ method: 'GET', url: '/other' })).json().message).toBe('Banner');
        expect((await app.inject({ method: 'GET', url: '/page' })).json()).toEqual({
          message: 'Products',
          data: [{ title: 'थाङ्का' }],
          meta: { total: 1 },
        });
        // The cached part's bytes are reused; the time is each answer's own.
        const served = await app.inject({ method: 'GET', url: '/served' });
        expect(served.json()).toEqual({
          message: 'Served',
          data: { title: 'दशैं Sale', price: 1200, servedAt: `2026-10-0${i}T00:00:00.000Z` },
        });
        i++;
      }
    } finally {
      await app.close();
    }
  });
});
