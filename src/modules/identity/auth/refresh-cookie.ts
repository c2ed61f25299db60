// The admin console keeps its refresh token in a cookie the page cannot read, so a reload, a new
// tab or a Ctrl-click stays signed in (docs/api-notes.md, "Console sessions: the refresh
// cookie"). Only a request that asks for it with `X-Refresh-Token-Transport: cookie` gets it:
// the admin sign-in (password and second step) and the admin refresh then answer the token as
// `HttpOnly; Secure; SameSite=Strict` cookie sent to the refresh route only, and an empty
// `refreshToken` in the body. Every other client (the mobile API, scripts) keeps body tokens.
// CSRF cannot use the cookie: SameSite=Strict keeps other sites' requests from carrying it, and
// a refresh by cookie is refused unless its Origin is the API's own host.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../../platform/http/errors';

export const REFRESH_COOKIE = 'pasal_admin_refresh';
export const REFRESH_COOKIE_PATH = '/api/auth/refresh';
export const TRANSPORT_HEADER = 'x-refresh-token-transport';

export const refreshCookieErrors = {
  originRefused: () =>
    new AppError(
      403,
      'AUTH_REFRESH_ORIGIN_REFUSED',
      'A refresh by cookie must come from a page of this server',
    ),
};

/** The request asks for the refresh token as a cookie (the console). */
export const wantsRefreshCookie = (request: FastifyRequest) => request.headers[TRANSPORT_HEADER] === 'cookie';

function cookie(value: string, maxAgeSeconds: number) {
  return [
    `${REFRESH_COOKIE}=${value}`,
    `Path=${REFRESH_COOKIE_PATH}`,
    `Max-Age=${maxAgeSeconds}`,
    'HttpOnly',
    'Secure',
    'SameSite=Strict',
  ].join('; ');
}

/**
 * Moves the refresh token of a sign-in or refresh answer into the cookie when the request asked
 * for it; answers the tokens the body should carry.
 */
export function deliverRefreshToken<T extends { refreshToken: string }>(
  request: FastifyRequest,
  reply: FastifyReply,
  tokens: T,
  ttlDays: number,
): T {
  if (!wantsRefreshCookie(request)) return tokens;
  reply.header('set-cookie', cookie(encodeURIComponent(tokens.refreshToken), ttlDays * 86_400));
  return { ...tokens, refreshToken: '' };
}

/** Removes the cookie (sign-out, or a refresh the server refused). */
export function clearRefreshCookie(reply: FastifyReply) {
  reply.header('set-cookie', cookie('', 0));
}

/** The refresh token the cookie carries, if any. */
export function refreshTokenFromCookie(request: FastifyRequest): string | undefined {
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (name === REFRESH_COOKIE && value.length) {
      const token = decodeURIComponent(value.join('='));
      return token || undefined;
    }
  }
  return undefined;
}

/**
 * A refresh by cookie is for the console's own pages: the browser's Origin must name this
 * server's host (and Sec-Fetch-Site, where the browser sends it, must not say cross-site).
 */
export function assertSameOrigin(request: FastifyRequest) {
  const origin = request.headers.origin;
  const site = request.headers['sec-fetch-site'];
  let sameHost = false;
  try {
    // Through URL on both sides, so `host:80` and `host` (a default port) compare equal.
    const own = new URL(`${request.protocol}://${request.host}`).host;
    sameHost = !!origin && new URL(origin).host === own;
  } catch {
    sameHost = false;
  }
  if (!sameHost || (site !== undefined && site !== 'same-origin')) throw refreshCookieErrors.originRefused();
}
