import { pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/** The last time each recurring job ran: operators see from it that workers are alive. */
export const systemHeartbeats = pgTable('system_heartbeats', {
  name: text('name').primaryKey(),
  beatAt: timestamp('beat_at', { withTimezone: true }).notNull(),
});
