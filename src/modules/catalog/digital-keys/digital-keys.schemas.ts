import { z } from 'zod';
import { listQuery } from '../../../platform/http/pagination';
import { intId, uuidId } from '../../../platform/http/params';
import { DIGITAL_KEY_STATUSES } from './digital-keys.table';

export const MAX_KEYS_PER_REQUEST = 5000;
const keyValue = z.string().max(500);

export const addDigitalKeysBody = z.union([
  z.strictObject({ keys: z.array(keyValue).min(1).max(MAX_KEYS_PER_REQUEST) }),
  z.strictObject({
    text: z
      .string()
      .min(1)
      .max(MAX_KEYS_PER_REQUEST * 100)
      .describe('One key a line'),
  }),
]);
export type AddDigitalKeysBody = z.output<typeof addDigitalKeysBody>;

export const addedDigitalKeys = z
  .object({
    added: z.number().int(),
    duplicates: z.number().int().describe('Keys already stored for the product, or repeated in the payload'),
  })
  .meta({ id: 'AddedDigitalKeys' });
export type AddedDigitalKeys = z.infer<typeof addedDigitalKeys>;

export const digitalKey = z
  .object({
    id: z.uuid(),
    maskedValue: z.string(),
    status: z.enum(DIGITAL_KEY_STATUSES),
    orderItemId: z.string().nullable(),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: 'DigitalKey' });
export type DigitalKeyView = z.infer<typeof digitalKey>;

export const digitalKeyListQuery = listQuery(['createdAt'] as const).extend({
  status: z.enum(DIGITAL_KEY_STATUSES).optional(),
});
export type DigitalKeyListQuery = z.output<typeof digitalKeyListQuery>;

export const digitalKeyParams = z.object({ id: intId, keyId: uuidId });
