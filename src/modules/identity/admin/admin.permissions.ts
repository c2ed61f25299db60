import { definePermissions } from '../../../platform/auth/access';
import type { PermissionGroup } from '../../../platform/module';

export const rolesPermissions = definePermissions('Roles', ['READ', 'CREATE', 'UPDATE', 'DELETE'] as const);
export const adminUsersPermissions = definePermissions('AdminUsers', ['READ', 'CREATE', 'UPDATE'] as const);
export const customersPermissions = definePermissions('Customers', ['READ'] as const);

/** The groups of the back office's identity routes, for `identityModule.permissions`. */
export const adminPermissionGroups: PermissionGroup[] = [
  rolesPermissions,
  adminUsersPermissions,
  customersPermissions,
].map((p) => ({ module: p.module, codes: p.codes }));
