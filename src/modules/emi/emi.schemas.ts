// Request and response shapes of the EMI routes: the store's setting, its banks, and the
// inquiries shoppers send (the POS module sends the same body through `submitEmiInquiry`).
import { z } from 'zod';
import { listQuery, paginationQuery } from '../../platform/http/pagination';
import { intId } from '../../platform/http/params';
import { EMI_INQUIRY_STATUSES } from './emi.table';

const trimmed = (max: number) => z.string().trim().min(1, 'must not be blank').max(max);
const iso = z.string().describe('ISO-8601 instant');
const logoUrl = z
  .url({ protocol: /^https?$/, error: 'must be an http(s) URL' })
  .max(500)
  .describe('http(s) URL of the bank logo');

// ── Config ──────────────────────────────────────────────────────────────────────────────────

export const emiConfigBody = z
  .object({
    isEnabled: z.boolean(),
    // docs/decisions.md "EMI validation": instalment periods are 1 to 60 months; repeats are
    // dropped, order ascending.
    periods: z
      .array(z.number().int().min(1).max(60))
      .max(60)
      .transform((p) => [...new Set(p)].sort((a, b) => a - b)),
  })
  .superRefine((b, ctx) => {
    if (b.isEnabled && b.periods.length === 0) {
      ctx.addIssue({
        code: 'custom',
        path: ['periods'],
        message: 'must name at least one period when enabled',
      });
    }
  });
export type EmiConfigBody = z.output<typeof emiConfigBody>;

export const emiConfigView = z
  .object({ isEnabled: z.boolean(), periods: z.array(z.number().int()), updatedAt: iso.nullable() })
  .meta({ id: 'EmiConfig' });
export type EmiConfigView = z.output<typeof emiConfigView>;

// ── Banks ───────────────────────────────────────────────────────────────────────────────────

export const createBankBody = z.object({
  name: trimmed(120),
  logoUrl: logoUrl.nullable().optional(),
  displayOrder: z.number().int().min(0).max(100_000).default(0),
});
export type CreateBankBody = z.output<typeof createBankBody>;

export const updateBankBody = z
  .object({
    name: trimmed(120).optional(),
    logoUrl: logoUrl.nullable().optional(),
    displayOrder: z.number().int().min(0).max(100_000).optional(),
    // Reactivates a deleted (deactivated) bank, or deactivates one like DELETE does.
    isActive: z.boolean().optional(),
  })
  .refine((b) => Object.values(b).some((v) => v !== undefined), { message: 'name at least one field' });
export type UpdateBankBody = z.output<typeof updateBankBody>;

export const adminBankListQuery = listQuery(['displayOrder', 'name', 'createdAt'] as const).extend({
  order: z.enum(['asc', 'desc']).default('asc'),
  isActive: z
    .enum(['true', 'false'])
    .transform((v) => v === 'true')
    .optional(),
});
export type AdminBankListQuery = z.output<typeof adminBankListQuery>;

export const emiBankView = z
  .object({
    id: z.number().int(),
    name: z.string(),
    logoUrl: z.string().nullable(),
    displayOrder: z.number().int(),
    isActive: z.boolean(),
    createdAt: iso,
    updatedAt: iso,
  })
  .meta({ id: 'EmiBank' });
export type EmiBankView = z.output<typeof emiBankView>;

export const publicEmiBankView = emiBankView
  .pick({ id: true, name: true, logoUrl: true, displayOrder: true })
  .meta({ id: 'EmiBankPublic' });
export type PublicEmiBankView = z.output<typeof publicEmiBankView>;

// ── Inquiries ───────────────────────────────────────────────────────────────────────────────

/** The body of `POST /api/mobile/emi/inquiries` (and of the POS EMI inquiry). */
export const emiInquiryBody = z.object({
  productId: intId,
  customerName: trimmed(100),
  customerEmail: z.string().trim().toLowerCase().max(320).pipe(z.email('must be an email address')),
  customerMobile: z
    .string()
    .trim()
    .regex(/^\+?[0-9][0-9 -]{5,18}[0-9]$/, 'must be a phone number (digits, spaces, dashes, leading +)'),
  bankIds: z
    .array(intId)
    .min(1)
    .max(20)
    .transform((ids) => [...new Set(ids)]),
  hasCreditCard: z.boolean(),
  downPaymentAmount: z.number().int().min(0).describe('NPR; below the product effective price'),
  message: z.string().trim().max(2000).nullable().optional(),
});
export type EmiInquiryBody = z.output<typeof emiInquiryBody>;

/** What the submitter gets back (the customer, and POS staff). */
export const emiInquiryView = z
  .object({
    id: z.number().int(),
    productId: z.number().int(),
    productTitle: z.string().describe('snapshot at submission'),
    productSp: z.number().int().describe('snapshot of the product `sp` at submission'),
    customerName: z.string(),
    customerEmail: z.string(),
    customerMobile: z.string(),
    bankIds: z.array(z.number().int()),
    hasCreditCard: z.boolean(),
    downPaymentAmount: z.number().int(),
    message: z.string().nullable(),
    status: z.enum(EMI_INQUIRY_STATUSES),
    createdAt: iso,
  })
  .meta({ id: 'EmiInquiry' });
export type EmiInquiryView = z.output<typeof emiInquiryView>;

export const adminEmiInquiryView = emiInquiryView
  .extend({
    banks: z.array(publicEmiBankView.extend({ isActive: z.boolean() })),
    statusNote: z.string().nullable(),
    updatedAt: iso,
  })
  .meta({ id: 'EmiInquiryAdmin' });
export type AdminEmiInquiryView = z.output<typeof adminEmiInquiryView>;

export const adminInquiryListQuery = paginationQuery.extend({
  status: z.enum(EMI_INQUIRY_STATUSES).optional(),
  productId: intId.optional(),
  bankId: intId.optional(),
  search: z.string().trim().min(1).max(200).optional().describe('name, email or mobile, partial, any case'),
});
export type AdminInquiryListQuery = z.output<typeof adminInquiryListQuery>;

export const inquiryStatusBody = z.object({
  status: z.enum(EMI_INQUIRY_STATUSES),
  note: z.string().trim().min(1, 'must not be blank').max(2000).optional(),
});
export type InquiryStatusBody = z.output<typeof inquiryStatusBody>;
