// The admin console at /admin: a fixture build in a temp folder stands in for console/dist.
// index.html is never cached and carries the console's CSP, hashed assets are cached for a
// year, deep links get the app, a missing asset is a 404, nothing outside the build is served,
// CONSOLE_ENABLED=false removes the routes, and a checkout without a build answers 503.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  consoleContentSecurityPolicy,
  defaultConsoleDir,
  registerConsole,
} from '../../src/platform/http/console';
import { createTestApp, type TestApp } from '../helpers/app';

const INDEX = `<!doctype html><html><head><script type="module" crossorigin src="/admin/assets/index-B1a2c3d4.js"></script>
<link rel="stylesheet" crossorigin href="/admin/assets/index-C5e6f7a8.css"></head><body><div id="root"></div></body></html>`;
const SCRIPT = 'console.log("console");';

let fixture: string;
let t: TestApp;

function writeBuild(dir: string) {
  mkdirSync(path.join(dir, 'assets'), { recursive: true });
  writeFileSync(path.join(dir, 'index.html'), INDEX);
  writeFileSync(path.join(dir, 'assets', 'index-B1a2c3d4.js'), SCRIPT);
  writeFileSync(path.join(dir, 'assets', 'index-C5e6f7a8.css'), 'body{margin:0}');
  writeFileSync(path.join(dir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
}

beforeAll(async () => {
  fixture = mkdtempSync(path.join(tmpdir(), 'pasal-console-'));
  writeBuild(path.join(fixture, 'dist'));
  // A file beside the build that must never be reachable through /admin.
  writeFileSync(path.join(fixture, 'secret.txt'), 'outside the build');
  t = await createTestApp({ consoleDir: path.join(fixture, 'dist') });
});
afterAll(async () => {
  await t?.close();
  rmSync(fixture, { recursive: true, force: true });
});

const get = (url: string, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'GET', url, headers });

describe('the built console at /admin', () => {
  it('serves index.html at /admin/ without caching, with the console CSP', async () => {
    const res = await get('/admin/');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.body).toBe(INDEX);
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(csp).toContain("style-src 'self' 'unsafe-inline'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("connect-src 'self' http://localhost:3000 ws://localhost:3000");
    expect(csp).toContain("img-src 'self' data: blob: http://localhost:3000");
    expect(res.headers['x-frame-options']).toBe('DENY');
    // The headers every answer carries are still there.
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-request-id']).toBeTruthy();
  });

  it('revalidates index.html with its ETag', async () => {
    const first = await get('/admin/');
    expect(first.headers.etag).toBeTruthy();
    expect(first.headers['last-modified']).toBeTruthy();
    const again = await get('/admin/', { 'if-none-match': String(first.headers.etag) });
    expect(again.statusCode).toBe(304);
  });

  it('redirects /admin to /admin/, keeping the query', async () => {
    const res = await get('/admin');
    expect(res.statusCode).toBe(301);
    expect(res.headers.location).toBe('/admin/');
    const withQuery = await get('/admin?lang=ne');
    expect(withQuery.headers.location).toBe('/admin/?lang=ne');
  });

  it('caches hashed assets for a year, with their content types', async () => {
    const js = await get('/admin/assets/index-B1a2c3d4.js');
    expect(js.statusCode).toBe(200);
    expect(js.headers['content-type']).toMatch(/^(text|application)\/javascript/);
    expect(js.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(js.body).toBe(SCRIPT);
    const css = await get('/admin/assets/index-C5e6f7a8.css');
    expect(css.headers['content-type']).toMatch(/^text\/css/);
    expect(css.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    // A file outside assets/ has no hash in its name: revalidated like index.html.
    const icon = await get('/admin/favicon.svg');
    expect(icon.headers['content-type']).toMatch(/^image\/svg\+xml/);
    expect(icon.headers['cache-control']).toBe('no-cache');
  });

  it("answers the app's own routes (deep links) with index.html", async () => {
    for (const url of ['/admin/orders/123', '/admin/catalog/products?page=2', '/admin/index.html']) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(200);
      expect(res.body, url).toBe(INDEX);
      expect(res.headers['cache-control'], url).toBe('no-cache');
      expect(res.headers['content-security-policy'], url).toContain("frame-ancestors 'none'");
    }
  });

  it('answers a missing asset or file with a 404 envelope, not the app', async () => {
    for (const url of [
      '/admin/assets/missing-0000.js',
      '/admin/robots.txt',
      '/admin/assets/',
      '/admin/assets',
    ]) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(404);
      expect(res.json(), url).toMatchObject({ statusCode: 404, errorCode: 'ROUTE_NOT_FOUND' });
    }
    const post = await t.app.inject({ method: 'POST', url: '/admin/orders', payload: {} });
    expect(post.statusCode).toBe(404);
  });

  it('never serves a file outside the build', async () => {
    for (const url of [
      '/admin/../secret.txt',
      '/admin/%2e%2e/secret.txt',
      '/admin/assets/%2e%2e/%2e%2e/secret.txt',
      '/admin/..%2fsecret.txt',
      '/admin/%2e%2e%2fsecret.txt',
      '/admin//etc/passwd',
      '/admin/.env',
    ]) {
      const res = await get(url);
      expect(res.body, url).not.toContain('outside the build');
      expect(res.body, url).not.toContain('root:');
      expect([403, 404], url).toContain(res.statusCode);
    }
  });

  it('leaves the API without the console CSP', async () => {
    const res = await get('/health');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-security-policy']).toBeUndefined();
    expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
  });

  it('is not in the OpenAPI document', async () => {
    const res = await get('/docs/openapi.json');
    const paths = Object.keys(res.json().paths);
    expect(paths.some((p) => p.startsWith('/admin'))).toBe(false);
  });
});

describe('the console when it is off or not built', () => {
  it('CONSOLE_ENABLED=false: no /admin routes at all', async () => {
    const off = await createTestApp({
      env: { CONSOLE_ENABLED: 'false' },
      consoleDir: path.join(fixture, 'dist'),
    });
    try {
      for (const url of ['/admin', '/admin/', '/admin/assets/index-B1a2c3d4.js', '/admin/orders']) {
        const res = await off.app.inject({ method: 'GET', url });
        expect(res.statusCode, url).toBe(404);
        expect(res.json().errorCode, url).toBe('ROUTE_NOT_FOUND');
      }
    } finally {
      await off.close();
    }
  });

  it('no build: the API starts and /admin answers 503 CONSOLE_NOT_BUILT', async () => {
    const empty = mkdtempSync(path.join(tmpdir(), 'pasal-console-empty-'));
    const unbuilt = await createTestApp({ consoleDir: path.join(empty, 'dist') });
    try {
      for (const url of ['/admin', '/admin/', '/admin/orders/1']) {
        const res = await unbuilt.app.inject({ method: 'GET', url });
        expect(res.statusCode, url).toBe(503);
        expect(res.json(), url).toMatchObject({ statusCode: 503, errorCode: 'CONSOLE_NOT_BUILT', path: url });
      }
      expect((await unbuilt.app.inject({ method: 'GET', url: '/health' })).statusCode).toBe(200);
    } finally {
      await unbuilt.close();
      rmSync(empty, { recursive: true, force: true });
    }
  });
});

describe('start-up without a build', () => {
  it('logs a warning that names the folder and the fix', async () => {
    const warn = vi.fn();
    const app = Fastify();
    const dir = path.join(tmpdir(), 'pasal-no-console-here', 'dist');
    await registerConsole(app, {
      dir,
      publicBaseUrl: 'http://localhost:3000',
      fileOrigins: [],
      log: { warn },
      now: () => new Date(),
    });
    await app.close();
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0]?.[0]).toEqual({ dir });
    expect(warn.mock.calls[0]?.[1]).toMatch(/CONSOLE_NOT_BUILT.*npm run build/);
  });
});

describe('the console CSP and build folder', () => {
  it('names the storage origins and wss for an https API', () => {
    const csp = consoleContentSecurityPolicy({
      publicBaseUrl: 'https://api.shop.example',
      fileOrigins: ['https://cdn.shop.example', 'https://uploads.s3.ap-south-1.amazonaws.com'],
    });
    expect(csp).toContain(
      "img-src 'self' data: blob: https://api.shop.example https://cdn.shop.example https://uploads.s3.ap-south-1.amazonaws.com",
    );
    expect(csp).toContain("connect-src 'self' https://api.shop.example wss://api.shop.example");
  });

  it('finds console/dist of the checkout from the source tree and from the bundle', () => {
    const root = path.resolve(import.meta.dirname, '../..');
    expect(defaultConsoleDir(path.join(root, 'src/platform/http'))).toBe(path.join(root, 'console/dist'));
    expect(defaultConsoleDir(path.join(root, 'dist'))).toBe(path.join(root, 'console/dist'));
  });
});
