// The admin EMI routes, typed from the generated client:
//   GET/PUT /api/admin/emi/config        the offer (isEnabled, periods)
//   GET/POST /api/admin/emi/banks, PATCH/DELETE /api/admin/emi/banks/{id}   partner banks
//   GET /api/admin/emi/inquiries, PATCH /api/admin/emi/inquiries/{id}/status
import type { operations, paths } from '@pasal/client';

type Data<Answer> = Answer extends { content: { 'application/json': { data: infer D } } } ? D : never;

export type EmiBank = Data<paths['/api/admin/emi/banks']['get']['responses'][200]>[number];
export type EmiInquiry = Data<paths['/api/admin/emi/inquiries']['get']['responses'][200]>[number];
export type InquiryStatus = EmiInquiry['status'];
export type InquiryListQuery = NonNullable<operations['adminListEmiInquiries']['parameters']['query']>;

type Exhaustive<All, Listed extends readonly All[]> = [Exclude<All, Listed[number]>] extends [never]
  ? Listed
  : never;
const statuses = ['new', 'contacted', 'approved', 'rejected', 'closed'] as const;
export const INQUIRY_STATUSES: Exhaustive<InquiryStatus, typeof statuses> = statuses;

/** Instalment periods the API accepts: whole months, 1 to 60. */
export const PERIOD_MIN = 1;
export const PERIOD_MAX = 60;

/** "3, 6, 12" → [3, 6, 12]; null when any entry is not a whole number of months in range. */
export function parsePeriods(text: string): number[] | null {
  const parts = text
    .split(/[,\s]+/)
    .map((p) => p.trim())
    .filter(Boolean);
  if (parts.some((p) => !/^\d+$/.test(p))) return null;
  const months = parts.map(Number);
  if (months.some((m) => m < PERIOD_MIN || m > PERIOD_MAX)) return null;
  return [...new Set(months)].sort((a, b) => a - b);
}
