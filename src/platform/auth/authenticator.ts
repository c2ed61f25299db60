import { LRUCache } from 'lru-cache';
import type { Cache, CacheDrop } from '../cache/cache';
import type { AccessClaims, AccessTokens } from '../security/jwt';
import type { GuestPrincipal, GuestResolver, Principal, UserPrincipal, UserResolver } from './principal';

/** The cache's key space the live-session copies are announced under (nothing is stored there). */
const LIVE_SESSION_KEY = 'auth:live-session:';

/**
 * Copies of live sessions, so a signed-in request does not ask the database whether its session
 * is alive every time (that query was most of a cached signed-in read's cost). A copy lives at
 * most `ttlMs`, and revocation drops it at once, on every process: the identity module calls
 * `forgetSessions` after the commit that ends sessions, `forgetAllSessions` after a change to
 * what sessions hold (a role's permissions, an account's role, two-factor sign-in); the drop is
 * announced through the cache (`Cache.onDrop`). A lookup that was under way when a drop came is
 * not kept, so it cannot put back what the drop removed.
 */
export interface LiveSessionCopies {
  cache: Cache;
  ttlMs: number;
  /** The store's clock, in milliseconds (tests move it). */
  now: () => number;
  maxEntries?: number;
}

interface Copy {
  principal: UserPrincipal;
  until: number;
}

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

  readonly #copies: LRUCache<string, Copy> | undefined;
  readonly #copiesOpts: LiveSessionCopies | undefined;
  /** Counts drops: a lookup keeps its result only if no drop came while it ran. */
  #drops = 0;

  constructor(
    private readonly tokens: AccessTokens,
    copies?: LiveSessionCopies,
  ) {
    // With Redis and no announcements (CACHE_LOCAL_TTL_MS=0), another process's revocation could
    // not reach this one's copies: keep none.
    if (copies && copies.ttlMs > 0 && copies.cache.announcesDrops) {
      this.#copiesOpts = copies;
      this.#copies = new LRUCache({ max: copies.maxEntries ?? 10_000 });
      copies.cache.onDrop((drop) => this.#dropped(drop));
    }
  }

  #dropped(drop: CacheDrop): void {
    const copies = this.#copies!;
    if ('key' in drop) {
      if (!drop.key.startsWith(LIVE_SESSION_KEY)) return;
      const sessionId = drop.key.slice(LIVE_SESSION_KEY.length);
      // The bare key stands for every session (`forgetAllSessions`).
      if (sessionId) copies.delete(sessionId);
      else copies.clear();
    } else {
      if (!drop.prefix.startsWith(LIVE_SESSION_KEY) && !LIVE_SESSION_KEY.startsWith(drop.prefix)) return;
      copies.clear();
    }
    this.#drops++;
  }

  /** After the commit that ended these sessions: their copies go, here and on every process. */
  async forgetSessions(sessionIds: readonly string[]): Promise<void> {
    if (!this.#copies || !sessionIds.length) return;
    // Dropped here first, so this process forgets them even when Redis cannot be reached; the
    // cache's own notice of the deletes then repeats it, harmlessly.
    for (const id of sessionIds) this.#dropped({ key: LIVE_SESSION_KEY + id });
    const { cache } = this.#copiesOpts!;
    await Promise.all(sessionIds.map((id) => cache.delete(LIVE_SESSION_KEY + id))).catch(() => {});
  }

  /** After a change to what sessions hold (permissions, role, two-factor): every copy goes. */
  async forgetAllSessions(): Promise<void> {
    if (!this.#copies) return;
    // One key's delete, announced like any other: nothing is stored under it, and a prefix's
    // delete would scan Redis's whole key space for nothing.
    this.#dropped({ key: LIVE_SESSION_KEY });
    await this.#copiesOpts!.cache.delete(LIVE_SESSION_KEY).catch(() => {});
  }

  async #liveUser(claims: AccessClaims): Promise<UserPrincipal | null> {
    const copies = this.#copies;
    if (!copies) return this.#resolveUser(claims);
    const now = this.#copiesOpts!.now();
    const copy = copies.get(claims.sid);
    if (copy && copy.until > now) {
      const { principal } = copy;
      if (principal.sessionExpiresAt && principal.sessionExpiresAt.getTime() <= now) {
        copies.delete(claims.sid);
        return null;
      }
      if (principal.userId === claims.sub && principal.actor === claims.actor) return principal;
      // Claims naming another holder than the session's: the resolver refuses them, as ever.
    }
    const drops = this.#drops;
    const principal = await this.#resolveUser(claims);
    if (principal && drops === this.#drops) {
      copies.set(claims.sid, { principal, until: now + this.#copiesOpts!.ttlMs });
    }
    return principal;
  }

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
    const principal = await this.#liveUser(claims);
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
