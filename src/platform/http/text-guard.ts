// Text that cannot be stored (decisions.md, "Text that cannot be stored"): PostgreSQL refuses
// the NUL character (U+0000) in text and jsonb, so a NUL that reached a query would end in a
// 500. One hook on the root instance refuses it in every route's path params, query and JSON
// body (values and keys, at any depth) before validation, so a route added later is covered
// without doing anything.
import type { FastifyInstance } from 'fastify';
import { httpErrors, type ValidationIssue } from './errors';

const NUL = '\u0000';
const MESSAGE = 'must not contain a NUL character';

type Location = 'params' | 'querystring' | 'body';

/** The dotted paths (`deviceInfo.deviceId`, `tagIds.0`) of every string holding a NUL in `value`. */
export function nulPaths(value: unknown, prefix = ''): string[] {
  const join = (key: string | number) => (prefix ? `${prefix}.${key}` : String(key));
  if (typeof value === 'string') return value.includes(NUL) ? [prefix] : [];
  if (Array.isArray(value)) return value.flatMap((item, i) => nulPaths(item, join(i)));
  if (value !== null && typeof value === 'object' && isPlain(value)) {
    const found: string[] = [];
    for (const [key, item] of Object.entries(value)) {
      if (key.includes(NUL)) found.push(join(key));
      else found.push(...nulPaths(item, join(key)));
    }
    return found;
  }
  return [];
}

// Parsed JSON is made of plain objects; Fastify's query and params objects have a null
// prototype (possibly behind an empty class, `NullObject`). Anything else (a Buffer, a stream,
// a multipart file) is not text the guard should read.
function isPlain(value: object): boolean {
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null || Object.getPrototypeOf(proto) === null;
}

export function refuseUnstorableText(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    const parts: [Location, unknown][] = [
      ['params', request.params],
      ['querystring', request.query],
      ['body', request.body],
    ];
    const details: (ValidationIssue & { location: Location })[] = [];
    for (const [location, value] of parts) {
      for (const path of nulPaths(value)) details.push({ path, message: MESSAGE, location });
    }
    if (details.length) throw httpErrors.validation(details);
  });
}
