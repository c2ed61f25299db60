// Text that cannot be stored (docs/decisions.md, "Text that cannot be stored"): PostgreSQL refuses
// the NUL character (U+0000) in text and jsonb, so a NUL that reached a query would end in a
// 500. One hook on the root instance refuses it in every route's path params, query and JSON
// body (values and keys, at any depth) before validation, so a route added later is covered
// without doing anything.
import type { FastifyInstance } from 'fastify';
import { httpErrors, type ValidationIssue } from './errors';

const NUL = '\u0000';
const MESSAGE = 'must not contain a NUL character';

type Location = 'params' | 'querystring' | 'body';

/** At most this many fields are named in `details`; one is enough to refuse the request. */
export const MAX_NUL_DETAILS = 20;

interface Step {
  parent: Step | undefined;
  key: string | number;
}

const pathOf = (step: Step | undefined): string => {
  const keys: (string | number)[] = [];
  for (let s = step; s; s = s.parent) keys.push(s.key);
  return keys.reverse().join('.');
};

/**
 * The dotted paths (`deviceInfo.deviceId`, `tagIds.0`) of the strings holding a NUL in `value`,
 * and of the object keys holding one (at most MAX_NUL_DETAILS). Iterative, paths built only for
 * what is found, each object read once: a 1 MB body may nest arrays hundreds of thousands deep,
 * and multipart fields point back at each other.
 */
export function nulPaths(value: unknown): string[] {
  const found: string[] = [];
  const seen = new WeakSet<object>();
  const stack: [unknown, Step | undefined][] = [[value, undefined]];
  while (stack.length && found.length < MAX_NUL_DETAILS) {
    const [item, at] = stack.pop()!;
    if (typeof item === 'string') {
      if (item.includes(NUL)) found.push(pathOf(at));
      continue;
    }
    if (item === null || typeof item !== 'object' || seen.has(item)) continue;
    seen.add(item);
    if (Array.isArray(item)) {
      for (let i = item.length - 1; i >= 0; i--) stack.push([item[i], { parent: at, key: i }]);
    } else if (isPlain(item)) {
      const entries = Object.entries(item);
      for (let i = entries.length - 1; i >= 0; i--) {
        const [key, child] = entries[i]!;
        if (key.includes(NUL)) stack.push([key, { parent: at, key }]);
        else stack.push([child, { parent: at, key }]);
      }
    }
  }
  return found;
}

// Parsed JSON is made of plain objects; Fastify's query and params objects have a null
// prototype (possibly behind an empty class, `NullObject`). Anything else (a Buffer, a stream,
// a multipart file) is not text the guard should read.
function isPlain(value: object): boolean {
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null || Object.getPrototypeOf(proto) === null;
}

export function refuseUnstorableText(app: FastifyInstance): void {
  // A callback hook: every request passes here, and most have nothing to read.
  app.addHook('preValidation', (request, _reply, done) => {
    // A NUL reaches the path or the query only percent-encoded (the HTTP parser refuses a raw
    // one), so a URL without `%00` has none: most requests skip the walk of params and query.
    const inUrl = request.url.includes('%00');
    const body = request.body;
    if (!inUrl && (body === undefined || body === null)) return done();
    const details: (ValidationIssue & { location: Location })[] = [];
    if (inUrl) {
      collect(details, 'params', request.params);
      collect(details, 'querystring', request.query);
    }
    collect(details, 'body', body);
    if (!details.length) return done();
    details.splice(MAX_NUL_DETAILS);
    done(httpErrors.validation(details));
  });
}

function collect(
  details: (ValidationIssue & { location: Location })[],
  location: Location,
  value: unknown,
): void {
  if (value === undefined || value === null || isFlatAndClean(value)) return;
  for (const path of nulPaths(value))
    details.push({ path, message: MESSAGE, code: 'nul_character', location });
}

// Params and queries are flat: checked in one pass without the walk's set-up (a WeakSet and a
// stack per request cost a tenth of a cached read). Anything nested takes the full walk.
function isFlatAndClean(value: unknown): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue;
    if (key.includes(NUL)) return false;
    const child = (value as Record<string, unknown>)[key];
    if (typeof child === 'string') {
      if (child.includes(NUL)) return false;
    } else if (child !== null && typeof child === 'object') {
      return false;
    }
  }
  return true;
}
