// The interface's polling contract for async order commands (cancel, refund decisions,
// fulfilment moves): wait 1–2 s, read the request, repeat while it is `pending`, give up after
// 30 s. Pure, so it is unit-tested (test/console/orders.test.ts).
import type { OrderRequest } from './orders-api';

export const FIRST_POLL_AFTER_MS = 1_000;
export const POLL_EVERY_MS = 1_000;
export const GIVE_UP_AFTER_MS = 30_000;

/**
 * A request is done when it completed, or failed only because the order was already where it
 * was asked to go (the interface counts `already_at_target_status` as success).
 */
export function requestSucceeded(request: Pick<OrderRequest, 'status' | 'error'>): boolean {
  return request.status === 'completed' || request.error === 'already_at_target_status';
}
