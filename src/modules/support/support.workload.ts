// What is waiting for the support staff, for the admin dashboard: two counts, each behind the
// permission that reads its records (the caller decides; null here means "not asked").
import { z } from 'zod';
import type { Db } from '../../platform/db/database';
import { countOpenInquiries } from './inquiries/inquiries.repository';
import { countRequestsWaitingForStaff } from './requests/requests.repository';

export const supportWorkloadView = z.object({
  openInquiries: z
    .number()
    .int()
    .nullable()
    .describe('Inquiries open, active or waiting; null without SupportInquiries_READ'),
  ticketsWaitingForStaff: z
    .number()
    .int()
    .nullable()
    .describe(
      "Support requests open or in progress whose last message is the customer's; null without SupportRequests_READ",
    ),
});
export type SupportWorkloadView = z.infer<typeof supportWorkloadView>;

export async function supportWorkload(
  db: Db,
  include: { inquiries: boolean; requests: boolean },
): Promise<SupportWorkloadView> {
  const [openInquiries, ticketsWaitingForStaff] = await Promise.all([
    include.inquiries ? countOpenInquiries(db) : null,
    include.requests ? countRequestsWaitingForStaff(db) : null,
  ]);
  return { openInquiries, ticketsWaitingForStaff };
}
