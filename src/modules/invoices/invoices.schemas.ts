import { z } from 'zod';
import { listQuery } from '../../platform/http/pagination';
import { intId } from '../../platform/http/params';
import { SYNC_STATUSES } from './invoices.table';

const paisa = z.number().int().describe('Paisa (1 NPR = 100 paisa)');

export const taxDocumentView = z
  .object({
    id: z.number().int(),
    documentType: z.enum(['tax_invoice', 'abbreviated_tax_invoice', 'credit_note']),
    number: z.string(),
    fiscalYear: z.string().describe('Nepali fiscal year, `2082/83`'),
    orderId: z.number().int(),
    orderNumber: z.string(),
    referenceInvoiceId: z.number().int().nullable().describe('A credit note’s invoice'),
    referenceInvoiceNumber: z.string().nullable(),
    reason: z.string().nullable().describe('Why the sale was returned (credit notes)'),
    seller: z.object({ name: z.string(), address: z.string(), pan: z.string().nullable() }),
    buyerName: z.string(),
    buyerPan: z.string().nullable(),
    buyerAddress: z.string().nullable(),
    paymentMethod: z.string(),
    lines: z.array(z.object({ title: z.string(), quantity: z.number().int(), rate: paisa, amount: paisa })),
    vatRatePercent: z.number().int(),
    discountAmount: paisa,
    taxableAmount: paisa,
    vatAmount: paisa,
    exemptAmount: paisa,
    totalAmount: paisa,
    dateBs: z.string().describe('Bikram Sambat date, `YYYY-MM-DD`'),
    issuedAt: z.iso.datetime(),
    issuedBy: z.object({ adminId: z.uuid().nullable(), name: z.string() }),
    isActive: z.boolean(),
    printCount: z.number().int(),
    lastPrintedAt: z.iso.datetime().nullable(),
    syncStatus: z.enum(SYNC_STATUSES),
    syncAttempts: z.number().int(),
    lastSyncReply: z.string().nullable(),
    lastSyncAt: z.iso.datetime().nullable(),
  })
  .meta({ id: 'TaxDocument' });
export type TaxDocumentView = z.infer<typeof taxDocumentView>;

const fiscalYear = z
  .string()
  .regex(/^\d{4}\/\d{2}$/, 'must be a Nepali fiscal year like 2082/83')
  .refine((v) => (Number(v.slice(0, 4)) + 1) % 100 === Number(v.slice(5)), 'must be two consecutive years');

const instant = z.iso
  .datetime({ offset: true, error: 'must be an ISO-8601 date-time' })
  .transform((s) => new Date(s));

export const documentListQuery = listQuery(['issuedAt'] as const).extend({
  fiscalYear: fiscalYear.optional(),
  /** Inclusive. */
  from: instant.optional(),
  /** Inclusive. */
  to: instant.optional(),
  syncStatus: z.enum(SYNC_STATUSES).optional(),
  orderId: intId.optional().describe("The order's document (at most one per kind)"),
  search: z
    .string()
    .trim()
    .min(1)
    .max(100)
    .optional()
    .describe('Part of the number, buyer name or buyer PAN'),
});
export type DocumentListQuery = z.output<typeof documentListQuery>;

export const pdfQuery = z.object({ format: z.enum(['a4', 'receipt80']).default('a4') });

export const registerQuery = z.object({
  fiscalYear,
  month: z.coerce.number().int().min(1).max(12).optional().describe('BS month 1–12 counted from Baisakh'),
});

export const pdfResponse = {
  description: 'The document as a PDF: the first rendering is the original, every later one a numbered copy',
  content: { 'application/pdf': { schema: z.any().meta({ type: 'string', format: 'binary' }) } },
};
export const csvResponse = {
  description: 'The register as CSV (UTF-8 with a byte-order mark), one row per document',
  content: { 'text/csv': { schema: z.any().meta({ type: 'string' }) } },
};
