// Back-office identity: the permission catalogue, roles, admin accounts and customer accounts.
import { randomBytes, randomInt } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { permissionCatalog } from '../../../src/app';
import { createCustomerAccount, createRole as createIdentityRole } from '../../../src/modules/identity';
import { type AdminDeps, setAdminUserActive } from '../../../src/modules/identity/admin/admin.service';
import type { UserPrincipal } from '../../../src/platform/auth/principal';
import { createTestApp, type TestApp } from '../../helpers/app';
import { type SignedIn, signedInAdmin, signedInCustomer, TEST_PASSWORD } from '../../helpers/factories';
import { lastMailTo } from '../../helpers/mail';

const unique = () => randomBytes(4).toString('hex');
type Headers = Record<string, string>;

describe('admin management', () => {
  let t: TestApp;
  /** A superadmin that reads the activity trail in assertions. */
  let auditor: SignedIn;
  let customer: SignedIn;
  beforeAll(async () => {
    t = await createTestApp();
    auditor = await signedInAdmin(t, { superadmin: true });
    customer = await signedInCustomer(t);
  });
  afterAll(() => t.close());

  const call = (
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    url: string,
    headers: Headers = {},
    payload?: unknown,
  ) =>
    t.app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload: payload as object }) });
  const get = (url: string, headers?: Headers) => call('GET', url, headers);

  /** The activity entries of one record, newest first. */
  async function activityOf(entityType: string, entityId: string | number) {
    const res = await get(
      `/api/admin/activity?entityType=${entityType}&entityId=${entityId}`,
      auditor.headers,
    );
    expect(res.statusCode).toBe(200);
    return res.json().data as Array<{ adminId: string; action: string; summary: string; entityId: string }>;
  }

  /** 401 without a token, 403 AUTH_FORBIDDEN for a customer, 403 AUTH_PERMISSION_DENIED without `permission`. */
  async function expectGuarded(
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    url: string,
    permission: string,
    payload?: unknown,
  ) {
    const none = await call(method, url, {}, payload);
    expect(none.statusCode).toBe(401);
    expect(none.json().errorCode).toBe('AUTH_UNAUTHORIZED');
    const asCustomer = await call(method, url, customer.headers, payload);
    expect(asCustomer.statusCode).toBe(403);
    expect(asCustomer.json().errorCode).toBe('AUTH_FORBIDDEN');
    const other = await signedInAdmin(t, { permissions: ['System_READ'] });
    const denied = await call(method, url, other.headers, payload);
    expect(denied.statusCode).toBe(403);
    expect(denied.json()).toMatchObject({ errorCode: 'AUTH_PERMISSION_DENIED' });
    expect(denied.json().message).toContain(permission);
  }

  /** A role made by an admin holding Roles_CREATE and the codes it grants. */
  async function createRole(body: { name?: string; description?: string; permissions?: string[] } = {}) {
    const admin = await signedInAdmin(t, { permissions: ['Roles_CREATE', ...(body.permissions ?? [])] });
    const res = await call('POST', '/api/admin/roles', admin.headers, { name: `role-${unique()}`, ...body });
    expect(res.statusCode).toBe(201);
    return res.json().data as { id: number; name: string; permissions: string[] };
  }

  async function roleIdOf(name: string): Promise<number> {
    const res = await get(`/api/admin/roles?search=${name}&pagination=false`, auditor.headers);
    return res.json().data.find((r: { name: string }) => r.name === name).id;
  }

  describe('GET /api/admin/permissions', () => {
    it('lists every code the server knows, grouped by module', async () => {
      const admin = await signedInAdmin(t, { permissions: ['Roles_READ'] });
      const res = await get('/api/admin/permissions', admin.headers);
      expect(res.statusCode).toBe(200);
      const groups = res.json().data as Array<{ module: string; codes: string[] }>;
      const byModule = Object.fromEntries(groups.map((g) => [g.module, g.codes]));
      expect(byModule).toMatchObject({
        Roles: ['Roles_CREATE', 'Roles_DELETE', 'Roles_READ', 'Roles_UPDATE'],
        AdminUsers: ['AdminUsers_CREATE', 'AdminUsers_READ', 'AdminUsers_UPDATE'],
        Customers: ['Customers_READ'],
        ActivityLogs: ['ActivityLogs_READ'],
        System: ['System_READ', 'System_UPDATE'],
      });
      expect(new Set(groups.map((g) => g.module)).size).toBe(groups.length);
    });

    it('needs Roles_READ', async () => {
      await expectGuarded('GET', '/api/admin/permissions', 'Roles_READ');
    });
  });

  describe('roles', () => {
    it('POST creates a role with its codes (201) and records the activity', async () => {
      const admin = await signedInAdmin(t, {
        permissions: ['Roles_CREATE', 'Customers_READ', 'System_READ'],
      });
      const name = `Editors ${unique()}`;
      const res = await call('POST', '/api/admin/roles', admin.headers, {
        name: `  ${name} `,
        description: 'Edit content',
        permissions: ['System_READ', 'Customers_READ', 'System_READ'],
      });
      expect(res.statusCode).toBe(201);
      const role = res.json().data;
      expect(role).toEqual({
        id: expect.any(Number),
        name,
        description: 'Edit content',
        permissions: ['Customers_READ', 'System_READ'],
        isBuiltIn: false,
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
      });
      const [entry, ...rest] = await activityOf('role', role.id);
      expect(rest).toHaveLength(0);
      expect(entry).toMatchObject({ adminId: admin.userId, action: 'create', entityId: String(role.id) });
      expect(entry!.summary).toContain(name);
    });

    it('an unknown permission code is 400 VALIDATION_ERROR naming it, and nothing is written', async () => {
      const admin = await signedInAdmin(t, { permissions: ['Roles_CREATE'] });
      const name = `role-${unique()}`;
      const res = await call('POST', '/api/admin/roles', admin.headers, {
        name,
        permissions: ['System_READ', 'Rockets_LAUNCH'],
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({
        errorCode: 'VALIDATION_ERROR',
        details: [{ path: 'permissions.1', message: expect.stringContaining('Rockets_LAUNCH') }],
      });
      const listed = await get(`/api/admin/roles?search=${name}`, auditor.headers);
      expect(listed.json().meta.count).toBe(0);
    });

    it('a missing or blank name is 400 VALIDATION_ERROR', async () => {
      const admin = await signedInAdmin(t, { permissions: ['Roles_CREATE'] });
      for (const body of [{ permissions: [] }, { name: '   ' }, { name: 'x', permissions: 'System_READ' }]) {
        const res = await call('POST', '/api/admin/roles', admin.headers, body);
        expect(res.statusCode).toBe(400);
        expect(res.json().errorCode).toBe('VALIDATION_ERROR');
      }
    });

    it('a taken name, built-in ones included, is 409 ROLE_NAME_EXISTS', async () => {
      const existing = await createRole();
      const admin = await signedInAdmin(t, { permissions: ['Roles_CREATE'] });
      for (const name of [existing.name, 'superadmin', 'customer']) {
        const res = await call('POST', '/api/admin/roles', admin.headers, { name });
        expect(res.statusCode).toBe(409);
        expect(res.json().errorCode).toBe('ROLE_NAME_EXISTS');
      }
    });

    it('POST needs Roles_CREATE', async () => {
      await expectGuarded('POST', '/api/admin/roles', 'Roles_CREATE', { name: `role-${unique()}` });
    });

    it('GET lists with pagination meta and searches by name, taking % and _ literally', async () => {
      const tag = unique();
      for (const suffix of ['a', 'b', 'c']) await createRole({ name: `list_${tag} ${suffix}` });
      await createRole({ name: `list-${tag}` }); // `_` must not match `-`
      const admin = await signedInAdmin(t, { permissions: ['Roles_READ'] });

      const page = await get(`/api/admin/roles?search=list_${tag}&size=2&sort=name&order=asc`, admin.headers);
      expect(page.statusCode).toBe(200);
      expect(page.json().meta).toEqual({ count: 3, page: 1, size: 2 });
      expect(page.json().data.map((r: { name: string }) => r.name)).toEqual([
        `list_${tag} a`,
        `list_${tag} b`,
      ]);
      const second = await get(
        `/api/admin/roles?search=LIST_${tag}&size=2&page=2&sort=name&order=asc`,
        admin.headers,
      );
      expect(second.json().data.map((r: { name: string }) => r.name)).toEqual([`list_${tag} c`]);

      const all = await get(`/api/admin/roles?search=${tag}&pagination=false`, admin.headers);
      expect(all.json().meta).toEqual({ count: 4 });
      expect((await get('/api/admin/roles?search=%25', admin.headers)).json().meta.count).toBe(0);
    });

    it('GET lists superadmin with every code and customer as built in', async () => {
      const admin = await signedInAdmin(t, { permissions: ['Roles_READ'] });
      const res = await get('/api/admin/roles?pagination=false', admin.headers);
      const roles = res.json().data as Array<{ name: string; permissions: string[]; isBuiltIn: boolean }>;
      const superadmin = roles.find((r) => r.name === 'superadmin')!;
      expect(superadmin.isBuiltIn).toBe(true);
      const catalogue = (await get('/api/admin/permissions', auditor.headers)).json().data as Array<{
        codes: string[];
      }>;
      expect(superadmin.permissions).toEqual(catalogue.flatMap((g) => g.codes).sort());
      expect(roles.find((r) => r.name === 'customer')?.isBuiltIn).toBe(true);
    });

    it('GET rejects a bad list query with 400 and needs Roles_READ', async () => {
      const admin = await signedInAdmin(t, { permissions: ['Roles_READ'] });
      for (const query of ['size=101', 'sort=permissions', 'page=0']) {
        const res = await get(`/api/admin/roles?${query}`, admin.headers);
        expect(res.statusCode).toBe(400);
        expect(res.json().errorCode).toBe('VALIDATION_ERROR');
      }
      await expectGuarded('GET', '/api/admin/roles', 'Roles_READ');
    });

    it('GET /:id answers one role; unknown 404 ROLE_NOT_FOUND; a bad id 400', async () => {
      const role = await createRole({ permissions: ['System_READ'] });
      const admin = await signedInAdmin(t, { permissions: ['Roles_READ'] });
      const res = await get(`/api/admin/roles/${role.id}`, admin.headers);
      expect(res.statusCode).toBe(200);
      expect(res.json().data).toMatchObject({ id: role.id, name: role.name, permissions: ['System_READ'] });
      const missing = await get('/api/admin/roles/999999', admin.headers);
      expect(missing.statusCode).toBe(404);
      expect(missing.json().errorCode).toBe('ROLE_NOT_FOUND');
      expect((await get('/api/admin/roles/abc', admin.headers)).json().errorCode).toBe('VALIDATION_ERROR');
      await expectGuarded('GET', `/api/admin/roles/${role.id}`, 'Roles_READ');
    });

    it('PATCH renames and replaces codes; the holders get the new codes on their next request', async () => {
      const role = await createRole({ permissions: ['System_READ'] });
      const holder = await signedInAdmin(t, { permissions: [] });
      // The editor holds the codes it assigns (System_READ) and grants (Customers_READ).
      const editor = await signedInAdmin(t, {
        permissions: ['Roles_UPDATE', 'AdminUsers_UPDATE', 'System_READ', 'Customers_READ'],
      });
      const moved = await call('PATCH', `/api/admin/users/${holder.userId}`, editor.headers, {
        role: role.name,
      });
      expect(moved.statusCode).toBe(200);
      expect((await get('/api/admin/system/info', holder.headers)).statusCode).toBe(200);

      const newName = `renamed-${unique()}`;
      const res = await call('PATCH', `/api/admin/roles/${role.id}`, editor.headers, {
        name: newName,
        description: null,
        permissions: ['Customers_READ'],
      });
      expect(res.statusCode).toBe(200);
      expect(res.json().data).toMatchObject({
        id: role.id,
        name: newName,
        description: null,
        permissions: ['Customers_READ'],
      });

      expect((await get('/api/admin/system/info', holder.headers)).json().errorCode).toBe(
        'AUTH_PERMISSION_DENIED',
      );
      expect((await get('/api/admin/customers', holder.headers)).statusCode).toBe(200);
      // The rename carried over to the account.
      expect((await get(`/api/admin/users/${holder.userId}`, auditor.headers)).json().data.role).toBe(
        newName,
      );

      const [entry] = await activityOf('role', role.id);
      expect(entry).toMatchObject({ adminId: editor.userId, action: 'update' });
      expect(entry!.summary).toContain(role.name);
    });

    it('PATCH with only a description keeps the codes', async () => {
      const role = await createRole({ permissions: ['System_READ'] });
      const editor = await signedInAdmin(t, { permissions: ['Roles_UPDATE'] });
      const res = await call('PATCH', `/api/admin/roles/${role.id}`, editor.headers, {
        description: 'Night shift',
      });
      expect(res.json().data).toMatchObject({
        name: role.name,
        description: 'Night shift',
        permissions: ['System_READ'],
      });
    });

    it('PATCH: superadmin cannot change at all; customer cannot be renamed: 409 ROLE_BUILT_IN', async () => {
      const editor = await signedInAdmin(t, { permissions: ['Roles_UPDATE'] });
      const superadminId = await roleIdOf('superadmin');
      for (const body of [{ description: 'x' }, { permissions: [] }, { name: 'owner' }]) {
        const res = await call('PATCH', `/api/admin/roles/${superadminId}`, editor.headers, body);
        expect(res.statusCode).toBe(409);
        expect(res.json().errorCode).toBe('ROLE_BUILT_IN');
      }
      const customerId = await roleIdOf('customer');
      const rename = await call('PATCH', `/api/admin/roles/${customerId}`, editor.headers, {
        name: 'shoppers',
      });
      expect(rename.statusCode).toBe(409);
      expect(rename.json().errorCode).toBe('ROLE_BUILT_IN');
      expect((await get(`/api/admin/roles/${customerId}`, auditor.headers)).json().data.name).toBe(
        'customer',
      );
    });

    it('PATCH may change the customer role’s codes and description (its own name may be repeated)', async () => {
      // Replacing the set takes ORDERS_REORDER (the seeded default) away, which needs holding it.
      const editor = await signedInAdmin(t, {
        permissions: ['Roles_UPDATE', 'Customers_READ', 'ORDERS_REORDER'],
      });
      const customerId = await roleIdOf('customer');
      const weaker = await signedInAdmin(t, { permissions: ['Roles_UPDATE', 'Customers_READ'] });
      const refused = await call('PATCH', `/api/admin/roles/${customerId}`, weaker.headers, {
        permissions: ['Customers_READ'],
      });
      expect(refused.statusCode).toBe(403);
      expect(refused.json().errorCode).toBe('AUTH_PERMISSION_DENIED');
      const res = await call('PATCH', `/api/admin/roles/${customerId}`, editor.headers, {
        name: 'customer',
        permissions: ['Customers_READ'],
      });
      expect(res.statusCode).toBe(200);
      expect(res.json().data).toMatchObject({
        name: 'customer',
        permissions: ['Customers_READ'],
        isBuiltIn: true,
      });
      const restored = await call('PATCH', `/api/admin/roles/${customerId}`, editor.headers, {
        permissions: ['ORDERS_REORDER'],
      });
      expect(restored.json().data.permissions).toEqual(['ORDERS_REORDER']);
    });

    it('PATCH errors: empty body or unknown code 400, taken name 409, unknown id 404', async () => {
      const role = await createRole();
      const other = await createRole();
      const editor = await signedInAdmin(t, { permissions: ['Roles_UPDATE'] });
      const url = `/api/admin/roles/${role.id}`;
      expect((await call('PATCH', url, editor.headers, {})).json().errorCode).toBe('VALIDATION_ERROR');
      const unknown = await call('PATCH', url, editor.headers, { permissions: ['Nope_READ'] });
      expect(unknown.statusCode).toBe(400);
      expect(unknown.json().details[0].path).toBe('permissions.0');
      const taken = await call('PATCH', url, editor.headers, { name: other.name });
      expect(taken.statusCode).toBe(409);
      expect(taken.json().errorCode).toBe('ROLE_NAME_EXISTS');
      const missing = await call('PATCH', '/api/admin/roles/999999', editor.headers, { description: 'x' });
      expect(missing.statusCode).toBe(404);
      expect(missing.json().errorCode).toBe('ROLE_NOT_FOUND');
      // None of the refused writes left a trace.
      expect(await activityOf('role', role.id)).toHaveLength(1);
      await expectGuarded('PATCH', url, 'Roles_UPDATE', { description: 'x' });
    });

    it('DELETE removes an unused role and records the activity', async () => {
      const role = await createRole({ permissions: ['System_READ'] });
      const admin = await signedInAdmin(t, { permissions: ['Roles_DELETE'] });
      const res = await call('DELETE', `/api/admin/roles/${role.id}`, admin.headers);
      expect(res.statusCode).toBe(200);
      expect(res.json().data).toBeNull();
      expect((await get(`/api/admin/roles/${role.id}`, auditor.headers)).statusCode).toBe(404);
      const [entry] = await activityOf('role', role.id);
      expect(entry).toMatchObject({ adminId: admin.userId, action: 'delete' });
      // The name is free again.
      expect((await createRole({ name: role.name })).name).toBe(role.name);
    });

    it('DELETE of a role an admin holds (even a deactivated one) is 409 ROLE_IN_USE', async () => {
      const role = await createRole();
      const manager = await signedInAdmin(t, {
        permissions: ['AdminUsers_CREATE', 'AdminUsers_UPDATE', 'Roles_DELETE'],
      });
      const created = await call('POST', '/api/admin/users', manager.headers, {
        name: 'Holder',
        email: `holder-${unique()}@example.com`,
        role: role.name,
        password: TEST_PASSWORD,
      });
      const holderId = created.json().data.id;
      await call('PATCH', `/api/admin/users/${holderId}/deactivate`, manager.headers);
      const res = await call('DELETE', `/api/admin/roles/${role.id}`, manager.headers);
      expect(res.statusCode).toBe(409);
      expect(res.json().errorCode).toBe('ROLE_IN_USE');
      expect((await get(`/api/admin/roles/${role.id}`, auditor.headers)).statusCode).toBe(200);
      expect((await activityOf('role', role.id)).map((e) => e.action)).toEqual(['create']);
    });

    it('DELETE of a built-in role is 409 ROLE_BUILT_IN; unknown id 404; needs Roles_DELETE', async () => {
      const admin = await signedInAdmin(t, { permissions: ['Roles_DELETE'] });
      for (const name of ['superadmin', 'customer']) {
        const res = await call('DELETE', `/api/admin/roles/${await roleIdOf(name)}`, admin.headers);
        expect(res.statusCode).toBe(409);
        expect(res.json().errorCode).toBe('ROLE_BUILT_IN');
      }
      const missing = await call('DELETE', '/api/admin/roles/999999', admin.headers);
      expect(missing.statusCode).toBe(404);
      expect(missing.json().errorCode).toBe('ROLE_NOT_FOUND');
      expect((await call('DELETE', '/api/admin/roles/0', admin.headers)).statusCode).toBe(400);
      const role = await createRole();
      await expectGuarded('DELETE', `/api/admin/roles/${role.id}`, 'Roles_DELETE');
    });
  });

  describe('admin users', () => {
    const login = (email: string, password = TEST_PASSWORD) =>
      call('POST', '/api/auth/login/email', {}, { email, password });

    /** An admin (by default a superadmin) created by a superadmin, who may assign any role. */
    async function newAdmin(body: Record<string, unknown> = {}) {
      const manager = await signedInAdmin(t, { superadmin: true });
      const res = await call('POST', '/api/admin/users', manager.headers, {
        name: 'Sita Sharma',
        email: `sita-${unique()}@example.com`,
        role: 'superadmin',
        password: TEST_PASSWORD,
        ...body,
      });
      expect(res.statusCode).toBe(201);
      return { ...(res.json().data as { id: string; email: string; role: string }), manager };
    }

    it('POST with a password creates an admin who can sign in; no secret is answered', async () => {
      const role = await createRole({ permissions: ['System_READ'] });
      const manager = await signedInAdmin(t, { permissions: ['AdminUsers_CREATE', 'System_READ'] });
      const email = `Ram.${unique()}@Example.com`;
      const res = await call('POST', '/api/admin/users', manager.headers, {
        name: 'Ram Thapa',
        email,
        role: role.name,
        password: TEST_PASSWORD,
      });
      expect(res.statusCode).toBe(201);
      const user = res.json().data;
      expect(user).toEqual({
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        name: 'Ram Thapa',
        email: email.toLowerCase(),
        image: null,
        emailVerified: false,
        phone: null,
        phoneVerified: false,
        role: role.name,
        isActive: true,
        lastLoginAt: null,
        twoFactorEnabled: false,
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
      });
      const signedIn = await login(email);
      expect(signedIn.statusCode).toBe(200);
      const headers = { authorization: `Bearer ${signedIn.json().data.tokens.accessToken}` };
      expect((await get('/api/admin/system/info', headers)).statusCode).toBe(200);
      expect(
        (await get(`/api/admin/users/${user.id}`, auditor.headers)).json().data.lastLoginAt,
      ).not.toBeNull();

      const [entry] = await activityOf('admin_user', user.id);
      expect(entry).toMatchObject({ adminId: manager.userId, action: 'create' });
      expect(entry!.summary).toContain(email.toLowerCase());
    });

    it('POST without a password emails an invitation; its code sets the password, then login works', async () => {
      // Only a superadmin may hand out the superadmin role.
      const manager = await signedInAdmin(t, { superadmin: true });
      const email = `invitee-${unique()}@example.com`;
      const res = await call('POST', '/api/admin/users', manager.headers, {
        name: 'Invitee',
        email,
        role: 'superadmin',
      });
      expect(res.statusCode).toBe(201);
      expect(res.json().data).toMatchObject({ email, emailVerified: false, isActive: true });

      // No password exists yet, so no password signs in.
      expect((await login(email, 'anything-at-all')).statusCode).toBe(401);
      const mail = await lastMailTo(t, email);
      expect(mail?.message.subject).toBe('Your back-office account');
      expect(mail?.code).toMatch(/^\d{6}$/);
      // Staff open the link in the back office, which has the screen that redeems it.
      expect(mail?.message.text).toContain(
        `${t.platform.config.PUBLIC_BASE_URL}/admin/reset-password?token=`,
      );
      expect(mail?.token).toBeTruthy();

      const newPassword = 'a-brand-new-password';
      const reset = await call(
        'POST',
        '/api/auth/password/reset',
        {},
        { email, code: mail!.code, newPassword },
      );
      expect(reset.statusCode).toBe(200);
      const signedIn = await login(email, newPassword);
      expect(signedIn.statusCode).toBe(200);
      expect(signedIn.json().data.user).toMatchObject({ email, emailVerified: true });
    });

    it('the invitation link token works as well as the code', async () => {
      const { email } = await newAdmin({ password: undefined });
      const mail = await lastMailTo(t, email);
      const reset = await call(
        'POST',
        '/api/auth/password/reset',
        {},
        { token: mail!.token, newPassword: 'via-the-link-123' },
      );
      expect(reset.statusCode).toBe(200);
      expect((await login(email, 'via-the-link-123')).statusCode).toBe(200);
    });

    it('POST validation: bad email, short password, missing role, role customer: 400 VALIDATION_ERROR', async () => {
      const manager = await signedInAdmin(t, { permissions: ['AdminUsers_CREATE'] });
      const base = { name: 'X', email: `x-${unique()}@example.com`, role: 'superadmin' };
      for (const body of [
        { ...base, email: 'not-an-email' },
        { ...base, password: 'short' },
        { ...base, role: undefined },
        { ...base, name: '' },
        { ...base, role: 'customer' },
      ]) {
        const res = await call('POST', '/api/admin/users', manager.headers, body);
        expect(res.statusCode).toBe(400);
        expect(res.json().errorCode).toBe('VALIDATION_ERROR');
      }
      expect((await get(`/api/admin/users?search=${base.email}`, auditor.headers)).json().meta.count).toBe(0);
    });

    it('POST with an unknown role is 404 ROLE_NOT_FOUND; a taken email 409 AUTH_EMAIL_ALREADY_EXISTS', async () => {
      const manager = await signedInAdmin(t, { superadmin: true });
      const unknown = await call('POST', '/api/admin/users', manager.headers, {
        name: 'X',
        email: `x-${unique()}@example.com`,
        role: `ghost-${unique()}`,
      });
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json().errorCode).toBe('ROLE_NOT_FOUND');

      for (const email of [manager.email.toUpperCase(), customer.email]) {
        const taken = await call('POST', '/api/admin/users', manager.headers, {
          name: 'X',
          email,
          role: 'superadmin',
        });
        expect(taken.statusCode).toBe(409);
        expect(taken.json().errorCode).toBe('AUTH_EMAIL_ALREADY_EXISTS');
      }
      await expectGuarded('POST', '/api/admin/users', 'AdminUsers_CREATE', {
        name: 'X',
        email: `x-${unique()}@example.com`,
        role: 'superadmin',
      });
    });

    it('GET lists admins only, with search by name or email and filters by role and isActive', async () => {
      const role = await createRole();
      const tag = unique();
      const a = await newAdmin({ name: `Anita ${tag}`, role: role.name });
      const b = await newAdmin({ email: `bikash-${tag}@example.com`, role: role.name });
      const c = await newAdmin({ name: `Chandra ${tag}` });
      await call('PATCH', `/api/admin/users/${b.id}/deactivate`, auditor.headers);
      await createCustomerAccount({
        db: t.platform.database.db,
        email: `cust-${tag}@example.com`,
        name: `Cust ${tag}`,
      });
      const reader = await signedInAdmin(t, { permissions: ['AdminUsers_READ'] });
      const ids = async (query: string) => {
        const res = await get(`/api/admin/users?${query}`, reader.headers);
        expect(res.statusCode).toBe(200);
        return (res.json().data as Array<{ id: string }>).map((u) => u.id);
      };

      expect(await ids(`search=${tag}&sort=createdAt&order=asc`)).toEqual([a.id, b.id, c.id]);
      expect(await ids(`search=BIKASH-${tag}`)).toEqual([b.id]);
      expect(await ids(`role=${role.name}&sort=createdAt&order=asc`)).toEqual([a.id, b.id]);
      expect(await ids(`role=${role.name}&isActive=false`)).toEqual([b.id]);
      expect(await ids(`search=${tag}&isActive=true&sort=createdAt&order=desc`)).toEqual([c.id, a.id]);

      // Only c has signed in: never signed in sorts last in either order.
      expect((await login(c.email)).statusCode).toBe(200);
      expect((await ids(`search=${tag}&sort=lastLoginAt&order=desc`))[0]).toBe(c.id);
      expect((await ids(`search=${tag}&sort=lastLoginAt&order=asc`))[0]).toBe(c.id);

      const paged = await get(
        `/api/admin/users?search=${tag}&size=1&page=2&sort=createdAt&order=asc`,
        reader.headers,
      );
      expect(paged.json().meta).toEqual({ count: 3, page: 2, size: 1 });
      expect(paged.json().data[0]).not.toHaveProperty('passwordHash');
      expect(paged.json().data[0].id).toBe(b.id);
    });

    it('GET rejects a bad filter with 400 and needs AdminUsers_READ', async () => {
      const reader = await signedInAdmin(t, { permissions: ['AdminUsers_READ'] });
      for (const query of ['isActive=maybe', 'sort=password', 'size=0']) {
        const res = await get(`/api/admin/users?${query}`, reader.headers);
        expect(res.statusCode).toBe(400);
        expect(res.json().errorCode).toBe('VALIDATION_ERROR');
      }
      await expectGuarded('GET', '/api/admin/users', 'AdminUsers_READ');
    });

    it('GET /:id answers an admin; a customer’s id or an unknown one is 404 ADMIN_USER_NOT_FOUND', async () => {
      const admin = await newAdmin();
      const reader = await signedInAdmin(t, { permissions: ['AdminUsers_READ'] });
      const res = await get(`/api/admin/users/${admin.id}`, reader.headers);
      expect(res.statusCode).toBe(200);
      expect(res.json().data).toMatchObject({ id: admin.id, email: admin.email, isActive: true });
      expect(res.json().data).not.toHaveProperty('passwordHash');
      for (const id of [customer.userId, '01890000-0000-7000-8000-000000000000']) {
        const missing = await get(`/api/admin/users/${id}`, reader.headers);
        expect(missing.statusCode).toBe(404);
        expect(missing.json().errorCode).toBe('ADMIN_USER_NOT_FOUND');
      }
      expect((await get('/api/admin/users/42', reader.headers)).json().errorCode).toBe('VALIDATION_ERROR');
      await expectGuarded('GET', `/api/admin/users/${admin.id}`, 'AdminUsers_READ');
    });

    it('PATCH changes name, email and role, records the activity, and a new email is unverified', async () => {
      const role = await createRole({ permissions: ['Customers_READ'] });
      const target = await signedInAdmin(t, { superadmin: true });
      const admin = { id: target.userId };
      expect((await get(`/api/admin/users/${admin.id}`, auditor.headers)).json().data.emailVerified).toBe(
        true,
      );
      // Only a superadmin may change a superadmin.
      const editor = await signedInAdmin(t, { superadmin: true });
      const email = `moved-${unique()}@example.com`;
      const res = await call('PATCH', `/api/admin/users/${admin.id}`, editor.headers, {
        name: 'Sita K. Sharma',
        email: email.toUpperCase(),
        role: role.name,
      });
      expect(res.statusCode).toBe(200);
      expect(res.json().data).toMatchObject({
        name: 'Sita K. Sharma',
        email,
        role: role.name,
        emailVerified: false,
      });
      const signedIn = await login(email);
      expect(signedIn.statusCode).toBe(200);
      const headers = { authorization: `Bearer ${signedIn.json().data.tokens.accessToken}` };
      expect((await get('/api/admin/customers', headers)).statusCode).toBe(200);
      expect((await get('/api/admin/system/info', headers)).statusCode).toBe(403);

      const [entry] = await activityOf('admin_user', admin.id);
      expect(entry).toMatchObject({ adminId: editor.userId, action: 'update' });
      expect(entry!.summary).toContain(`role from superadmin to ${role.name}`);
    });

    it('PATCH errors: empty body or role customer 400, unknown role 404, taken email 409, not an admin 404', async () => {
      const admin = await newAdmin();
      // The target is a superadmin, which only a superadmin may change.
      const editor = await signedInAdmin(t, { superadmin: true });
      const url = `/api/admin/users/${admin.id}`;
      expect((await call('PATCH', url, editor.headers, {})).json().errorCode).toBe('VALIDATION_ERROR');
      const asCustomer = await call('PATCH', url, editor.headers, { role: 'customer' });
      expect(asCustomer.statusCode).toBe(400);
      expect(asCustomer.json()).toMatchObject({ errorCode: 'VALIDATION_ERROR', details: [{ path: 'role' }] });
      const ghost = await call('PATCH', url, editor.headers, { role: `ghost-${unique()}` });
      expect(ghost.statusCode).toBe(404);
      expect(ghost.json().errorCode).toBe('ROLE_NOT_FOUND');
      const taken = await call('PATCH', url, editor.headers, { email: editor.email });
      expect(taken.statusCode).toBe(409);
      expect(taken.json().errorCode).toBe('AUTH_EMAIL_ALREADY_EXISTS');
      const notAdmin = await call('PATCH', `/api/admin/users/${customer.userId}`, editor.headers, {
        name: 'X',
      });
      expect(notAdmin.statusCode).toBe(404);
      expect(notAdmin.json().errorCode).toBe('ADMIN_USER_NOT_FOUND');
      expect((await get(url, auditor.headers)).json().data).toMatchObject({
        email: admin.email,
        role: 'superadmin',
      });
      expect((await activityOf('admin_user', admin.id)).map((e) => e.action)).toEqual(['create']);
      await expectGuarded('PATCH', url, 'AdminUsers_UPDATE', { name: 'X' });
    });

    it('deactivate ends the sessions at once and refuses login; activate lets the admin sign in again', async () => {
      const target = await signedInAdmin(t, { permissions: ['System_READ'] });
      const other = await login(target.email);
      expect(other.statusCode).toBe(200);
      expect((await get('/api/admin/system/info', target.headers)).statusCode).toBe(200);
      const manager = await signedInAdmin(t, { permissions: ['AdminUsers_UPDATE', 'System_READ'] });

      const res = await call('PATCH', `/api/admin/users/${target.userId}/deactivate`, manager.headers);
      expect(res.statusCode).toBe(200);
      expect(res.json().data).toMatchObject({ id: target.userId, isActive: false });
      const refused = await get('/api/admin/system/info', target.headers);
      expect(refused.statusCode).toBe(401);
      expect(refused.json().errorCode).toBe('AUTH_UNAUTHORIZED');
      const refresh = await call(
        'POST',
        '/api/auth/refresh',
        {},
        { refreshToken: other.json().data.tokens.refreshToken },
      );
      expect(refresh.statusCode).toBe(401);
      const denied = await login(target.email);
      expect(denied.statusCode).toBe(401);
      expect(denied.json().errorCode).toBe('AUTH_INVALID_CREDENTIALS');

      // Repeating it answers the account as it is and records nothing new.
      const again = await call('PATCH', `/api/admin/users/${target.userId}/deactivate`, manager.headers);
      expect(again.statusCode).toBe(200);
      expect(again.json().data.isActive).toBe(false);

      const activated = await call('PATCH', `/api/admin/users/${target.userId}/activate`, manager.headers);
      expect(activated.statusCode).toBe(200);
      expect(activated.json().data.isActive).toBe(true);
      // Sessions ended by the deactivation stay ended; a new login works.
      expect((await get('/api/admin/system/info', target.headers)).statusCode).toBe(401);
      const back = await login(target.email);
      expect(back.statusCode).toBe(200);
      const headers = { authorization: `Bearer ${back.json().data.tokens.accessToken}` };
      expect((await get('/api/admin/system/info', headers)).statusCode).toBe(200);

      const entries = await activityOf('admin_user', target.userId);
      expect(entries.map((e) => e.action)).toEqual(['activate', 'deactivate']);
      expect(entries.every((e) => e.adminId === manager.userId)).toBe(true);
    });

    it('an admin cannot deactivate itself: 409 ADMIN_CANNOT_DEACTIVATE_SELF', async () => {
      const manager = await signedInAdmin(t, { permissions: ['AdminUsers_UPDATE'] });
      const res = await call('PATCH', `/api/admin/users/${manager.userId}/deactivate`, manager.headers);
      expect(res.statusCode).toBe(409);
      expect(res.json().errorCode).toBe('ADMIN_CANNOT_DEACTIVATE_SELF');
      expect((await get('/api/auth/me', manager.headers)).statusCode).toBe(200);
    });

    it('activate and deactivate: a customer’s or unknown id 404, a bad id 400, need AdminUsers_UPDATE', async () => {
      const manager = await signedInAdmin(t, { permissions: ['AdminUsers_UPDATE'] });
      const target = await newAdmin();
      for (const verb of ['activate', 'deactivate']) {
        const res = await call('PATCH', `/api/admin/users/${customer.userId}/${verb}`, manager.headers);
        expect(res.statusCode).toBe(404);
        expect(res.json().errorCode).toBe('ADMIN_USER_NOT_FOUND');
        expect((await call('PATCH', `/api/admin/users/nope/${verb}`, manager.headers)).statusCode).toBe(400);
        await expectGuarded('PATCH', `/api/admin/users/${target.id}/${verb}`, 'AdminUsers_UPDATE');
      }
      // The customer was not touched.
      expect((await get('/api/mobile/auth/me', customer.headers)).statusCode).toBe(200);
    });
  });

  describe('who may grant what', () => {
    it('changing or (de)activating an admin needs every code that admin holds (no takeover by email)', async () => {
      const strong = await signedInAdmin(t, {
        permissions: ['System_READ', 'System_UPDATE', 'Roles_CREATE'],
      });
      const weak = await signedInAdmin(t, { permissions: ['AdminUsers_UPDATE'] });
      const takeover = await call('PATCH', `/api/admin/users/${strong.userId}`, weak.headers, {
        email: `attacker-${unique()}@example.com`,
      });
      expect(takeover.statusCode).toBe(403);
      expect(takeover.json().errorCode).toBe('AUTH_PERMISSION_DENIED');
      const deactivate = await call('PATCH', `/api/admin/users/${strong.userId}/deactivate`, weak.headers);
      expect(deactivate.statusCode).toBe(403);
      const unchanged = await get(`/api/admin/users/${strong.userId}`, auditor.headers);
      expect(unchanged.json().data).toMatchObject({ email: strong.email, isActive: true });

      const peer = await signedInAdmin(t, {
        permissions: ['AdminUsers_UPDATE', 'System_READ', 'System_UPDATE', 'Roles_CREATE'],
      });
      const allowed = await call('PATCH', `/api/admin/users/${strong.userId}`, peer.headers, {
        name: 'Renamed',
      });
      expect(allowed.statusCode).toBe(200);
    });

    /** The activity entries one admin wrote, newest first. */
    async function activityBy(adminId: string) {
      const res = await get(`/api/admin/activity?adminId=${adminId}`, auditor.headers);
      expect(res.statusCode).toBe(200);
      return res.json().data as Array<{ action: string; entityType: string }>;
    }

    /** Every code of the catalogue: an admin holding them all is still not a superadmin. */
    async function everyCode(): Promise<string[]> {
      const groups = (await get('/api/admin/permissions', auditor.headers)).json().data as Array<{
        codes: string[];
      }>;
      return groups.flatMap((g) => g.codes);
    }

    function expectGrantDenied(
      res: { statusCode: number; json(): { errorCode: string; message: string } },
      code: string,
    ) {
      expect(res.statusCode).toBe(403);
      expect(res.json().errorCode).toBe('AUTH_PERMISSION_DENIED');
      expect(res.json().message).toContain(code);
    }

    const adminBody = (role: string) => ({
      name: 'Granted',
      email: `granted-${unique()}@example.com`,
      role,
      password: TEST_PASSWORD,
    });

    it('creating a role with a code the actor does not hold is 403 AUTH_PERMISSION_DENIED; nothing is written', async () => {
      const actor = await signedInAdmin(t, { permissions: ['Roles_CREATE', 'System_READ'] });
      const name = `escalate-${unique()}`;
      for (const [permissions, missing] of [
        [['System_READ', 'System_UPDATE'], 'System_UPDATE'],
        [['Roles_DELETE'], 'Roles_DELETE'],
        [['AdminUsers_UPDATE', 'Roles_CREATE'], 'AdminUsers_UPDATE'],
      ] as const) {
        const res = await call('POST', '/api/admin/roles', actor.headers, { name, permissions });
        expectGrantDenied(res, missing);
      }
      expect((await get(`/api/admin/roles?search=${name}`, auditor.headers)).json().meta.count).toBe(0);
      expect(await activityBy(actor.userId)).toEqual([]);
    });

    it('creating a role with codes the actor holds is 201; a superadmin may grant every code', async () => {
      const actor = await signedInAdmin(t, {
        permissions: ['Roles_CREATE', 'System_READ', 'Customers_READ'],
      });
      const res = await call('POST', '/api/admin/roles', actor.headers, {
        name: `held-${unique()}`,
        permissions: ['System_READ', 'Roles_CREATE', 'Customers_READ'],
      });
      expect(res.statusCode).toBe(201);
      expect(res.json().data.permissions).toEqual(['Customers_READ', 'Roles_CREATE', 'System_READ']);
      expect((await activityBy(actor.userId)).map((e) => e.action)).toEqual(['create']);

      const codes = await everyCode();
      const boss = await signedInAdmin(t, { superadmin: true });
      const all = await call('POST', '/api/admin/roles', boss.headers, {
        name: `everything-${unique()}`,
        permissions: codes,
      });
      expect(all.statusCode).toBe(201);
      expect(all.json().data.permissions).toEqual([...codes].sort());
    });

    it('updating a role with a code the actor does not hold is 403; the role and its trail are unchanged', async () => {
      const role = await createRole({ permissions: ['Customers_READ'] });
      const actor = await signedInAdmin(t, { permissions: ['Roles_UPDATE', 'Customers_READ'] });
      const res = await call('PATCH', `/api/admin/roles/${role.id}`, actor.headers, {
        name: `escalated-${unique()}`,
        description: 'more',
        permissions: ['Customers_READ', 'System_UPDATE'],
      });
      expectGrantDenied(res, 'System_UPDATE');
      expect((await get(`/api/admin/roles/${role.id}`, auditor.headers)).json().data).toMatchObject({
        name: role.name,
        description: null,
        permissions: ['Customers_READ'],
      });
      // `permissions` replaces the set, so a code it lacks cannot even be kept.
      const kept = await createRole({ permissions: ['Customers_READ', 'System_READ'] });
      const keep = await call('PATCH', `/api/admin/roles/${kept.id}`, actor.headers, {
        permissions: ['Customers_READ', 'System_READ'],
      });
      expectGrantDenied(keep, 'System_READ');
      expect((await activityOf('role', kept.id)).map((e) => e.action)).toEqual(['create']);
      expect((await activityOf('role', role.id)).map((e) => e.action)).toEqual(['create']);
      expect(await activityBy(actor.userId)).toEqual([]);

      // Codes it holds it may grant.
      const held = await call('PATCH', `/api/admin/roles/${role.id}`, actor.headers, {
        permissions: ['Customers_READ', 'Roles_UPDATE'],
      });
      expect(held.statusCode).toBe(200);
      expect(held.json().data.permissions).toEqual(['Customers_READ', 'Roles_UPDATE']);
      expect((await activityOf('role', role.id)).map((e) => e.action)).toEqual(['update', 'create']);
    });

    it('creating an admin with a role holding a code the actor lacks is 403; holding it, 201', async () => {
      const role = await createRole({ permissions: ['System_READ', 'System_UPDATE'] });
      const actor = await signedInAdmin(t, { permissions: ['AdminUsers_CREATE', 'System_READ'] });
      const body = adminBody(role.name);
      expectGrantDenied(await call('POST', '/api/admin/users', actor.headers, body), 'System_UPDATE');
      expect((await get(`/api/admin/users?search=${body.email}`, auditor.headers)).json().meta.count).toBe(0);
      expect(await activityBy(actor.userId)).toEqual([]);

      const holder = await signedInAdmin(t, {
        permissions: ['AdminUsers_CREATE', 'System_READ', 'System_UPDATE'],
      });
      const created = await call('POST', '/api/admin/users', holder.headers, body);
      expect(created.statusCode).toBe(201);
      expect(created.json().data).toMatchObject({ email: body.email, role: role.name });
    });

    it('changing an admin’s role to one holding a code the actor lacks is 403; holding it, 200', async () => {
      const role = await createRole({ permissions: ['Customers_READ', 'System_UPDATE'] });
      const target = await signedInAdmin(t, { permissions: [] });
      const before = (await get(`/api/admin/users/${target.userId}`, auditor.headers)).json().data;
      const actor = await signedInAdmin(t, { permissions: ['AdminUsers_UPDATE', 'Customers_READ'] });
      const url = `/api/admin/users/${target.userId}`;
      expectGrantDenied(await call('PATCH', url, actor.headers, { role: role.name }), 'System_UPDATE');
      // A role that cannot be assigned at all is answered as such first.
      const ghost = await call('PATCH', url, actor.headers, { role: `ghost-${unique()}` });
      expect(ghost.json().errorCode).toBe('ROLE_NOT_FOUND');
      const asCustomer = await call('PATCH', url, actor.headers, { role: 'customer' });
      expect(asCustomer.json()).toMatchObject({ errorCode: 'VALIDATION_ERROR', details: [{ path: 'role' }] });
      expect((await get(url, auditor.headers)).json().data.role).toBe(before.role);
      expect(await activityOf('admin_user', target.userId)).toEqual([]);
      // The holder keeps its codes: it still may not read customers.
      expect((await get('/api/admin/customers', target.headers)).statusCode).toBe(403);

      const holder = await signedInAdmin(t, {
        permissions: ['AdminUsers_UPDATE', 'Customers_READ', 'System_UPDATE'],
      });
      const moved = await call('PATCH', url, holder.headers, { role: role.name });
      expect(moved.statusCode).toBe(200);
      expect(moved.json().data.role).toBe(role.name);
      expect((await get('/api/admin/customers', target.headers)).statusCode).toBe(200);
    });

    it('only a superadmin assigns the superadmin role, even against an admin holding every code', async () => {
      const actor = await signedInAdmin(t, { permissions: await everyCode() });
      const body = adminBody('superadmin');
      expectGrantDenied(await call('POST', '/api/admin/users', actor.headers, body), 'superadmin');
      expect((await get(`/api/admin/users?search=${body.email}`, auditor.headers)).json().meta.count).toBe(0);
      const target = await signedInAdmin(t, { permissions: ['System_READ'] });
      const url = `/api/admin/users/${target.userId}`;
      expectGrantDenied(await call('PATCH', url, actor.headers, { role: 'superadmin' }), 'superadmin');
      expect((await get(url, auditor.headers)).json().data.role).not.toBe('superadmin');
      expect(await activityBy(actor.userId)).toEqual([]);

      const boss = await signedInAdmin(t, { superadmin: true });
      const created = await call('POST', '/api/admin/users', boss.headers, body);
      expect(created.statusCode).toBe(201);
      expect(created.json().data.role).toBe('superadmin');
      const promoted = await call('PATCH', url, boss.headers, { role: 'superadmin' });
      expect(promoted.statusCode).toBe(200);
      expect(promoted.json().data.role).toBe('superadmin');
    });

    it('only a superadmin changes, deactivates or activates a superadmin', async () => {
      const actor = await signedInAdmin(t, { permissions: await everyCode() });
      const target = await signedInAdmin(t, { superadmin: true });
      const url = `/api/admin/users/${target.userId}`;
      const role = await createRole();
      for (const body of [
        { name: 'Demoted' },
        { email: `taken-over-${unique()}@example.com` },
        { role: role.name },
      ]) {
        expectGrantDenied(await call('PATCH', url, actor.headers, body), 'superadmin');
      }
      expectGrantDenied(await call('PATCH', `${url}/deactivate`, actor.headers), 'superadmin');
      expect((await get(url, auditor.headers)).json().data).toMatchObject({
        name: 'Test Admin',
        email: target.email,
        role: 'superadmin',
        isActive: true,
      });
      expect((await get('/api/auth/me', target.headers)).statusCode).toBe(200);

      // Deactivated by a superadmin, it stays so: activating it is a superadmin's call too.
      expect((await call('PATCH', `${url}/deactivate`, auditor.headers)).statusCode).toBe(200);
      expectGrantDenied(await call('PATCH', `${url}/activate`, actor.headers), 'superadmin');
      expect((await get(url, auditor.headers)).json().data.isActive).toBe(false);
      expect(await activityBy(actor.userId)).toEqual([]);

      const activated = await call('PATCH', `${url}/activate`, auditor.headers);
      expect(activated.statusCode).toBe(200);
      expect(activated.json().data.isActive).toBe(true);
      const renamed = await call('PATCH', url, auditor.headers, { name: 'Renamed by a superadmin' });
      expect(renamed.statusCode).toBe(200);
      expect(renamed.json().data.name).toBe('Renamed by a superadmin');
    });

    it('the last active superadmin cannot be deactivated or demoted: 409 ADMIN_LAST_SUPERADMIN', async () => {
      // A database of its own, so the superadmins of the other tests do not count.
      const fresh = await createTestApp();
      try {
        const inject = (method: 'GET' | 'PATCH', url: string, headers: Headers, payload?: object) =>
          fresh.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
        const a = await signedInAdmin(fresh, { superadmin: true });
        const b = await signedInAdmin(fresh, { superadmin: true });
        const active = await inject('GET', '/api/admin/users?role=superadmin&isActive=true', a.headers);
        expect(active.json().meta.count).toBe(2);
        const role = await createIdentityRole({
          db: fresh.platform.database.db,
          name: `former-${unique()}`,
          permissions: [],
        });

        // Two active superadmins: one may deactivate the other.
        const deactivated = await inject('PATCH', `/api/admin/users/${b.userId}/deactivate`, a.headers);
        expect(deactivated.statusCode).toBe(200);
        expect(deactivated.json().data.isActive).toBe(false);

        // a is the last one now: it may not demote itself (nor deactivate itself).
        const demoted = await inject('PATCH', `/api/admin/users/${a.userId}`, a.headers, { role: role.name });
        expect(demoted.statusCode).toBe(409);
        expect(demoted.json().errorCode).toBe('ADMIN_LAST_SUPERADMIN');
        const self = await inject('PATCH', `/api/admin/users/${a.userId}/deactivate`, a.headers);
        expect(self.json().errorCode).toBe('ADMIN_CANNOT_DEACTIVATE_SELF');

        // Any other superadmin counts itself, so over HTTP only a request that passed its access
        // check just before its own holder was deactivated can reach the rule: b's, here.
        const deps: AdminDeps = {
          db: fresh.platform.database.db,
          authenticator: fresh.platform.authenticator,
          clock: fresh.platform.clock,
          cache: fresh.platform.cache,
          counters: fresh.platform.counters,
          tokens: fresh.platform.tokens,
          mail: fresh.platform.outgoing.mail,
          sms: fresh.platform.outgoing.sms,
          config: fresh.platform.config,
          log: fresh.platform.log,
          permissionCatalog,
          realtime: fresh.platform.realtime,
        };
        const stale: UserPrincipal = {
          actor: 'admin',
          userId: b.userId,
          sessionId: b.tokens.sessionId,
          role: 'superadmin',
          permissions: new Set(permissionCatalog.flatMap((g) => g.codes)),
        };
        await expect(setAdminUserActive(deps, stale, a.userId, false)).rejects.toMatchObject({
          statusCode: 409,
          errorCode: 'ADMIN_LAST_SUPERADMIN',
        });

        const me = await inject('GET', '/api/auth/me', a.headers);
        expect(me.statusCode).toBe(200);
        expect(me.json().data).toMatchObject({ role: 'superadmin' });
        const trail = await inject(
          'GET',
          `/api/admin/activity?entityType=admin_user&entityId=${a.userId}`,
          a.headers,
        );
        expect(trail.json().data).toEqual([]);

        // With b active again, a may step down.
        expect((await inject('PATCH', `/api/admin/users/${b.userId}/activate`, a.headers)).statusCode).toBe(
          200,
        );
        const stepped = await inject('PATCH', `/api/admin/users/${a.userId}`, a.headers, { role: role.name });
        expect(stepped.statusCode).toBe(200);
        expect(stepped.json().data.role).toBe(role.name);
      } finally {
        await fresh.close();
      }
    });
  });

  describe('customers', () => {
    it('GET lists customers only, searching name, email and phone', async () => {
      // A letter first, so the tag can never be part of a phone number.
      const tag = `q${unique()}`;
      const db = t.platform.database.db;
      const asha = await createCustomerAccount({ db, email: `asha-${tag}@example.com`, name: `Asha ${tag}` });
      const bina = await createCustomerAccount({
        db,
        email: `bina-${unique()}@example.com`,
        name: 'Bina Gurung',
        phone: `+97798${randomInt(10_000_000, 100_000_000)}`,
      });
      await signedInAdmin(t, { email: `admin-${tag}@example.com` });
      const reader = await signedInAdmin(t, { permissions: ['Customers_READ'] });
      const ids = async (query: string) => {
        const res = await get(`/api/admin/customers?${query}`, reader.headers);
        expect(res.statusCode).toBe(200);
        return (res.json().data as Array<{ id: string }>).map((c) => c.id);
      };
      expect(await ids(`search=${tag}`)).toEqual([asha.id]);
      expect(await ids(`search=ASHA-${tag}@EXAMPLE`)).toEqual([asha.id]);
      expect(await ids(`search=${encodeURIComponent(bina.phone!)}`)).toEqual([bina.id]);

      const res = await get(`/api/admin/customers?search=${tag}`, reader.headers);
      expect(res.json().meta).toEqual({ count: 1, page: 1, size: 20 });
      expect(res.json().data[0]).toEqual({
        id: asha.id,
        name: `Asha ${tag}`,
        email: `asha-${tag}@example.com`,
        image: null,
        emailVerified: false,
        phone: null,
        phoneVerified: false,
        role: 'customer',
        isActive: true,
        lastLoginAt: null,
        deletionScheduledAt: null,
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
      });
    });

    it('GET paginates, and rejects a bad query with 400', async () => {
      const db = t.platform.database.db;
      const tag = unique();
      for (const n of [1, 2, 3]) {
        await createCustomerAccount({ db, email: `page-${n}-${tag}@example.com`, name: `Page ${n} ${tag}` });
      }
      const reader = await signedInAdmin(t, { permissions: ['Customers_READ'] });
      const res = await get(
        `/api/admin/customers?search=${tag}&size=2&page=2&sort=name&order=asc`,
        reader.headers,
      );
      expect(res.json().meta).toEqual({ count: 3, page: 2, size: 2 });
      expect(res.json().data.map((c: { name: string }) => c.name)).toEqual([`Page 3 ${tag}`]);
      const all = await get('/api/admin/customers?pagination=false', reader.headers);
      expect(all.json().data.length).toBe(all.json().meta.count);
      expect(all.json().data.every((c: { role: string }) => c.role === 'customer')).toBe(true);
      expect((await get('/api/admin/customers?order=up', reader.headers)).json().errorCode).toBe(
        'VALIDATION_ERROR',
      );
      await expectGuarded('GET', '/api/admin/customers', 'Customers_READ');
    });

    it('GET /:id answers a customer; an admin’s id or an unknown one is 404 CUSTOMER_NOT_FOUND', async () => {
      const reader = await signedInAdmin(t, { permissions: ['Customers_READ'] });
      const res = await get(`/api/admin/customers/${customer.userId}`, reader.headers);
      expect(res.statusCode).toBe(200);
      expect(res.json().data).toMatchObject({ id: customer.userId, email: customer.email, role: 'customer' });
      expect(res.json().data).not.toHaveProperty('passwordHash');
      for (const id of [reader.userId, '01890000-0000-7000-8000-000000000000']) {
        const missing = await get(`/api/admin/customers/${id}`, reader.headers);
        expect(missing.statusCode).toBe(404);
        expect(missing.json().errorCode).toBe('CUSTOMER_NOT_FOUND');
      }
      expect((await get('/api/admin/customers/12', reader.headers)).json().errorCode).toBe(
        'VALIDATION_ERROR',
      );
      await expectGuarded('GET', `/api/admin/customers/${customer.userId}`, 'Customers_READ');
    });
  });
});
