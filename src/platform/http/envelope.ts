// The success envelope `{ message, data, meta? }` of the interface, and zod builders for the
// response schemas so every route documents (and is checked against) the same shape.
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
