// The contract between support's REST writes and its realtime rooms: a message write calls
// `publishMessage` inside its transaction; the event is stored with the room's next seq (so a
// reconnecting client can `sync` what it missed) and emitted to the room once committed.
import type { Clock } from '../../../platform/clock';
import type { Db } from '../../../platform/db/database';
import type { AfterCommit } from '../../../platform/db/transaction';
import { newUuid } from '../../../platform/ids';
import type { Realtime } from '../../../platform/realtime/realtime';
import { allocateSeq, insertEvent } from './support-events.repository';

export const inquiryRoom = (inquiryId: number) => `support:inquiry:${inquiryId}:messages`;
export const requestRoom = (requestId: number) => `support:request:${requestId}:messages`;

export type SupportEventType = 'support.inquiry_message.created' | 'support.request_message.created';

/** Who reads an event decides which view of the message it carries. */
export type SupportReader = 'admin' | 'visitor';

/**
 * The Socket.IO room a joined socket is really in. Admins and visitors of one public room get
 * different views of the same message, so each public room is two internal rooms.
 */
export const readerRoom = (room: string, reader: SupportReader): `${string}#${SupportReader}` =>
  `${room}#${reader}`;

declare module '../../../platform/realtime/realtime' {
  interface RealtimeRooms {
    /** A conversation's admin or visitor half (`readerRoom`). */
    'support-reader': `${string}#${SupportReader}`;
  }
  interface RealtimeEvents {
    'support.inquiry_message.created': SupportEventEnvelope;
    'support.request_message.created': SupportEventEnvelope;
  }
}

export interface SupportMessageEvent {
  room: string;
  eventType: SupportEventType;
  /** The message as the admin REST detail shows it, plus its parent id. */
  forAdmin: Record<string, unknown>;
  /** The same message as the customer or guest REST detail shows it, plus its parent id. */
  forVisitor: Record<string, unknown>;
}

/** What clients receive, live (event name = eventType) and from `sync`. */
export interface SupportEventEnvelope {
  eventId: string;
  eventType: SupportEventType;
  occurredAt: string;
  seq: number;
  data: Record<string, unknown>;
}

export interface SupportEvents {
  /** Call INSIDE the message's transaction: stores the event with the next per-room seq;
   *  emits it to the room's sockets after commit. */
  publishMessage(
    tx: Db,
    afterCommit: AfterCommit,
    event: SupportMessageEvent,
  ): Promise<{ eventId: string; seq: number }>;
}

export function createSupportEvents(deps: { realtime: Realtime; clock: Clock }): SupportEvents {
  return {
    async publishMessage(tx, afterCommit, event) {
      const seq = await allocateSeq(tx, event.room);
      const eventId = newUuid();
      const occurredAt = deps.clock.now();
      await insertEvent(tx, {
        id: eventId,
        room: event.room,
        seq,
        eventType: event.eventType,
        occurredAt,
        dataForAdmin: event.forAdmin,
        dataForVisitor: event.forVisitor,
      });
      afterCommit(() => {
        const base = { eventId, eventType: event.eventType, occurredAt: occurredAt.toISOString(), seq };
        const forAdmin: SupportEventEnvelope = { ...base, data: event.forAdmin };
        const forVisitor: SupportEventEnvelope = { ...base, data: event.forVisitor };
        deps.realtime.emitToRoom(readerRoom(event.room, 'admin'), event.eventType, forAdmin);
        deps.realtime.emitToRoom(readerRoom(event.room, 'visitor'), event.eventType, forVisitor);
      });
      return { eventId, seq };
    },
  };
}
