// The support rooms on the socket: join, leave and sync for ticket and inquiry rooms, and
// the daily purge of old events. A joined socket sits in the room's admin or visitor half
// (see `readerRoom`), so each reader receives the message as its REST detail shows it.
import { z } from 'zod';
import type { ModuleContext } from '../../../platform/module';
import { onCall } from '../../../platform/realtime/calls';
import type { RealtimeSocket } from '../../../platform/realtime/realtime';
import { readerRoom, type SupportEvents } from './support-events';
import { PURGE_SUPPORT_EVENTS_CRON, purgeSupportEventsJob } from './support-realtime.jobs';
import {
  assertRoomReadable,
  inquiryRooms,
  latestOf,
  type RoomKind,
  readerOf,
  requestRooms,
  syncRoom,
} from './support-realtime.service';

// Socket payloads are JSON: ids are numbers, not the digit strings of a URL path.
const id = z.number().int().min(1).max(2_147_483_647);
const position = {
  afterEventId: z.uuid().optional(),
  afterSeq: z.number().int().min(0).optional(),
};
const onlyOnePosition = [
  (p: { afterEventId?: string; afterSeq?: number }) =>
    p.afterEventId === undefined || p.afterSeq === undefined,
  'give afterEventId or afterSeq, not both',
] as const;

const requestCalls = {
  call: z.object({ supportRequestId: id }).transform((p) => ({ id: p.supportRequestId })),
  sync: z
    .object({ supportRequestId: id, ...position })
    .refine(...onlyOnePosition)
    .transform(({ supportRequestId, ...at }) => ({ id: supportRequestId, at })),
};
const inquiryCalls = {
  call: z.object({ supportInquiryId: id }).transform((p) => ({ id: p.supportInquiryId })),
  sync: z
    .object({ supportInquiryId: id, ...position })
    .refine(...onlyOnePosition)
    .transform(({ supportInquiryId, ...at }) => ({ id: supportInquiryId, at })),
};

/**
 * Socket handlers of the support rooms, and the purge of events past the retention. The
 * events themselves are written by the message writes, through `events` (its store is the
 * one `sync` reads here).
 */
export async function registerSupportRealtime(ctx: ModuleContext, _events: SupportEvents): Promise<void> {
  const { db, log } = ctx;
  const purge = purgeSupportEventsJob({
    db,
    clock: ctx.clock,
    retentionDays: ctx.config.SUPPORT_EVENTS_RETENTION_DAYS,
  });
  ctx.jobs.register(purge);
  await ctx.jobs.schedule(purge, PURGE_SUPPORT_EVENTS_CRON, {});

  ctx.realtime.onConnection((socket) => {
    roomCalls(socket, 'request', requestRooms, requestCalls);
    roomCalls(socket, 'inquiry', inquiryRooms, inquiryCalls);
  });

  function roomCalls(
    socket: RealtimeSocket,
    name: 'request' | 'inquiry',
    kind: RoomKind,
    schemas: typeof requestCalls | typeof inquiryCalls,
  ) {
    // The actor never changes on a socket, so neither does the half of a room it reads.
    const reader = readerOf(socket.data.principal);
    onCall(
      socket,
      `support:join_${name}_messages`,
      schemas.call,
      async ({ id }) => {
        // Not the handshake's principal: a session revoked since then joins nothing more.
        await assertRoomReadable(db, kind, await ctx.realtime.currentPrincipal(socket), id);
        const room = kind.room(id);
        // Join before reading the latest id: an event committed in between is then delivered
        // live and counted in the latest, never missed.
        await socket.join(readerRoom(room, reader));
        return { room, ...(await latestOf(db, room)) };
      },
      log,
    );
    // Leaving needs no access check: it reveals nothing and only ever removes this socket.
    onCall(
      socket,
      `support:leave_${name}_messages`,
      schemas.call,
      async ({ id }) => {
        const room = kind.room(id);
        await socket.leave(readerRoom(room, reader));
        return { room };
      },
      log,
    );
    onCall(
      socket,
      `support:sync_${name}_messages`,
      schemas.sync,
      async ({ id, at }) => {
        await assertRoomReadable(db, kind, await ctx.realtime.currentPrincipal(socket), id);
        return syncRoom(db, kind.room(id), reader, at);
      },
      log,
    );
  }
}
