import { sql } from 'drizzle-orm';
import type { Db } from '../../../platform/db/database';
import { supportEventRooms, supportEvents } from './support-events.table';

export type StoredSupportEvent = typeof supportEvents.$inferSelect;

/** The room's next seq; the upsert holds the room's counter row until the transaction ends. */
export async function allocateSeq(tx: Db, room: string): Promise<number> {
  const [row] = await tx
    .insert(supportEventRooms)
    .values({ room, lastSeq: 1 })
    .onConflictDoUpdate({ target: supportEventRooms.room, set: { lastSeq: sql`${supportEventRooms.lastSeq} + 1` } })
    .returning({ lastSeq: supportEventRooms.lastSeq });
  return row!.lastSeq;
}

export async function insertEvent(tx: Db, event: typeof supportEvents.$inferInsert): Promise<void> {
  await tx.insert(supportEvents).values(event);
}
