// Turning the API's error envelope into words for staff. Every failure of `@pasal/client` is a
// `PasalError` carrying the envelope's stable `errorCode`: the console branches on that code,
// never on the English `message`, and words a code in the admin's language when the `common`
// namespace has it (`errorCodes.<CODE>`), else shows the API's own message.
import { isPasalError, PasalError } from '@pasal/client';
import type { TFunction } from 'i18next';

export { isPasalError, PasalError };

/** One sentence for an error, for an Alert or a notification. */
export function describeError(error: unknown, t: TFunction): string {
  if (isPasalError(error)) {
    if (error.errorCode === 'RATE_LIMITED' && typeof error.body.retryAfter === 'number') {
      return t('common:errorCodes.RATE_LIMITED_WAIT', { seconds: error.body.retryAfter });
    }
    const key = `common:errorCodes.${error.errorCode}`;
    return t(key, { defaultValue: error.message || t('common:errors.unknown') });
  }
  // fetch rejects with a TypeError when the API cannot be reached at all.
  if (error instanceof TypeError) return t('common:errors.network');
  return t('common:errors.unknown');
}

/**
 * True when the API refused the admin's role (their role lacks the permission, or the route is
 * not for admins): the console-wide notification says so, forms need not repeat it. Other 403s
 * (`AUTH_EMAIL_NOT_VERIFIED` at sign-in, say) are about the request, for the screen to show.
 */
export function isRefused(error: unknown): error is PasalError {
  return isPasalError(error, 'AUTH_PERMISSION_DENIED', 'AUTH_FORBIDDEN');
}

/**
 * What is wrong with one field: the API's `details` entry (`{ code: 'too_small', minimum: 1 }`,
 * docs/api-notes.md, "Validation details") or the console's own check of the same rule. The
 * console words it from `code` in the admin's language; `message` is the API's English.
 */
export interface FieldProblem {
  code: string;
  message?: string;
  [parameter: string]: unknown;
}

/**
 * The field problems of a `VALIDATION_ERROR`, keyed by the field's path as the API names it
 * (`email`, `items.0.quantity`), the first of each field (the one to fix first). Only details
 * about the request body count, unless `location` names another part.
 */
export function fieldProblemsOf(
  error: unknown,
  location: 'body' | 'querystring' | 'params' = 'body',
): Record<string, FieldProblem> {
  if (!isPasalError(error, 'VALIDATION_ERROR')) return {};
  const problems: Record<string, FieldProblem> = {};
  for (const detail of (error.body.details ?? []) as (FieldProblem & {
    path?: string;
    location?: string;
  })[]) {
    if (!detail.path || (detail.location ?? 'body') !== location) continue;
    const { path, location: _where, ...problem } = detail;
    problems[path] ??= { ...problem, code: typeof problem.code === 'string' ? problem.code : 'custom' };
  }
  return problems;
}

/**
 * The field errors of a `VALIDATION_ERROR`, keyed by the field's path as the API names it
 * (`email`, `items.0.quantity`): the keys a form gives its inputs. Only details about the
 * request body count, unless `location` names another part (`querystring` for a filter form).
 */
export function fieldErrorsOf(
  error: unknown,
  location: 'body' | 'querystring' | 'params' = 'body',
): Record<string, string> {
  if (!isPasalError(error, 'VALIDATION_ERROR')) return {};
  const errors: Record<string, string> = {};
  for (const detail of error.body.details ?? []) {
    if (!detail.path || (detail.location ?? 'body') !== location) continue;
    // The first problem of a field is the one to fix first.
    errors[detail.path] ??= detail.message;
  }
  return errors;
}
