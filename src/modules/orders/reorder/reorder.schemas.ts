import { z } from 'zod';
import { intId } from '../../../platform/http/params';

export const reorderParams = z.object({ orderId: intId });

export const reorderBody = z
  .object({
    productIds: z
      .array(intId)
      .min(1)
      .max(100)
      .optional()
      .describe('Products of the order to put back in the cart; all of its physical products when left out'),
  })
  .nullish();
export type ReorderBody = z.output<typeof reorderBody>;

export const reorderView = z.object({
  cartId: z.string(),
  addedItems: z.array(
    z.object({
      productId: z.number().int(),
      productTitle: z.string(),
      quantity: z.number().int().describe('Units this reorder added (the cart line may hold more)'),
      unitSp: z.number().int().describe("The cart line's unitSp: today's sale price, 0 when none"),
    }),
  ),
  totalCartItems: z.number().int().describe('Units in the cart afterwards'),
});
export type ReorderView = z.infer<typeof reorderView>;
