import type { AccessTokens } from '../security/jwt';
import type { GuestPrincipal, GuestResolver, Principal, UserPrincipal, UserResolver } from './principal';

export type BearerResult =
  | { kind: 'none' }
  | { kind: 'user'; principal: UserPrincipal }
  | { kind: 'guest'; prefix: string; principal: GuestPrincipal | null }
  | { kind: 'invalid' };

/**
 * Turns a bearer credential into a principal, for HTTP routes and the realtime handshake
 * alike. Modules register how their sessions and guest tokens are looked up.
 */
export class Authenticator {
  #resolveUser: UserResolver = async () => null;
  readonly #guestResolvers = new Map<string, GuestResolver>();
  readonly #guestDeniedCodes = new Map<string, string>();

  constructor(private readonly tokens: AccessTokens) {}

  setUserResolver(resolver: UserResolver): void {
    this.#resolveUser = resolver;
  }

  /** `deniedCode` is the errorCode a refused credential of this prefix gets (e.g. at the socket handshake). */
  registerGuestResolver(prefix: string, resolver: GuestResolver, deniedCode: string): void {
    if (this.#guestResolvers.has(prefix)) throw new Error(`A guest resolver for ${prefix} exists already`);
    this.#guestResolvers.set(prefix, resolver);
    this.#guestDeniedCodes.set(prefix, deniedCode);
  }

  guestDeniedCode(prefix: string): string {
    return this.#guestDeniedCodes.get(prefix) ?? 'AUTH_UNAUTHORIZED';
  }

  guestPrefixOf(token: string): string | undefined {
    for (const prefix of this.#guestResolvers.keys()) if (token.startsWith(prefix)) return prefix;
    return undefined;
  }

  /**
   * The principal as it stands now, for a credential checked earlier (a socket's handshake):
   * null once its session is revoked or expired, its account deactivated, or its guest token
   * no longer valid. Permissions are re-read. The access token's own expiry is not checked
   * again: it only bounds how long a token can open new connections.
   */
  async recheck(principal: Principal): Promise<Principal | null> {
    if (principal.actor === 'guest') {
      const prefix = this.guestPrefixOf(principal.token);
      return prefix ? this.#guestResolvers.get(prefix)!(principal.token) : null;
    }
    const current = await this.#resolveUser({
      sub: principal.userId,
      sid: principal.sessionId,
      actor: principal.actor,
    });
    return current && current.actor === principal.actor ? current : null;
  }

  async authenticate(token: string | null | undefined): Promise<BearerResult> {
    if (token === undefined) return { kind: 'none' };
    if (token === null || token === '') return { kind: 'invalid' };
    const prefix = this.guestPrefixOf(token);
    if (prefix) {
      const principal = await this.#guestResolvers.get(prefix)!(token);
      return { kind: 'guest', prefix, principal };
    }
    const claims = await this.tokens.verify(token);
    if (!claims) return { kind: 'invalid' };
    const principal = await this.#resolveUser(claims);
    if (!principal || principal.actor !== claims.actor) return { kind: 'invalid' };
    return { kind: 'user', principal };
  }
}

/**
 * The credential of an `Authorization` header: undefined when there is none, null when the
 * header is there but is not `Bearer <token>` (a malformed credential, refused like a bad one).
 */
export function bearerToken(header: string | undefined): string | null | undefined {
  if (header === undefined || header.trim() === '') return undefined;
  return /^Bearer\s+(\S+)\s*$/i.exec(header)?.[1] ?? null;
}
