// Reads the staff screens share: the roles an admin can be given, and admins' names by id (the
// activity log and the support inbox name admins by id only).
import type { components } from '@pasal/client';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { isPasalError } from '../../lib/api-errors';
import { useSession } from '../../session/session';

export type AdminUser = components['schemas']['AdminUser'];
export type Role = components['schemas']['Role'];

/** The role customers hold: never given to an admin (the API refuses it). */
const CUSTOMER_ROLE = 'customer';

/** Every admin role, by name, when the admin may read roles; else undefined. */
export function useAdminRoles() {
  const { t } = useTranslation('staff');
  const { client, can } = useSession();
  const roles = useQuery({
    queryKey: ['staff', 'roles', 'all'],
    queryFn: () =>
      client.get('/api/admin/roles', {
        params: { query: { pagination: false, sort: 'name', order: 'asc' } },
      }),
    enabled: can('Roles_READ'),
    meta: { action: t('roles.action') },
  });
  return roles.data?.filter((role) => role.name !== CUSTOMER_ROLE);
}

/** Every admin account (active or not), when the admin may read them: for names by id. */
export function useAllAdmins() {
  const { t } = useTranslation('staff');
  const { client, can } = useSession();
  const admins = useQuery({
    queryKey: ['staff', 'admins', 'all'],
    queryFn: () =>
      client.get('/api/admin/users', {
        params: { query: { pagination: false, sort: 'name', order: 'asc' } },
      }),
    enabled: can('AdminUsers_READ'),
    staleTime: 5 * 60_000,
    meta: { action: t('admins.action') },
  });
  return admins.data;
}

/** The codes of the staff routes this area words itself (docs/api-notes.md, "Admin management"). */
const STAFF_CODES = [
  'ROLE_BUILT_IN',
  'ROLE_IN_USE',
  'ROLE_NOT_FOUND',
  'ADMIN_USER_NOT_FOUND',
  'ADMIN_CANNOT_DEACTIVATE_SELF',
  'ADMIN_LAST_SUPERADMIN',
] as const;

/** The area's wording of a staff error code, or null for a code `describeError` handles. */
export function staffErrorKey(error: unknown): string | null {
  if (!isPasalError(error)) return null;
  return (STAFF_CODES as readonly string[]).includes(error.errorCode)
    ? `staff:errorCodes.${error.errorCode}`
    : null;
}
