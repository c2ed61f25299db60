// Request and response shapes of the repair routes. Customers address a request by its
// `publicId` and never see `adminNotes`; the back office uses the integer `id`.
import { z } from 'zod';
import { listQuery } from '../../platform/http/pagination';
import { intId } from '../../platform/http/params';
import { REPAIR_STATUSES } from './repairs.rules';
import { COLLECTION_METHODS, REPAIR_ACTOR_TYPES, SOURCE_TYPES } from './repairs.table';

const trimmed = (max: number) => z.string().trim().min(1, 'must not be blank').max(max);
const iso = z.string().describe('ISO-8601 instant');
export const MAX_DEVICES = 20;

// Brand presence and order links are the service's rules (their own error codes), so both
// brand fields are optional here and an empty device list passes to the service.
export const deviceBody = z.object({
  brandId: intId.optional(),
  customBrandName: trimmed(100).optional(),
  laptopModel: trimmed(200),
  problemDescription: trimmed(2000),
  orderItemId: intId.optional(),
});

export const createRepairBody = z
  .object({
    devices: z.array(deviceBody).max(MAX_DEVICES),
    collectionMethod: z.enum(COLLECTION_METHODS),
    sourceType: z.enum(SOURCE_TYPES),
    sharedDescription: z.string().trim().max(5000),
    orderId: intId.optional(),
  })
  .superRefine((b, ctx) => {
    if (b.sourceType === 'order' && b.orderId === undefined) {
      ctx.addIssue({ code: 'custom', path: ['orderId'], message: 'is required when sourceType is order' });
    }
  });
export type CreateRepairBody = z.output<typeof createRepairBody>;

export const publicIdParams = z.object({ publicId: z.uuid({ error: 'must be a uuid' }) });

export const customerRepairListQuery = listQuery(['createdAt', 'updatedAt'] as const).extend({
  status: z.enum(REPAIR_STATUSES).optional(),
});
export type CustomerRepairListQuery = z.output<typeof customerRepairListQuery>;

const storeDate = z.iso.date({ error: 'must be a date YYYY-MM-DD' });
export const adminRepairListQuery = listQuery(['createdAt', 'updatedAt'] as const)
  .extend({
    status: z.enum(REPAIR_STATUSES).optional(),
    userId: z.uuid({ error: 'must be a uuid' }).optional(),
    dateFrom: storeDate.optional().describe('First store-local day (inclusive) of createdAt'),
    dateTo: storeDate.optional().describe('Last store-local day (inclusive) of createdAt'),
    search: z.string().trim().min(1).max(50).optional().describe('Part of the ticket number, any case'),
  })
  .superRefine((q, ctx) => {
    if (q.dateFrom && q.dateTo && q.dateFrom > q.dateTo) {
      ctx.addIssue({ code: 'custom', path: ['dateTo'], message: 'must not be before dateFrom' });
    }
  });
export type AdminRepairListQuery = z.output<typeof adminRepairListQuery>;

export const repairStatusBody = z.object({
  status: z.enum(REPAIR_STATUSES),
  notes: z.string().trim().min(1, 'must not be blank').max(2000).optional(),
  estimatedDeliveryAt: z.iso
    .datetime({ offset: true, error: 'must be an ISO-8601 date-time' })
    .nullable()
    .optional()
    .describe('null clears it; omitted keeps it'),
});
export type RepairStatusBody = z.output<typeof repairStatusBody>;

export const collectionMethodBody = z.object({ collectionMethod: z.enum(COLLECTION_METHODS) });
export const adminNotesBody = z.object({
  adminNotes: z.string().trim().max(5000).nullable().describe('empty or null clears the notes'),
});

export const repairDeviceView = z
  .object({
    id: z.number().int(),
    brandId: z.number().int().nullable(),
    customBrandName: z.string().nullable(),
    brandName: z.string().describe('the catalog brand name, or the custom one'),
    laptopModel: z.string(),
    problemDescription: z.string(),
    orderItemId: z.number().int().nullable(),
  })
  .meta({ id: 'RepairDevice' });
export type RepairDeviceView = z.output<typeof repairDeviceView>;

export const repairHistoryView = z
  .object({
    fromStatus: z.enum(REPAIR_STATUSES),
    toStatus: z.enum(REPAIR_STATUSES),
    notes: z.string().nullable(),
    actorType: z.enum(REPAIR_ACTOR_TYPES),
    createdAt: iso,
  })
  .meta({ id: 'RepairStatusHistory' });

const common = {
  publicId: z.uuid(),
  ticketNumber: z.string(),
  status: z.enum(REPAIR_STATUSES),
  collectionMethod: z.enum(COLLECTION_METHODS),
  sourceType: z.enum(SOURCE_TYPES),
  sharedDescription: z.string(),
  orderId: z.number().int().nullable(),
  estimatedDeliveryAt: iso.nullable(),
  devices: z.array(repairDeviceView),
  createdAt: iso,
  updatedAt: iso,
};

export const customerRepair = z.object(common).meta({ id: 'RepairRequest' });
export const customerRepairDetail = customerRepair
  .extend({ statusHistory: z.array(repairHistoryView) })
  .meta({ id: 'RepairRequestDetail' });

export const adminRepair = z
  .object({
    id: z.number().int(),
    ...common,
    customer: z.object({ id: z.uuid(), name: z.string().nullable(), email: z.string().nullable() }),
    adminNotes: z.string().nullable(),
  })
  .meta({ id: 'RepairRequestAdmin' });
export const adminRepairDetail = adminRepair
  .extend({
    statusHistory: z.array(repairHistoryView.extend({ actorId: z.uuid().nullable() })),
  })
  .meta({ id: 'RepairRequestAdminDetail' });

export type CustomerRepair = z.output<typeof customerRepair>;
export type CustomerRepairDetail = z.output<typeof customerRepairDetail>;
export type AdminRepair = z.output<typeof adminRepair>;
export type AdminRepairDetail = z.output<typeof adminRepairDetail>;
