import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

export const TAX_DOCUMENT_KINDS = ['invoice', 'credit_note'] as const;
export type TaxDocumentKind = (typeof TAX_DOCUMENT_KINDS)[number];

export const SYNC_STATUSES = ['not_required', 'pending', 'synced', 'failed'] as const;
export type SyncStatus = (typeof SYNC_STATUSES)[number];

/** A printed line, in paisa (VAT-inclusive when prices include VAT). */
export interface TaxDocumentLine {
  title: string;
  quantity: number;
  rate: number;
  amount: number;
}

/**
 * An issued tax invoice or credit note (IRD Electronic Billing Procedure). Everything but the
 * print and sync bookkeeping is locked by the trigger `tax_documents_locked` (migration
 * 0025_tax_invoices): an UPDATE of any other column, and any DELETE, is refused by the database.
 * Amounts are paisa.
 */
export const taxDocuments = pgTable(
  'tax_documents',
  {
    id: serial('id').primaryKey(),
    kind: text('kind').$type<TaxDocumentKind>().notNull(),
    /** The printed number: prefix and the place in the fiscal year's series (`INV-42`). */
    number: text('number').notNull(),
    sequence: integer('sequence').notNull(),
    /** `2082/83`. */
    fiscalYear: text('fiscal_year').notNull(),
    abbreviated: boolean('abbreviated').notNull().default(false),
    orderId: integer('order_id').notNull(),
    orderNumber: text('order_number').notNull(),
    customerId: uuid('customer_id').notNull(),
    /** A credit note's invoice. */
    referenceDocumentId: integer('reference_document_id'),
    referenceNumber: text('reference_number'),
    reason: text('reason'),
    sellerName: text('seller_name').notNull(),
    sellerAddress: text('seller_address').notNull(),
    sellerPan: text('seller_pan'),
    buyerName: text('buyer_name').notNull(),
    buyerPan: text('buyer_pan'),
    buyerAddress: text('buyer_address'),
    paymentMethod: text('payment_method').notNull(),
    lines: jsonb('lines').$type<TaxDocumentLine[]>().notNull(),
    vatRatePercent: integer('vat_rate_percent').notNull(),
    discountAmount: integer('discount_amount').notNull(),
    taxableAmount: integer('taxable_amount').notNull(),
    vatAmount: integer('vat_amount').notNull(),
    exemptAmount: integer('exempt_amount').notNull(),
    totalAmount: integer('total_amount').notNull(),
    /** `YYYY-MM-DD` in Bikram Sambat, the Nepal date of `issuedAt`. */
    bsDate: text('bs_date').notNull(),
    issuedAt: timestamp('issued_at', { withTimezone: true }).notNull(),
    /** Null: issued by the system (a verified online payment). */
    issuedByAdminId: uuid('issued_by_admin_id'),
    issuedByName: text('issued_by_name').notNull(),
    isActive: boolean('is_active').notNull().default(true),
    // Bookkeeping (the only columns the trigger lets change):
    printCount: integer('print_count').notNull().default(0),
    lastPrintedAt: timestamp('last_printed_at', { withTimezone: true }),
    syncStatus: text('sync_status').$type<SyncStatus>().notNull(),
    syncAttempts: integer('sync_attempts').notNull().default(0),
    lastSyncReply: text('last_sync_reply'),
    lastSyncAt: timestamp('last_sync_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('tax_documents_series_key').on(t.kind, t.fiscalYear, t.sequence),
    // One invoice and at most one credit note (a full return) per order.
    uniqueIndex('tax_documents_order_key').on(t.kind, t.orderId),
    index('tax_documents_issued_idx').on(t.kind, t.issuedAt),
    index('tax_documents_sync_idx').on(t.syncStatus),
    check('tax_documents_kind_check', sql`${t.kind} IN ('invoice', 'credit_note')`),
    check(
      'tax_documents_figures_check',
      sql`${t.taxableAmount} + ${t.vatAmount} + ${t.exemptAmount} = ${t.totalAmount}`,
    ),
  ],
);

/** The next number of each series (invoices, credit notes) per fiscal year. */
export const taxNumberSeries = pgTable(
  'tax_number_series',
  {
    kind: text('kind').$type<TaxDocumentKind>().notNull(),
    fiscalYear: text('fiscal_year').notNull(),
    nextSequence: integer('next_sequence').notNull(),
  },
  (t) => [primaryKey({ columns: [t.kind, t.fiscalYear] })],
);
