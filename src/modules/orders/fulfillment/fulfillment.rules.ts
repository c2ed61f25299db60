// The fulfilment state machine (commerce interface, "Fulfillment"), as pure functions: the
// service checks a move with `checkFulfillmentMove` before it writes, and the database holds the
// same (from, to) pairs in a CHECK constraint built from `ALLOWED_FULFILLMENT_MOVES`, so a
// write that slips past the service is still refused.

export const ORDER_TYPES = ['digital', 'physical', 'care_package', 'mixed'] as const;
export type OrderType = (typeof ORDER_TYPES)[number];

export const FULFILLMENT_STATUSES = [
  'received',
  'ready',
  'picked_up',
  'in_transit',
  'delivered',
  'key_sent',
  'activated',
  'cancelled',
] as const;
export type FulfillmentStatus = (typeof FULFILLMENT_STATUSES)[number];

/** Each path in order; one step forward at a time. A mixed order follows the physical path. */
export const FULFILLMENT_PATHS: Record<OrderType, readonly FulfillmentStatus[]> = {
  physical: ['received', 'ready', 'picked_up', 'in_transit', 'delivered'],
  mixed: ['received', 'ready', 'picked_up', 'in_transit', 'delivered'],
  digital: ['received', 'key_sent'],
  care_package: ['received', 'activated'],
};

const TERMINAL: ReadonlySet<FulfillmentStatus> = new Set(['delivered', 'key_sent', 'activated', 'cancelled']);

/**
 * Every (from, to) pair any order may take: one step along a path, or to `cancelled` from a
 * state that is not terminal. What the database's CHECK constraint allows.
 */
export const ALLOWED_FULFILLMENT_MOVES: ReadonlyArray<readonly [FulfillmentStatus, FulfillmentStatus]> =
  (() => {
    const pairs = new Map<string, readonly [FulfillmentStatus, FulfillmentStatus]>();
    for (const path of Object.values(FULFILLMENT_PATHS)) {
      path.forEach((from, i) => {
        const next = path[i + 1];
        if (next) pairs.set(`${from}>${next}`, [from, next]);
        if (!TERMINAL.has(from)) pairs.set(`${from}>cancelled`, [from, 'cancelled']);
      });
    }
    return [...pairs.values()];
  })();

export type FulfillmentMove =
  | { kind: 'move'; from: FulfillmentStatus; to: FulfillmentStatus }
  | { kind: 'skip'; reason: 'already_at_target_status' }
  | { kind: 'closed' }
  | { kind: 'invalid' };

/**
 * What asking an order of `orderType` at `current` to go to `target` means: a one-step move,
 * nothing to do (already there: success without history), a closed order (delivered or
 * cancelled), or a refused move (skip-ahead, backward, another path's state).
 */
export function checkFulfillmentMove(
  orderType: OrderType,
  current: FulfillmentStatus,
  target: FulfillmentStatus,
): FulfillmentMove {
  if (current === target) return { kind: 'skip', reason: 'already_at_target_status' };
  if (TERMINAL.has(current)) return { kind: 'closed' };
  const path = FULFILLMENT_PATHS[orderType];
  const at = path.indexOf(current);
  if (at >= 0 && path[at + 1] === target) return { kind: 'move', from: current, to: target };
  return { kind: 'invalid' };
}

export type FulfillmentAction = 'advance' | 'send-digital-delivery' | 'activate-care-package';

/** `eligibleFulfillmentActions` of the admin order detail (commerce interface table). */
export function eligibleFulfillmentActions(
  orderType: OrderType,
  status: FulfillmentStatus,
  hasPendingSubscription: boolean,
): FulfillmentAction[] {
  switch (orderType) {
    case 'physical':
    case 'mixed':
      return ['received', 'ready', 'picked_up', 'in_transit'].includes(status) ? ['advance'] : [];
    case 'digital':
      return status === 'received' ? ['send-digital-delivery'] : [];
    case 'care_package':
      return status === 'received' && hasPendingSubscription ? ['activate-care-package'] : [];
  }
}

const LABELS: Record<FulfillmentStatus, string> = {
  received: 'Order received',
  ready: 'Ready for dispatch',
  picked_up: 'Picked up',
  in_transit: 'In transit',
  delivered: 'Delivered',
  key_sent: 'Key sent',
  activated: 'Activated',
  cancelled: 'Cancelled',
};

/** `fulfillmentTimeline`: the order type's path, what is done, and where the order stands. */
export function fulfillmentTimeline(orderType: OrderType, status: FulfillmentStatus) {
  const path = FULFILLMENT_PATHS[orderType];
  const at = path.indexOf(status);
  return path.map((step, i) => ({
    status: step,
    label: LABELS[step],
    completed: at >= 0 && i <= at,
    current: i === at,
  }));
}

/** The CHECK constraint's condition over the history table's (from, to) columns. */
export function allowedMovesCheckSql(fromColumn: string, toColumn: string): string {
  return ALLOWED_FULFILLMENT_MOVES.map(
    ([from, to]) => `(${fromColumn} = '${from}' and ${toColumn} = '${to}')`,
  ).join(' or ');
}
