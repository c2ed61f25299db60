// Request and response pieces the blog's admin and public routes share.
import { z } from 'zod';
import { safeUrl, searchTerm } from '../../platform/http/fields';

export { safeUrl };

/** A search term of at least 2 characters; blank means no search. */
export const blogSearch = searchTerm.refine((s) => s === undefined || s.length >= 2, {
  message: 'search needs at least 2 characters',
});

export const blogPostStatus = z.enum(['draft', 'published']);

export const categoryRef = z.object({ id: z.number().int(), name: z.string(), slug: z.string() });

export const ctaView = z.object({
  ctaTitle: z.string(),
  ctaButtonLabel: z.string(),
  ctaButtonLink: z.string(),
  position: z.number().int(),
});

export const postSlugParams = z.object({ slug: z.string().trim().min(1).max(200) });
