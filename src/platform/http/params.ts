// Path ids: a bad one is a validation error (decisions.md, "Ids in paths"), never a 404 or 500.
import { z } from 'zod';

export const intId = z.coerce
  .number({ error: 'must be a positive integer' })
  .int('must be a positive integer')
  .min(1, 'must be a positive integer')
  .max(2_147_483_647, 'must be a positive integer');
export const uuidId = z.uuid({ error: 'must be a uuid' });

export const intIdParams = z.object({ id: intId });
export const uuidIdParams = z.object({ id: uuidId });
