// docs/decisions.md, "Text that cannot be stored": a NUL character in a path, query or body string
// answers 400 VALIDATION_ERROR, never 500 (PostgreSQL refuses U+0000 in text and jsonb).
//
// The test walks the app's own OpenAPI document, so a route added later is covered the day it
// lands: for every operation it sends a NUL through each path parameter, each query parameter
// and each string field of its JSON body (one at a time, the rest of the body a minimal
// valid-looking sample built from the schema), signed in as the route's access needs, and
// expects 400 VALIDATION_ERROR whose `details` name that field.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_NUL_DETAILS, nulPaths } from '../../src/platform/http/text-guard';
import { createTestApp, type TestApp } from '../helpers/app';
import { type SignedIn, signedInAdmin, signedInCustomer } from '../helpers/factories';

type Schema = Record<string, unknown> & {
  $ref?: string;
  type?: string | string[];
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  properties?: Record<string, Schema>;
  additionalProperties?: boolean | Schema;
  required?: string[];
  items?: Schema;
  minItems?: number;
  enum?: unknown[];
  const?: unknown;
  format?: string;
  minimum?: number;
  default?: unknown;
};
interface Parameter {
  in: string;
  name: string;
  required?: boolean;
  schema: Schema;
}
interface Operation {
  description?: string;
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { schema: Schema }> };
}
interface OpenApi {
  paths: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, Schema> };
}

const NUL_TEXT = 'a\u0000b';
const SAMPLE_UUID = '01930000-0000-7000-8000-000000000001';

/** Builds samples and NUL variants from the document's JSON schemas. */
function schemaTools(doc: OpenApi) {
  const resolve = (schema: Schema): Schema => {
    let s = schema;
    for (let i = 0; s.$ref && i < 20; i++) {
      const name = s.$ref.replace('#/components/schemas/', '');
      s = doc.components?.schemas?.[name] ?? {};
    }
    return s;
  };
  const typeOf = (s: Schema): string | undefined =>
    Array.isArray(s.type) ? s.type.find((t) => t !== 'null') : s.type;
  const variants = (s: Schema): Schema[] | undefined => {
    const list = s.anyOf ?? s.oneOf;
    return list?.map(resolve).filter((v) => typeOf(v) !== 'null');
  };

  /** A minimal value the schema would plausibly accept: required fields only. */
  function sample(schema: Schema): unknown {
    const s = resolve(schema);
    const options = variants(s);
    if (options?.length) return sample(options[0]!);
    if (s.allOf) return Object.assign({}, ...s.allOf.map((part) => sample(part) as object));
    if (s.const !== undefined) return s.const;
    if (s.enum) return s.enum[0];
    if (s.default !== undefined) return s.default;
    switch (typeOf(s)) {
      case 'object':
        return Object.fromEntries(
          (s.required ?? []).map((name) => [name, sample(s.properties?.[name] ?? {})]),
        );
      case 'array':
        return s.minItems ? Array.from({ length: s.minItems }, () => sample(s.items ?? {})) : [];
      case 'integer':
      case 'number':
        return Math.max(1, s.minimum ?? 1);
      case 'boolean':
        return true;
      case 'null':
        return null;
      default:
        return sampleString(s);
    }
  }

  function sampleString(s: Schema): string {
    switch (s.format) {
      case 'email':
        return 'nul-probe@example.com';
      case 'uuid':
        return SAMPLE_UUID;
      case 'date-time':
        return '2026-01-01T00:00:00.000Z';
      case 'date':
        return '2026-01-01';
      case 'uri':
        return 'https://example.com/';
      default:
        return 'x';
    }
  }

  /** Each way to put a NUL into one string of the value: its path and the whole value. */
  function nulVariants(schema: Schema): { path: (string | number)[]; value: unknown }[] {
    const s = resolve(schema);
    const options = variants(s);
    if (options?.length) {
      const seen = new Set<string>();
      return options.flatMap(nulVariants).filter((v) => {
        const key = v.path.join('.');
        if (seen.has(key)) return false;
        seen.add(key);
        return true;
      });
    }
    if (s.allOf) return nulVariants({ ...Object.assign({}, ...s.allOf.map(resolve)), allOf: undefined });
    switch (typeOf(s)) {
      case 'object': {
        const base = sample(s) as Record<string, unknown>;
        const out = Object.entries(s.properties ?? {}).flatMap(([name, property]) =>
          nulVariants(property).map((v) => ({
            path: [name, ...v.path],
            value: { ...base, [name]: v.value },
          })),
        );
        // A record (`data`, free-form metadata): a NUL in one of its values.
        if (!s.properties && s.additionalProperties !== false) {
          out.push({ path: ['key'], value: { ...base, key: NUL_TEXT } });
        }
        return out;
      }
      case 'array':
        return nulVariants(s.items ?? {}).map((v) => ({ path: [0, ...v.path], value: [v.value] }));
      case 'string':
        return [{ path: [], value: NUL_TEXT }];
      default:
        return [];
    }
  }

  return { resolve, sample, nulVariants };
}

type Caller = 'admin' | 'customer' | 'anonymous';

/** Who to sign in as, from the access note every route's description carries. */
function callerFor(operation: Operation): Caller {
  const description = operation.description ?? '';
  if (description.includes('Admin JWT')) return 'admin';
  if (description.includes('Customer JWT') || description.includes('Optional customer JWT'))
    return 'customer';
  return 'anonymous';
}

interface Probe {
  label: string;
  method: string;
  url: string;
  caller: Caller;
  body?: unknown;
  location: 'params' | 'querystring' | 'body';
  field: string;
  /** The same request without the NUL. */
  cleanUrl: string;
  cleanBody?: unknown;
}

/** Every NUL probe of the document, one request each. */
function probesOf(doc: OpenApi): Probe[] {
  const { sample, nulVariants } = schemaTools(doc);
  const probes: Probe[] = [];
  for (const [path, operations] of Object.entries(doc.paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
      const caller = callerFor(operation);
      const parameters = operation.parameters ?? [];
      const pathParams = parameters.filter((p) => p.in === 'path');
      const queryParams = parameters.filter((p) => p.in === 'query');

      // The document names Fastify's wildcard `*` as the path parameter `path`.
      const wildcard = (p: Parameter) => p.name === 'path' && path.endsWith('{path}');
      const pathValue = (p: Parameter) =>
        wildcard(p) ? 'uploads/x/probe.txt' : String(sample(p.schema)).replace(/^x$/, 'probe');
      const urlWith = (nulParam?: string, nulQuery?: string) => {
        let url = path;
        for (const p of pathParams) {
          const raw = p.name === nulParam ? (wildcard(p) ? `uploads/${NUL_TEXT}` : NUL_TEXT) : pathValue(p);
          const encoded = wildcard(p)
            ? raw.split('/').map(encodeURIComponent).join('/')
            : encodeURIComponent(raw);
          url = url.replace(`{${p.name}}`, encoded);
        }
        const query = new URLSearchParams();
        for (const q of queryParams) {
          if (q.name === nulQuery) query.set(q.name, NUL_TEXT);
          else if (q.required) query.set(q.name, String(sample(q.schema)));
        }
        const qs = query.toString();
        return qs ? `${url}?${qs}` : url;
      };

      const json = operation.requestBody?.content['application/json']?.schema;
      const baseBody = json ? sample(json) : undefined;
      const verb = method.toUpperCase();
      const label = `${verb} ${path}`;
      const clean = { cleanUrl: urlWith(), cleanBody: baseBody };

      for (const p of pathParams) {
        probes.push({
          label,
          method: verb,
          url: urlWith(p.name),
          caller,
          body: baseBody,
          location: 'params',
          field: wildcard(p) ? '*' : p.name,
          ...clean,
        });
      }
      for (const q of queryParams) {
        probes.push({
          label,
          method: verb,
          url: urlWith(undefined, q.name),
          caller,
          body: baseBody,
          location: 'querystring',
          field: q.name,
          ...clean,
        });
      }
      if (json) {
        for (const variant of nulVariants(json)) {
          probes.push({
            label,
            method: verb,
            url: urlWith(),
            caller,
            body: variant.value,
            location: 'body',
            field: variant.path.join('.'),
            ...clean,
          });
        }
      }
    }
  }
  return probes;
}

describe('a NUL character in any string of any route', () => {
  let t: TestApp;
  let doc: OpenApi;
  const signedIn = {} as Record<'admin' | 'customer', SignedIn>;
  beforeAll(async () => {
    // Rate limits off: hundreds of probes hit throttled routes (login, register, forgot…).
    t = await createTestApp({ env: { RATE_LIMIT_ENABLED: 'false' } });
    signedIn.admin = await signedInAdmin(t, { superadmin: true });
    signedIn.customer = await signedInCustomer(t);
    const res = await t.app.inject({ method: 'GET', url: '/docs/openapi.json' });
    expect(res.statusCode).toBe(200);
    doc = res.json();
  });
  afterAll(() => t.close());

  it('answers 400 VALIDATION_ERROR naming the field, on every operation of the OpenAPI document', async () => {
    const probes = probesOf(doc);
    const failures: string[] = [];
    const refusedBeforeInput = new Set<string>();
    for (const probe of probes) {
      const headers: Record<string, string> =
        probe.caller === 'anonymous' ? {} : { ...signedIn[probe.caller].headers };
      const res = await t.app.inject({
        method: probe.method as 'GET',
        url: probe.url,
        headers,
        ...(probe.body !== undefined ? { payload: probe.body as object } : {}),
      });
      const what = `${probe.label} ${probe.location} ${probe.field || '(body)'}`;
      if (res.statusCode === 500) {
        failures.push(`${what}: 500`);
        continue;
      }
      const body = res.json();
      const named = (body.details ?? []).some(
        (d: { path: string; location?: string }) => d.path === probe.field && d.location === probe.location,
      );
      if (res.statusCode === 400 && body.errorCode === 'VALIDATION_ERROR' && named) continue;
      // A route may refuse before it reads its input (access, a feature switched off): fine when
      // the same request without the NUL gets the very same 401, 403 or 404.
      if ([401, 403, 404].includes(res.statusCode)) {
        const clean = await t.app.inject({
          method: probe.method as 'GET',
          url: probe.cleanUrl,
          headers,
          ...(probe.cleanBody !== undefined ? { payload: probe.cleanBody as object } : {}),
        });
        if (clean.statusCode === res.statusCode && clean.json().errorCode === body.errorCode) {
          refusedBeforeInput.add(`${probe.label}: ${res.statusCode} ${body.errorCode}`);
          continue;
        }
      }
      failures.push(`${what}: ${res.statusCode} ${body.errorCode} ${JSON.stringify(body.details ?? [])}`);
    }
    expect(failures).toEqual([]);
    // Provider sign-in is off in tests (no IDP_ISSUER_URL): its routes answer 404 first.
    expect([...refusedBeforeInput].every((r) => r.includes('/api/mobile/auth/idp'))).toBe(true);

    // The walk really reached the inputs the outside probe found answering 500.
    const reached = new Set(probes.map((p) => `${p.label} ${p.location} ${p.field}`));
    for (const known of [
      'GET /api/products querystring search',
      'GET /api/mobile/products/{slug} params slug',
      'POST /api/support-inquiries body subject',
      'POST /api/mobile/auth/register body name',
      'POST /api/mobile/auth/register body deviceInfo.deviceId',
      'GET /api/admin/feedback/{id} params id',
      'POST /api/admin/products body title',
      'PATCH /api/admin/products/{id} body title',
    ]) {
      expect(reached, known).toContain(known);
    }
    expect(probes.length).toBeGreaterThan(200);
  }, 120_000);

  it('the examples of the probe, and a NUL in a JSON object key', async () => {
    const cases: { method: 'GET' | 'POST'; url: string; payload?: object; path: string; location: string }[] =
      [
        { method: 'GET', url: '/api/products?search=a%00b', path: 'search', location: 'querystring' },
        { method: 'GET', url: '/api/mobile/products/1%00', path: 'slug', location: 'params' },
        {
          method: 'POST',
          url: '/api/mobile/auth/register',
          payload: {
            name: 'Nul\u0000Name',
            email: 'nul-register@example.com',
            password: 'correct-horse-battery',
            deviceInfo: { deviceId: 'dev\u0000ice', deviceType: 'ios', deviceName: 'Phone' },
          },
          path: 'deviceInfo.deviceId',
          location: 'body',
        },
        {
          method: 'POST',
          url: '/api/support-inquiries',
          payload: { 'sub\u0000ject': 'x', message: 'hello' },
          path: 'sub\u0000ject',
          location: 'body',
        },
      ];
    for (const c of cases) {
      const res = await t.app.inject({ method: c.method, url: c.url, payload: c.payload });
      expect(res.statusCode, c.url).toBe(400);
      const body = res.json();
      expect(body).toMatchObject({
        statusCode: 400,
        errorCode: 'VALIDATION_ERROR',
        path: c.url.split('?')[0],
      });
      expect(body.timestamp).toBeTypeOf('string');
      expect(body.details).toContainEqual({
        path: c.path,
        message: 'must not contain a NUL character',
        code: 'nul_character',
        location: c.location,
      });
    }
    // Nothing was stored: the registration above never reached the service.
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/mobile/auth/login/email',
      payload: {
        email: 'nul-register@example.com',
        password: 'correct-horse-battery',
        deviceInfo: { deviceId: 'd', deviceType: 'ios', deviceName: 'Phone' },
      },
    });
    expect(login.statusCode).toBe(401);
  });

  it('a body nested deep within 1 MB is a validation error, not a crash', async () => {
    const depth = 400_000;
    for (const leaf of ['"\\u0000"', '"x"']) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/support-inquiries',
        headers: { 'content-type': 'application/json' },
        payload: `${'['.repeat(depth)}${leaf}${']'.repeat(depth)}`,
      });
      expect(res.statusCode, leaf).toBe(400);
      expect(res.json().errorCode).toBe('VALIDATION_ERROR');
      expect(res.json().details.length).toBeLessThanOrEqual(MAX_NUL_DETAILS);
    }
  });

  it('the same text without a NUL is served as before', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/products?search=ab' });
    expect(res.statusCode).toBe(200);
  });
});

describe('nulPaths', () => {
  it.each([
    ['plain text', 'abc', []],
    ['a NUL', 'a\u0000', ['']],
    ['nested fields and array items', { a: { b: ['ok', 'x\u0000'] }, c: 'ok' }, ['a.b.1']],
    ['a key', { 'k\u0000': 1 }, ['k\u0000']],
    ['numbers, booleans, null', { n: 1, b: true, z: null }, []],
    ['several at once', { a: '\u0000', b: ['\u0000'] }, ['a', 'b.0']],
    ['a Buffer is not text', { file: Buffer.from([0]) }, []],
  ])('%s', (_case, value, expected) => {
    expect(nulPaths(value)).toEqual(expected);
  });

  it('reads each object once, so a cycle (multipart fields point back at each other) ends', () => {
    const fields: Record<string, unknown> = { name: 'a\u0000' };
    fields.self = fields;
    fields.list = [fields];
    expect(nulPaths(fields)).toEqual(['name']);
  });

  it('walks arrays nested hundreds of thousands deep without running out of stack', () => {
    const depth = 300_000;
    const deep = JSON.parse(`${'['.repeat(depth)}"\\u0000"${']'.repeat(depth)}`);
    const [path] = nulPaths(deep);
    expect(path?.split('.')).toHaveLength(depth);
  });

  it(`names at most ${MAX_NUL_DETAILS} fields`, () => {
    expect(nulPaths(Array.from({ length: 1000 }, () => '\u0000'))).toHaveLength(MAX_NUL_DETAILS);
  });
});
