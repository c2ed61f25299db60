import { z } from 'zod';
import { listQuery } from '../../../platform/http/pagination';
import { trimmed } from '../support.schemas';
import { FEEDBACK_CATEGORIES, FEEDBACK_STATUSES } from './feedback.table';

export const createFeedbackBody = z.object({
  category: z.enum(FEEDBACK_CATEGORIES),
  subject: trimmed(255),
  message: trimmed(10_000),
});
export type CreateFeedbackBody = z.output<typeof createFeedbackBody>;

export const feedbackListQuery = listQuery(['createdAt', 'updatedAt'] as const).extend({
  status: z.enum(FEEDBACK_STATUSES).optional(),
  category: z.enum(FEEDBACK_CATEGORIES).optional(),
  search: z.string().trim().min(1).max(200).optional(),
});
export type FeedbackListQuery = z.output<typeof feedbackListQuery>;

const iso = z.string().describe('ISO-8601 instant');

export const feedback = z
  .object({
    id: z.number().int(),
    customerId: z.uuid(),
    category: z.enum(FEEDBACK_CATEGORIES),
    subject: z.string(),
    message: z.string(),
    status: z.enum(FEEDBACK_STATUSES),
    reviewedByAdminId: z.uuid().nullable(),
    reviewedAt: iso.nullable(),
    createdAt: iso,
    updatedAt: iso,
  })
  .meta({ id: 'Feedback' });
export type Feedback = z.output<typeof feedback>;
