import { and, asc, desc, eq, gt, lt, sql } from 'drizzle-orm';
import type { Db } from '../../../platform/db/database';
import { supportEventRooms, supportEvents } from './support-events.table';

export type StoredSupportEvent = typeof supportEvents.$inferSelect;

/** The room's next seq; the upsert holds the room's counter row until the transaction ends. */
export async function allocateSeq(tx: Db, room: string): Promise<number> {
  const [row] = await tx
    .insert(supportEventRooms)
    .values({ room, lastSeq: 1 })
    .onConflictDoUpdate({
      target: supportEventRooms.room,
      set: { lastSeq: sql`${supportEventRooms.lastSeq} + 1` },
    })
    .returning({ lastSeq: supportEventRooms.lastSeq });
  return row!.lastSeq;
}

export async function insertEvent(tx: Db, event: typeof supportEvents.$inferInsert): Promise<void> {
  await tx.insert(supportEvents).values(event);
}

/** The last seq the room has handed out (0 when it never had an event), kept or purged. */
export async function lastSeq(db: Db, room: string): Promise<number> {
  const [row] = await db
    .select({ lastSeq: supportEventRooms.lastSeq })
    .from(supportEventRooms)
    .where(eq(supportEventRooms.room, room));
  return row?.lastSeq ?? 0;
}

export async function latestEvent(db: Db, room: string): Promise<{ id: string; seq: number } | undefined> {
  const [row] = await db
    .select({ id: supportEvents.id, seq: supportEvents.seq })
    .from(supportEvents)
    .where(eq(supportEvents.room, room))
    .orderBy(desc(supportEvents.seq))
    .limit(1);
  return row;
}

/** The oldest kept seq of the room: purging removes the oldest, so kept seqs run without holes from here. */
export async function oldestKeptSeq(db: Db, room: string): Promise<number | undefined> {
  const [row] = await db
    .select({ seq: supportEvents.seq })
    .from(supportEvents)
    .where(eq(supportEvents.room, room))
    .orderBy(asc(supportEvents.seq))
    .limit(1);
  return row?.seq;
}

export async function findEventSeq(db: Db, room: string, eventId: string): Promise<number | undefined> {
  const [row] = await db
    .select({ seq: supportEvents.seq })
    .from(supportEvents)
    .where(and(eq(supportEvents.room, room), eq(supportEvents.id, eventId)));
  return row?.seq;
}

export async function eventsAfter(
  db: Db,
  room: string,
  afterSeq: number,
  limit: number,
): Promise<StoredSupportEvent[]> {
  return db
    .select()
    .from(supportEvents)
    .where(and(eq(supportEvents.room, room), gt(supportEvents.seq, afterSeq)))
    .orderBy(asc(supportEvents.seq))
    .limit(limit);
}

export async function deleteEventsBefore(db: Db, before: Date): Promise<number> {
  const deleted = await db
    .delete(supportEvents)
    .where(lt(supportEvents.occurredAt, before))
    .returning({ id: supportEvents.id });
  return deleted.length;
}
