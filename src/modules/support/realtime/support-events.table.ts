import { index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';

/**
 * The last seq handed out per room. A counter row (not max(seq) of the kept events) so that
 * purging old events never lets a room's sequence start again, and so that concurrent
 * writers to one room queue on one row lock instead of racing for the same number.
 */
export const supportEventRooms = pgTable('support_event_rooms', {
  room: text('room').primaryKey(),
  lastSeq: integer('last_seq').notNull(),
});

/**
 * Message events kept for `sync` replay (SUPPORT_EVENTS_RETENTION_DAYS). Each event keeps the
 * two views of the message: admins see internal ids, customers and guests do not.
 */
export const supportEvents = pgTable(
  'support_events',
  {
    /** The event's id (uuid v7), the `eventId` clients resume from. */
    id: uuid('id').primaryKey(),
    room: text('room').notNull(),
    seq: integer('seq').notNull(),
    eventType: text('event_type').notNull(),
    occurredAt: timestamp('occurred_at', { withTimezone: true }).notNull(),
    dataForAdmin: jsonb('data_for_admin').$type<Record<string, unknown>>().notNull(),
    dataForVisitor: jsonb('data_for_visitor').$type<Record<string, unknown>>().notNull(),
  },
  (t) => [
    uniqueIndex('support_events_room_seq_unique').on(t.room, t.seq),
    index('support_events_occurred_at_idx').on(t.occurredAt),
  ],
);
