// The admin repair routes the repairs desk uses, typed from the generated client:
//   GET   /api/admin/repair-requests                 list (status, search, dates)
//   GET   /api/admin/repair-requests/{id}            one request with its history
//   PATCH /api/admin/repair-requests/{id}/status     a move (the customer is notified)
//   PATCH /api/admin/repair-requests/{id}/collection-method
//   PATCH /api/admin/repair-requests/{id}/notes      the staff's own notes
import type { operations, PasalClient, paths } from '@pasal/client';

type Data<Answer> = Answer extends { content: { 'application/json': { data: infer D } } } ? D : never;

export type RepairListQuery = NonNullable<operations['adminListRepairRequests']['parameters']['query']>;
export type RepairListItem = Data<paths['/api/admin/repair-requests']['get']['responses'][200]>[number];
export type RepairDetail = Data<paths['/api/admin/repair-requests/{id}']['get']['responses'][200]>;
export type RepairStatus = RepairListItem['status'];
export type CollectionMethod = RepairListItem['collectionMethod'];

type Exhaustive<All, Listed extends readonly All[]> = [Exclude<All, Listed[number]>] extends [never]
  ? Listed
  : never;

const statuses = [
  'request_received',
  'picked_up',
  'dropped_off',
  'under_repair',
  'repaired',
  'unrepairable',
  'returned',
  'cancelled',
] as const;
export const REPAIR_STATUSES: Exhaustive<RepairStatus, typeof statuses> = statuses;

const methods = ['pickup', 'dropoff'] as const;
export const COLLECTION_METHODS: Exhaustive<CollectionMethod, typeof methods> = methods;

/**
 * Where staff may move a request from each status (docs/api-notes.md, "Admin status"; the API
 * refuses anything else with REPAIR_REQUEST_INVALID_STATUS_TRANSITION). `returned` and
 * `cancelled` are final.
 */
export const NEXT_STEPS: Record<RepairStatus, readonly RepairStatus[]> = {
  request_received: ['picked_up', 'dropped_off', 'cancelled'],
  picked_up: ['under_repair', 'cancelled'],
  dropped_off: ['under_repair', 'cancelled'],
  under_repair: ['repaired', 'unrepairable'],
  repaired: ['returned'],
  unrepairable: ['returned'],
  returned: [],
  cancelled: [],
};

export function fetchRepairs(client: PasalClient, query: RepairListQuery) {
  return client.list('/api/admin/repair-requests', { params: { query } });
}

export function fetchRepair(client: PasalClient, id: number): Promise<RepairDetail> {
  return client.get('/api/admin/repair-requests/{id}', { params: { path: { id } } });
}
