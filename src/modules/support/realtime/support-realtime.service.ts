// Join and sync for the support rooms. Access is decided by the same checks as the REST
// routes (assertInquiryReadable, assertRequestReadable), plus the admin's READ permission.
import type { Principal } from '../../../platform/auth/principal';
import type { Db } from '../../../platform/db/database';
import { httpErrors } from '../../../platform/http/errors';
import { assertInquiryReadable } from '../inquiries/inquiries.access';
import { assertRequestReadable } from '../requests/requests.access';
import { inquiryPermissions, requestPermissions } from '../support.permissions';
import {
  inquiryRoom,
  requestRoom,
  type SupportEventEnvelope,
  type SupportEventType,
  type SupportReader,
} from './support-events';
import * as repo from './support-events.repository';

/** At most this many events per sync answer; `hasMore` tells the client to ask again from the last seq. */
export const SYNC_LIMIT = 200;

export interface RoomKind {
  room(id: number): string;
  permission: string;
  assertReadable(db: Db, principal: Principal, id: number): Promise<void>;
}

export const requestRooms: RoomKind = {
  room: requestRoom,
  permission: requestPermissions.READ,
  assertReadable: assertRequestReadable,
};
export const inquiryRooms: RoomKind = {
  room: inquiryRoom,
  permission: inquiryPermissions.READ,
  assertReadable: assertInquiryReadable,
};

export const readerOf = (principal: Principal): SupportReader =>
  principal.actor === 'admin' ? 'admin' : 'visitor';

/** Throws the AppError the REST route would answer when `principal` may not read the room. */
export async function assertRoomReadable(
  db: Db,
  kind: RoomKind,
  principal: Principal,
  id: number,
): Promise<void> {
  if (principal.actor === 'admin' && !principal.permissions.has(kind.permission)) {
    throw httpErrors.permissionDenied(kind.permission);
  }
  await kind.assertReadable(db, principal, id);
}

export async function latestOf(db: Db, room: string) {
  const latest = await repo.latestEvent(db, room);
  return { latestEventId: latest?.id ?? null, latestSeq: latest?.seq ?? null };
}

/**
 * Where a replay starts and whether the client missed events it can no longer get.
 * `afterSeq` undefined: the client named an event the room does not keep (purged, unknown, or
 * of another room). Kept seqs run without holes from `oldestKeptSeq` up to `lastSeq`, since the
 * purge removes the oldest first; whatever lies between the position and them is gone.
 */
export function replayFrom(p: {
  afterSeq: number | undefined;
  lastSeq: number;
  oldestKeptSeq: number | undefined;
}): {
  after: number;
  gap: boolean;
} {
  // An unknown event, or a seq the room never reached: the client's state is not ours, so
  // it gets everything kept and is told to reload.
  if (p.afterSeq === undefined || p.afterSeq > p.lastSeq) return { after: 0, gap: true };
  const missing =
    p.afterSeq < p.lastSeq && (p.oldestKeptSeq === undefined || p.oldestKeptSeq > p.afterSeq + 1);
  return { after: p.afterSeq, gap: missing };
}

export interface SyncPosition {
  afterEventId?: string;
  afterSeq?: number;
}

/**
 * The events of `room` after the client's position, oldest first, in `reader`'s view.
 * `gap` is true when events just after that position are no longer kept (purged), when the
 * position is an event id the room does not keep, or a seq the room never reached: the
 * client cannot be sure it has everything, and reloads the messages through REST.
 */
export async function syncRoom(db: Db, room: string, reader: SupportReader, position: SyncPosition) {
  // One snapshot: a purge or a new message between these reads would otherwise hide a gap
  // or report a latest event the replay does not hold.
  return db.transaction(
    async (tx) => {
      const found =
        position.afterEventId === undefined
          ? undefined
          : await repo.findEventSeq(tx, room, position.afterEventId);
      const { after, gap } = replayFrom({
        afterSeq: position.afterEventId === undefined ? (position.afterSeq ?? 0) : found,
        lastSeq: await repo.lastSeq(tx, room),
        oldestKeptSeq: await repo.oldestKeptSeq(tx, room),
      });
      const rows = await repo.eventsAfter(tx, room, after, SYNC_LIMIT + 1);
      const events: SupportEventEnvelope[] = rows.slice(0, SYNC_LIMIT).map((row) => ({
        eventId: row.id,
        eventType: row.eventType as SupportEventType,
        occurredAt: row.occurredAt.toISOString(),
        seq: row.seq,
        data: reader === 'admin' ? row.dataForAdmin : row.dataForVisitor,
      }));
      return { events, ...(await latestOf(tx, room)), gap, hasMore: rows.length > SYNC_LIMIT };
    },
    { isolationLevel: 'repeatable read', accessMode: 'read only' },
  );
}
