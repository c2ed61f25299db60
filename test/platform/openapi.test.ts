// The OpenAPI document client generators read: names, errors, security and tags for every
// operation, @redocly/cli's recommended rules, and the typed client's types kept in step.
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { CLIENT_SCHEMA_FILE, clientTypesFrom } from '../../scripts/client-generate';
import { buildOpenApiDocument } from '../../scripts/openapi-document';
import { modules } from '../../src/app';
import { AppError } from '../../src/platform/http/errors';
import { moduleTags } from '../../src/platform/http/openapi';

// biome-ignore lint/suspicious/noExplicitAny: a JSON document read by path
type Json = Record<string, any>;
const METHODS = ['get', 'put', 'post', 'patch', 'delete'];

/** A page for the customer's browser (the payment result page's 404): HTML only, no envelope. */
const isBrowserPage = (response: Json) => Object.keys(response.content ?? {}).join() === 'text/html';

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
        if (Number(status) < 400 || isBrowserPage(response)) continue;
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
    // STAFF_2FA_REQUIRED: an admin without 2FA is confined to the enrolment routes.
    expect(errorCodes(create, 403)).toEqual([
      'AUTH_2FA_ENROLMENT_REQUIRED',
      'AUTH_FORBIDDEN',
      'AUTH_PERMISSION_DENIED',
    ]);
    for (const [method, p] of [
      ['get', '/api/auth/me'],
      ['delete', '/api/auth/logout'],
      ['post', '/api/auth/2fa/totp/setup'],
      ['get', '/api/auth/sessions'],
    ]) {
      expect(errorCodes(find(method!, p!), 403), p).toEqual(['AUTH_FORBIDDEN']);
    }
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

  it('documents the error codes the interface names for representative operations of each module', () => {
    // [method, path, status, errorCode]: 2-commerce.md and 3-content-banners-blog.md (routes and
    // "Errors"), docs/decisions.md ("Everywhere" and each area's section) for the codes it names,
    // docs/api-notes.md for ours.
    const named: [string, string, number, string][] = [
      ['post', '/api/orders/checkout', 400, 'ORDER_SHIPPING_DISTRICT_REQUIRED'],
      ['post', '/api/orders/checkout', 400, 'ORDER_PHONE_VERIFICATION_REQUIRED'],
      ['post', '/api/orders/checkout', 400, 'PAYMENT_RETURN_URL_NOT_ALLOWED'],
      ['post', '/api/orders/checkout', 502, 'PAYMENT_GATEWAY_UNAVAILABLE'],
      ['post', '/api/orders/checkout', 409, 'IDEMPOTENCY_REQUEST_IN_PROGRESS'],
      ['post', '/api/mobile/orders/checkout', 400, 'ORDER_SHIPPING_DISTRICT_REQUIRED'],
      ['post', '/api/orders/buy-now', 400, 'ORDER_SHIPPING_DISTRICT_REQUIRED'],
      ['get', '/api/orders/{id}', 404, 'ORDER_NOT_FOUND'],
      ['get', '/api/orders/{id}', 403, 'ORDER_ACCESS_DENIED'],
      ['post', '/api/orders/{id}/request-refund', 400, 'ORDER_REFUND_NOT_ALLOWED'],
      ['post', '/api/admin/orders/{id}/cancel', 404, 'ORDER_NOT_FOUND'],
      ['post', '/api/admin/orders/{id}/fulfillment-status', 400, 'ORDER_FULFILLMENT_INVALID_TRANSITION'],
      ['post', '/api/admin/orders/{id}/fulfillment-status', 404, 'ORDER_NOT_FOUND'],
      ['post', '/api/admin/orders/{id}/fulfillment-status', 409, 'ORDER_FULFILLMENT_CLOSED'],
      [
        'post',
        '/api/admin/orders/{id}/activate-care-package',
        400,
        'ORDER_ACTIVATE_CARE_PACKAGE_NOT_APPLICABLE',
      ],
      ['put', '/api/admin/orders/{id}/cod-collect', 400, 'ORDER_NOT_COD_PENDING'],
      ['patch', '/api/admin/orders/{id}/items/{orderItemId}/serial', 404, 'ORDER_ITEM_NOT_FOUND'],
      ['post', '/api/orders/{orderId}/reorder', 400, 'ORDER_NOT_DELIVERED'],
      ['post', '/api/orders/{orderId}/reorder', 400, 'ORDER_HAS_DIGITAL_ONLY'],
      ['post', '/api/orders/{orderId}/reorder', 404, 'ORDER_PRODUCT_NOT_FOUND'],
      ['post', '/api/mobile/orders/{orderId}/reorder', 400, 'CART_INSUFFICIENT_STOCK'],
      ['post', '/api/cart/items', 400, 'CART_INSUFFICIENT_STOCK'],
      ['post', '/api/cart/items', 400, 'CART_QUANTITY_EXCEEDED'],
      ['post', '/api/mobile/cart/location/auto', 410, 'CART_LOCATION_AUTO_DISABLED'],
      [
        'post',
        '/api/mobile/cart/items/{cartItemId}/care-package',
        400,
        'CARE_PACKAGE_CART_ITEM_ALREADY_HAS_PACKAGE',
      ],
      ['post', '/api/cart/coupon', 400, 'CART_COUPON_INVALID'],
      ['post', '/api/admin/coupons', 409, 'COUPON_CODE_EXISTS'],
      ['patch', '/api/admin/coupons/{id}', 404, 'COUPON_NOT_FOUND'],
      ['post', '/api/admin/pos/orders', 404, 'POS_CUSTOMER_NOT_FOUND'],
      ['post', '/api/admin/pos/orders', 404, 'ORDER_PRODUCT_NOT_FOUND'],
      ['post', '/api/admin/pos/orders', 400, 'ORDER_PRODUCT_NOT_AVAILABLE'],
      ['post', '/api/admin/pos/customers', 409, 'POS_DUPLICATE_PHONE'],
      ['post', '/api/admin/pos/orders/{orderId}/payment', 400, 'POS_DUPLICATE_PAYMENT_REFERENCE'],
      ['post', '/api/admin/pos/orders/{orderId}/pickup-confirm', 400, 'POS_PICKUP_NOT_IN_STORE'],
      ['get', '/api/admin/pos/orders/export', 400, 'ORDER_DATE_RANGE_TOO_LARGE'],
      ['post', '/api/mobile/emi/inquiries', 422, 'EMI_DISABLED'],
      ['post', '/api/mobile/emi/inquiries', 404, 'EMI_BANK_NOT_FOUND'],
      ['get', '/api/admin/emi/inquiries/{id}', 404, 'EMI_INQUIRY_NOT_FOUND'],
      ['post', '/api/repair-requests', 422, 'REPAIR_REQUEST_NO_DEVICES'],
      ['post', '/api/repair-requests', 403, 'REPAIR_REQUEST_ORDER_NOT_OWNED'],
      ['patch', '/api/repair-requests/{publicId}/cancel', 422, 'REPAIR_REQUEST_CANNOT_CANCEL'],
      ['patch', '/api/admin/repair-requests/{id}/status', 400, 'REPAIR_REQUEST_INVALID_STATUS_TRANSITION'],
      ['get', '/api/reviews/testimonials', 400, 'TESTIMONIAL_INVALID_SORT'],
      ['get', '/api/admin/reviews/{id}', 404, 'REVIEW_NOT_FOUND'],
      ['get', '/api/banners/serve/{slug}', 404, 'PLACEMENT_NOT_FOUND'],
      ['delete', '/api/admin/placements/{publicId}', 409, 'PLACEMENT_HAS_ACTIVE_ASSIGNMENTS'],
      ['delete', '/api/admin/banners/{publicId}', 400, 'BANNER_ALREADY_DELETED'],
      ['patch', '/api/admin/campaigns/{publicId}/pause', 400, 'CAMPAIGN_INVALID_TRANSITION'],
      ['post', '/api/admin/targeting-rules', 400, 'TARGETING_RULE_INVALID_OPERATOR'],
      ['get', '/api/blogs/{slug}', 404, 'BLOG_POST_NOT_FOUND'],
      ['get', '/api/mobile/blogs/{slug}', 404, 'BLOG_POST_NOT_FOUND'],
      ['delete', '/api/admin/blog/categories/{id}', 409, 'BLOG_CATEGORY_NOT_EMPTY'],
      ['post', '/api/admin/blog/posts', 400, 'PRODUCT_NOT_FOUND'],
      ['post', '/api/admin/blog/posts/{id}/publish', 400, 'BLOG_POST_INVALID_STATUS_TRANSITION'],
      ['get', '/api/content/pages/{pageKey}', 404, 'CONTENT_NOT_FOUND'],
      [
        'put',
        '/api/admin/content/pages/{pageKey}/sections/{sectionKey}',
        400,
        'CONTENT_SECTION_PAYLOAD_INVALID',
      ],
      ['delete', '/api/admin/categories/{id}', 409, 'CATEGORY_NOT_EMPTY'],
      ['get', '/api/admin/invoices/{id}', 404, 'INVOICE_NOT_FOUND'],
      ['post', '/upload', 413, 'UPLOAD_FILE_TOO_LARGE'],
    ];
    for (const [method, p, status, code] of named) {
      expect(errorCodes(find(method, p), status) ?? [], `${method.toUpperCase()} ${p} ${status}`).toContain(
        code,
      );
    }
    // And no more than the route can give: a lifecycle move other than scheduling needs no dates.
    expect(errorCodes(find('patch', '/api/admin/campaigns/{publicId}/schedule'), 400)).toContain(
      'CAMPAIGN_DATE_INVALID',
    );
    expect(errorCodes(find('patch', '/api/admin/campaigns/{publicId}/pause'), 400)).not.toContain(
      'CAMPAIGN_DATE_INVALID',
    );
    expect(errorCodes(find('get', '/api/cart'), 404)).toBeUndefined();
  });

  it("puts every code of the modules' error factories on at least one operation", async () => {
    const documented = new Set<string>();
    for (const { op } of operations) {
      for (const [status, response] of Object.entries(op.responses as Json)) {
        if (Number(status) < 400 || isBrowserPage(response)) continue;
        const codes: string[] =
          response.content['application/json'].schema.allOf[1].properties.errorCode.enum;
        for (const code of codes) documented.add(`${status} ${code}`);
      }
    }
    const produced = await moduleErrorCodes();
    expect(produced.size).toBeGreaterThan(150);
    const missing = [...produced.keys()].filter((c) => !documented.has(c) && !(c in UNANSWERED));
    expect(missing, "error codes no operation documents (declare them in the routes' config.errors)").toEqual(
      [],
    );
    // The exemptions stay true: still produced, still on no operation.
    for (const code of Object.keys(UNANSWERED)) {
      expect(produced.has(code), code).toBe(true);
      expect(documented.has(code), code).toBe(false);
    }
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

  it("takes the tags' descriptions from the modules that own them, each tag from one module", () => {
    const described = moduleTags(modules);
    // The platform describes only its own tags; every other tag in the document is a module's.
    for (const tag of doc.tags as Json[]) {
      if (tag.name === 'operations' || tag.name === 'files') continue;
      expect(described[tag.name], tag.name).toBe(tag.description);
    }
    expect(() =>
      moduleTags([
        { name: 'a', tags: { x: 'X' } },
        { name: 'b', tags: { x: 'Y' } },
      ]),
    ).toThrow('Tag "x" of module b is described by a too');
    expect(() => moduleTags([{ name: 'a', tags: { files: 'Mine' } }])).toThrow('described by the platform');
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

/**
 * Codes an error factory can make that no route answers, each with why; anything else a
 * factory makes must be on an operation.
 */
const UNANSWERED: Record<string, string> = {
  '404 CARE_PACKAGE_TIER_NOT_FOUND':
    "an order's care-package covers open from tiers the cart has just priced in the same transaction",
  '404 CARE_PACKAGE_SUBSCRIPTION_NOT_FOUND':
    "cancelling or activating an order's covers names subscriptions read from that order",
  '409 CARE_PACKAGE_SUBSCRIPTION_INVALID_TRANSITION':
    "an order's covers move only from the statuses just read, under the order's row lock",
  '409 PAYMENT_NOT_PENDING': 'made by no code path yet (payments.errors.ts)',
};

/** The arguments for factories whose code itself depends on an argument. */
const CODE_ARGUMENTS: Record<string, unknown[][]> = {
  'bannerErrors.referenceInvalid': [
    ['BRAND', 0],
    ['CATEGORY', 0],
    ['PRODUCT', 0],
  ],
  'catalogErrors.productReferenceInvalid': ['CATEGORY', 'BRAND', 'TAG', 'SEO', 'CARE_PACKAGE_TIER'].map(
    (what) => [what, ''],
  ),
};

/** A stand-in for any argument: any property, call, iteration or string of it works. */
function anyValue(text: string): unknown {
  const value: unknown = new Proxy(() => undefined, {
    get: (_target, key) =>
      key === Symbol.toPrimitive ? () => text : key === Symbol.iterator ? () => [][Symbol.iterator]() : value,
    apply: () => value,
  });
  return value;
}

/**
 * `status errorCode` of everything each exported factory object of `src/modules/**\/*.errors.ts`
 * makes, calling each factory with stand-in arguments (twice, so a code made from an argument is
 * noticed and must be listed in CODE_ARGUMENTS).
 */
async function moduleErrorCodes(): Promise<Map<string, string>> {
  const root = path.resolve(import.meta.dirname, '../../src/modules');
  const files = (readdirSync(root, { recursive: true }) as string[]).filter((f) => f.endsWith('.errors.ts'));
  const codes = new Map<string, string>();
  for (const file of files) {
    const exports = (await import(pathToFileURL(path.join(root, file)).href)) as Record<string, unknown>;
    for (const [name, factories] of Object.entries(exports)) {
      if (!factories || typeof factories !== 'object' || Array.isArray(factories)) continue;
      for (const [key, factory] of Object.entries(factories)) {
        if (typeof factory !== 'function') continue;
        const id = `${name}.${key}`;
        const make = (args: unknown[]) => {
          const error = (factory as (...a: unknown[]) => unknown)(...args);
          expect(error, id).toBeInstanceOf(AppError);
          return error as AppError;
        };
        const stand = (text: string) =>
          Array.from({ length: Math.max(factory.length, 3) }, () => anyValue(text));
        const listed = CODE_ARGUMENTS[id];
        const made = listed ? listed.map(make) : [make(stand('a'))];
        if (!listed)
          expect(make(stand('b')).errorCode, `${id}'s code depends on its arguments`).toBe(
            made[0]!.errorCode,
          );
        for (const error of made) codes.set(`${error.statusCode} ${error.errorCode}`, id);
      }
    }
  }
  return codes;
}
