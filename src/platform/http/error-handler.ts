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

export function toAppError(error: unknown): AppError | undefined {
  if (error instanceof AppError) return error;
  if (hasZodFastifySchemaValidationErrors(error)) {
    const location = error.validationContext ?? 'body';
    const details: ValidationIssue[] = error.validation.map((issue) => ({
      path: issue.instancePath.replace(/^\//, '').replaceAll('/', '.'),
      message: issue.message ?? 'is not valid',
      location,
    }));
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
    const known = toAppError(error);
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
