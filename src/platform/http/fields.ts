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

/**
 * The one check of "a link": `http://…`, `https://…` or a path on the storefront `/…`, as every
 * module that takes a link uses it (docs/decisions.md, "Local links"). Everything a browser would
 * read as another origin or another scheme is refused: `javascript:`, `data:`, `ftp:`,
 * protocol-relative `//host`, `/\host` and `\\host` (browsers turn a backslash into a
 * slash), whitespace or control characters anywhere (before the path too), and blanks.
 */
export function isSafeLink(value: string): boolean {
  if (value.length === 0 || value.length > 2048) return false;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
  if (/[\s\u0000-\u001f\u007f\\]/.test(value)) return false;
  if (/^https?:\/\/[^/?#]+/i.test(value)) return true;
  return /^\/(?![/])/.test(value);
}

/** A link field (`isSafeLink`). */
export const safeUrl = z
  .string()
  .max(2048)
  .refine(isSafeLink, { message: 'must be an http(s) URL or a path starting with / on the storefront' });

/** A PATCH body must change something: `.refine(...atLeastOneField)`. */
export const atLeastOneField = [
  (b: Record<string, unknown>) => Object.values(b).some((v) => v !== undefined),
  { message: 'give at least one field to change' },
] as const;
