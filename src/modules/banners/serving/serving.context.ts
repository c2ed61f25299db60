// The visitor context of a serving request, read from its headers (interface document 3,
// "Banner serving"), and the key that names it in the serving cache.
import { createHash } from 'node:crypto';
import type { ServingContext } from '../campaigns/campaigns.targeting';

type Headers = Record<string, string | string[] | undefined>;

const header = (headers: Headers, name: string): string | undefined => {
  const v = headers[name];
  return (Array.isArray(v) ? v[0] : v)?.trim() || undefined;
};

export function deviceOf(userAgent: string | undefined): ServingContext['device'] {
  const ua = userAgent ?? '';
  if (/iPad/i.test(ua) || (/Android/i.test(ua) && !/Mobile/i.test(ua))) return 'tablet';
  if (/Mobile|Android|iPhone|iPod/i.test(ua)) return 'mobile';
  return 'desktop';
}

/** docs/decisions.md "Context": the first subtag of the first entry, lower-cased (`en-US,fr` → `en`). */
export function primaryLanguage(acceptLanguage: string | undefined): string | null {
  const first = acceptLanguage?.split(',')[0]?.split(';')[0]?.trim();
  const tag = first?.split('-')[0]?.toLowerCase();
  return tag && /^[a-z]{1,8}$/.test(tag) ? tag : null;
}

export function referrerDomainOf(referer: string | undefined): string | null {
  if (!referer) return null;
  try {
    const host = new URL(referer).hostname.toLowerCase();
    return host || null;
  } catch {
    return null;
  }
}

export function servingContext(headers: Headers): ServingContext {
  const country = header(headers, 'x-country-code') ?? header(headers, 'cf-ipcountry');
  const authorization = header(headers, 'authorization');
  return {
    device: deviceOf(header(headers, 'user-agent')),
    country: country && /^[A-Za-z]{2}$/.test(country) ? country.toUpperCase() : null,
    // Only a flag for targeting: the token is not verified (interface, "Authentication").
    isLoggedIn: Boolean(authorization && /^Bearer\s+\S+/i.test(authorization)),
    language: primaryLanguage(header(headers, 'accept-language')),
    isNewVisitor: !header(headers, 'x-device-id') && !header(headers, 'x-session-id'),
    referrerDomain: referrerDomainOf(header(headers, 'referer')),
    segments: [
      ...new Set(
        (header(headers, 'x-user-segment') ?? '')
          .split(',')
          .map((s) => s.trim().toLowerCase())
          .filter(Boolean),
      ),
    ].sort(),
  };
}

/** A short stable digest of the context: equal contexts share one cache entry. */
export function contextHash(ctx: ServingContext): string {
  const canonical = JSON.stringify([
    ctx.device,
    ctx.country,
    ctx.isLoggedIn,
    ctx.language,
    ctx.isNewVisitor,
    ctx.referrerDomain,
    ctx.segments,
  ]);
  return createHash('sha1').update(canonical).digest('base64url');
}
