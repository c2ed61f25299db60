import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/database';
import { isUniqueViolation } from '../../platform/db/errors';
import { identityErrors } from './identity.errors';
import { rolePermissions, roles, sessions, users } from './identity.table';

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

export async function insertSession(db: Db, values: NewSession): Promise<void> {
  await db.insert(sessions).values(values);
}

export interface LiveSession {
  userId: string;
  actor: 'admin' | 'customer';
  role: string;
  permissions: string[];
}

/**
 * The session behind an access token, if it is still alive: not revoked, not expired, its
 * user active. One query per authenticated request, on the session's primary key.
 */
export async function findLiveSession(
  db: Db,
  sessionId: string,
  now: Date,
): Promise<LiveSession | undefined> {
  const [row] = await db
    .select({
      userId: users.id,
      actor: sessions.actor,
      role: users.role,
      permissions: sql<string[]>`coalesce(
        (select array_agg(${rolePermissions.permission}) from ${rolePermissions}
          join ${roles} on ${roles.id} = ${rolePermissions.roleId}
          where ${roles.name} = ${users.role}), '{}')`,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(
      and(
        eq(sessions.id, sessionId),
        isNull(sessions.revokedAt),
        gt(sessions.expiresAt, now),
        eq(users.isActive, true),
      ),
    );
  return row;
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
