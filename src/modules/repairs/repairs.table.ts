import { sql } from 'drizzle-orm';
import {
  check,
  index,
  integer,
  pgTable,
  serial,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { brands } from '../catalog/taxonomy/taxonomy.table';
import { users } from '../identity/identity.table';
import { orderItems, orders } from '../orders/orders.table';
import { ALLOWED_PAIRS, REPAIR_STATUSES } from './repairs.rules';

export const COLLECTION_METHODS = ['pickup', 'dropoff'] as const;
export const SOURCE_TYPES = ['direct_booking', 'order'] as const;
export const REPAIR_ACTOR_TYPES = ['customer', 'admin'] as const;

const statusList = sql.raw(REPAIR_STATUSES.map((s) => `'${s}'`).join(', '));
const pairList = sql.raw(ALLOWED_PAIRS.map(([f, t]) => `('${f}', '${t}')`).join(', '));

/** A customer's repair ticket (free of charge). `publicId` is what customer routes use. */
export const repairRequests = pgTable(
  'repair_requests',
  {
    id: serial('id').primaryKey(),
    publicId: uuid('public_id').notNull(),
    ticketNumber: text('ticket_number').notNull(),
    customerId: uuid('customer_id')
      .notNull()
      .references(() => users.id),
    orderId: integer('order_id').references(() => orders.id),
    collectionMethod: text('collection_method', { enum: COLLECTION_METHODS }).notNull(),
    sourceType: text('source_type', { enum: SOURCE_TYPES }).notNull(),
    sharedDescription: text('shared_description').notNull(),
    status: text('status', { enum: REPAIR_STATUSES }).notNull().default('request_received'),
    adminNotes: text('admin_notes'),
    estimatedDeliveryAt: timestamp('estimated_delivery_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('repair_requests_public_id_unique').on(t.publicId),
    uniqueIndex('repair_requests_ticket_number_unique').on(t.ticketNumber),
    index('repair_requests_customer_created_idx').on(t.customerId, t.createdAt),
    index('repair_requests_status_created_idx').on(t.status, t.createdAt),
    index('repair_requests_created_idx').on(t.createdAt),
    check('repair_requests_ticket_number_format', sql`${t.ticketNumber} ~ '^TR-[0-9A-Z]{8}$'`),
    check('repair_requests_status_valid', sql`${t.status} in (${statusList})`),
  ],
);

/** One device of a request: a catalog brand or a brand name the customer typed, never both. */
export const repairRequestDevices = pgTable(
  'repair_request_devices',
  {
    id: serial('id').primaryKey(),
    repairRequestId: integer('repair_request_id')
      .notNull()
      .references(() => repairRequests.id, { onDelete: 'cascade' }),
    brandId: integer('brand_id').references(() => brands.id),
    customBrandName: text('custom_brand_name'),
    laptopModel: text('laptop_model').notNull(),
    problemDescription: text('problem_description').notNull(),
    orderItemId: integer('order_item_id').references(() => orderItems.id),
  },
  (t) => [
    index('repair_request_devices_request_idx').on(t.repairRequestId, t.id),
    check('repair_request_devices_one_brand', sql`(${t.brandId} is null) <> (${t.customBrandName} is null)`),
  ],
);

/** Each status move with its note and who made it; the CHECK refuses pairs outside the rules. */
export const repairRequestStatusHistory = pgTable(
  'repair_request_status_history',
  {
    id: serial('id').primaryKey(),
    repairRequestId: integer('repair_request_id')
      .notNull()
      .references(() => repairRequests.id, { onDelete: 'cascade' }),
    fromStatus: text('from_status', { enum: REPAIR_STATUSES }).notNull(),
    toStatus: text('to_status', { enum: REPAIR_STATUSES }).notNull(),
    notes: text('notes'),
    actorType: text('actor_type', { enum: REPAIR_ACTOR_TYPES }).notNull(),
    actorId: uuid('actor_id').references(() => users.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('repair_request_status_history_request_idx').on(t.repairRequestId, t.id),
    check(
      'repair_request_status_history_pair_allowed',
      sql`(${t.fromStatus}, ${t.toStatus}) in (${pairList})`,
    ),
  ],
);
