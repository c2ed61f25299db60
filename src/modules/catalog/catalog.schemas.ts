// Request pieces every catalog record shares.
import { z } from 'zod';

export const booleanQuery = z.enum(['true', 'false']).transform((v) => v === 'true');

/** A trimmed search term; blank means no search. */
export const searchTerm = z
  .string()
  .trim()
  .max(100)
  .optional()
  .transform((s) => s || undefined);

/** An explicit slug: lowercase letters, digits and single hyphens, never renamed silently. */
export const slug = z
  .string()
  .trim()
  .min(1)
  .max(160)
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'lowercase letters, digits and single hyphens only');

/** An http(s) URL or a site-relative path (`/…`), as the content interface's safe URL. */
export const safeUrl = z
  .string()
  .trim()
  .max(2048)
  .refine((v) => /^https?:\/\/[^\s]+$/i.test(v) || /^\/(?!\/)[^\s]*$/.test(v), {
    message: 'must start with http://, https:// or /',
  });

export const timestamps = { createdAt: z.iso.datetime(), updatedAt: z.iso.datetime() };

/** A PATCH body must change something. */
export const atLeastOneField = [
  (b: Record<string, unknown>) => Object.values(b).some((v) => v !== undefined),
  { message: 'give at least one field to change' },
] as const;
