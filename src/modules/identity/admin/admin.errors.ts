import { AppError, httpErrors } from '../../../platform/http/errors';

// Codes of the back office's identity routes beyond identity.errors.ts (docs/api-notes.md,
// "Admin management"); ROLE_NOT_FOUND is identity.errors.ts's, VALIDATION_ERROR and
// AUTH_PERMISSION_DENIED the platform's.
export const adminErrors = {
  roleBuiltIn: (name: string, what: string) =>
    new AppError(409, 'ROLE_BUILT_IN', `The built-in role ${name} cannot be ${what}`),
  roleInUse: (name: string) =>
    new AppError(409, 'ROLE_IN_USE', `Role ${name} is still assigned to an admin; reassign them first`),
  customerRoleNotAssignable: () =>
    httpErrors.validation([{ path: 'role', message: 'customer is not an admin role', location: 'body' }]),
  adminUserNotFound: (id: string) =>
    new AppError(404, 'ADMIN_USER_NOT_FOUND', `Admin user ${id} does not exist`),
  cannotDeactivateSelf: () =>
    new AppError(409, 'ADMIN_CANNOT_DEACTIVATE_SELF', 'An admin cannot deactivate its own account'),
  grantDenied: (what: string) =>
    httpErrors.permissionDenied(what, `Only an admin holding ${what} may grant or change it`),
  lastSuperadmin: () =>
    new AppError(409, 'ADMIN_LAST_SUPERADMIN', 'The last active superadmin cannot be deactivated or demoted'),
  customerNotFound: (id: string) => new AppError(404, 'CUSTOMER_NOT_FOUND', `Customer ${id} does not exist`),
};
