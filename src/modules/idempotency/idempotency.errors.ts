import { AppError } from '../../platform/http/errors';

export const idempotencyErrors = {
  keyMismatch: () =>
    new AppError(
      422,
      'IDEMPOTENCY_KEY_MISMATCH',
      'This Idempotency-Key was already used with a different request body',
    ),
  inProgress: () =>
    new AppError(
      409,
      'IDEMPOTENCY_REQUEST_IN_PROGRESS',
      'A request with this Idempotency-Key is still being processed; retry shortly',
    ),
};
