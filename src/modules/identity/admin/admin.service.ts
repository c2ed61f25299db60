// The back office's identity rules: roles and their permission codes, admin accounts (with
// invitations and deactivation), and read access to customer accounts. Every write records
// its activity entry in its own transaction.
import type { UserPrincipal } from '../../../platform/auth/principal';
import type { Db } from '../../../platform/db/database';
import { inTransaction } from '../../../platform/db/transaction';
import { httpErrors } from '../../../platform/http/errors';
import { type PageMeta, pageMeta, pageWindow } from '../../../platform/http/pagination';
import { newUuid } from '../../../platform/ids';
import type { ModuleContext, PermissionGroup } from '../../../platform/module';
import { hashPassword } from '../../../platform/security/passwords';
import { recordActivity } from '../../activity';
import { sendAdminInvitation, toProfile } from '../auth/auth.service';
import { identityErrors } from '../identity.errors';
import type { UserRow } from '../identity.repository';
import { findUserById, permissionsOfRole } from '../identity.repository';
import { CUSTOMER_ROLE, disconnectSessions, endAllSessions, SUPERADMIN_ROLE } from '../identity.service';
import * as twoFactor from '../two-factor/two-factor.service';
import { adminErrors } from './admin.errors';
import * as repo from './admin.repository';
import type {
  AdminUserListQuery,
  AdminUserView,
  CreateAdminUserBody,
  CreateRoleBody,
  CustomerListQuery,
  CustomerView,
  RoleListQuery,
  RoleView,
  UpdateAdminUserBody,
  UpdateRoleBody,
} from './admin.schemas';

export type AdminDeps = Pick<
  ModuleContext,
  | 'db'
  | 'clock'
  | 'cache'
  | 'counters'
  | 'tokens'
  | 'mail'
  | 'sms'
  | 'config'
  | 'log'
  | 'permissionCatalog'
  | 'realtime'
  | 'authenticator'
>;

const ROLE = 'role';
const ADMIN_USER = 'admin_user';

/** Runs an admin write; a failed after-commit effect (the invitation mail) is logged. */
const write = <T>(deps: AdminDeps, work: Parameters<typeof inTransaction<T>>[1]) =>
  inTransaction(deps.db, work, (error) =>
    deps.log.error({ err: error }, 'after-commit effect of an admin write failed'),
  );

// ---------- permissions ----------

/** Every code the server knows, one group per `<Module>` prefix, codes sorted. */
export function permissionCatalog(deps: Pick<AdminDeps, 'permissionCatalog'>): PermissionGroup[] {
  return deps.permissionCatalog.map((g) => ({ module: g.module, codes: [...g.codes].sort() }));
}

const allCodes = (deps: Pick<AdminDeps, 'permissionCatalog'>) =>
  [...new Set(deps.permissionCatalog.flatMap((g) => g.codes))].sort();

/** The codes of a write, deduplicated and sorted; a code the server does not know is a 400. */
function knownCodes(deps: AdminDeps, codes: string[]): string[] {
  const known = new Set(allCodes(deps));
  const details = codes.flatMap((code, i) =>
    known.has(code)
      ? []
      : [{ path: `permissions.${i}`, message: `unknown permission code ${code}`, location: 'body' }],
  );
  if (details.length) throw httpErrors.validation(details, 'Unknown permission codes');
  return [...new Set(codes)].sort();
}

// ---------- who may grant what ----------

const isSuperadmin = (actor: UserPrincipal) => actor.role === SUPERADMIN_ROLE;

/**
 * An admin grants only what it holds itself, so Roles_UPDATE or AdminUsers_UPDATE cannot be
 * turned into more access than the admin already has. A superadmin holds everything.
 */
function mayGrant(actor: UserPrincipal, codes: string[]): void {
  if (isSuperadmin(actor)) return;
  const missing = codes.find((code) => !actor.permissions.has(code));
  if (missing) throw adminErrors.grantDenied(missing);
}

/** Only a superadmin hands out, takes away, or changes the superadmin role and its holders. */
function mayTouchSuperadmin(actor: UserPrincipal): void {
  if (!isSuperadmin(actor)) throw adminErrors.grantDenied(SUPERADMIN_ROLE);
}

/**
 * Changing an admin's account (its email above all: a reset mail then goes to the new
 * address) is taking over its access, so the actor must hold everything the target holds.
 */
async function mayManage(db: Db, actor: UserPrincipal, target: UserRow): Promise<void> {
  if (target.role === SUPERADMIN_ROLE) mayTouchSuperadmin(actor);
  else mayGrant(actor, await permissionsOfRole(db, target.role));
}

// ---------- roles ----------

function toRoleView(deps: AdminDeps, row: repo.RoleRow, stored: string[]): RoleView {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    // superadmin holds every code by rule, not by rows, so codes added later are included.
    permissions: row.name === SUPERADMIN_ROLE ? allCodes(deps) : stored,
    isBuiltIn: row.isBuiltIn,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

async function roleView(deps: AdminDeps, db: Db, row: repo.RoleRow): Promise<RoleView> {
  const codes = await repo.codesOfRoles(db, [row.id]);
  return toRoleView(deps, row, codes.get(row.id) ?? []);
}

export async function listRoles(
  deps: AdminDeps,
  query: RoleListQuery,
): Promise<{ roles: RoleView[]; meta: PageMeta }> {
  const { rows, count } = await repo.listRoles(deps.db, query, query, pageWindow(query));
  const codes = await repo.codesOfRoles(
    deps.db,
    rows.map((r) => r.id),
  );
  return { roles: rows.map((r) => toRoleView(deps, r, codes.get(r.id) ?? [])), meta: pageMeta(query, count) };
}

export async function getRole(deps: AdminDeps, id: number): Promise<RoleView> {
  const row = await repo.findRoleById(deps.db, id);
  if (!row) throw identityErrors.roleNotFound(id);
  return roleView(deps, deps.db, row);
}

export async function createRole(
  deps: AdminDeps,
  actor: UserPrincipal,
  body: CreateRoleBody,
): Promise<RoleView> {
  const codes = knownCodes(deps, body.permissions);
  mayGrant(actor, codes);
  const now = deps.clock.now();
  return write(deps, async (tx) => {
    const row = await repo.insertRole(tx, {
      name: body.name,
      description: body.description ?? null,
      at: now,
    });
    await repo.replaceRoleCodes(tx, row.id, codes);
    await recordActivity(tx, {
      adminId: actor.userId,
      action: 'create',
      entityType: ROLE,
      entityId: row.id,
      summary: `Created role ${row.name} with ${codes.length} permission(s)`,
      at: now,
    });
    return toRoleView(deps, row, codes);
  });
}

/**
 * superadmin cannot change at all; customer keeps its name (accounts and code refer to it)
 * but its description and codes may change.
 */
export async function updateRole(
  deps: AdminDeps,
  actor: UserPrincipal,
  id: number,
  body: UpdateRoleBody,
): Promise<RoleView> {
  const codes = body.permissions === undefined ? undefined : knownCodes(deps, body.permissions);
  if (codes) mayGrant(actor, codes);
  const now = deps.clock.now();
  return write(deps, async (tx, afterCommit) => {
    const before = await repo.findRoleById(tx, id);
    if (!before) throw identityErrors.roleNotFound(id);
    if (before.name === SUPERADMIN_ROLE) throw adminErrors.roleBuiltIn(before.name, 'changed');
    // Its holders' signed-in requests must see the new permissions from the next request on.
    afterCommit(() => deps.authenticator.forgetAllSessions());
    const renamed = body.name !== undefined && body.name !== before.name;
    if (renamed && before.isBuiltIn) throw adminErrors.roleBuiltIn(before.name, 'renamed');

    const row = await repo.updateRole(tx, id, {
      ...(renamed ? { name: body.name } : {}),
      ...(body.description !== undefined ? { description: body.description } : {}),
      updatedAt: now,
    });
    if (codes) {
      // Taking a code away changes what the role's holders may do as much as granting one.
      const held = (await repo.codesOfRoles(tx, [id])).get(id) ?? [];
      mayGrant(
        actor,
        held.filter((code) => !codes.includes(code)),
      );
      await repo.replaceRoleCodes(tx, id, codes);
    }
    const changed = [
      renamed ? `renamed from ${before.name}` : undefined,
      body.description !== undefined ? 'description' : undefined,
      codes ? `${codes.length} permission(s)` : undefined,
    ].filter(Boolean);
    await recordActivity(tx, {
      adminId: actor.userId,
      action: 'update',
      entityType: ROLE,
      entityId: id,
      summary: `Updated role ${row!.name}: ${changed.join(', ')}`,
      at: now,
    });
    return roleView(deps, tx, row!);
  });
}

export async function deleteRole(deps: AdminDeps, actor: UserPrincipal, id: number): Promise<void> {
  const now = deps.clock.now();
  await write(deps, async (tx) => {
    const role = await repo.findRoleById(tx, id);
    if (!role) throw identityErrors.roleNotFound(id);
    if (role.isBuiltIn) throw adminErrors.roleBuiltIn(role.name, 'deleted');
    if (!(await repo.deleteRole(tx, role))) throw identityErrors.roleNotFound(id);
    await recordActivity(tx, {
      adminId: actor.userId,
      action: 'delete',
      entityType: ROLE,
      entityId: id,
      summary: `Deleted role ${role.name}`,
      at: now,
    });
  });
}

// ---------- admin users ----------

const accountFields = (u: UserRow) => ({
  ...toProfile(u),
  isActive: u.isActive,
  lastLoginAt: u.lastLoginAt?.toISOString() ?? null,
  createdAt: u.createdAt.toISOString(),
  updatedAt: u.updatedAt.toISOString(),
});

const toAdminUserView = (u: UserRow, twoFactorEnabled: boolean): AdminUserView => ({
  ...accountFields(u),
  twoFactorEnabled,
});

/** The account as the staff screen shows it, 2FA state read in `db` (the write's transaction). */
const adminUserView = async (db: Db, u: UserRow) => toAdminUserView(u, await twoFactor.isEnabled(db, u.id));
const toCustomerView = (u: UserRow): CustomerView => ({
  ...accountFields(u),
  deletionScheduledAt: u.deletionScheduledAt?.toISOString() ?? null,
});

const isAdmin = (u: UserRow | undefined): u is UserRow => Boolean(u) && u!.role !== CUSTOMER_ROLE;

/** An admin role by name: `customer` is refused as input, an unknown one is 404. */
async function assignableRole(db: Db, name: string, actor: UserPrincipal): Promise<void> {
  if (name === CUSTOMER_ROLE) throw adminErrors.customerRoleNotAssignable();
  if (!(await repo.findRoleByName(db, name))) throw identityErrors.roleNotFound(name);
  if (name === SUPERADMIN_ROLE) mayTouchSuperadmin(actor);
  else mayGrant(actor, await permissionsOfRole(db, name));
}

/** The store must keep an active superadmin: taking the last one away locks everybody out. */
async function keepOneSuperadmin(tx: Db, leavingId: string): Promise<void> {
  const others = await repo.countActiveSuperadminsExcept(tx, leavingId);
  if (others === 0) throw adminErrors.lastSuperadmin();
}

export async function listAdminUsers(
  deps: AdminDeps,
  query: AdminUserListQuery,
): Promise<{ users: AdminUserView[]; meta: PageMeta }> {
  const { rows, count } = await repo.listAccounts(
    deps.db,
    { kind: 'admin', ...query },
    query,
    pageWindow(query),
  );
  const enabled = await twoFactor.enabledAmong(
    deps.db,
    rows.map((r) => r.id),
  );
  return { users: rows.map((r) => toAdminUserView(r, enabled.has(r.id))), meta: pageMeta(query, count) };
}

export async function getAdminUser(deps: AdminDeps, id: string): Promise<AdminUserView> {
  const user = await findUserById(deps.db, id);
  if (!isAdmin(user)) throw adminErrors.adminUserNotFound(id);
  return adminUserView(deps.db, user);
}

/**
 * Creates an admin. Without a password the account cannot sign in until its holder sets one
 * with the emailed invitation (redeemed by the password reset route).
 */
export async function createAdminUser(
  deps: AdminDeps,
  actor: UserPrincipal,
  body: CreateAdminUserBody,
): Promise<AdminUserView> {
  await assignableRole(deps.db, body.role, actor);
  const passwordHash = body.password ? await hashPassword(body.password) : null;
  const now = deps.clock.now();
  return write(deps, async (tx, afterCommit) => {
    const user = await repo.insertAdminUser(tx, {
      id: newUuid(),
      name: body.name,
      email: body.email.trim().toLowerCase(),
      role: body.role,
      passwordHash,
      // Nobody has proven the address yet; redeeming the invitation does.
      emailVerified: false,
      createdAt: now,
      updatedAt: now,
    });
    await recordActivity(tx, {
      adminId: actor.userId,
      action: 'create',
      entityType: ADMIN_USER,
      entityId: user.id,
      summary: `Created admin ${user.email} with role ${user.role}${passwordHash ? '' : ' (invited by email)'}`,
      at: now,
    });
    if (!passwordHash) afterCommit(() => sendAdminInvitation(deps, user));
    return toAdminUserView(user, false);
  });
}

export async function updateAdminUser(
  deps: AdminDeps,
  actor: UserPrincipal,
  id: string,
  body: UpdateAdminUserBody,
): Promise<AdminUserView> {
  const now = deps.clock.now();
  return write(deps, async (tx, afterCommit) => {
    const before = await findUserById(tx, id);
    if (!isAdmin(before)) throw adminErrors.adminUserNotFound(id);
    await mayManage(tx, actor, before);
    if (body.role !== undefined) await assignableRole(tx, body.role, actor);
    // A new role's permissions apply from the account's next request on.
    if (body.role !== undefined && body.role !== before.role) {
      afterCommit(() => deps.authenticator.forgetAllSessions());
    }
    if (before.role === SUPERADMIN_ROLE && body.role !== undefined && body.role !== SUPERADMIN_ROLE) {
      await keepOneSuperadmin(tx, id);
    }
    const email = body.email?.trim().toLowerCase();
    const emailChanged = email !== undefined && email !== before.email;
    const user = await repo.updateAccount(tx, id, {
      ...(body.name !== undefined ? { name: body.name } : {}),
      // A new address is unproven until its holder confirms it.
      ...(emailChanged ? { email, emailVerified: false } : {}),
      ...(body.role !== undefined ? { role: body.role } : {}),
      updatedAt: now,
    });
    const changed = [
      body.name !== undefined && body.name !== before.name ? 'name' : undefined,
      emailChanged ? `email from ${before.email}` : undefined,
      body.role !== undefined && body.role !== before.role
        ? `role from ${before.role} to ${body.role}`
        : undefined,
    ].filter(Boolean);
    await recordActivity(tx, {
      adminId: actor.userId,
      action: 'update',
      entityType: ADMIN_USER,
      entityId: id,
      summary: `Updated admin ${user!.email}: ${changed.length ? changed.join(', ') : 'no change'}`,
      at: now,
    });
    return adminUserView(tx, user!);
  });
}

/**
 * Deactivation ends every session at once and login refuses the account until it is
 * activated again. Repeating either call answers the account as it is and records nothing.
 */
export async function setAdminUserActive(
  deps: AdminDeps,
  actor: UserPrincipal,
  id: string,
  isActive: boolean,
): Promise<AdminUserView> {
  if (!isActive && id === actor.userId) throw adminErrors.cannotDeactivateSelf();
  const now = deps.clock.now();
  return write(deps, async (tx, afterCommit) => {
    const before = await findUserById(tx, id);
    if (!isAdmin(before)) throw adminErrors.adminUserNotFound(id);
    await mayManage(tx, actor, before);
    if (before.role === SUPERADMIN_ROLE && !isActive) await keepOneSuperadmin(tx, id);
    const changed = await repo.setActive(tx, id, isActive, now);
    if (!isActive) {
      const ended = await endAllSessions({ db: tx, clock: deps.clock, userId: id });
      afterCommit(() => disconnectSessions(deps, ended));
    }
    if (changed) {
      await recordActivity(tx, {
        adminId: actor.userId,
        action: isActive ? 'activate' : 'deactivate',
        entityType: ADMIN_USER,
        entityId: id,
        summary: `${isActive ? 'Activated' : 'Deactivated'} admin ${before.email}`,
        at: now,
      });
    }
    return adminUserView(tx, (await findUserById(tx, id))!);
  });
}

/**
 * Resets another admin's two-factor sign-in (a lost phone): secret and recovery codes go and
 * every session of theirs ends, so the next sign-in is with the password alone (and, under
 * STAFF_2FA_REQUIRED, straight into enrolment). Only an admin who may manage the account may;
 * a superadmin's, only a superadmin. Nothing to reset: the account as it is, nothing recorded.
 */
export async function resetAdminTwoFactor(
  deps: AdminDeps,
  actor: UserPrincipal,
  id: string,
): Promise<AdminUserView> {
  const now = deps.clock.now();
  return write(deps, async (tx, afterCommit) => {
    const target = await findUserById(tx, id);
    if (!isAdmin(target)) throw adminErrors.adminUserNotFound(id);
    await mayManage(tx, actor, target);
    const by = await findUserById(tx, actor.userId);
    if (await twoFactor.resetSecondFactor(deps, tx, { user: target, by, afterCommit })) {
      const ended = await endAllSessions({ db: tx, clock: deps.clock, userId: id });
      afterCommit(() => disconnectSessions(deps, ended));
      await recordActivity(tx, {
        adminId: actor.userId,
        action: 'reset_two_factor',
        entityType: ADMIN_USER,
        entityId: id,
        summary: `Reset two-factor sign-in of admin ${target.email} and signed them out everywhere`,
        at: now,
      });
    }
    return toAdminUserView(target, false);
  });
}

// ---------- customers ----------

export async function listCustomers(
  deps: AdminDeps,
  query: CustomerListQuery,
): Promise<{ customers: CustomerView[]; meta: PageMeta }> {
  const { rows, count } = await repo.listAccounts(
    deps.db,
    { kind: 'customer', ...query },
    query,
    pageWindow(query),
  );
  return { customers: rows.map(toCustomerView), meta: pageMeta(query, count) };
}

export async function getCustomer(deps: Pick<AdminDeps, 'db'>, id: string): Promise<CustomerView> {
  const user = await findUserById(deps.db, id);
  if (!user || user.role !== CUSTOMER_ROLE) throw adminErrors.customerNotFound(id);
  return toCustomerView(user);
}
