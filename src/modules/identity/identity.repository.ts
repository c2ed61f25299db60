import { and, desc, eq, gt, ilike, inArray, isNull, lte, ne, or, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/database';
import { isUniqueViolation } from '../../platform/db/errors';
import { containsPattern } from '../../platform/db/like';
import { preparedPerDb } from '../../platform/db/prepared';
import { identityErrors } from './identity.errors';
import {
  identityProviderLinks,
  oneTimeCodes,
  refreshTokens,
  rolePermissions,
  roles,
  sessions,
  staffSecondFactors,
  users,
} from './identity.table';

export type UserRow = typeof users.$inferSelect;
export type NewUser = typeof users.$inferInsert;
export type NewSession = typeof sessions.$inferInsert;

export async function findUserByEmail(db: Db, email: string): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.email, email.toLowerCase()));
  return row;
}

export async function insertUser(db: Db, values: NewUser): Promise<UserRow> {
  try {
    const [row] = await db
      .insert(users)
      .values({ ...values, email: values.email.toLowerCase() })
      .returning();
    return row!;
  } catch (error) {
    if (isUniqueViolation(error, 'users_email_unique')) throw identityErrors.emailAlreadyExists();
    throw error;
  }
}

export async function roleExists(db: Db, name: string): Promise<boolean> {
  const [row] = await db.select({ id: roles.id }).from(roles).where(eq(roles.name, name));
  return Boolean(row);
}

/** A new session and its first refresh token; run inside the caller's transaction. */
export async function insertSession(
  db: Db,
  values: NewSession,
  firstToken: { digest: string; issuedAt: Date },
): Promise<void> {
  await db.insert(sessions).values(values);
  await db.insert(refreshTokens).values({ ...firstToken, sessionId: values.id });
}

export interface LiveSession {
  userId: string;
  actor: 'admin' | 'customer';
  role: string;
  permissions: string[];
  expiresAt: Date;
  lastUsedAt: Date | null;
  /** Whether the user has confirmed two-factor sign-in (admins). */
  twoFactorEnabled: boolean;
}

// Every authenticated request asks this, so it is prepared (building this join took ~50-100 µs).
const liveSessionQuery = preparedPerDb((db) =>
  db
    .select({
      userId: users.id,
      actor: sessions.actor,
      expiresAt: sessions.expiresAt,
      lastUsedAt: sessions.lastUsedAt,
      role: users.role,
      twoFactorEnabled: sql<boolean>`exists (select 1 from ${staffSecondFactors}
          where ${staffSecondFactors.userId} = ${users.id} and ${staffSecondFactors.enabledAt} is not null)`,
      permissions: sql<string[]>`coalesce(
        (select array_agg(${rolePermissions.permission}) from ${rolePermissions}
          join ${roles} on ${roles.id} = ${rolePermissions.roleId}
          where ${roles.name} = ${users.role}), '{}')`,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(
      and(
        eq(sessions.id, sql.placeholder('sessionId')),
        isNull(sessions.revokedAt),
        gt(sessions.expiresAt, sql.placeholder('now')),
        eq(users.isActive, true),
      ),
    )
    .prepare('identity_find_live_session'),
);

/**
 * The session behind an access token, if it is still alive: not revoked, not expired, its
 * user active, with the user's role and permissions. One query on the session's primary key,
 * made by an authenticated request when its process holds no copy of the session
 * (`SESSION_CACHE_MS`, platform/auth/authenticator.ts).
 */
export async function findLiveSession(
  db: Db,
  sessionId: string,
  now: Date,
): Promise<LiveSession | undefined> {
  // A placeholder's value reaches the driver as it is (no column mapping): the instant as text.
  const [row] = await liveSessionQuery(db).execute({ sessionId, now: now.toISOString() });
  return row;
}

// Prepared, like the lookup it follows: asked at most once a minute per session.
const touchSessionQuery = preparedPerDb((db) =>
  db
    .update(sessions)
    .set({ lastUsedAt: sql`${sql.placeholder('now')}::timestamptz` })
    .where(
      and(
        eq(sessions.id, sql.placeholder('sessionId')),
        or(
          isNull(sessions.lastUsedAt),
          lte(sessions.lastUsedAt, sql`${sql.placeholder('staleBefore')}::timestamptz`),
        ),
      ),
    )
    .prepare('identity_touch_session'),
);

/**
 * Records that a session was used at `now`, unless it was recorded since `staleBefore`: one
 * conditional write, so concurrent requests of one session write at most once.
 */
export async function touchSession(db: Db, sessionId: string, now: Date, staleBefore: Date): Promise<void> {
  await touchSessionQuery(db).execute({
    sessionId,
    now: now.toISOString(),
    staleBefore: staleBefore.toISOString(),
  });
}

export type SessionRow = typeof sessions.$inferSelect;

/** A user's live sessions (not revoked, not expired), most recently used first. */
export async function listLiveSessions(db: Db, userId: string, now: Date): Promise<SessionRow[]> {
  return db
    .select()
    .from(sessions)
    .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt), gt(sessions.expiresAt, now)))
    .orderBy(desc(sql`coalesce(${sessions.lastUsedAt}, ${sessions.createdAt})`), desc(sessions.id));
}

/** Revokes one live session of `userId`; false when it is not theirs, unknown or not live. */
export async function revokeSessionOf(db: Db, userId: string, sessionId: string, at: Date): Promise<boolean> {
  const rows = await db
    .update(sessions)
    .set({ revokedAt: at })
    .where(
      and(
        eq(sessions.id, sessionId),
        eq(sessions.userId, userId),
        isNull(sessions.revokedAt),
        gt(sessions.expiresAt, at),
      ),
    )
    .returning({ id: sessions.id });
  return rows.length > 0;
}

/** Revokes every live session of a user but `keepId`; answers the revoked ids. */
export async function revokeSessionsExcept(
  db: Db,
  userId: string,
  keepId: string,
  at: Date,
): Promise<string[]> {
  const rows = await db
    .update(sessions)
    .set({ revokedAt: at })
    .where(
      and(
        eq(sessions.userId, userId),
        ne(sessions.id, keepId),
        isNull(sessions.revokedAt),
        gt(sessions.expiresAt, at),
      ),
    )
    .returning({ id: sessions.id });
  return rows.map((r) => r.id);
}

export async function insertRole(
  db: Db,
  values: { name: string; description?: string | null; permissions: string[] },
): Promise<typeof roles.$inferSelect> {
  try {
    const [role] = await db
      .insert(roles)
      .values({ name: values.name, description: values.description })
      .returning();
    if (values.permissions.length) {
      await db
        .insert(rolePermissions)
        .values(values.permissions.map((permission) => ({ roleId: role!.id, permission })));
    }
    return role!;
  } catch (error) {
    if (isUniqueViolation(error, 'roles_name_unique')) throw identityErrors.roleNameTaken(values.name);
    throw error;
  }
}

export async function revokeSession(db: Db, sessionId: string, at: Date): Promise<boolean> {
  const rows = await db
    .update(sessions)
    .set({ revokedAt: at })
    .where(and(eq(sessions.id, sessionId), isNull(sessions.revokedAt)))
    .returning({ id: sessions.id });
  return rows.length > 0;
}

export async function setUserActive(db: Db, userId: string, isActive: boolean, at: Date): Promise<boolean> {
  const rows = await db
    .update(users)
    .set({ isActive, updatedAt: at })
    .where(eq(users.id, userId))
    .returning({ id: users.id });
  return rows.length > 0;
}

// Prepared: a checkout and the order emails read their customer this way.
const userByIdQuery = preparedPerDb((db) =>
  db
    .select()
    .from(users)
    .where(eq(users.id, sql.placeholder('id')))
    .prepare('identity_find_user_by_id'),
);

export async function findUserById(db: Db, id: string): Promise<UserRow | undefined> {
  const [row] = await userByIdQuery(db).execute({ id });
  return row;
}

export async function findUsersByIds(db: Db, ids: string[]): Promise<UserRow[]> {
  if (!ids.length) return [];
  return db.select().from(users).where(inArray(users.id, ids));
}

/** A subquery: ids of users of `role` whose name, email or phone contains `term`, any case. */
export function userIdsMatching(db: Db, term: string, role: string) {
  const pattern = containsPattern(term);
  return db
    .select({ id: users.id })
    .from(users)
    .where(
      and(
        eq(users.role, role),
        or(ilike(users.name, pattern), ilike(users.email, pattern), ilike(users.phone, pattern)),
      ),
    );
}

export async function updateUser(db: Db, id: string, values: Partial<NewUser>): Promise<UserRow | undefined> {
  const [row] = await db.update(users).set(values).where(eq(users.id, id)).returning();
  return row;
}

/** Role names → permission codes of a role (for the permissions route). */
export async function permissionsOfRole(db: Db, roleName: string): Promise<string[]> {
  const rows = await db
    .select({ permission: rolePermissions.permission })
    .from(rolePermissions)
    .innerJoin(roles, eq(roles.id, rolePermissions.roleId))
    .where(eq(roles.name, roleName));
  return rows.map((r) => r.permission);
}

/**
 * A refresh token with its session and user, locking the token and session rows: rotations
 * of one session happen one at a time, on PostgreSQL as on PGlite.
 */
export async function lockRefreshToken(db: Db, digest: string) {
  const [row] = await db
    .select({ token: refreshTokens, session: sessions, user: users })
    .from(refreshTokens)
    .innerJoin(sessions, eq(sessions.id, refreshTokens.sessionId))
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(eq(refreshTokens.digest, digest))
    // Both rows: a request that waited for the lock must see the token as the winner left it.
    .for('update', { of: [refreshTokens, sessions] });
  return row;
}

export async function currentRefreshToken(db: Db, sessionId: string) {
  const [row] = await db
    .select()
    .from(refreshTokens)
    .where(and(eq(refreshTokens.sessionId, sessionId), isNull(refreshTokens.rotatedAt)));
  return row;
}

/** Retires `oldDigest` (if still current) in favour of a new token. */
export async function rotateRefreshToken(
  db: Db,
  opts: { sessionId: string; oldDigest: string; newDigest: string; at: Date },
): Promise<void> {
  await db
    .update(refreshTokens)
    .set({ rotatedAt: opts.at, replacedBy: opts.newDigest })
    .where(and(eq(refreshTokens.digest, opts.oldDigest), isNull(refreshTokens.rotatedAt)));
  await db
    .insert(refreshTokens)
    .values({ digest: opts.newDigest, sessionId: opts.sessionId, issuedAt: opts.at });
  await db.update(sessions).set({ lastUsedAt: opts.at }).where(eq(sessions.id, opts.sessionId));
}

/** Revokes every live session of a user; answers their ids (whose sockets are then closed). */
export async function revokeAllSessions(db: Db, userId: string, at: Date): Promise<string[]> {
  const rows = await db
    .update(sessions)
    .set({ revokedAt: at })
    .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt)))
    .returning({ id: sessions.id });
  return rows.map((r) => r.id);
}

/**
 * Clears the personal fields of accounts whose deletion grace period is over. Their orders
 * and tickets keep pointing at the row, which no longer says who it was.
 */
export async function anonymizeAccountsDueBefore(
  db: Db,
  now: Date,
): Promise<{ userIds: string[]; sessionIds: string[] }> {
  const rows = await db
    .update(users)
    .set({
      name: 'Deleted user',
      email: sql`'deleted-' || ${users.id} || '@deleted.invalid'`,
      image: null,
      phone: null,
      phoneVerified: false,
      passwordHash: null,
      isActive: false,
      anonymizedAt: now,
      updatedAt: now,
    })
    .where(and(lte(users.deletionScheduledAt, now), isNull(users.anonymizedAt)))
    .returning({ id: users.id });
  const ids = rows.map((r) => r.id);
  let sessionIds: string[] = [];
  if (ids.length) {
    const gone = await db
      .delete(sessions)
      .where(inArray(sessions.userId, ids))
      .returning({ id: sessions.id });
    sessionIds = gone.map((r) => r.id);
    await db.delete(identityProviderLinks).where(inArray(identityProviderLinks.userId, ids));
    await db.delete(oneTimeCodes).where(inArray(oneTimeCodes.userId, ids));
  }
  return { userIds: ids, sessionIds };
}

// Prepared: every order or notification pushed to a customer asks it, after the commit.
const livePushTokensQuery = preparedPerDb((db) =>
  db
    .selectDistinct({ pushToken: sessions.pushToken })
    .from(sessions)
    .where(
      and(
        eq(sessions.userId, sql.placeholder('userId')),
        isNull(sessions.revokedAt),
        gt(sessions.expiresAt, sql.placeholder('now')),
        sql`${sessions.pushToken} is not null`,
      ),
    )
    .prepare('identity_live_push_tokens'),
);

/**
 * The push tokens of a user's live sessions (not revoked, not expired), each once: where a
 * notification to that user is pushed. A signed-out device receives nothing.
 */
export async function livePushTokens(db: Db, userId: string, now: Date): Promise<string[]> {
  // Placeholder values reach the driver unmapped: the instant as text.
  const rows = await livePushTokensQuery(db).execute({ userId, now: now.toISOString() });
  return rows.map((r) => r.pushToken!).sort();
}

/**
 * Clears a push token from every session that holds it (a device signed in twice holds it
 * twice): the provider said it will never deliver to it again. Returns how many sessions.
 */
export async function forgetPushToken(db: Db, pushToken: string): Promise<number> {
  const rows = await db
    .update(sessions)
    .set({ pushToken: null })
    .where(eq(sessions.pushToken, pushToken))
    .returning({ id: sessions.id });
  return rows.length;
}

/**
 * Active admins whose role grants `permission` (superadmins always do): who a module alerts
 * when it notifies "the admins who hold X".
 */
export async function activeAdminIdsWithPermission(db: Db, permission: string): Promise<string[]> {
  const rows = await db
    .select({ id: users.id })
    .from(users)
    .where(
      and(
        eq(users.isActive, true),
        isNull(users.anonymizedAt),
        sql`${users.role} <> 'customer'`,
        sql`(${users.role} = 'superadmin' or exists (
          select 1 from ${rolePermissions} join ${roles} on ${roles.id} = ${rolePermissions.roleId}
          where ${roles.name} = ${users.role} and ${rolePermissions.permission} = ${permission}))`,
      ),
    );
  return rows.map((r) => r.id);
}

/**
 * Serialises, until the transaction ends, the counter's account creations with this phone
 * (phones have no unique index: several flows set them).
 */
export async function lockCounterPhone(tx: Db, phone: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`counter-phone:${phone}`}))`);
}

/** Whether any account holds this phone number. */
export async function phoneInUse(db: Db, phone: string): Promise<boolean> {
  const [taken] = await db.select({ id: users.id }).from(users).where(eq(users.phone, phone)).limit(1);
  return Boolean(taken);
}
