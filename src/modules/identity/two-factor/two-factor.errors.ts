import { AppError } from '../../../platform/http/errors';

// The codes of docs/decisions.md, "Staff second factor and signed-in devices".
export const twoFactorErrors = {
  alreadyEnabled: () =>
    new AppError(409, 'AUTH_2FA_ALREADY_ENABLED', 'Two-factor sign-in is already on; turn it off first'),
  /** On the enrolment routes (the caller is signed in): 400. */
  codeInvalid: () => new AppError(400, 'AUTH_2FA_CODE_INVALID', 'The code is not valid'),
  /** On the sign-in step (the caller is not signed in yet): 401. */
  signInCodeInvalid: () => new AppError(401, 'AUTH_2FA_CODE_INVALID', 'The code is not valid'),
  setupRequired: () =>
    new AppError(
      400,
      'AUTH_2FA_SETUP_REQUIRED',
      'Two-factor sign-in is not set up: start with POST /api/auth/2fa/totp/setup',
    ),
  challengeInvalid: () =>
    new AppError(
      401,
      'AUTH_2FA_CHALLENGE_INVALID',
      'The sign-in has expired or was already used; sign in with your password again',
    ),
};
