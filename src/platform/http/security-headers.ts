// Security headers on every answer, chosen by helmet, applied without running helmet per request.
// With the content security policy off (the API answers JSON; the docs UI needs inline scripts),
// helmet's headers do not depend on the request: a fixed set. @fastify/helmet ran helmet's eleven
// middlewares (each a `setHeader` with its own validation) in two hooks on every request, about a
// tenth of `/health`'s time; here helmet runs once at start-up and the app's onRequest hook copies
// the result onto every answer.
import type { IncomingMessage, ServerResponse } from 'node:http';
import helmet, { type HelmetOptions } from 'helmet';

/** Helmet's choices for these options: the headers it sets, by lower-case name. */
export function helmetHeaders(options: HelmetOptions): Readonly<Record<string, string>> {
  const headers: Record<string, string> = {};
  const response = {
    setHeader(name: string, value: string | number | readonly string[]) {
      headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
    },
    removeHeader(name: string) {
      delete headers[name.toLowerCase()];
    },
  };
  let finished = false;
  helmet(options)({} as IncomingMessage, response as unknown as ServerResponse, (error?: unknown) => {
    if (error) throw error;
    finished = true;
  });
  // Helmet's middleware is synchronous for these options; a future one that is not would leave
  // headers out, so refuse to start rather than answer without them.
  if (!finished) throw new Error('helmet did not finish synchronously: the security headers are unknown');
  return Object.freeze(headers);
}
