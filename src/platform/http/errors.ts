// One error type for every expected failure. The error handler turns it into the
// interface's error envelope; clients branch on `errorCode`, so codes never change.
export class AppError extends Error {
  override name = 'AppError';
  constructor(
    readonly statusCode: number,
    readonly errorCode: string,
    message: string,
    /** Extra top-level fields of the envelope (e.g. `reason`, `details`). */
    readonly extra?: Record<string, unknown>,
    /** Response headers that belong to this error (e.g. `Retry-After`). */
    readonly headers?: Record<string, string>,
  ) {
    super(message);
  }
}

/**
 * One invalid field of a `VALIDATION_ERROR`. `code` is the stable, machine-readable reason
 * (zod's issue codes, `required`, or a refinement's own code such as `sp_above_mrp`; see
 * docs/api-notes.md, "Validation details"); the other keys are its parameters (`minimum`,
 * `maximum`, `origin`, `expected`, `format`, `values`…). `message` is English for people reading
 * the raw API: clients show `code`.
 */
export interface ValidationIssue {
  path: string;
  message: string;
  /** A stable reason (zod's issue code, or one of Pasal's such as `sp_above_mrp`). */
  code?: string;
  /** Where the field is: `body`, `querystring`, `params` or `headers`. */
  location?: string;
  /** The code's parameters: `minimum`, `maximum`, `format`, … */
  [parameter: string]: unknown;
}

/** An issue made by hand with no reason of its own is `custom`, as zod names a refinement. */
const withCode = (issue: ValidationIssue): ValidationIssue => ({ ...issue, code: issue.code ?? 'custom' });

// The shared codes of docs/decisions.md "Everywhere".
export const httpErrors = {
  validation: (details: ValidationIssue[], message = 'The request is not valid') =>
    new AppError(400, 'VALIDATION_ERROR', message, { details: details.map(withCode) }),
  invalidJson: () => new AppError(400, 'INVALID_JSON', 'The request body is not valid JSON'),
  payloadTooLarge: () => new AppError(413, 'PAYLOAD_TOO_LARGE', 'The request body is too large'),
  unsupportedMediaType: () =>
    new AppError(415, 'UNSUPPORTED_MEDIA_TYPE', 'The request body has an unsupported content type'),
  routeNotFound: (method: string, url: string) =>
    new AppError(404, 'ROUTE_NOT_FOUND', `Route ${method} ${url.split('?')[0]} not found`),
  unauthorized: () => new AppError(401, 'AUTH_UNAUTHORIZED', 'Authentication required'),
  forbidden: () => new AppError(403, 'AUTH_FORBIDDEN', 'This route is not for this kind of account'),
  permissionDenied: (permission: string, message = `Permission ${permission} is required`) =>
    new AppError(403, 'AUTH_PERMISSION_DENIED', message),
  /** docs/decisions.md, "Policy": `STAFF_2FA_REQUIRED` and no 2FA yet. */
  secondFactorEnrolmentRequired: () =>
    new AppError(
      403,
      'AUTH_2FA_ENROLMENT_REQUIRED',
      'Turn on two-factor sign-in before using the back office',
    ),
  rateLimited: (retryAfterSeconds: number) =>
    new AppError(
      429,
      'RATE_LIMITED',
      'Too many requests, try again later',
      { retryAfter: retryAfterSeconds },
      { 'retry-after': String(retryAfterSeconds) },
    ),
  notReady: () => new AppError(503, 'SERVICE_NOT_READY', 'A dependency of the service is not reachable'),
  internal: () => new AppError(500, 'INTERNAL_ERROR', 'Internal server error'),
};
