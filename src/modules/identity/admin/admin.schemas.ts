import { z } from 'zod';
import { booleanQuery } from '../../../platform/http/fields';
import { listQuery } from '../../../platform/http/pagination';
import { email, password, profile } from '../auth/auth.schemas';

/** A trimmed search term; blank means no search. */
const search = z
  .string()
  .trim()
  .max(100)
  .optional()
  .transform((s) => s || undefined);

// ---------- permissions ----------

export const permissionGroup = z
  .object({ module: z.string(), codes: z.array(z.string()) })
  .meta({ id: 'PermissionGroup' });

// ---------- roles ----------

export const role = z
  .object({
    id: z.number().int(),
    name: z.string(),
    description: z.string().nullable(),
    permissions: z.array(z.string()).describe('Permission codes; a superadmin holds every code'),
    isBuiltIn: z.boolean(),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .meta({ id: 'Role' });
export type RoleView = z.infer<typeof role>;

const roleName = z.string().trim().min(1).max(64);
const description = z.string().trim().max(500).nullable();
const permissionCodes = z.array(z.string().trim().min(1).max(100)).max(500);

export const createRoleBody = z.object({
  name: roleName,
  description: description.optional(),
  permissions: permissionCodes.default([]),
});
export type CreateRoleBody = z.output<typeof createRoleBody>;

export const updateRoleBody = z
  .object({
    name: roleName.optional(),
    description: description.optional(),
    permissions: permissionCodes.optional(),
  })
  .refine((b) => Object.values(b).some((v) => v !== undefined), {
    message: 'give at least one field to change',
  });
export type UpdateRoleBody = z.output<typeof updateRoleBody>;

export const roleListQuery = listQuery(['createdAt', 'name', 'updatedAt'] as const).extend({ search });
export type RoleListQuery = z.output<typeof roleListQuery>;

// ---------- admin users and customers ----------

const account = {
  isActive: z.boolean(),
  lastLoginAt: z.iso.datetime().nullable(),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
};

export const adminUser = profile
  .extend({ ...account, twoFactorEnabled: z.boolean() })
  .meta({ id: 'AdminUser' });
export type AdminUserView = z.infer<typeof adminUser>;

export const customer = profile
  .extend({ ...account, deletionScheduledAt: z.iso.datetime().nullable() })
  .meta({ id: 'AdminCustomer' });
export type CustomerView = z.infer<typeof customer>;

const personName = z.string().trim().min(1).max(255);
const roleRef = z.string().trim().min(1).max(64);

export const createAdminUserBody = z.object({
  name: personName,
  email,
  role: roleRef,
  password: password.optional(),
});
export type CreateAdminUserBody = z.output<typeof createAdminUserBody>;

export const updateAdminUserBody = z
  .object({ name: personName.optional(), email: email.optional(), role: roleRef.optional() })
  .refine((b) => Object.values(b).some((v) => v !== undefined), {
    message: 'give at least one field to change',
  });
export type UpdateAdminUserBody = z.output<typeof updateAdminUserBody>;

const userSortKeys = ['createdAt', 'name', 'email', 'lastLoginAt', 'updatedAt'] as const;

export const adminUserListQuery = listQuery(userSortKeys).extend({
  search,
  role: roleRef.optional(),
  isActive: booleanQuery.optional(),
});
export type AdminUserListQuery = z.output<typeof adminUserListQuery>;

export const customerListQuery = listQuery(userSortKeys).extend({
  search,
  isActive: booleanQuery.optional(),
});
export type CustomerListQuery = z.output<typeof customerListQuery>;
