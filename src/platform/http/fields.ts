// Request fields many modules' schemas share, so each rule is written (and fixed) once.
import { z } from 'zod';

/** A query flag: the strings `true` / `false`. */
export const booleanQuery = z.enum(['true', 'false']).transform((v) => v === 'true');

/** A trimmed search term; blank means no search. */
export const searchTerm = z
  .string()
  .trim()
  .max(100)
  .optional()
  .transform((s) => s || undefined);

/** An http(s) URL or a site-relative path (`/…`); `javascript:`, `ftp:` and blanks are refused. */
export const safeUrl = z
  .string()
  .trim()
  .max(2048)
  .refine((v) => /^https?:\/\/[^\s]+$/i.test(v) || /^\/(?!\/)[^\s]*$/.test(v), {
    message: 'must start with http://, https:// or /',
  });

/** A PATCH body must change something: `.refine(...atLeastOneField)`. */
export const atLeastOneField = [
  (b: Record<string, unknown>) => Object.values(b).some((v) => v !== undefined),
  { message: 'give at least one field to change' },
] as const;
