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
  /** When the session itself ends (its refresh lifetime): a socket opened with it is closed then. */
  sessionExpiresAt?: Date;
  /**
   * An admin who must turn on two-factor sign-in first (`STAFF_2FA_REQUIRED`): only routes
   * declared with `duringEnrolment` admit them.
   */
  secondFactorEnrolmentRequired?: boolean;
}

export interface GuestPrincipal {
  actor: 'guest';
  /** The raw credential (e.g. an `si_` inquiry token); modules check what it may reach. */
  token: string;
  /** What the module's resolver found for the token (e.g. the inquiry id). */
  subject: unknown;
  /**
   * A stable id of the stored credential (e.g. `support-inquiry-token:12`): revoking it names
   * this id to end the sockets opened with it (`credentialKeys.guest`).
   */
  credentialId?: string;
  /** When the credential expires: a socket opened with it is closed then. */
  expiresAt?: Date;
}

export type Principal = UserPrincipal | GuestPrincipal;

/** Looks up the live session of verified claims; null when revoked, expired or deactivated. */
export type UserResolver = (claims: AccessClaims) => Promise<UserPrincipal | null>;

/** Checks a guest credential of one prefix; null when unknown, expired or revoked. */
export type GuestResolver = (token: string) => Promise<GuestPrincipal | null>;

/**
 * The names revocation uses for the sockets of one credential (`Realtime.disconnectCredentials`):
 * a user's session, or a guest credential by the id its resolver gave.
 */
export const credentialKeys = {
  session: (sessionId: string) => `session:${sessionId}`,
  guest: (credentialId: string) => `guest:${credentialId}`,
};

/** The credential behind a principal, as `credentialKeys` names it (none for a guest without an id). */
export function credentialKeyOf(principal: Principal): string | undefined {
  if (principal.actor !== 'guest') return credentialKeys.session(principal.sessionId);
  return principal.credentialId ? credentialKeys.guest(principal.credentialId) : undefined;
}

/** When the credential behind a principal ends by itself, if known. */
export const credentialExpiryOf = (principal: Principal): Date | undefined =>
  principal.actor === 'guest' ? principal.expiresAt : principal.sessionExpiresAt;
