import { AppError } from '../../platform/http/errors';

export const identityErrors = {
  emailAlreadyExists: () =>
    new AppError(409, 'AUTH_EMAIL_ALREADY_EXISTS', 'An account with this email exists already'),
  roleNameTaken: (name: string) =>
    new AppError(409, 'ROLE_NAME_EXISTS', `A role named ${name} exists already`),
  roleNotFound: (name: string) => new AppError(404, 'ROLE_NOT_FOUND', `Role ${name} does not exist`),
};
