import { z } from 'zod';
import { listQuery } from '../../platform/http/pagination';

export const activityEntry = z
  .object({
    id: z.number().int(),
    /** Null when the server itself acted (a system event). */
    adminId: z.uuid().nullable(),
    action: z.string(),
    entityType: z.string(),
    entityId: z.string().nullable(),
    summary: z.string(),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: 'AdminActivityEntry' });
export type ActivityEntry = z.infer<typeof activityEntry>;

const instant = z.iso
  .datetime({ offset: true, error: 'must be an ISO-8601 date-time' })
  .transform((s) => new Date(s));

export const activityListQuery = listQuery(['createdAt'] as const)
  .extend({
    adminId: z.uuid({ error: 'must be a uuid' }).optional(),
    entityType: z.string().trim().min(1).max(100).optional(),
    entityId: z.string().trim().min(1).max(200).optional(),
    /** Inclusive. */
    from: instant.optional(),
    /** Inclusive. */
    to: instant.optional(),
  })
  .refine((q) => !q.from || !q.to || q.from <= q.to, { path: ['to'], message: 'must not be before from' });
export type ActivityListQuery = z.output<typeof activityListQuery>;
