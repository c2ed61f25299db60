import { AppError } from '../../platform/http/errors';

export const identityErrors = {
  emailAlreadyExists: () =>
    new AppError(409, 'AUTH_EMAIL_ALREADY_EXISTS', 'An account with this email exists already'),
  roleNameTaken: (name: string) =>
    new AppError(409, 'ROLE_NAME_EXISTS', `A role named ${name} exists already`),
  /** By id on the admin routes, by name where a role is named (seed, admin creation). */
  roleNotFound: (idOrName: number | string) =>
    new AppError(404, 'ROLE_NOT_FOUND', `Role ${idOrName} does not exist`),
};
