import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  index,
  integer,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
} from 'drizzle-orm/pg-core';
import { products } from '../catalog/products/products.table';

/** docs/decisions.md, "EMI inquiry status": `new` first, then whatever the admin sets. */
export const EMI_INQUIRY_STATUSES = ['new', 'contacted', 'approved', 'rejected', 'closed'] as const;

/**
 * The store's one EMI setting row (id is always 1). No row yet means EMI was never configured:
 * the admin read answers EMI_CONFIG_NOT_FOUND, the public read says disabled.
 */
export const emiConfig = pgTable(
  'emi_config',
  {
    id: integer('id').primaryKey().default(1),
    isEnabled: boolean('is_enabled').notNull(),
    periods: integer('periods').array().notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('emi_config_single_row', sql`${t.id} = 1`),
    // docs/decisions.md, "EMI validation": periods are months from 1 to 60.
    check('emi_config_periods_range', sql`1 <= all(${t.periods}) and 60 >= all(${t.periods})`),
  ],
);

/** Banks offering instalments. Deleting one only deactivates it, so old inquiries keep their links. */
export const emiBanks = pgTable(
  'emi_banks',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    logoUrl: text('logo_url'),
    displayOrder: integer('display_order').notNull().default(0),
    isActive: boolean('is_active').notNull().default(true),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('emi_banks_active_order_idx').on(t.isActive, t.displayOrder),
    check('emi_banks_name_not_blank', sql`length(btrim(${t.name})) > 0`),
  ],
);

/** A shopper's request to buy a product on instalments; the product's title and `sp` are snapshots. */
export const emiInquiries = pgTable(
  'emi_inquiries',
  {
    id: serial('id').primaryKey(),
    productId: integer('product_id')
      .notNull()
      .references(() => products.id),
    productTitle: text('product_title').notNull(),
    productSp: integer('product_sp').notNull(),
    customerName: text('customer_name').notNull(),
    customerEmail: text('customer_email').notNull(),
    customerMobile: text('customer_mobile').notNull(),
    hasCreditCard: boolean('has_credit_card').notNull(),
    downPaymentAmount: integer('down_payment_amount').notNull(),
    message: text('message'),
    status: text('status', { enum: EMI_INQUIRY_STATUSES }).notNull().default('new'),
    statusNote: text('status_note'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('emi_inquiries_status_created_idx').on(t.status, t.createdAt),
    index('emi_inquiries_created_idx').on(t.createdAt),
    check('emi_inquiries_down_payment_not_negative', sql`${t.downPaymentAmount} >= 0`),
    check(
      'emi_inquiries_status_valid',
      sql`${t.status} in ('new', 'contacted', 'approved', 'rejected', 'closed')`,
    ),
  ],
);

/** The banks an inquiry chose (a deactivated bank keeps its links). */
export const emiInquiryBanks = pgTable(
  'emi_inquiry_banks',
  {
    inquiryId: integer('inquiry_id')
      .notNull()
      .references(() => emiInquiries.id, { onDelete: 'cascade' }),
    bankId: integer('bank_id')
      .notNull()
      .references(() => emiBanks.id),
  },
  (t) => [primaryKey({ columns: [t.inquiryId, t.bankId] }), index('emi_inquiry_banks_bank_idx').on(t.bankId)],
);
