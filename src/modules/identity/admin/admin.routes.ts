// Back-office identity routes: the permission catalogue, roles, admin accounts and customer
// accounts (read only). Not in the public interface; docs/api-notes.md, "Admin management".
import { z } from 'zod';
import { access } from '../../../platform/auth/access';
import { currentUser } from '../../../platform/http/access-hook';
import { envelopeSchema, listEnvelopeSchema, ok, okWithMeta } from '../../../platform/http/envelope';
import { intIdParams, uuidIdParams } from '../../../platform/http/params';
import type { ModuleContext } from '../../../platform/module';
import { identityErrors } from '../identity.errors';
import { adminErrors } from './admin.errors';
import { adminUsersPermissions, customersPermissions, rolesPermissions } from './admin.permissions';
import * as s from './admin.schemas';
import * as admin from './admin.service';

export function adminRoutes(ctx: ModuleContext) {
  const { app } = ctx;
  const deps: admin.AdminDeps = ctx;

  app.get(
    '/api/admin/permissions',
    {
      config: { access: access.admin(rolesPermissions.READ) },
      schema: {
        tags: ['roles'],
        summary: 'Every permission code the server knows, grouped by module',
        response: { 200: envelopeSchema(z.array(s.permissionGroup)) },
      },
    },
    async () => ok(admin.permissionCatalog(deps), 'Permissions'),
  );

  // ----- roles -----
  const roleTags = ['roles'];

  app.get(
    '/api/admin/roles',
    {
      config: { access: access.admin(rolesPermissions.READ) },
      schema: {
        tags: roleTags,
        summary: 'Roles with their permission codes; search by name',
        querystring: s.roleListQuery,
        response: { 200: listEnvelopeSchema(s.role) },
      },
    },
    async (request) => {
      const { roles, meta } = await admin.listRoles(deps, request.query);
      return okWithMeta(roles, meta, 'Roles');
    },
  );

  app.get(
    '/api/admin/roles/:id',
    {
      config: { access: access.admin(rolesPermissions.READ), errors: [identityErrors.roleNotFound(0)] },
      schema: {
        tags: roleTags,
        summary: 'One role',
        params: intIdParams,
        response: { 200: envelopeSchema(s.role) },
      },
    },
    async (request) => ok(await admin.getRole(deps, request.params.id), 'Role'),
  );

  app.post(
    '/api/admin/roles',
    {
      config: {
        access: access.admin(rolesPermissions.CREATE),
        errors: [identityErrors.roleNameTaken(''), adminErrors.grantDenied('')],
      },
      schema: {
        tags: roleTags,
        summary: 'Create an admin role',
        body: s.createRoleBody,
        response: { 201: envelopeSchema(s.role) },
      },
    },
    async (request, reply) => {
      const role = await admin.createRole(deps, currentUser(request), request.body);
      reply.status(201);
      return ok(role, 'Role created');
    },
  );

  app.patch(
    '/api/admin/roles/:id',
    {
      config: {
        access: access.admin(rolesPermissions.UPDATE),
        errors: [
          identityErrors.roleNotFound(0),
          adminErrors.roleBuiltIn('', ''),
          identityErrors.roleNameTaken(''),
          adminErrors.grantDenied(''),
        ],
      },
      schema: {
        tags: roleTags,
        summary: 'Rename a role, change its description, or replace its permission codes',
        params: intIdParams,
        body: s.updateRoleBody,
        response: { 200: envelopeSchema(s.role) },
      },
    },
    async (request) =>
      ok(await admin.updateRole(deps, currentUser(request), request.params.id, request.body), 'Role updated'),
  );

  app.delete(
    '/api/admin/roles/:id',
    {
      config: {
        access: access.admin(rolesPermissions.DELETE),
        errors: [identityErrors.roleNotFound(0), adminErrors.roleBuiltIn('', ''), adminErrors.roleInUse('')],
      },
      schema: {
        tags: roleTags,
        summary: 'Delete a role no admin holds',
        params: intIdParams,
        response: { 200: envelopeSchema(z.null()) },
      },
    },
    async (request) => {
      await admin.deleteRole(deps, currentUser(request), request.params.id);
      return ok(null, 'Role deleted');
    },
  );

  // ----- admin users -----
  const userTags = ['admin users'];

  app.get(
    '/api/admin/users',
    {
      config: { access: access.admin(adminUsersPermissions.READ) },
      schema: {
        tags: userTags,
        summary: 'Admin accounts; search by name or email, filter by role and isActive',
        querystring: s.adminUserListQuery,
        response: { 200: listEnvelopeSchema(s.adminUser) },
      },
    },
    async (request) => {
      const { users, meta } = await admin.listAdminUsers(deps, request.query);
      return okWithMeta(users, meta, 'Admin users');
    },
  );

  app.get(
    '/api/admin/users/:id',
    {
      config: {
        access: access.admin(adminUsersPermissions.READ),
        errors: [adminErrors.adminUserNotFound('')],
      },
      schema: {
        tags: userTags,
        summary: 'One admin account',
        params: uuidIdParams,
        response: { 200: envelopeSchema(s.adminUser) },
      },
    },
    async (request) => ok(await admin.getAdminUser(deps, request.params.id), 'Admin user'),
  );

  app.post(
    '/api/admin/users',
    {
      config: {
        access: access.admin(adminUsersPermissions.CREATE),
        errors: [
          identityErrors.roleNotFound(''),
          identityErrors.emailAlreadyExists(),
          adminErrors.grantDenied(''),
        ],
      },
      schema: {
        tags: userTags,
        summary: 'Create an admin; without a password, an invitation email lets them choose one',
        body: s.createAdminUserBody,
        response: { 201: envelopeSchema(s.adminUser) },
      },
    },
    async (request, reply) => {
      const user = await admin.createAdminUser(deps, currentUser(request), request.body);
      reply.status(201);
      return ok(
        user,
        request.body.password ? 'Admin user created' : 'Admin user created and invited by email',
      );
    },
  );

  app.patch(
    '/api/admin/users/:id',
    {
      config: {
        access: access.admin(adminUsersPermissions.UPDATE),
        errors: [
          adminErrors.adminUserNotFound(''),
          identityErrors.roleNotFound(''),
          identityErrors.emailAlreadyExists(),
          adminErrors.grantDenied(''),
          adminErrors.lastSuperadmin(),
        ],
      },
      schema: {
        tags: userTags,
        summary: "Change an admin's name, email or role",
        params: uuidIdParams,
        body: s.updateAdminUserBody,
        response: { 200: envelopeSchema(s.adminUser) },
      },
    },
    async (request) =>
      ok(
        await admin.updateAdminUser(deps, currentUser(request), request.params.id, request.body),
        'Admin user updated',
      ),
  );

  for (const [verb, isActive] of [
    ['deactivate', false],
    ['activate', true],
  ] as const) {
    app.patch(
      `/api/admin/users/:id/${verb}`,
      {
        config: {
          access: access.admin(adminUsersPermissions.UPDATE),
          errors: isActive
            ? [adminErrors.adminUserNotFound(''), adminErrors.grantDenied('')]
            : [
                adminErrors.adminUserNotFound(''),
                adminErrors.cannotDeactivateSelf(),
                adminErrors.grantDenied(''),
                adminErrors.lastSuperadmin(),
              ],
        },
        schema: {
          tags: userTags,
          summary: isActive
            ? 'Let a deactivated admin sign in again'
            : 'Stop an admin from signing in; ends every session at once',
          params: uuidIdParams,
          response: { 200: envelopeSchema(s.adminUser) },
        },
      },
      async (request) =>
        ok(
          await admin.setAdminUserActive(deps, currentUser(request), request.params.id, isActive),
          isActive ? 'Admin user activated' : 'Admin user deactivated',
        ),
    );
  }

  app.delete(
    '/api/admin/users/:id/2fa',
    {
      config: {
        access: access.admin(adminUsersPermissions.UPDATE),
        operation: 'resetAdminUserTwoFactor',
        errors: [adminErrors.adminUserNotFound(''), adminErrors.grantDenied('')],
      },
      schema: {
        tags: userTags,
        summary: "Reset an admin's two-factor sign-in (a lost phone); ends every session of theirs",
        params: uuidIdParams,
        response: { 200: envelopeSchema(s.adminUser) },
      },
    },
    async (request) =>
      ok(
        await admin.resetAdminTwoFactor(deps, currentUser(request), request.params.id),
        'Two-factor sign-in reset',
      ),
  );

  // ----- customers -----
  const customerTags = ['customers'];

  app.get(
    '/api/admin/customers',
    {
      config: { access: access.admin(customersPermissions.READ) },
      schema: {
        tags: customerTags,
        summary: 'Customer accounts; search by name, email or phone',
        querystring: s.customerListQuery,
        response: { 200: listEnvelopeSchema(s.customer) },
      },
    },
    async (request) => {
      const { customers, meta } = await admin.listCustomers(deps, request.query);
      return okWithMeta(customers, meta, 'Customers');
    },
  );

  app.get(
    '/api/admin/customers/:id',
    {
      config: { access: access.admin(customersPermissions.READ), errors: [adminErrors.customerNotFound('')] },
      schema: {
        tags: customerTags,
        summary: 'One customer account',
        params: uuidIdParams,
        response: { 200: envelopeSchema(s.customer) },
      },
    },
    async (request) => ok(await admin.getCustomer(deps, request.params.id), 'Customer'),
  );
}
