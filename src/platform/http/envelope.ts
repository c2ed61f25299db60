// The success envelope `{ message, data, meta? }` of the interface, and zod builders for the
// response schemas so every route documents (and is checked against) the same shape.
import type { FastifyReply } from 'fastify';
import { z } from 'zod';

export interface Envelope<T, M = undefined> {
  message: string;
  data: T;
  meta?: M;
}

export function ok<T>(data: T, message = 'OK'): Envelope<T> {
  return { message, data };
}

export function okWithMeta<T, M>(data: T, meta: M, message = 'OK'): Envelope<T, M> & { meta: M } {
  return { message, data, meta };
}

export const envelopeSchema = <T extends z.ZodType>(data: T) => z.object({ message: z.string(), data });

export const pageMetaSchema = z.object({
  count: z.number().int().describe('Total matching rows'),
  page: z.number().int().optional(),
  size: z.number().int().optional(),
});

export const listEnvelopeSchema = <T extends z.ZodType>(item: T) =>
  z.object({ message: z.string(), data: z.array(item), meta: pageMetaSchema });

/**
 * The JSON text of `value` as `schema` would serialise it (checked and stripped the same way):
 * for responses cached as text, so a cache hit costs no parsing, checking or serialising.
 */
export function serializedWith<T extends z.ZodType>(schema: T, value: z.output<T>): string {
  // Parsed, not encoded: the same value for these transform-free schemas, and the fast path
  // (see serializer.ts).
  return JSON.stringify(z.parse(schema, value));
}

/**
 * Sends the success envelope around `dataJson`, JSON text made by `serializedWith` with the
 * route's data schema. A string with a JSON content type skips Fastify's serialiser.
 */
export function sendSerialized(reply: FastifyReply, message: string, dataJson: string): FastifyReply {
  reply.type('application/json; charset=utf-8');
  return reply.send(`{"message":${JSON.stringify(message)},"data":${dataJson}}`);
}

/** `{ data, meta }` of a paginated list, for lists cached as text (`sendSerializedPage`). */
export const pageSchema = <T extends z.ZodType>(item: T) =>
  z.object({ data: z.array(item), meta: pageMetaSchema });

/** Sends the list envelope around `pageJson`, the text of `{ data, meta }` made by `serializedWith(pageSchema(…))`. */
export function sendSerializedPage(reply: FastifyReply, message: string, pageJson: string): FastifyReply {
  reply.type('application/json; charset=utf-8');
  return reply.send(`{"message":${JSON.stringify(message)},${pageJson.slice(1)}`);
}
