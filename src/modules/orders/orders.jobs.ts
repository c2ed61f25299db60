import { z } from 'zod';
import { defineJob } from '../../platform/jobs/jobs';
import { cancelOrder, type OrderDeps, processRefund } from './orders.commands';
import { historyNote } from './orders.history-notes';
import * as repo from './orders.repository';

export const cancelPayload = z.object({
  orderId: z.number().int(),
  reason: z.string().nullish(),
  cancelledBy: z.string(),
  cancelledByActorType: z.enum(['customer', 'admin', 'system']),
  requestId: z.string(),
});

/** `order.cancel`: the async cancel a customer (or admin) asked for; ends its request. */
export const cancelJob = (deps: OrderDeps) =>
  defineJob({
    name: 'order.cancel',
    payload: cancelPayload,
    handler: async (p) => {
      await cancelOrder(deps, {
        orderId: p.orderId,
        reason: p.reason,
        actorType: p.cancelledByActorType,
        actorId: p.cancelledBy,
        requestId: p.requestId,
      });
    },
  });

export const processRefundPayload = z.object({
  orderId: z.number().int(),
  adminId: z.string(),
  action: z.enum(['approve', 'reject']),
  remarks: z.string(),
  /** Revoke the order's delivered licence keys with the approval (absent in jobs queued before it existed). */
  revokeKeys: z.boolean().default(false),
  requestId: z.string(),
});

/** `order.process_refund`: an admin's decision on a refund request; ends its request. */
export const processRefundJob = (deps: OrderDeps) =>
  defineJob({
    name: 'order.process_refund',
    payload: processRefundPayload,
    handler: async (p) => {
      await processRefund(deps, p);
    },
  });

/**
 * `order.auto_cancel`: an online order left unpaid past ORDER_PAYMENT_TIMEOUT_MINUTES.
 * `beforeCancel` is the payments module's last check with the provider (it may pay the order).
 */
export const autoCancelJob = (deps: OrderDeps & { beforeCancel?: (orderId: number) => Promise<void> }) =>
  defineJob({
    name: 'order.auto_cancel',
    payload: z.object({ orderId: z.number().int(), reason: z.string() }),
    handler: async (p) => {
      await deps.beforeCancel?.(p.orderId);
      await cancelOrder(deps, {
        orderId: p.orderId,
        reason: p.reason,
        ...(p.reason === 'payment_timeout' ? { note: historyNote('payment_timeout') } : {}),
        actorType: 'system',
        onlyUnpaidOnline: true,
      });
    },
  });

/** Every minute: finds unpaid online orders past their time and queues `order.auto_cancel` for each. */
export const EXPIRE_UNPAID_CRON = '* * * * *';

export async function queueUnpaidOrderCancels(deps: OrderDeps): Promise<number> {
  const before = new Date(deps.clock.now().getTime() - deps.config.ORDER_PAYMENT_TIMEOUT_MINUTES * 60_000);
  const ids = await repo.unpaidOnlineOrders(deps.db, before, 500);
  const job = autoCancelJob(deps);
  for (const orderId of ids) {
    await deps.jobs.enqueue(job, { orderId, reason: 'payment_timeout' }, { jobId: String(orderId) });
  }
  return ids.length;
}

export const expireUnpaidJob = (deps: OrderDeps) =>
  defineJob({
    name: 'order.expire_unpaid',
    payload: z.object({}),
    attempts: 1,
    handler: async () => {
      await queueUnpaidOrderCancels(deps);
    },
  });
