// Client calls on a socket: `socket.emit(event, payload, ack)` answered through the ack with
// `{ ok: true, … }` or `{ ok: false, errorCode }` (docs/decisions.md, "Realtime calls"). Every call
// is validated, and every failure becomes an answer: a handler that throws must neither
// crash the process nor leave the client waiting for an ack that never comes.
import type { z } from 'zod';
import { AppError } from '../http/errors';
import type { RealtimeSocket } from './realtime';

export type CallAnswer = ({ ok: true } & Record<string, unknown>) | { ok: false; errorCode: string };

export interface CallLog {
  error(fields: Record<string, unknown>, message: string): void;
}

/**
 * Adds the handler of client event `event` to `socket`. `payload` validates the first
 * argument (a failure answers VALIDATION_ERROR); the handler's result is spread into the
 * `ok: true` answer; an AppError answers its errorCode, anything else INTERNAL_ERROR (logged).
 */
export function onCall<S extends z.ZodType, R extends Record<string, unknown>>(
  socket: RealtimeSocket,
  event: string,
  payload: S,
  handler: (input: z.output<S>) => Promise<R>,
  log: CallLog,
): void {
  socket.on(event as never, async (...args: unknown[]) => {
    // A client that emits without an ack gets no answer, but the call still runs (a leave, say).
    const last = args.at(-1);
    const ack = typeof last === 'function' ? (last as (answer: CallAnswer) => void) : () => {};
    const input = typeof last === 'function' ? args.slice(0, -1) : args;
    ack(await answer(event, socket, payload, handler, log, input[0]));
  });
}

async function answer<S extends z.ZodType, R extends Record<string, unknown>>(
  event: string,
  socket: RealtimeSocket,
  payload: S,
  handler: (input: z.output<S>) => Promise<R>,
  log: CallLog,
  raw: unknown,
): Promise<CallAnswer> {
  const parsed = payload.safeParse(raw);
  if (!parsed.success) return { ok: false, errorCode: 'VALIDATION_ERROR' };
  try {
    return { ok: true, ...(await handler(parsed.data)) };
  } catch (error) {
    if (error instanceof AppError) return { ok: false, errorCode: error.errorCode };
    log.error({ err: error, socketId: socket.id, event }, 'realtime call failed');
    return { ok: false, errorCode: 'INTERNAL_ERROR' };
  }
}
