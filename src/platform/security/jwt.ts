import { webcrypto } from 'node:crypto';
import { errors, jwtVerify, SignJWT } from 'jose';
import { LRUCache } from 'lru-cache';

export type Actor = 'admin' | 'customer';

export interface AccessClaims {
  sub: string; // user id
  sid: string; // session id
  actor: Actor;
}

export interface AccessTokens {
  sign(claims: AccessClaims): Promise<string>;
  /**
   * The claims of a valid token, or null for a missing, malformed, expired or forged one, and
   * for one without `exp`, `sub`, `sid` or `actor` whatever its signature
   * (docs/decisions.md, "Token claims"): a token that never expires is never accepted.
   */
  verify(token: string): Promise<AccessClaims | null>;
}

/** How many verified tokens a process remembers (about 0.5 KB each). */
const VERIFIED_TOKENS_KEPT = 5_000;

export function createAccessTokens(opts: {
  secret: string;
  ttlSeconds: number;
  now: () => Date;
}): AccessTokens {
  // Tokens already verified, with their claims and expiry. A client sends the same token on every
  // request until it expires, and checking its signature again (WebCrypto's HMAC, an async job)
  // was a quarter of the CPU of a cached signed-in read. Keyed by the whole token, signature
  // included, so only a token that passed the full check once can hit; its expiry is checked on
  // every hit, and whether its session is still alive is the authenticator's question, asked on
  // every request as before. Failures are not kept.
  const verified = new LRUCache<string, { claims: AccessClaims; expiresAtMs: number }>({
    max: VERIFIED_TOKENS_KEPT,
  });
  // Imported once: given the secret's bytes, jose imports a WebCrypto key on every sign and
  // verify, which was ~3 % of a checkout's CPU (every authenticated request verifies a token).
  let imported: Promise<webcrypto.CryptoKey> | undefined;
  const key = () =>
    (imported ??= webcrypto.subtle.importKey(
      'raw',
      new TextEncoder().encode(opts.secret),
      { name: 'HMAC', hash: 'SHA-256' },
      false,
      ['sign', 'verify'],
    ));
  const seconds = () => Math.floor(opts.now().getTime() / 1000);
  return {
    sign: async ({ sub, sid, actor }) =>
      new SignJWT({ sid, actor })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject(sub)
        .setIssuedAt(seconds())
        .setExpirationTime(seconds() + opts.ttlSeconds)
        .sign(await key()),
    async verify(token) {
      const known = verified.get(token);
      if (known) {
        // jose refuses a token whose exp is not after now; the same rule here.
        if (known.expiresAtMs > opts.now().getTime()) return { ...known.claims };
        verified.delete(token);
        return null;
      }
      try {
        const { payload } = await jwtVerify(token, await key(), {
          algorithms: ['HS256'],
          currentDate: opts.now(),
          requiredClaims: ['exp', 'sub', 'sid', 'actor'],
        });
        const { sub, sid, actor, exp } = payload;
        if (typeof exp !== 'number' || !Number.isFinite(exp)) return null;
        if (typeof sub !== 'string' || sub === '' || typeof sid !== 'string' || sid === '') return null;
        if (actor !== 'admin' && actor !== 'customer') return null;
        verified.set(token, { claims: { sub, sid, actor }, expiresAtMs: exp * 1000 });
        return { sub, sid, actor };
      } catch (error) {
        if (error instanceof errors.JOSEError) return null;
        throw error;
      }
    },
  };
}
