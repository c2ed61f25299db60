// The success envelope `{ message, data, meta? }` of the interface, and zod builders for the
// response schemas so every route documents (and is checked against) the same shape.
import type { FastifyReply } from 'fastify';
import { LRUCache } from 'lru-cache';
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

// Cached answers go out as bytes made once per text. One character outside Latin-1 (a Nepali
// word) makes the whole JSON text a two-byte string, and encoding the 6.6 KB demo home page to
// UTF-8 on every request was a quarter of a cached content page's CPU (writeUtf8String in a
// profile). Keyed by the cached text: the caches hand out the same string while it is current,
// so a hit costs little more than a pointer comparison; a changed text is a new entry and the
// old one ages out. The size cap bounds what a catalog of many search pages can hold.
// `head`: the bytes end where an answer's servedAt goes (`sendSerializedServed`).
const envelopeBytes = new LRUCache<string, { message: string; head: boolean; bytes: Buffer }>({
  maxSize: 16 * 1024 * 1024,
  sizeCalculation: (entry, key) => entry.bytes.length + key.length,
});

/** The bytes of an envelope around `json`, encoded on the first answer that carries this text. */
function encodedOnce(json: string, message: string, head: boolean, envelope: () => string): Buffer {
  let entry = envelopeBytes.get(json);
  if (entry?.message !== message || entry.head !== head) {
    entry = { message, head, bytes: Buffer.from(envelope(), 'utf8') };
    envelopeBytes.set(json, entry);
  }
  return entry.bytes;
}

/** Sends JSON already made (text or its bytes) as it is: Fastify's serialiser is skipped. */
function sendJson(reply: FastifyReply, body: string | Buffer): FastifyReply {
  reply.type('application/json; charset=utf-8');
  return reply.send(body);
}

const envelopeText = (message: string, dataJson: string) =>
  `{"message":${JSON.stringify(message)},"data":${dataJson}}`;

/**
 * Sends the success envelope around `dataJson`, JSON text made by `serializedWith` with the
 * route's data schema, as bytes encoded once (Fastify's serialiser is skipped).
 */
export function sendSerialized(reply: FastifyReply, message: string, dataJson: string): FastifyReply {
  return sendJson(
    reply,
    encodedOnce(dataJson, message, false, () => envelopeText(message, dataJson)),
  );
}

/**
 * `sendSerialized` for an answer cached per person (a customer's cart): its text changes with
 * every change of theirs and is seen by one client, so its bytes are not kept.
 */
export function sendSerializedText(reply: FastifyReply, message: string, dataJson: string): FastifyReply {
  return sendJson(reply, envelopeText(message, dataJson));
}

/**
 * `sendSerialized` for an answer whose cached `dataJson` (an object's text) gains the time it is
 * served: `{…}` goes out as `{…,"servedAt":"…"}`. The cached part is sent as bytes encoded once,
 * the time appended to them (ASCII, so its bytes are its characters).
 */
export function sendSerializedServed(
  reply: FastifyReply,
  message: string,
  dataJson: string,
  servedAt: string,
): FastifyReply {
  const head = encodedOnce(
    dataJson,
    message,
    true,
    () => `{"message":${JSON.stringify(message)},"data":${dataJson.slice(0, -1)},"servedAt":"`,
  );
  return sendJson(reply, Buffer.concat([head, Buffer.from(`${servedAt}"}}`, 'latin1')]));
}

/** `{ data, meta }` of a paginated list, for lists cached as text (`sendSerializedPage`). */
export const pageSchema = <T extends z.ZodType>(item: T) =>
  z.object({ data: z.array(item), meta: pageMetaSchema });

const pageEnvelopeText = (message: string, pageJson: string) =>
  `{"message":${JSON.stringify(message)},${pageJson.slice(1)}`;

/** Sends the list envelope around `pageJson`, the text of `{ data, meta }` made by `serializedWith(pageSchema(…))`. */
export function sendSerializedPage(reply: FastifyReply, message: string, pageJson: string): FastifyReply {
  return sendJson(
    reply,
    encodedOnce(pageJson, message, false, () => pageEnvelopeText(message, pageJson)),
  );
}

/** `sendSerializedPage` for lists cached per person or changing often (orders): bytes not kept. */
export function sendSerializedPageText(reply: FastifyReply, message: string, pageJson: string): FastifyReply {
  return sendJson(reply, pageEnvelopeText(message, pageJson));
}
