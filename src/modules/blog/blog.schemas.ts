// Request and response pieces the blog's admin and public routes share.
import { z } from 'zod';

/** An http(s) URL or a site-relative path (`/…`); `javascript:`, `ftp:` and blanks are refused. */
export const safeUrl = z
  .string()
  .trim()
  .max(2048)
  .refine((v) => /^https?:\/\/[^\s]+$/i.test(v) || /^\/(?!\/)[^\s]*$/.test(v), {
    message: 'must start with http://, https:// or /',
  });

/** A search term of at least 2 characters; blank means no search. */
export const blogSearch = z
  .string()
  .trim()
  .max(100)
  .optional()
  .transform((s) => s || undefined)
  .refine((s) => s === undefined || s.length >= 2, { message: 'search needs at least 2 characters' });

export const blogPostStatus = z.enum(['draft', 'published']);

export const categoryRef = z.object({ id: z.number().int(), name: z.string(), slug: z.string() });

export const ctaView = z.object({
  ctaTitle: z.string(),
  ctaButtonLabel: z.string(),
  ctaButtonLink: z.string(),
  position: z.number().int(),
});

export const postSlugParams = z.object({ slug: z.string().trim().min(1).max(200) });
