// Request pieces every catalog record shares.
import { z } from 'zod';

export { atLeastOneField, booleanQuery, safeUrl, searchTerm } from '../../platform/http/fields';

/** An explicit slug: lowercase letters, digits and single hyphens, never renamed silently. */
export const slug = z
  .string()
  .trim()
  .min(1)
  .max(160)
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'lowercase letters, digits and single hyphens only');

export const timestamps = { createdAt: z.iso.datetime(), updatedAt: z.iso.datetime() };
