// Queries of the back office's identity routes: roles with their codes, admin accounts and
// customer accounts. Constraint violations become the module's errors here.
import { and, count, eq, ilike, inArray, ne, or, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn, PgSelect } from 'drizzle-orm/pg-core';
import type { Db } from '../../../platform/db/database';
import { isForeignKeyViolation, isUniqueViolation } from '../../../platform/db/errors';
import { containsPattern as contains } from '../../../platform/db/like';
import type { PageWindow } from '../../../platform/http/pagination';
import { identityErrors } from '../identity.errors';
import type { NewUser, UserRow } from '../identity.repository';
import { CUSTOMER_ROLE, SUPERADMIN_ROLE } from '../identity.service';
import { rolePermissions, roles, users } from '../identity.table';
import { adminErrors } from './admin.errors';

export type RoleRow = typeof roles.$inferSelect;

const ROLE_NAME_UNIQUE = 'roles_name_unique';
const USER_EMAIL_UNIQUE = 'users_email_unique';
const USER_ROLE_FK = 'users_role_roles_name_fk';

export interface ListOrder {
  sort: string;
  order: 'asc' | 'desc';
}

/** ORDER BY a column, empty values last either way, then the id so pages never overlap. */
function orderBy(column: AnyPgColumn, order: 'asc' | 'desc', id: AnyPgColumn): SQL[] {
  return order === 'asc'
    ? [sql`${column} asc nulls last`, sql`${id} asc`]
    : [sql`${column} desc nulls last`, sql`${id} desc`];
}

/** The page's LIMIT and OFFSET; the whole list when pagination is off. */
function paged<T extends PgSelect>(query: T, page: PageWindow): T {
  const q = query.offset(page.offset);
  return page.limit === undefined ? q : q.limit(page.limit);
}

// ---------- roles ----------

export async function findRoleById(db: Db, id: number): Promise<RoleRow | undefined> {
  const [row] = await db.select().from(roles).where(eq(roles.id, id));
  return row;
}

export async function findRoleByName(db: Db, name: string): Promise<RoleRow | undefined> {
  const [row] = await db.select().from(roles).where(eq(roles.name, name));
  return row;
}

/** The stored codes of each role, by role id. */
export async function codesOfRoles(db: Db, roleIds: number[]): Promise<Map<number, string[]>> {
  const out = new Map<number, string[]>(roleIds.map((id) => [id, []]));
  if (!roleIds.length) return out;
  const rows = await db
    .select({ roleId: rolePermissions.roleId, permission: rolePermissions.permission })
    .from(rolePermissions)
    .where(inArray(rolePermissions.roleId, roleIds))
    .orderBy(rolePermissions.permission);
  for (const row of rows) out.get(row.roleId)?.push(row.permission);
  return out;
}

const roleSortColumns: Record<string, AnyPgColumn> = {
  createdAt: roles.createdAt,
  name: roles.name,
  updatedAt: roles.updatedAt,
};

export async function listRoles(
  db: Db,
  filter: { search?: string },
  order: ListOrder,
  page: PageWindow,
): Promise<{ rows: RoleRow[]; count: number }> {
  const where = filter.search ? ilike(roles.name, contains(filter.search)) : undefined;
  const rows = await paged(
    db
      .select()
      .from(roles)
      .where(where)
      .orderBy(...orderBy(roleSortColumns[order.sort] ?? roles.createdAt, order.order, roles.id))
      .$dynamic(),
    page,
  );
  const [total] = await db.select({ n: count() }).from(roles).where(where);
  return { rows, count: total?.n ?? 0 };
}

export async function insertRole(
  db: Db,
  values: { name: string; description: string | null; at: Date },
): Promise<RoleRow> {
  try {
    const [row] = await db
      .insert(roles)
      .values({
        name: values.name,
        description: values.description,
        createdAt: values.at,
        updatedAt: values.at,
      })
      .returning();
    return row!;
  } catch (error) {
    if (isUniqueViolation(error, ROLE_NAME_UNIQUE)) throw identityErrors.roleNameTaken(values.name);
    throw error;
  }
}

/** A rename carries over to the role's admins (`users.role` follows `ON UPDATE CASCADE`). */
export async function updateRole(
  db: Db,
  id: number,
  values: { name?: string; description?: string | null; updatedAt: Date },
): Promise<RoleRow | undefined> {
  try {
    const [row] = await db.update(roles).set(values).where(eq(roles.id, id)).returning();
    return row;
  } catch (error) {
    if (isUniqueViolation(error, ROLE_NAME_UNIQUE)) throw identityErrors.roleNameTaken(values.name ?? '');
    throw error;
  }
}

export async function replaceRoleCodes(db: Db, roleId: number, codes: string[]): Promise<void> {
  await db.delete(rolePermissions).where(eq(rolePermissions.roleId, roleId));
  if (codes.length) {
    await db.insert(rolePermissions).values(codes.map((permission) => ({ roleId, permission })));
  }
}

/**
 * Deletes a role unless an account still holds it: the foreign key of `users.role` refuses,
 * so an admin given the role at the same moment cannot be left without one.
 */
export async function deleteRole(db: Db, role: RoleRow): Promise<boolean> {
  try {
    const rows = await db.delete(roles).where(eq(roles.id, role.id)).returning({ id: roles.id });
    return rows.length > 0;
  } catch (error) {
    if (isForeignKeyViolation(error, USER_ROLE_FK)) throw adminErrors.roleInUse(role.name);
    throw error;
  }
}

// ---------- admin and customer accounts ----------

export async function insertAdminUser(db: Db, values: NewUser): Promise<UserRow> {
  try {
    const [row] = await db.insert(users).values(values).returning();
    return row!;
  } catch (error) {
    if (isUniqueViolation(error, USER_EMAIL_UNIQUE)) throw identityErrors.emailAlreadyExists();
    // The role was deleted between the caller's check and this insert.
    if (isForeignKeyViolation(error, USER_ROLE_FK)) throw identityErrors.roleNotFound(values.role);
    throw error;
  }
}

export async function updateAccount(
  db: Db,
  id: string,
  values: Partial<NewUser>,
): Promise<UserRow | undefined> {
  try {
    const [row] = await db.update(users).set(values).where(eq(users.id, id)).returning();
    return row;
  } catch (error) {
    if (isUniqueViolation(error, USER_EMAIL_UNIQUE)) throw identityErrors.emailAlreadyExists();
    if (isForeignKeyViolation(error, USER_ROLE_FK)) throw identityErrors.roleNotFound(values.role ?? '');
    throw error;
  }
}

/** Sets `isActive`; true when it changed (so a repeated call is no new write). */
export async function setActive(db: Db, id: string, isActive: boolean, at: Date): Promise<boolean> {
  const rows = await db
    .update(users)
    .set({ isActive, updatedAt: at })
    .where(and(eq(users.id, id), ne(users.isActive, isActive)))
    .returning({ id: users.id });
  return rows.length > 0;
}

const userSortColumns: Record<string, AnyPgColumn> = {
  createdAt: users.createdAt,
  name: users.name,
  email: users.email,
  lastLoginAt: users.lastLoginAt,
  updatedAt: users.updatedAt,
};

export interface AccountFilter {
  kind: 'admin' | 'customer';
  search?: string;
  role?: string;
  isActive?: boolean;
}

export async function listAccounts(
  db: Db,
  filter: AccountFilter,
  order: ListOrder,
  page: PageWindow,
): Promise<{ rows: UserRow[]; count: number }> {
  const term = filter.search ? contains(filter.search) : undefined;
  const searched =
    filter.kind === 'admin'
      ? [ilike(users.name, term!), ilike(users.email, term!)]
      : [ilike(users.name, term!), ilike(users.email, term!), ilike(users.phone, term!)];
  const where = and(
    filter.kind === 'admin' ? ne(users.role, CUSTOMER_ROLE) : eq(users.role, CUSTOMER_ROLE),
    term ? or(...searched) : undefined,
    filter.role !== undefined ? eq(users.role, filter.role) : undefined,
    filter.isActive !== undefined ? eq(users.isActive, filter.isActive) : undefined,
  );
  const rows = await paged(
    db
      .select()
      .from(users)
      .where(where)
      .orderBy(...orderBy(userSortColumns[order.sort] ?? users.createdAt, order.order, users.id))
      .$dynamic(),
    page,
  );
  const [total] = await db.select({ n: count() }).from(users).where(where);
  return { rows, count: total?.n ?? 0 };
}

/**
 * Active superadmins other than `id`. Every active superadmin row is locked, always in id
 * order, so two concurrent demotions wait for each other (instead of deadlocking) and the
 * second one counts what the first left.
 */
export async function countActiveSuperadminsExcept(db: Db, id: string): Promise<number> {
  const rows = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.role, SUPERADMIN_ROLE), eq(users.isActive, true)))
    .orderBy(users.id)
    .for('update');
  return rows.filter((r) => r.id !== id).length;
}
