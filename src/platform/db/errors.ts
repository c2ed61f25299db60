// PostgreSQL error codes the repositories translate into their module's domain errors.
const UNIQUE_VIOLATION = '23505';
const FOREIGN_KEY_VIOLATION = '23503';
const CHECK_VIOLATION = '23514';

interface PgErrorLike {
  code?: string;
  constraint?: string;
  constraint_name?: string;
  cause?: unknown;
}

/** Drizzle wraps driver errors; walk the causes to the one PostgreSQL raised. */
function pgError(error: unknown): PgErrorLike | undefined {
  let current: unknown = error;
  for (let depth = 0; current && typeof current === 'object' && depth < 5; depth++) {
    const candidate = current as PgErrorLike;
    if (typeof candidate.code === 'string' && /^[0-9A-Z]{5}$/.test(candidate.code)) return candidate;
    current = candidate.cause;
  }
  return undefined;
}

function violates(code: string, error: unknown, constraint?: string): boolean {
  const found = pgError(error);
  if (found?.code !== code) return false;
  return !constraint || (found.constraint ?? found.constraint_name) === constraint;
}

export const isUniqueViolation = (error: unknown, constraint?: string) =>
  violates(UNIQUE_VIOLATION, error, constraint);
export const isForeignKeyViolation = (error: unknown, constraint?: string) =>
  violates(FOREIGN_KEY_VIOLATION, error, constraint);
/** A CHECK constraint refused the row (e.g. a fulfilment move outside the state machine). */
export const isCheckViolation = (error: unknown, constraint?: string) =>
  violates(CHECK_VIOLATION, error, constraint);
