// The OpenAPI document client generators read: names, errors, security and tags for every
// operation, @redocly/cli's recommended rules, and the typed client's types kept in step.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { CLIENT_SCHEMA_FILE, clientTypesFrom } from '../../scripts/client-generate';
import { buildOpenApiDocument } from '../../scripts/openapi-document';

// biome-ignore lint/suspicious/noExplicitAny: a JSON document read by path
type Json = Record<string, any>;
const METHODS = ['get', 'put', 'post', 'patch', 'delete'];

describe('OpenAPI document', () => {
  let doc: Json;
  const operations: { method: string; path: string; op: Json }[] = [];
  beforeAll(async () => {
    doc = await buildOpenApiDocument();
    for (const [p, item] of Object.entries(doc.paths as Json)) {
      for (const [method, op] of Object.entries(item as Json)) {
        if (METHODS.includes(method)) operations.push({ method, path: p, op });
      }
    }
  }, 120_000);
  const find = (method: string, p: string) => doc.paths[p][method] as Json;
  const errorCodes = (op: Json, status: number) =>
    op.responses[String(status)]?.content['application/json'].schema.allOf[1].properties.errorCode.enum;

  it('gives every operation a unique, readable operationId', () => {
    expect(operations.length).toBeGreaterThan(300);
    const ids = operations.map(({ op }) => op.operationId);
    for (const id of ids) expect(id).toMatch(/^[a-z][A-Za-z]+$/);
    expect(new Set(ids).size).toBe(ids.length);
    expect(find('get', '/api/products').operationId).toBe('listProducts');
    expect(find('get', '/api/products/{slug}').operationId).toBe('getProductBySlug');
    expect(find('get', '/api/mobile/products').operationId).toBe('mobileListProducts');
    expect(find('post', '/api/admin/products').operationId).toBe('adminCreateProduct');
    expect(find('post', '/api/admin/products/{id}/publish').operationId).toBe('adminPublishProduct');
    expect(find('post', '/api/mobile/auth/login/email').operationId).toBe('mobileLoginWithEmail');
  });

  it('references the shared error envelope for the statuses each operation can answer', () => {
    expect(doc.components.schemas.ErrorEnvelope.required).toEqual(
      expect.arrayContaining(['statusCode', 'message', 'errorCode', 'timestamp', 'path']),
    );
    for (const { op } of operations) {
      // A malformed URL is 400 VALIDATION_ERROR on every route.
      expect(errorCodes(op, 400)).toContain('VALIDATION_ERROR');
      for (const [status, response] of Object.entries(op.responses as Json)) {
        if (Number(status) < 400) continue;
        expect(response.content['application/json'].schema.allOf[0]).toEqual({
          $ref: '#/components/schemas/ErrorEnvelope',
        });
      }
      const signedIn = op.security.length > 0 && op.security.every((s: Json) => 'bearerAuth' in s);
      expect(errorCodes(op, 401)?.includes('AUTH_UNAUTHORIZED') ?? false, `${op.operationId} 401`).toBe(
        signedIn,
      );
      expect(errorCodes(op, 403)?.includes('AUTH_FORBIDDEN') ?? false, `${op.operationId} 403`).toBe(
        signedIn,
      );
    }
    // Public: no security at all; authenticated: 401 and 403 with the permission's code.
    expect(find('get', '/api/products').security).toEqual([]);
    const create = find('post', '/api/admin/products');
    expect(create.security).toEqual([{ bearerAuth: [] }]);
    expect(errorCodes(create, 401)).toEqual(['AUTH_UNAUTHORIZED']);
    expect(errorCodes(create, 403)).toEqual(['AUTH_FORBIDDEN', 'AUTH_PERMISSION_DENIED']);
    expect(errorCodes(create, 400)).toEqual(
      expect.arrayContaining(['INVALID_JSON', 'PRODUCT_CATEGORY_INVALID']),
    );
    expect(errorCodes(create, 409)).toEqual(['PRODUCT_SLUG_EXISTS']);
    expect(errorCodes(create, 413)).toEqual(['PAYLOAD_TOO_LARGE']);
    expect(errorCodes(find('get', '/api/products/{slug}'), 404)).toEqual(['PRODUCT_NOT_FOUND']);
    // Rate limits: by route config, by a limiter hook, and thrown by a service.
    expect(errorCodes(find('post', '/api/support-inquiries'), 429)).toEqual(['RATE_LIMITED']);
    expect(errorCodes(find('get', '/api/products'), 429)).toEqual(['RATE_LIMITED']);
    expect(find('get', '/api/admin/products/{id}').responses['429']).toBeUndefined();
    // A guest credential's own refusal; Idempotency-Key's conflicts.
    expect(errorCodes(find('get', '/api/support-inquiries/{id}'), 403)).toContain(
      'SUPPORT_INQUIRY_TOKEN_INVALID',
    );
    const checkout = find('post', '/api/admin/pos/orders');
    expect(errorCodes(checkout, 409)).toContain('IDEMPOTENCY_REQUEST_IN_PROGRESS');
    expect(errorCodes(checkout, 422)).toContain('IDEMPOTENCY_KEY_MISMATCH');
  });

  it('declares the file wildcard, describes every tag, and names its licence and contact', () => {
    const file = find('get', '/files/{path}');
    expect(file.parameters).toContainEqual(
      expect.objectContaining({ in: 'path', name: 'path', required: true }),
    );
    expect(doc.paths['/files/{*}']).toBeUndefined();
    const used = new Set(operations.flatMap(({ op }) => op.tags));
    expect(doc.tags.map((t: Json) => t.name).sort()).toEqual([...used].sort());
    for (const tag of doc.tags) expect(tag.description, tag.name).not.toBe('');
    expect(doc.info.license).toEqual({ name: 'MIT', identifier: 'MIT' });
    expect(doc.info.contact.name).toBeTruthy();
  });

  it('passes @redocly/cli lint (recommended rules, redocly.yaml) without an error or warning', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'pasal-openapi-'));
    try {
      const file = path.join(dir, 'openapi.json');
      writeFileSync(file, JSON.stringify(doc));
      const cli = createRequire(import.meta.url).resolve('@redocly/cli/bin/cli.js');
      const root = path.resolve(import.meta.dirname, '../..');
      const run = await promisify(execFile)(
        process.execPath,
        [
          cli,
          'lint',
          file,
          '--config',
          path.join(root, 'redocly.yaml'),
          '--format',
          'json',
          '--max-problems',
          '1000',
        ],
        {
          cwd: root,
          maxBuffer: 64 * 1024 * 1024,
          env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
        },
      ).catch((error: { stdout: string }) => error);
      const report = JSON.parse(run.stdout) as { totals: Json; problems: Json[] };
      const problems = report.problems.map((p) => `${p.ruleId}: ${p.message}`);
      expect(problems).toEqual([]);
      expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('matches the committed types of the TypeScript client (run `npm run client:generate`)', async () => {
    const committed = readFileSync(CLIENT_SCHEMA_FILE, 'utf8');
    expect((await clientTypesFrom(doc)) === committed, 'clients/typescript/src/schema.ts is stale').toBe(
      true,
    );
  }, 60_000);
});
