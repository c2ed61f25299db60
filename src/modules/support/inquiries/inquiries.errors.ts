import { AppError } from '../../../platform/http/errors';

export const inquiryErrors = {
  notFound: () => new AppError(404, 'SUPPORT_INQUIRY_NOT_FOUND', 'Support inquiry not found'),
  accessDenied: () =>
    new AppError(403, 'SUPPORT_INQUIRY_ACCESS_DENIED', 'You do not have access to this support inquiry'),
  tokenInvalid: () =>
    new AppError(
      403,
      'SUPPORT_INQUIRY_TOKEN_INVALID',
      'The inquiry access token is missing, expired or not valid',
    ),
  closed: () => new AppError(400, 'SUPPORT_INQUIRY_CLOSED', 'This support inquiry is closed'),
  linkInvalid: (message = 'The support request cannot be linked to this inquiry') =>
    new AppError(400, 'SUPPORT_INQUIRY_LINK_INVALID', message),
  emailVerificationInvalid: (message = 'The verification code is not valid') =>
    new AppError(400, 'SUPPORT_INQUIRY_EMAIL_VERIFICATION_INVALID', message),
  supportRequestRequired: () =>
    new AppError(
      400,
      'SUPPORT_INQUIRY_SUPPORT_REQUEST_REQUIRED',
      'A support request can only be created for an inquiry of a verified customer',
    ),
};
