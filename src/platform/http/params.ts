// Integers and ids that arrive as text (docs/decisions.md, "Ids in paths"): a path or query value is
// plain decimal digits, so `0x1`, `1e3`, `+1`, `01`, ` 1` and `1.0` are refused with 400
// VALIDATION_ERROR instead of being read as another number (z.coerce.number() would take
// them all). A bad id is a validation error, never a 404 or a 500.
import { z } from 'zod';

export const MAX_INT_ID = 2_147_483_647; // PostgreSQL integer

/**
 * A whole number from `min` to `max`. Text (a path param or a query value) must be plain
 * decimal digits without a leading zero (`0` itself when `min` is 0); a JSON body may send the
 * number itself. Documented as an integer.
 */
export function decimalInt(
  min: number,
  max: number,
  message = `must be a whole number from ${min} to ${max}`,
) {
  if (!Number.isSafeInteger(min) || min < 0 || !Number.isSafeInteger(max) || max < min) {
    throw new RangeError('decimalInt: 0 <= min <= max, safe integers');
  }
  return z
    .preprocess(
      (value) => (typeof value === 'string' && /^(0|[1-9][0-9]*)$/.test(value) ? Number(value) : value),
      z.number({ error: message }).int(message).min(min, message).max(max, message),
    )
    .meta({ type: 'integer', minimum: min, maximum: max });
}

export const intId = decimalInt(1, MAX_INT_ID, 'must be a positive integer');
export const uuidId = z.uuid({ error: 'must be a uuid' });

export const intIdParams = z.object({ id: intId });
export const uuidIdParams = z.object({ id: uuidId });
