import { AppError } from '../../../platform/http/errors';

// docs/decisions.md, "Signed-in devices".
export const sessionErrors = {
  // The id is not echoed: the answer must not tell whether it is someone else's session.
  notFound: () =>
    new AppError(404, 'AUTH_SESSION_NOT_FOUND', 'No signed-in device of this account has this id'),
};
