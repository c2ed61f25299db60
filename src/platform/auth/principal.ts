// Who is calling. The platform verifies tokens; the identity module decides whether the
// session behind a token is still alive and what it may do (it registers a resolver).
import type { AccessClaims, Actor } from '../security/jwt';

export interface UserPrincipal {
  actor: Actor;
  userId: string;
  sessionId: string;
  /** The admin's role name, or `customer`. */
  role: string;
  permissions: ReadonlySet<string>;
}

export interface GuestPrincipal {
  actor: 'guest';
  /** The raw credential (e.g. an `si_` inquiry token); modules check what it may reach. */
  token: string;
  /** What the module's resolver found for the token (e.g. the inquiry id). */
  subject: unknown;
}

export type Principal = UserPrincipal | GuestPrincipal;

/** Looks up the live session of verified claims; null when revoked, expired or deactivated. */
export type UserResolver = (claims: AccessClaims) => Promise<UserPrincipal | null>;

/** Checks a guest credential of one prefix; null when unknown, expired or revoked. */
export type GuestResolver = (token: string) => Promise<GuestPrincipal | null>;
