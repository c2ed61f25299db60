// What the banner area's schemas share: field helpers and the path parameters. Each sub-area's
// request and response schemas are in its own schemas file.
import { z } from 'zod';

export const text = (max: number) => z.string().trim().max(max);
export const required = (max: number) => z.string().trim().min(1).max(max);
export const timestamp = z.iso.datetime({ offset: true }).transform((v) => new Date(v));
export const clockTime = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d:[0-5]\d$/, 'must be HH:MM:SS');
export const publicIdParams = z.object({ publicId: z.uuid({ error: 'must be a uuid' }) });
export const linkParams = publicIdParams.extend({
  placementPublicId: z.uuid({ error: 'must be a uuid' }),
});
export const assignmentParams = linkParams.extend({ bannerPublicId: z.uuid({ error: 'must be a uuid' }) });
export const iso = z.iso.datetime();
