// Every failure leaves through here as the interface's error envelope:
// `{ statusCode, message, errorCode, timestamp, path, …extra }`.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { AppError, httpErrors, type ValidationIssue } from './errors';

// Framework errors that are the caller's fault, by Fastify's code.
const frameworkErrorCodes: Record<string, () => AppError> = {
  FST_ERR_CTP_INVALID_JSON_BODY: httpErrors.invalidJson,
  FST_ERR_CTP_EMPTY_JSON_BODY: httpErrors.invalidJson,
  FST_ERR_CTP_BODY_TOO_LARGE: httpErrors.payloadTooLarge,
  FST_ERR_CTP_INVALID_MEDIA_TYPE: httpErrors.unsupportedMediaType,
};

// The parameters of zod's issues a client may word a message with (never the `input` itself).
const ISSUE_PARAMETERS = [
  'minimum',
  'maximum',
  'inclusive',
  'origin',
  'expected',
  'format',
  'pattern',
  'values',
  'keys',
  'divisor',
] as const;

/**
 * One zod issue as a `details` entry: its path, its code and parameters, and zod's English
 * message. A missing value (zod's `invalid_type` of `undefined`) is `required`; a refinement
 * that names its own reason (`params: { code: 'sp_above_mrp' }`) has that code.
 */
function detailOf(
  issue: { instancePath: string; keyword: string; message?: string; params: Record<string, unknown> },
  location: string,
  input: unknown,
): ValidationIssue {
  const keys = issue.instancePath.split('/').slice(1);
  const detail: ValidationIssue = {
    path: keys.join('.'),
    message: issue.message ?? 'is not valid',
    code: issue.keyword,
    location,
  };
  for (const name of ISSUE_PARAMETERS) {
    const value = issue.params[name];
    if (value !== undefined && typeof value !== 'object') detail[name] = value;
    else if (Array.isArray(value) && value.every((v) => typeof v !== 'object')) detail[name] = value;
  }
  if (issue.keyword === 'invalid_type' && valueAt(input, keys) === undefined) detail.code = 'required';
  const custom = issue.params.params;
  if (issue.keyword === 'custom' && custom && typeof custom === 'object') {
    for (const [name, value] of Object.entries(custom)) {
      if (typeof value !== 'object') detail[name] = value;
    }
  }
  return detail;
}

function valueAt(input: unknown, keys: readonly string[]): unknown {
  let value = input;
  for (const key of keys) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

/**
 * The envelope's error for whatever was thrown, or undefined for our own bugs. `request` lets a
 * validation error tell a missing value (`required`) from one of the wrong type.
 */
export function toAppError(error: unknown, request?: FastifyRequest): AppError | undefined {
  if (error instanceof AppError) return error;
  if (hasZodFastifySchemaValidationErrors(error)) {
    const location = error.validationContext ?? 'body';
    const input = request ? (request as unknown as Record<string, unknown>)[location] : undefined;
    const details = error.validation.map((issue) => detailOf(issue, location, input));
    return httpErrors.validation(details);
  }
  if (isResponseSerializationError(error)) return undefined; // our bug, not the caller's
  const fastifyError = error as Partial<FastifyError>;
  const known = fastifyError.code ? frameworkErrorCodes[fastifyError.code] : undefined;
  if (known) return known();
  if (fastifyError.statusCode && fastifyError.statusCode >= 400 && fastifyError.statusCode < 500) {
    return new AppError(fastifyError.statusCode, 'BAD_REQUEST', fastifyError.message ?? 'Bad request');
  }
  return undefined;
}

export function errorEnvelope(error: AppError, path: string, now: Date) {
  return {
    statusCode: error.statusCode,
    message: error.message,
    errorCode: error.errorCode,
    timestamp: now.toISOString(),
    path,
    ...error.extra,
  };
}

export function sendError(reply: FastifyReply, request: FastifyRequest, error: AppError, now: Date) {
  return reply
    .status(error.statusCode)
    .headers(error.headers ?? {})
    .type('application/json; charset=utf-8')
    .send(errorEnvelope(error, request.url.split('?')[0] ?? request.url, now));
}

export function installErrorHandling(app: FastifyInstance, now: () => Date): void {
  app.setErrorHandler((error, request, reply) => {
    const known = toAppError(error, request);
    if (!known) {
      // The details go to the log only: the caller never sees a stack, SQL or secret.
      request.log.error({ err: error }, 'unexpected error');
      return sendError(reply, request, httpErrors.internal(), now());
    }
    if (known.statusCode >= 500) request.log.error({ err: error }, known.message);
    return sendError(reply, request, known, now());
  });

  app.setNotFoundHandler(
    {
      // Guessing URLs is slowed down like everything else (fastify/demo does the same).
      preHandler: app.rateLimit ? app.rateLimit({ max: 120, timeWindow: 60_000 }) : undefined,
    },
    (request, reply) =>
      sendError(reply, request, httpErrors.routeNotFound(request.method, request.url), now()),
  );
}
