import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';

export const PROVINCES = [
  'Koshi',
  'Madhesh',
  'Bagmati',
  'Gandaki',
  'Lumbini',
  'Karnali',
  'Sudurpashchim',
] as const;
export type Province = (typeof PROVINCES)[number];

/** Nepal's districts (seeded by a migration) and what the store charges to ship to each. */
export const shippingDistricts = pgTable(
  'shipping_districts',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull().unique(),
    province: text('province').$type<Province>().notNull(),
    /** Integer NPR. */
    shippingFee: integer('shipping_fee').notNull().default(0),
    /** Inactive until the store sets it up: customers only see districts it ships to. */
    isActive: boolean('is_active').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('shipping_districts_fee_check', sql`${t.shippingFee} >= 0`),
    index('shipping_districts_province_idx').on(t.province),
  ],
);
