// What operators and client developers rely on besides the API itself: liveness, readiness,
// metrics and a valid OpenAPI document that lists every route with its access.
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app';
import { servicesTier } from '../helpers/services';

describe('operations routes', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('GET /health answers 200 without touching dependencies', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: 'OK', data: { status: 'ok' } });
  });

  it('GET /ready reports the database and Redis, and names the SMS and push providers', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/ready' });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual({
      database: 'up',
      redis: servicesTier ? 'up' : 'not_configured',
      paymentGateways: {
        gateway_card: 'sandbox',
        gateway_wallet_a: 'sandbox',
        gateway_wallet_b: 'sandbox',
        gateway_bank: 'sandbox',
      },
      sms: 'memory',
      push: 'memory',
    });
  });

  it('GET /metrics exposes request durations by route pattern', async () => {
    await t.app.inject({ method: 'GET', url: '/api/system/status' });
    const res = await t.app.inject({ method: 'GET', url: '/metrics' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/plain');
    expect(res.body).toMatch(
      /http_request_duration_seconds_count\{[^}]*route="\/api\/system\/status"[^}]*status_code="200"[^}]*\} \d+/,
    );
  });

  describe('API documentation', () => {
    it('/docs serves the interactive UI', async () => {
      const res = await t.app.inject({ method: 'GET', url: '/docs/' });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toContain('text/html');
      expect(res.body).toContain('swagger-ui');
    });

    it('/docs/openapi.json is a valid OpenAPI 3.1 document listing the routes with their access', async () => {
      const res = await t.app.inject({ method: 'GET', url: '/docs/openapi.json' });
      expect(res.statusCode).toBe(200);
      const doc = res.json();
      expect(doc.openapi).toBe('3.1.0');
      const result = await new Validator().validate(doc);
      expect(result.errors ?? []).toEqual([]);
      expect(result.valid).toBe(true);

      const info = doc.paths['/api/admin/system/info'].get;
      expect(info.security).toEqual([{ bearerAuth: [] }]);
      expect(info.description).toContain('System_READ');
      expect(
        info.responses['200'].content['application/json'].schema.properties.data.properties,
      ).toHaveProperty('drivers');
      expect(doc.paths['/api/system/status'].get.security).toEqual([]);
      expect(doc.paths['/docs/openapi.json']).toBeUndefined();
    });
  });

  it('/ready answers 503 SERVICE_NOT_READY while the database does not answer', async () => {
    const database = t.platform.database;
    const ping = database.ping;
    database.ping = async () => {
      throw new Error('connection refused');
    };
    try {
      const res = await t.app.inject({ method: 'GET', url: '/ready' });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toMatchObject({ errorCode: 'SERVICE_NOT_READY', path: '/ready' });
    } finally {
      database.ping = ping;
    }
    expect((await t.app.inject({ method: 'GET', url: '/ready' })).statusCode).toBe(200);
  });
});

// docs/decisions.md, "Metrics": open in development; in production 404 unless METRICS_TOKEN is set,
// and then only to `Authorization: Bearer <METRICS_TOKEN>` (everyone else: 404 as well, so the
// path is not revealed).
describe('/metrics access by environment', () => {
  const TOKEN = 'metrics-token-0123456789abcdef';
  const production = {
    NODE_ENV: 'production',
    JWT_SECRET: 'a-production-jwt-secret-long-enough-0123456789',
    URL_SIGNING_SECRET: 'a-production-url-secret-long-enough-0123456789',
  };
  let owner: TestApp;
  const apps: TestApp[] = [];
  beforeAll(async () => {
    owner = await createTestApp({ env: { NODE_ENV: 'development' } });
  });
  afterAll(async () => {
    for (const app of apps) await app.close();
    await owner.close();
  });
  /** Another process of the same deployment (same database), with `env`. */
  const withEnv = async (env: Record<string, string>) => {
    const app = await createTestApp({ env, database: owner.platform.database, startJobs: false });
    apps.push(app);
    return app;
  };
  const scrape = (t: TestApp, authorization?: string) =>
    t.app.inject({ method: 'GET', url: '/metrics', headers: authorization ? { authorization } : {} });

  it('development: open without any credential', async () => {
    const res = await scrape(owner);
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('http_request_duration_seconds');
  });

  it('production without METRICS_TOKEN: 404 ROUTE_NOT_FOUND to everyone', async () => {
    const t = await withEnv(production);
    for (const authorization of [undefined, `Bearer ${TOKEN}`, 'Bearer ']) {
      const res = await scrape(t, authorization);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ errorCode: 'ROUTE_NOT_FOUND', path: '/metrics' });
      expect(res.body).not.toContain('http_request_duration_seconds');
    }
  });

  it('production with METRICS_TOKEN: 200 to that bearer token only, 404 to any other', async () => {
    const t = await withEnv({ ...production, METRICS_TOKEN: TOKEN });
    for (const authorization of [
      undefined,
      `Bearer ${TOKEN.slice(0, -1)}`,
      `Bearer ${TOKEN}x`,
      `Basic ${TOKEN}`,
      TOKEN,
      `Bearer ${TOKEN.toUpperCase()}`,
    ]) {
      const res = await scrape(t, authorization);
      expect(res.statusCode, String(authorization)).toBe(404);
      expect(res.json()).toMatchObject({ errorCode: 'ROUTE_NOT_FOUND' });
    }
    const res = await scrape(t, `Bearer ${TOKEN}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/plain');
    expect(res.body).toContain('http_request_duration_seconds');
  });
});
