import { AppError } from '../../../platform/http/errors';

// Codes of the back office's identity routes beyond identity.errors.ts (docs/api-notes.md,
// "Admin management").
export const adminErrors = {
  roleNotFound: (id: number) => new AppError(404, 'ROLE_NOT_FOUND', `Role ${id} does not exist`),
  roleNameNotFound: (name: string) => new AppError(404, 'ROLE_NOT_FOUND', `Role ${name} does not exist`),
  roleBuiltIn: (name: string, what: string) =>
    new AppError(409, 'ROLE_BUILT_IN', `The built-in role ${name} cannot be ${what}`),
  roleInUse: (name: string) =>
    new AppError(409, 'ROLE_IN_USE', `Role ${name} is still assigned to an admin; reassign them first`),
  customerRoleNotAssignable: () =>
    new AppError(400, 'VALIDATION_ERROR', 'The request is not valid', {
      details: [{ path: 'role', message: 'customer is not an admin role', location: 'body' }],
    }),
  adminUserNotFound: (id: string) =>
    new AppError(404, 'ADMIN_USER_NOT_FOUND', `Admin user ${id} does not exist`),
  cannotDeactivateSelf: () =>
    new AppError(409, 'ADMIN_CANNOT_DEACTIVATE_SELF', 'An admin cannot deactivate its own account'),
  grantDenied: (what: string) =>
    new AppError(403, 'AUTH_PERMISSION_DENIED', `Only an admin holding ${what} may grant or change it`),
  lastSuperadmin: () =>
    new AppError(409, 'ADMIN_LAST_SUPERADMIN', 'The last active superadmin cannot be deactivated or demoted'),
  customerNotFound: (id: string) => new AppError(404, 'CUSTOMER_NOT_FOUND', `Customer ${id} does not exist`),
};
