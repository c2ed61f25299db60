// The blog admin limits of the interface: reads 30 per minute and writes 10 per minute, per
// IP (docs/decisions.md "Lists and caches": blog admin limits are per IP). Each is one counter
// shared by every route of its kind, on both process kinds (Redis store when REDIS_URL is set).

import { rateLimiter } from '../../platform/http/openapi';
import type { ApiApp } from '../../platform/module';

export const BLOG_ADMIN_LIMITS = {
  read: { max: 30, timeWindow: 60_000 },
  write: { max: 10, timeWindow: 60_000 },
} as const;

/**
 * The body preview (ours, docs/api-notes.md "Blog"): the editor asks after each pause in typing,
 * so it has its own, larger counter and never uses up the writes.
 */
export const BLOG_PREVIEW_LIMIT = { max: 60, timeWindow: 60_000 } as const;

export type BlogAdminLimiter = ReturnType<ApiApp['rateLimit']>;
export type BlogAdminLimiters = Record<'read' | 'write' | 'preview', BlogAdminLimiter>;

export function blogAdminLimiters(app: ApiApp): BlogAdminLimiters {
  const limiter = (kind: keyof BlogAdminLimiters) =>
    rateLimiter(app, {
      ...(kind === 'preview' ? BLOG_PREVIEW_LIMIT : BLOG_ADMIN_LIMITS[kind]),
      skipOnError: true,
      keyGenerator: (request) => `blog-admin-${kind}:${request.ip}`,
    });
  return { read: limiter('read'), write: limiter('write'), preview: limiter('preview') };
}
