import { AppError } from '../../../platform/http/errors';

// The codes of the interface and of docs/decisions.md ("Accounts and sessions").
export const authErrors = {
  invalidCredentials: () => new AppError(401, 'AUTH_INVALID_CREDENTIALS', 'Email or password is not correct'),
  emailNotVerified: () =>
    new AppError(403, 'AUTH_EMAIL_NOT_VERIFIED', 'Verify your email address before signing in'),
  emailVerificationPending: () =>
    new AppError(
      409,
      'AUTH_EMAIL_VERIFICATION_PENDING',
      'An account with this email is waiting for verification; ask for a new verification email',
    ),
  accountPendingDeletion: () =>
    new AppError(409, 'ACCOUNT_PENDING_DELETION', 'The account with this email is scheduled for deletion'),
  currentPasswordRequired: () =>
    new AppError(400, 'AUTH_CURRENT_PASSWORD_REQUIRED', 'The current password is required to change it'),
  resetTokenInvalid: () =>
    new AppError(400, 'AUTH_RESET_TOKEN_INVALID', 'The reset link or code is not valid or has expired'),
  emailVerificationInvalid: () =>
    new AppError(
      400,
      'AUTH_EMAIL_VERIFICATION_INVALID',
      'The verification link or code is not valid or has expired',
    ),
  phoneVerificationInvalid: () =>
    new AppError(400, 'AUTH_PHONE_VERIFICATION_INVALID', 'The verification code is not valid or has expired'),
  refreshTokenInvalid: () =>
    new AppError(401, 'AUTH_REFRESH_TOKEN_INVALID', 'The refresh token is not valid or has expired'),
  refreshTokenReused: () =>
    new AppError(
      401,
      'AUTH_REFRESH_TOKEN_REUSED',
      'The refresh token was used already; the session has ended',
    ),
};
