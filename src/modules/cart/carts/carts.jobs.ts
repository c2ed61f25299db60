import { z } from 'zod';
import { inTransaction } from '../../../platform/db/transaction';
import { defineJob } from '../../../platform/jobs/jobs';
import type { ModuleContext } from '../../../platform/module';
import { clearCartAfterOrder } from './carts.checkout';
import { expireIdleCarts } from './carts.service';

/** Every minute: carts idle for CART_EXPIRE_IDLE_MS give back their reserved stock. */
export const EXPIRE_CARTS_CRON = '* * * * *';

export const expireCartsJob = (deps: Pick<ModuleContext, 'db' | 'cache' | 'clock'>) =>
  defineJob({
    name: 'cart.expire',
    payload: z.object({}),
    attempts: 1,
    handler: async () => {
      await expireIdleCarts(deps, deps.clock.now());
    },
  });

export const clearAfterOrderPayload = z.object({
  customerId: z.uuid(),
  orderId: z.union([z.string().min(1), z.number().int()]),
});
export type ClearAfterOrderPayload = z.infer<typeof clearAfterOrderPayload>;

/** Enqueued by orders when an order is paid or COD confirmed: the cart it came from ends. */
export const clearAfterOrderJob = (deps: Pick<ModuleContext, 'db' | 'cache' | 'clock'>) =>
  defineJob({
    name: 'cart.clear_after_order_confirmed',
    payload: clearAfterOrderPayload,
    handler: async (payload) => {
      await inTransaction(deps.db, (tx, afterCommit) =>
        clearCartAfterOrder(deps, tx, afterCommit, { ...payload, at: deps.clock.now() }),
      );
    },
  });
