// How the console turns the API's error envelope into words and field errors
// (console/src/lib/api-errors.ts): pure functions, run here in Node.
import { PasalError } from '@pasal/client';
import type { TFunction } from 'i18next';
import { describe, expect, it } from 'vitest';
import { describeError, fieldErrorsOf, isRefused } from '../../console/src/lib/api-errors';

const envelope = (errorCode: string, extra: Record<string, unknown> = {}) => ({
  statusCode: 400,
  errorCode,
  message: `API says ${errorCode}`,
  timestamp: '2025-11-26T00:00:00.000Z',
  path: '/api/admin/products',
  ...extra,
});

describe('fieldErrorsOf', () => {
  it("keys each body detail by the API's field path, keeping a field's first message", () => {
    const error = new PasalError(
      400,
      envelope('VALIDATION_ERROR', {
        details: [
          { path: 'title', message: 'is required', location: 'body' },
          { path: 'items.0.quantity', message: 'must be at least 1', location: 'body' },
          { path: 'title', message: 'is too long', location: 'body' },
          { path: 'page', message: 'must be a number', location: 'querystring' },
          { path: '', message: 'give either token, or email and code', location: 'body' },
        ],
      }),
    );
    expect(fieldErrorsOf(error)).toEqual({ title: 'is required', 'items.0.quantity': 'must be at least 1' });
    expect(fieldErrorsOf(error, 'querystring')).toEqual({ page: 'must be a number' });
  });

  it('has nothing for other failures', () => {
    expect(fieldErrorsOf(new PasalError(409, envelope('PRODUCT_SLUG_EXISTS')))).toEqual({});
    expect(fieldErrorsOf(new Error('boom'))).toEqual({});
  });
});

describe('describeError', () => {
  // A stand-in for i18next's t: known keys get a marker, others their defaultValue.
  const known: Record<string, string> = {
    'common:errorCodes.AUTH_INVALID_CREDENTIALS': 'Email or password is not correct.',
    'common:errors.network': 'NETWORK',
    'common:errors.unknown': 'UNKNOWN',
  };
  const t = ((key: string, options?: { defaultValue?: string; seconds?: number }) =>
    key === 'common:errorCodes.RATE_LIMITED_WAIT'
      ? `wait ${options?.seconds}`
      : (known[key] ?? options?.defaultValue ?? key)) as unknown as TFunction;

  it("words a known errorCode in the admin's language, else shows the API's message", () => {
    expect(describeError(new PasalError(401, envelope('AUTH_INVALID_CREDENTIALS')), t)).toBe(
      'Email or password is not correct.',
    );
    expect(describeError(new PasalError(409, envelope('PRODUCT_SLUG_EXISTS')), t)).toBe(
      'API says PRODUCT_SLUG_EXISTS',
    );
  });

  it('says how long to wait when rate limited', () => {
    expect(describeError(new PasalError(429, envelope('RATE_LIMITED', { retryAfter: 42 })), t)).toBe(
      'wait 42',
    );
  });

  it('tells an unreachable server from an unknown failure', () => {
    expect(describeError(new TypeError('Failed to fetch'), t)).toBe('NETWORK');
    expect(describeError('???', t)).toBe('UNKNOWN');
  });
});

describe('isRefused', () => {
  it("is true only for refusals of the admin's role, not for other 403s", () => {
    expect(isRefused(new PasalError(403, envelope('AUTH_PERMISSION_DENIED')))).toBe(true);
    expect(isRefused(new PasalError(403, envelope('AUTH_FORBIDDEN')))).toBe(true);
    expect(isRefused(new PasalError(403, envelope('AUTH_EMAIL_NOT_VERIFIED')))).toBe(false);
  });
});
