import type { Authenticator } from '../../platform/auth/authenticator';
import { credentialKeys, type UserPrincipal, type UserResolver } from '../../platform/auth/principal';
import type { Clock } from '../../platform/clock';
import type { Db } from '../../platform/db/database';
import { newUuid } from '../../platform/ids';
import type { Realtime } from '../../platform/realtime/realtime';
import type { AccessTokens, Actor } from '../../platform/security/jwt';
import { hashPassword } from '../../platform/security/passwords';
import { randomToken, sha256Hex } from '../../platform/security/tokens';
import { identityErrors } from './identity.errors';
import * as repo from './identity.repository';

export const SUPERADMIN_ROLE = 'superadmin';
export const CUSTOMER_ROLE = 'customer';

export interface SessionTokens {
  sessionId: string;
  accessToken: string;
  refreshToken: string;
}

/** Creates an admin account (CLI, bootstrap, back office). The email must be free. */
export async function createAdmin(opts: {
  db: Db;
  email: string;
  password: string;
  name?: string;
  role?: string;
}): Promise<repo.UserRow> {
  const role = opts.role ?? SUPERADMIN_ROLE;
  if (role === CUSTOMER_ROLE || !(await repo.roleExists(opts.db, role)))
    throw identityErrors.roleNotFound(role);
  return repo.insertUser(opts.db, {
    id: newUuid(),
    name: opts.name ?? opts.email.split('@')[0]!,
    email: opts.email,
    role,
    passwordHash: await hashPassword(opts.password),
    emailVerified: true,
  });
}

/** A customer account as registration creates it (unverified unless said otherwise). */
export async function createCustomerAccount(opts: {
  db: Db;
  email: string;
  name: string;
  password?: string;
  emailVerified?: boolean;
  phone?: string;
}): Promise<repo.UserRow> {
  return repo.insertUser(opts.db, {
    id: newUuid(),
    name: opts.name,
    email: opts.email,
    role: CUSTOMER_ROLE,
    passwordHash: opts.password ? await hashPassword(opts.password) : null,
    emailVerified: opts.emailVerified ?? false,
    phone: opts.phone,
  });
}

/** An admin role holding the given permission codes. */
export async function createRole(opts: {
  db: Db;
  name: string;
  description?: string;
  permissions: string[];
}) {
  return repo.insertRole(opts.db, opts);
}

/** Ends one session: its refresh token stops at once, its access token from the next request. */
export async function endSession(opts: {
  db: Db;
  clock: Clock;
  authenticator: Pick<Authenticator, 'forgetSessions'>;
  sessionId: string;
}): Promise<boolean> {
  const ended = await repo.revokeSession(opts.db, opts.sessionId, opts.clock.now());
  await opts.authenticator.forgetSessions([opts.sessionId]);
  return ended;
}

/** A deactivated account is refused from its next request on (its sessions stop resolving). */
export async function setAccountActive(opts: {
  db: Db;
  clock: Clock;
  authenticator: Pick<Authenticator, 'forgetAllSessions'>;
  userId: string;
  isActive: boolean;
}) {
  const changed = await repo.setUserActive(opts.db, opts.userId, opts.isActive, opts.clock.now());
  await opts.authenticator.forgetAllSessions();
  return changed;
}

/** `BOOTSTRAP_ADMIN_EMAIL` + `BOOTSTRAP_ADMIN_PASSWORD`: a superadmin, when that email is free. */
export async function ensureBootstrapAdmin(opts: {
  db: Db;
  email: string;
  password: string;
}): Promise<'created' | 'exists'> {
  if (await repo.findUserByEmail(opts.db, opts.email)) return 'exists';
  try {
    await createAdmin({ db: opts.db, email: opts.email, password: opts.password });
    return 'created';
  } catch (error) {
    // Another process starting at the same moment created it first.
    if (error instanceof Error && 'errorCode' in error && error.errorCode === 'AUTH_EMAIL_ALREADY_EXISTS') {
      return 'exists';
    }
    throw error;
  }
}

/** Opens a session for a signed-in user and issues its first token pair. */
export async function startSession(opts: {
  db: Db;
  tokens: AccessTokens;
  clock: Clock;
  refreshTtlDays: number;
  userId: string;
  actor: Actor;
  deviceInfo?: Record<string, string>;
  pushToken?: string;
}): Promise<SessionTokens> {
  const sessionId = newUuid();
  const refreshToken = randomToken(32);
  const now = opts.clock.now();
  await repo.insertSession(
    opts.db,
    {
      id: sessionId,
      userId: opts.userId,
      actor: opts.actor,
      deviceInfo: opts.deviceInfo,
      pushToken: opts.pushToken,
      expiresAt: new Date(now.getTime() + opts.refreshTtlDays * 86_400_000),
      createdAt: now,
    },
    { digest: sha256Hex(refreshToken), issuedAt: now },
  );
  const accessToken = await opts.tokens.sign({ sub: opts.userId, sid: sessionId, actor: opts.actor });
  return { sessionId, accessToken, refreshToken };
}

export type RefreshOutcome =
  | { ok: true; tokens: SessionTokens; user: repo.UserRow }
  | { ok: false; reason: 'invalid' }
  /** The session `sessionId` was ended (committed when this is returned). */
  | { ok: false; reason: 'reused'; sessionId: string };

/**
 * Rotates a refresh token (docs/decisions.md, "Refresh token"): the current token gets a new pair;
 * the immediately previous one too, once, within the grace (a client that lost the reply);
 * any other known token of the session is reuse and ends the session.
 */
export async function refreshSession(opts: {
  db: Db;
  tokens: AccessTokens;
  clock: Clock;
  graceSeconds: number;
  actor: Actor;
  refreshToken: string;
}): Promise<RefreshOutcome> {
  const now = opts.clock.now();
  return opts.db.transaction(async (txRaw) => {
    const tx = txRaw as unknown as Db;
    const found = await repo.lockRefreshToken(tx, sha256Hex(opts.refreshToken));
    if (!found) return { ok: false, reason: 'invalid' } as const;
    const { token, session, user } = found;
    const usable =
      !session.revokedAt &&
      session.expiresAt > now &&
      session.actor === opts.actor &&
      user.isActive &&
      !user.anonymizedAt;
    if (!usable) return { ok: false, reason: 'invalid' } as const;

    let retiring = token.digest;
    if (token.rotatedAt) {
      const current = await repo.currentRefreshToken(tx, session.id);
      const withinGrace = now.getTime() - token.rotatedAt.getTime() < opts.graceSeconds * 1000;
      if (!current || token.replacedBy !== current.digest || !withinGrace) {
        await repo.revokeSession(tx, session.id, now);
        return { ok: false, reason: 'reused', sessionId: session.id } as const;
      }
      retiring = current.digest;
    }
    const refreshToken = randomToken(32);
    await repo.rotateRefreshToken(tx, {
      sessionId: session.id,
      oldDigest: retiring,
      newDigest: sha256Hex(refreshToken),
      at: now,
    });
    const accessToken = await opts.tokens.sign({ sub: user.id, sid: session.id, actor: session.actor });
    return { ok: true, tokens: { sessionId: session.id, accessToken, refreshToken }, user } as const;
  });
}

/**
 * Ends every session of a user (password reset, deactivation, deletion request); answers the
 * ended sessions' ids, for `disconnectSessions` once the transaction has committed.
 */
export async function endAllSessions(opts: { db: Db; clock: Clock; userId: string }): Promise<string[]> {
  return repo.revokeAllSessions(opts.db, opts.userId, opts.clock.now());
}

/**
 * Closes, on every process, the sockets opened with these sessions
 * (docs/decisions.md, "Realtime revocation"), and drops every process's copy of them, so their
 * access tokens are refused from the next request on. Call it after the commit that ended them:
 * before it, the client could reconnect at once and pass the handshake against the revocation
 * not yet committed.
 */
export async function disconnectSessions(
  deps: {
    realtime: Pick<Realtime, 'disconnectCredentials'>;
    authenticator: Pick<Authenticator, 'forgetSessions'>;
  },
  sessionIds: string[],
): Promise<void> {
  deps.realtime.disconnectCredentials(sessionIds.map(credentialKeys.session));
  await deps.authenticator.forgetSessions(sessionIds);
}

/** A session's `lastUsedAt` is written at most this often (signed-in devices show it). */
export const SESSION_TOUCH_INTERVAL_MS = 60_000;

/**
 * How the platform learns who a verified access token belongs to: the session must be
 * alive (so logout and deactivation take effect on the next request). A superadmin holds
 * every permission the server knows. With `staffSecondFactorRequired`, an admin without
 * two-factor sign-in is marked, so only the enrolment routes admit them.
 */
export function createUserResolver(opts: {
  db: Db;
  clock: Clock;
  allPermissions: () => string[];
  staffSecondFactorRequired?: boolean;
}): UserResolver {
  return async (claims) => {
    const now = opts.clock.now();
    const session = await repo.findLiveSession(opts.db, claims.sid, now);
    if (!session || session.userId !== claims.sub || session.actor !== claims.actor) return null;
    // The read above says when the session was last recorded as used, so the write happens
    // only when that is a minute old: not on every request.
    const staleBefore = new Date(now.getTime() - SESSION_TOUCH_INTERVAL_MS);
    if (!session.lastUsedAt || session.lastUsedAt <= staleBefore) {
      await repo.touchSession(opts.db, claims.sid, now, staleBefore);
    }
    const permissions = session.role === SUPERADMIN_ROLE ? opts.allPermissions() : session.permissions;
    const principal: UserPrincipal = {
      actor: session.actor,
      userId: session.userId,
      sessionId: claims.sid,
      role: session.role,
      permissions: new Set(permissions),
      sessionExpiresAt: session.expiresAt,
      ...(opts.staffSecondFactorRequired && session.actor === 'admin' && !session.twoFactorEnabled
        ? { secondFactorEnrolmentRequired: true }
        : {}),
    };
    return principal;
  };
}

/** How a user appears beside what they wrote (support messages), and what kind of account it is. */
export interface UserCard {
  id: string;
  name: string;
  image: string | null;
  isAdmin: boolean;
  isActive: boolean;
}

export async function findUserCard(db: Db, userId: string): Promise<UserCard | undefined> {
  const user = await repo.findUserById(db, userId);
  if (!user) return undefined;
  return {
    id: user.id,
    name: user.name,
    image: user.image,
    isAdmin: user.role !== CUSTOMER_ROLE,
    isActive: user.isActive && !user.anonymizedAt,
  };
}

export interface UserContact {
  id: string;
  name: string;
  email: string;
  phone: string | null;
}

/** Name and contacts of several users at once (a back-office list names each order's customer). */
export async function findUserContacts(db: Db, userIds: string[]): Promise<Map<string, UserContact>> {
  const rows = await repo.findUsersByIds(db, [...new Set(userIds)]);
  return new Map(rows.map((u) => [u.id, { id: u.id, name: u.name, email: u.email, phone: u.phone }]));
}

/**
 * The ids of customers whose name, email or phone contains `term` (any case), as a subquery
 * another module filters its own rows with: `inArray(orders.customerId, customerIdsMatching(db, term))`.
 */
export function customerIdsMatching(db: Db, term: string) {
  return repo.userIdsMatching(db, term, CUSTOMER_ROLE);
}

/**
 * What an order needs of the customer placing it, in one read: the name (the receiver), the
 * phone and whether it is verified (COD checks, the contact number), and where mail goes (null
 * once anonymised).
 */
export async function findUserForOrder(
  db: Db,
  userId: string,
): Promise<{ name: string; phone: string | null; phoneVerified: boolean; email: string | null } | undefined> {
  const user = await repo.findUserById(db, userId);
  return (
    user && {
      name: user.name,
      phone: user.phone,
      phoneVerified: user.phoneVerified,
      email: user.anonymizedAt ? null : user.email,
    }
  );
}

/** Where mail for the user goes (orders: the digital-key delivery); null once anonymised or gone. */
export async function findUserEmail(db: Db, userId: string): Promise<string | null> {
  const user = await repo.findUserById(db, userId);
  return user && !user.anonymizedAt ? user.email : null;
}

/** The customer account holding `email` (any case), if one exists and is not anonymised. */
export async function findCustomerIdByEmail(db: Db, email: string): Promise<string | undefined> {
  const user = await repo.findUserByEmail(db, email);
  return user && user.role === CUSTOMER_ROLE && !user.anonymizedAt ? user.id : undefined;
}
