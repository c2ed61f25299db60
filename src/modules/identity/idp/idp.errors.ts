import { AppError } from '../../../platform/http/errors';

// The codes of docs/decisions.md ("Identity provider (customers)") and those docs/api-notes.md adds.
export const idpErrors = {
  notConfigured: () =>
    new AppError(404, 'AUTH_IDP_NOT_CONFIGURED', 'Sign-in with an identity provider is not configured'),
  unavailable: () =>
    new AppError(502, 'AUTH_IDP_UNAVAILABLE', 'The identity provider cannot be reached; try again later'),
  redirectNotAllowed: () =>
    new AppError(400, 'AUTH_IDP_REDIRECT_NOT_ALLOWED', 'This redirect_uri is not an allowed sign-in target'),
  stateInvalid: () =>
    new AppError(400, 'AUTH_IDP_STATE_INVALID', 'The sign-in state is not valid, has expired or was used'),
  codeInvalid: () =>
    new AppError(400, 'AUTH_IDP_CODE_INVALID', 'The sign-in code is not valid, has expired or was used'),
  emailRequired: () =>
    new AppError(400, 'AUTH_IDP_EMAIL_REQUIRED', 'The identity provider did not share an email address'),
  emailNotVerified: () =>
    new AppError(
      403,
      'AUTH_IDP_EMAIL_NOT_VERIFIED',
      'The identity provider says this email address is not verified',
    ),
  adminAccount: () =>
    new AppError(
      401,
      'AUTH_IDP_ADMIN_ACCOUNT',
      'This email belongs to a staff account, which signs in with email and password',
    ),
  accountDisabled: () => new AppError(403, 'AUTH_IDP_ACCOUNT_DISABLED', 'This account is deactivated'),
};

/** Codes the callback puts in `error=` of its redirect to the frontend (never a JSON body). */
export const idpRedirectErrors = {
  /** The provider answered with an error, or its code or ID token did not pass the checks. */
  providerError: 'AUTH_IDP_PROVIDER_ERROR',
  /** The person declined at the provider (`error=access_denied`). */
  accessDenied: 'AUTH_IDP_ACCESS_DENIED',
  /** The provider's discovery document could not be read. */
  unavailable: 'AUTH_IDP_UNAVAILABLE',
} as const;
export type IdpRedirectError = (typeof idpRedirectErrors)[keyof typeof idpRedirectErrors];
