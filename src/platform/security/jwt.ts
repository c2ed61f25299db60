import { webcrypto } from 'node:crypto';
import { errors, jwtVerify, SignJWT } from 'jose';

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

export function createAccessTokens(opts: {
  secret: string;
  ttlSeconds: number;
  now: () => Date;
}): AccessTokens {
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
        return { sub, sid, actor };
      } catch (error) {
        if (error instanceof errors.JOSEError) return null;
        throw error;
      }
    },
  };
}
