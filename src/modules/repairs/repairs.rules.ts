// The repair request's state machine (docs/decisions.md, "Repair statuses") as data: the admin's
// allowed moves, the customer's one move, and the SQL the history table's CHECK is built from.
export const REPAIR_STATUSES = [
  'request_received',
  'picked_up',
  'dropped_off',
  'under_repair',
  'repaired',
  'unrepairable',
  'returned',
  'cancelled',
] as const;
export type RepairStatus = (typeof REPAIR_STATUSES)[number];

/** Where an admin may move a request from each status. `returned` and `cancelled` are final. */
export const ADMIN_TRANSITIONS: Record<RepairStatus, readonly RepairStatus[]> = {
  request_received: ['picked_up', 'dropped_off', 'cancelled'],
  picked_up: ['under_repair', 'cancelled'],
  dropped_off: ['under_repair', 'cancelled'],
  under_repair: ['repaired', 'unrepairable'],
  repaired: ['returned'],
  unrepairable: ['returned'],
  returned: [],
  cancelled: [],
};

/** The only status a customer may cancel from. */
export const CUSTOMER_CANCELLABLE: RepairStatus = 'request_received';

export const canAdminMove = (from: RepairStatus, to: RepairStatus): boolean =>
  ADMIN_TRANSITIONS[from].includes(to);

/** Every (from, to) pair a history row may record: the admin's moves (the customer's cancel is one of them). */
export const ALLOWED_PAIRS: Array<[RepairStatus, RepairStatus]> = REPAIR_STATUSES.flatMap((from) =>
  ADMIN_TRANSITIONS[from].map((to): [RepairStatus, RepairStatus] => [from, to]),
);

/** What a customer reads in a notification. */
export const STATUS_LABELS: Record<RepairStatus, string> = {
  request_received: 'Request received',
  picked_up: 'Picked up',
  dropped_off: 'Dropped off',
  under_repair: 'Under repair',
  repaired: 'Repaired',
  unrepairable: 'Cannot be repaired',
  returned: 'Returned',
  cancelled: 'Cancelled',
};
