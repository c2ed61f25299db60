// The OpenAPI document (/docs/openapi.json) that client generators read. Routes declare only what
// is theirs (schemas, `config.access`, rate limits, `config.errors`); everything a generator
// needs on top is derived here for every route, new modules' too: a readable `operationId`,
// `security` (empty on public routes), the error envelope for each status the route can answer,
// descriptions of the tags (the modules' own, `PasalModule.tags`), and no component that nothing
// references.

import type { RateLimitOptions } from '@fastify/rate-limit';
import type { FastifyDynamicSwaggerOptions } from '@fastify/swagger';
import type { FastifyContextConfig } from 'fastify';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import type { Access } from '../auth/access';
import type { ApiApp, PasalModule } from '../module';
import type { AppError } from './errors';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The errors the route answers beyond the ones every route of its kind can give (validation,
     * authentication, rate limits), as the module's error factories make them: their status and
     * `errorCode` are documented in the OpenAPI document. E.g. `[catalogErrors.productNotFound()]`.
     */
    errors?: readonly AppError[];
    /**
     * The operation's name when the one derived from method and path reads badly, without the
     * `admin`/`mobile` prefix of its surface (added as for derived names): e.g. `loginWithEmail`.
     */
    operation?: string;
  }
}

const limiters = new WeakSet<object>();

/**
 * A rate-limit pre-handler (`app.rateLimit`) that the OpenAPI document knows about: routes that
 * use it document 429 `RATE_LIMITED`. Routes limited by `config.rateLimit` are found without it.
 */
export function rateLimiter(app: ApiApp, options: RateLimitOptions) {
  const handler = app.rateLimit(options);
  limiters.add(handler);
  return handler;
}

const ERROR_SCHEMA = 'ErrorEnvelope';
const META = 'x-pasal-route';

/** What `transform` learns of a route for `transformObject`, which sees the whole document. */
interface RouteFacts {
  access: Access['kind'];
  guestDenied?: AppError;
  permission?: boolean;
  /** An admin route closed to admins who must turn on two-factor sign-in first. */
  enrolmentGated?: boolean;
  body: boolean;
  rateLimited: boolean;
  operation?: string;
  errors: readonly AppError[];
}

// Descriptions of the platform's own tags; a module describes its tags in `PasalModule.tags`.
const platformTags: Record<string, string> = {
  operations: 'Liveness and readiness for load balancers and orchestrators.',
  files: 'Stored files: public keys as they are, private keys with a signed URL.',
};

export const shared = {
  validation: ['VALIDATION_ERROR'],
  body: ['INVALID_JSON'],
  tooLarge: ['PAYLOAD_TOO_LARGE'],
  mediaType: ['UNSUPPORTED_MEDIA_TYPE'],
  unauthorized: ['AUTH_UNAUTHORIZED'],
  rateLimited: ['RATE_LIMITED'],
};

const statusText: Record<number, string> = {
  400: 'The request is not valid',
  401: 'Authentication is missing or not valid',
  403: 'The caller may not do this',
  404: 'What the request names does not exist',
  409: 'The request conflicts with the current state',
  410: 'What the request names is gone',
  413: 'The request body is too large',
  415: 'The request body has an unsupported content type',
  422: 'The request cannot be carried out as it stands',
  429: 'Too many requests; `Retry-After` says when to try again',
  500: 'The service could not finish the request; try again',
  502: 'An outside provider did not answer',
  503: 'A dependency of the service is not reachable',
};

function routeFacts(route: {
  config?: FastifyContextConfig & { rateLimit?: unknown };
  onRequest?: unknown;
  preHandler?: unknown;
  schema?: { body?: unknown };
}): RouteFacts {
  const rule = route.config?.access;
  const hooks = [route.onRequest, route.preHandler].flat();
  return {
    access: rule?.kind ?? 'public',
    guestDenied: rule?.kind === 'customerOrGuest' ? rule.guestDenied() : undefined,
    permission: rule && 'permission' in rule ? Boolean(rule.permission) : false,
    enrolmentGated: rule?.kind === 'admin' && !rule.duringEnrolment,
    body: Boolean(route.schema?.body),
    rateLimited:
      route.config?.rateLimit != null || hooks.some((h) => typeof h === 'function' && limiters.has(h)),
    operation: route.config?.operation,
    errors: route.config?.errors ?? [],
  };
}

function describeAccess(rule: Access | undefined): { security: Record<string, string[]>[]; note?: string } {
  switch (rule?.kind) {
    case undefined:
    case 'public':
      return { security: [] };
    case 'optionalCustomer':
      return { security: [{}, { bearerAuth: [] }], note: 'Optional customer JWT.' };
    case 'admin':
      return {
        security: [{ bearerAuth: [] }],
        note: `Admin JWT${rule.permission ? ` with permission \`${rule.permission}\`` : ''}.`,
      };
    case 'customer':
      return {
        security: [{ bearerAuth: [] }],
        note: `Customer JWT${rule.permission ? ` with permission \`${rule.permission}\`` : ''}.`,
      };
    case 'customerOrGuest':
      return {
        security: [{ bearerAuth: [] }],
        note: `Customer JWT or guest token \`${rule.guestPrefix}…\`.`,
      };
  }
}

type HeadersDoc = { properties?: Record<string, unknown>; required?: string[] };

export interface DocumentOptions {
  title: string;
  version: string;
  serverUrl: string;
  /**
   * Descriptions of the tags the modules' routes use (`PasalModule.tags`, see `moduleTags`),
   * beside the platform's own; a tag used with no description fails the OpenAPI test.
   */
  tags?: Record<string, string>;
  /** Adds a documented header to a route (e.g. `Idempotency-Key`), given its route config. */
  extraHeader?: (config: FastifyContextConfig | undefined) =>
    | {
        name: string;
        schema: Record<string, unknown>;
        required: boolean;
        errors?: readonly AppError[];
      }
    | undefined;
}

/** The tag descriptions of the modules, each tag described by one module only. */
export function moduleTags(modules: readonly Pick<PasalModule, 'name' | 'tags'>[]): Record<string, string> {
  const tags: Record<string, string> = {};
  const owner = new Map<string, string>();
  for (const module of modules) {
    for (const [tag, description] of Object.entries(module.tags ?? {})) {
      const other = owner.get(tag) ?? (tag in platformTags ? 'the platform' : undefined);
      if (other) throw new Error(`Tag "${tag}" of module ${module.name} is described by ${other} too`);
      owner.set(tag, module.name);
      tags[tag] = description;
    }
  }
  return tags;
}

/** The @fastify/swagger options of the app's document. */
export function openApiOptions(options: DocumentOptions): FastifyDynamicSwaggerOptions {
  return {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: options.title,
        version: options.version,
        description:
          'Backend of an online store: admin back office, customer app, storefront.\n\n' +
          'Every success answers `{ message, data, meta? }`; every failure answers the error ' +
          'envelope (`ErrorEnvelope`) with a stable `errorCode` to branch on.',
        license: { name: 'MIT', identifier: 'MIT' },
        contact: { name: 'Pasal maintainers' },
      },
      servers: [{ url: options.serverUrl }],
      components: {
        securitySchemes: {
          bearerAuth: {
            type: 'http',
            scheme: 'bearer',
            description: 'Admin or customer access token (JWT), or a guest token where a route says so.',
          },
        },
      },
    },
    transform: (input) => {
      const out = jsonSchemaTransform(input);
      const route = input.route as Parameters<typeof routeFacts>[0] & { config?: FastifyContextConfig };
      const schema = out.schema as Record<string, unknown>;
      const { security, note } = describeAccess(route.config?.access);
      schema.security = security;
      if (note) schema.description = [schema.description, note].filter(Boolean).join('\n\n');
      const facts = routeFacts(route);
      schema[META] = facts;
      const header = options.extraHeader?.(route.config);
      if (header) {
        facts.errors = [...facts.errors, ...(header.errors ?? [])];
        const headers = (schema.headers ?? {}) as HeadersDoc;
        schema.headers = {
          ...headers,
          type: 'object',
          properties: { ...headers.properties, [header.name]: header.schema },
          required: header.required ? [...(headers.required ?? []), header.name] : headers.required,
        };
      }
      return out;
    },
    transformObject: (input) =>
      finishDocument(jsonSchemaTransformObject(input) as OpenApiDocument, {
        ...options.tags,
        ...platformTags,
      }),
  };
}

type Json = Record<string, unknown>;
interface Operation extends Json {
  operationId?: string;
  tags?: string[];
  parameters?: Json[];
  responses: Record<string, Json>;
  [META]?: RouteFacts;
}
interface OpenApiDocument extends Json {
  paths: Record<string, Record<string, Operation>>;
  components: Json & { schemas?: Record<string, unknown>; responses?: Json };
  tags?: { name: string; description: string }[];
}

const METHODS = ['get', 'put', 'post', 'patch', 'delete'];

function finishDocument(doc: OpenApiDocument, tagDescriptions: Record<string, string>): OpenApiDocument {
  const paths: OpenApiDocument['paths'] = {};
  const usedTags = new Set<string>();
  const names = new Map<string, string>();
  for (const [rawPath, item] of Object.entries(doc.paths)) {
    // Fastify's wildcard `*` becomes a named path parameter that generators can use.
    const path = rawPath.replace('{*}', '{path}');
    for (const [method, operation] of Object.entries(item)) {
      if (!METHODS.includes(method)) continue;
      for (const parameter of operation.parameters ?? []) {
        if (parameter.in === 'path' && parameter.name === '*') {
          parameter.name = 'path';
          parameter.description ??= 'A stored path, slashes included';
        }
      }
      const facts = operation[META];
      delete operation[META];
      if (facts) documentErrors(operation, facts);
      const id = operationName(method, path, operation, facts?.operation);
      const clash = names.get(id);
      if (clash) throw new Error(`operationId ${id} of ${method.toUpperCase()} ${path} is also ${clash}'s`);
      names.set(id, `${method.toUpperCase()} ${path}`);
      operation.operationId = id;
      for (const tag of operation.tags ?? []) usedTags.add(tag);
    }
    paths[path] = item;
  }
  doc.paths = paths;
  doc.tags = [...usedTags].sort().map((name) => ({ name, description: tagDescriptions[name] ?? '' }));
  doc.components.schemas = {
    ...doc.components.schemas,
    [ERROR_SCHEMA]: errorEnvelopeSchema,
  };
  dropUnusedSchemas(doc);
  return doc;
}

const errorEnvelopeSchema = {
  type: 'object',
  description:
    'Every failure: the HTTP status, a readable message, a stable `errorCode` to branch on, when ' +
    'and where. Some codes add fields (`details` of a validation error, `retryAfter`, `reason`).',
  properties: {
    statusCode: { type: 'integer' },
    message: { type: 'string' },
    errorCode: { type: 'string' },
    timestamp: { type: 'string', format: 'date-time' },
    path: { type: 'string' },
    details: {
      type: 'array',
      description: 'The invalid fields of a `VALIDATION_ERROR`.',
      items: {
        type: 'object',
        description:
          'One invalid field: `code` is the stable reason to branch on (zod issue codes, `required`, ' +
          'or a refinement code such as `sp_above_mrp`); other keys are its parameters ' +
          '(`minimum`, `maximum`, `origin`, `expected`, `format`, `values`…). `message` is English.',
        properties: {
          path: { type: 'string' },
          code: { type: 'string' },
          message: { type: 'string' },
          location: { type: 'string' },
        },
        required: ['path', 'code', 'message'],
        additionalProperties: true,
      },
    },
    retryAfter: { type: 'integer', description: 'Seconds to wait, on `RATE_LIMITED`.' },
  },
  required: ['statusCode', 'message', 'errorCode', 'timestamp', 'path'],
  additionalProperties: true,
};

function documentErrors(operation: Operation, facts: RouteFacts): void {
  const codes = new Map<number, Set<string>>();
  const add = (status: number, list: readonly string[] = []) => {
    const set = codes.get(status) ?? new Set<string>();
    for (const code of list) set.add(code);
    codes.set(status, set);
  };
  // Every route: a malformed URL or a bad parameter or query is 400 VALIDATION_ERROR.
  add(400, shared.validation);
  if (facts.body) {
    add(400, shared.body);
    add(413, shared.tooLarge);
  }
  if (facts.access !== 'public' && facts.access !== 'optionalCustomer') {
    add(401, shared.unauthorized);
    if (facts.guestDenied) add(facts.guestDenied.statusCode, [facts.guestDenied.errorCode]);
    // A route of one kind of account refuses the other kind; a permission may be missing.
    add(403, ['AUTH_FORBIDDEN']);
    if (facts.permission) add(403, ['AUTH_PERMISSION_DENIED']);
    if (facts.enrolmentGated) add(403, ['AUTH_2FA_ENROLMENT_REQUIRED']);
  }
  if (facts.rateLimited) add(429, shared.rateLimited);
  for (const error of facts.errors) add(error.statusCode, [error.errorCode]);
  for (const [status, set] of [...codes].sort(([a], [b]) => a - b)) {
    const list = [...set].sort();
    operation.responses[String(status)] = {
      description: `${statusText[status] ?? 'Error'}: ${list.map((c) => `\`${c}\``).join(', ')}.`,
      content: {
        'application/json': {
          schema: {
            allOf: [
              { $ref: `#/components/schemas/${ERROR_SCHEMA}` },
              { type: 'object', properties: { errorCode: { type: 'string', enum: list } } },
            ],
          },
        },
      },
    };
  }
}

// ---- operationId -------------------------------------------------------------------------

// Last path words that name what the request does (`/orders/{id}/cancel` → cancelOrder).
const ACTIONS = new Set([
  'activate',
  'assign',
  'cancel',
  'checkout',
  'click',
  'confirm',
  'deactivate',
  'decrease',
  'end',
  'exchange',
  'forgot',
  'identify',
  'impression',
  'increase',
  'link',
  'logout',
  'lookup',
  'pause',
  'publish',
  'register',
  'reorder',
  'request',
  'resend',
  'reset',
  'restore',
  'revoke',
  'schedule',
  'send',
  'sync',
  'unpublish',
  'process',
  'review',
  'read',
  'heartbeat',
  'buy',
  'auto',
  'export',
]);

const pascal = (word: string) =>
  word
    .split(/[-_]/)
    .filter(Boolean)
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join('');

function singular(word: string): string {
  if (word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (/(ss|us|is)$/.test(word) || !word.endsWith('s')) return word;
  return word.slice(0, -1);
}

const isParam = (segment: string | undefined) => segment?.startsWith('{') ?? false;
const paramName = (segment: string) => segment.slice(1, -1);

/**
 * A readable, unique name from method and path: `GET /api/products/{slug}` → getProductBySlug,
 * `POST /api/admin/products` → adminCreateProduct, `GET /api/mobile/products` → mobileListProducts.
 */
export function operationName(method: string, path: string, operation: Operation, declared?: string): string {
  const segments = path.split('/').filter(Boolean);
  if (segments[0] === 'api') segments.shift();
  const surface = segments[0] === 'admin' || segments[0] === 'mobile' ? segments.shift()! : '';
  const name = declared ?? derivedName(method, segments, operation);
  return surface ? surface + name[0]!.toUpperCase() + name.slice(1) : name;
}

function derivedName(method: string, segments: string[], operation: Operation): string {
  const last = segments.at(-1)!;
  const lastIsParam = isParam(last);
  let verb: string;
  let nounSegments = segments;
  const action = !lastIsParam && method !== 'get' ? last.split('-')[0]! : undefined;
  if (action && ACTIONS.has(action) && segments.length > 1) {
    verb = last.replace(/-(\w)/g, (_, c: string) => c.toUpperCase());
    nounSegments = segments.slice(0, -1);
  } else if (method === 'get') {
    verb = !lastIsParam && isList(operation) ? 'list' : 'get';
  } else if (method === 'post') {
    verb = operation.responses['201'] ? 'create' : lastIsParam ? 'submit' : 'create';
  } else if (method === 'delete') {
    verb = 'delete';
  } else {
    verb = lastIsParam ? 'update' : 'set';
  }
  let noun = '';
  let by = '';
  nounSegments.forEach((segment, i) => {
    if (isParam(segment)) {
      const name = paramName(segment);
      // An identifier of the resource before it adds nothing; a slug or a key does.
      if (i === nounSegments.length - 1 && !/(^i|I)d$/.test(name)) by = `By${pascal(name)}`;
      return;
    }
    if (segment === 'id' && isParam(nounSegments[i + 1])) return;
    const next = nounSegments[i + 1];
    const followedByParam = isParam(next) || (next === 'id' && isParam(nounSegments[i + 2]));
    const isLast = i === nounSegments.length - 1;
    const one = followedByParam || (isLast && verb === 'create');
    noun += pascal(one ? singular(segment) : segment);
  });
  return verb + noun + by;
}

function isList(operation: Operation): boolean {
  const ok = Object.entries(operation.responses).find(([status]) => status.startsWith('2'))?.[1];
  const schema = (ok?.content as Json | undefined)?.['application/json'] as Json | undefined;
  const data = ((schema?.schema as Json | undefined)?.properties as Json | undefined)?.data as
    | Json
    | undefined;
  return data?.type === 'array';
}

// ---- unused components -------------------------------------------------------------------

/** zod's input/output split leaves `…Input` components nothing refers to: keep only reachable ones. */
function dropUnusedSchemas(doc: OpenApiDocument): void {
  const schemas = doc.components.schemas ?? {};
  const reachable = new Set<string>();
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) {
      for (const v of value) visit(v);
      return;
    }
    if (!value || typeof value !== 'object') return;
    for (const [key, v] of Object.entries(value)) {
      if (key === '$ref' && typeof v === 'string' && v.startsWith('#/components/schemas/')) {
        const name = v.slice('#/components/schemas/'.length);
        if (!reachable.has(name)) {
          reachable.add(name);
          visit(schemas[name]);
        }
      } else visit(v);
    }
  };
  visit(doc.paths);
  doc.components.schemas = Object.fromEntries(
    Object.entries(schemas).filter(([name]) => reachable.has(name)),
  );
}
