import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, text, timestamp, unique, uuid } from 'drizzle-orm/pg-core';
import { products } from '../products/products.table';

export const DIGITAL_KEY_STATUSES = ['available', 'assigned', 'revoked'] as const;
export type DigitalKeyStatus = (typeof DIGITAL_KEY_STATUSES)[number];

/**
 * Licence keys of a digital product. The value is encrypted (AES-256-GCM); a keyed digest of it
 * finds duplicates without decrypting, and a masked form is kept for lists.
 */
export const digitalKeys = pgTable(
  'digital_keys',
  {
    id: uuid('id').primaryKey(),
    productId: integer('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    valueEncrypted: text('value_encrypted').notNull(),
    /** HMAC-SHA256 of the value with a key derived from the server secret. */
    valueDigest: text('value_digest').notNull(),
    maskedValue: text('masked_value').notNull(),
    status: text('status').$type<DigitalKeyStatus>().notNull().default('available'),
    /** The order item the key was sold with; the orders module will own that table. */
    orderItemId: text('order_item_id'),
    assignedAt: timestamp('assigned_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    unique('digital_keys_product_digest_unique').on(t.productId, t.valueDigest),
    check('digital_keys_status_check', sql`${t.status} IN ('available', 'assigned', 'revoked')`),
    index('digital_keys_product_status_idx').on(t.productId, t.status, t.createdAt),
    index('digital_keys_order_item_idx').on(t.orderItemId),
  ],
);
