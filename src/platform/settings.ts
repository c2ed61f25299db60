// The building blocks of a setting: its documentation, schema and default as an operator writes
// them in the environment. src/config.ts composes the shared settings with each module's
// `<module>.config.ts`; the README table and .env.example are written from them.
import { z } from 'zod';

export const bool = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');
// Digits only: z.coerce.number() would read ' ' as 0 (PORT=' ' listening on a random port) and
// accept '1e3' or '0x10'.
export const int = (min: number, max = Number.MAX_SAFE_INTEGER) =>
  z
    .string()
    .trim()
    .regex(/^-?\d+$/, 'expected a whole number')
    .transform(Number)
    .pipe(z.number().int().min(min).max(max));
export const optionalString = z
  .string()
  .optional()
  .transform((v) => (v?.trim() ? v.trim() : undefined));
export const csv = z
  .string()
  .optional()
  .transform((v) =>
    (v ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
  );

/** An IANA zone name the runtime knows (the database knows the same tz database names). */
export function isTimeZone(name: string): boolean {
  // Names only: an offset such as `+05:45` means the opposite sign to PostgreSQL (POSIX rules).
  if (!/^[A-Za-z][\w+-]*(\/[\w+-]+)*$/.test(name)) return false;
  try {
    new Intl.DateTimeFormat('en', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

export interface Setting<S extends z.ZodType> {
  doc: string;
  schema: S;
  /** The default as a user would write it in the environment; undefined means unset. */
  default?: string;
  /** Shown in the docs as the example value, when there is no default. */
  example?: string;
}
export const setting = <S extends z.ZodType>(s: Setting<S>) => s;

/** Records why a setting is refused, unless an earlier check already named it. */
export type RefuseSetting<N extends string> = (name: N, message: string) => void;
