// Repair requests: a customer books one or more devices for a free repair (optionally naming
// the order they were bought in), follows it and may cancel it until it is collected; staff
// move it through the statuses of docs/decisions.md "Repair statuses", and every move (and
// collection change) reaches the customer as an in-app notification pushed to their devices.
import type { UserPrincipal } from '../../platform/auth/principal';
import type { Db } from '../../platform/db/database';
import { type AfterCommit, inTransaction } from '../../platform/db/transaction';
import { publishEvent } from '../../platform/events/events';
import { type PageMeta, pageMeta, pageWindow } from '../../platform/http/pagination';
import { crockfordCode, newUuid } from '../../platform/ids';
import type { ModuleContext } from '../../platform/module';
import { recordActivity } from '../activity';
import { findBrands } from '../catalog';
import { findUserContacts } from '../identity';
import type { Notifier } from '../notifications';
import { findOrderLink } from '../orders';
import { repairErrors } from './repairs.errors';
import { repairPermissions } from './repairs.permissions';
import * as repo from './repairs.repository';
import { CUSTOMER_CANCELLABLE, canAdminMove, STATUS_LABELS } from './repairs.rules';
import type {
  AdminRepair,
  AdminRepairDetail,
  AdminRepairListQuery,
  CreateRepairBody,
  CustomerRepair,
  CustomerRepairDetail,
  CustomerRepairListQuery,
  RepairDeviceView,
  RepairStatusBody,
} from './repairs.schemas';

export interface RepairDeps extends Pick<ModuleContext, 'db' | 'clock' | 'config'> {
  notifier: Notifier;
  /** Draws a ticket number; tests replace it to force collisions. */
  newTicketNumber: () => string;
}

export const TICKET_PREFIX = 'TR-';
/** docs/decisions.md "Repair statuses": `TR-` followed by 8 characters (Crockford base32: no I, L, O, U). */
export const newTicketNumber = () => `${TICKET_PREFIX}${crockfordCode(8)}`;
/** 32^8 numbers make a clash rare; a few draws make a failure practically impossible. */
const TICKET_ATTEMPTS = 5;
const ENTITY = 'repair_request';

// ── Views ───────────────────────────────────────────────────────────────────────────────────

async function deviceViews(db: Db, rows: repo.RepairRow[]): Promise<Map<number, RepairDeviceView[]>> {
  const devices = await repo.devicesOf(
    db,
    rows.map((r) => r.id),
  );
  const brands = await findBrands(
    db,
    [...devices.values()].flat().flatMap((d) => (d.brandId === null ? [] : [d.brandId])),
  );
  return new Map(
    [...devices].map(([id, list]) => [
      id,
      list.map((d) => ({
        id: d.id,
        brandId: d.brandId,
        customBrandName: d.customBrandName,
        brandName: d.customBrandName ?? brands.get(d.brandId!)?.name ?? '',
        laptopModel: d.laptopModel,
        problemDescription: d.problemDescription,
        orderItemId: d.orderItemId,
      })),
    ]),
  );
}

function toCustomer(row: repo.RepairRow, devices: RepairDeviceView[]): CustomerRepair {
  return {
    publicId: row.publicId,
    ticketNumber: row.ticketNumber,
    status: row.status,
    collectionMethod: row.collectionMethod,
    sourceType: row.sourceType,
    sharedDescription: row.sharedDescription,
    orderId: row.orderId,
    estimatedDeliveryAt: row.estimatedDeliveryAt?.toISOString() ?? null,
    devices,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

async function customerViews(db: Db, rows: repo.RepairRow[]): Promise<CustomerRepair[]> {
  const devices = await deviceViews(db, rows);
  return rows.map((r) => toCustomer(r, devices.get(r.id) ?? []));
}

async function customerDetail(db: Db, row: repo.RepairRow): Promise<CustomerRepairDetail> {
  const [view] = await customerViews(db, [row]);
  const history = await repo.historyOf(db, row.id);
  return {
    ...view!,
    statusHistory: history.map((h) => ({
      fromStatus: h.fromStatus,
      toStatus: h.toStatus,
      notes: h.notes,
      actorType: h.actorType,
      createdAt: h.createdAt.toISOString(),
    })),
  };
}

async function adminViews(db: Db, rows: repo.RepairRow[]): Promise<AdminRepair[]> {
  const devices = await deviceViews(db, rows);
  const people = await findUserContacts(
    db,
    rows.map((r) => r.customerId),
  );
  return rows.map((r) => {
    const who = people.get(r.customerId);
    return {
      id: r.id,
      ...toCustomer(r, devices.get(r.id) ?? []),
      customer: { id: r.customerId, name: who?.name ?? null, email: who?.email ?? null },
      adminNotes: r.adminNotes,
    };
  });
}

async function adminDetail(db: Db, row: repo.RepairRow): Promise<AdminRepairDetail> {
  const [view] = await adminViews(db, [row]);
  const history = await repo.historyOf(db, row.id);
  return {
    ...view!,
    statusHistory: history.map((h) => ({
      fromStatus: h.fromStatus,
      toStatus: h.toStatus,
      notes: h.notes,
      actorType: h.actorType,
      actorId: h.actorId,
      createdAt: h.createdAt.toISOString(),
    })),
  };
}

// ── Customer ────────────────────────────────────────────────────────────────────────────────

/**
 * Checks in this order: at least one device (422 REPAIR_REQUEST_NO_DEVICES); each device has
 * exactly one of brandId and customBrandName (422 …_DEVICE_BRAND_REQUIRED / …_CONFLICT) and its
 * brandId is an active catalog brand (404 REPAIR_REQUEST_BRAND_NOT_FOUND); the linked order
 * exists (404 …_ORDER_NOT_FOUND) and is the caller's (403 …_ORDER_NOT_OWNED); each
 * orderItemId is an item of that order (422 …_ORDER_ITEM_NOT_IN_ORDER).
 */
async function checkCreate(tx: Db, customerId: string, body: CreateRepairBody): Promise<void> {
  if (body.devices.length === 0) throw repairErrors.noDevices();
  body.devices.forEach((d, i) => {
    if (d.brandId === undefined && d.customBrandName === undefined) throw repairErrors.brandRequired(i);
    if (d.brandId !== undefined && d.customBrandName !== undefined) throw repairErrors.brandConflict(i);
  });
  const brands = await findBrands(
    tx,
    body.devices.flatMap((d) => (d.brandId === undefined ? [] : [d.brandId])),
  );
  body.devices.forEach((d, i) => {
    if (d.brandId !== undefined && !brands.get(d.brandId)?.isActive) throw repairErrors.brandNotFound(i);
  });
  let itemIds = new Set<number>();
  if (body.orderId !== undefined) {
    const order = await findOrderLink(tx, body.orderId);
    if (!order) throw repairErrors.orderNotFound();
    if (order.customerId !== customerId) throw repairErrors.orderNotOwned();
    itemIds = new Set(order.items.map((it) => it.id));
  }
  body.devices.forEach((d, i) => {
    if (d.orderItemId !== undefined && !itemIds.has(d.orderItemId)) throw repairErrors.orderItemNotInOrder(i);
  });
}

export async function createRepairRequest(
  deps: RepairDeps,
  customer: UserPrincipal,
  body: CreateRepairBody,
): Promise<CustomerRepairDetail> {
  return inTransaction(deps.db, async (tx, afterCommit) => {
    await checkCreate(tx, customer.userId, body);
    const at = deps.clock.now();
    let row: repo.RepairRow | undefined;
    for (let attempt = 0; !row && attempt < TICKET_ATTEMPTS; attempt++) {
      row = await repo.insertRepair(tx, {
        publicId: newUuid(),
        ticketNumber: deps.newTicketNumber(),
        customerId: customer.userId,
        orderId: body.orderId ?? null,
        collectionMethod: body.collectionMethod,
        sourceType: body.sourceType,
        sharedDescription: body.sharedDescription,
        status: 'request_received',
        createdAt: at,
        updatedAt: at,
      });
    }
    if (!row) throw repairErrors.createFailed();
    await repo.insertDevices(
      tx,
      row.id,
      body.devices.map((d) => ({
        brandId: d.brandId ?? null,
        customBrandName: d.customBrandName ?? null,
        laptopModel: d.laptopModel,
        problemDescription: d.problemDescription,
        orderItemId: d.orderItemId ?? null,
      })),
    );
    // Staff who can act on it hear of it at once, not at their next look at the list.
    await deps.notifier.notifyAdmins(tx, afterCommit, {
      permission: repairPermissions.UPDATE,
      type: 'repair.requested',
      title: 'New repair request',
      body: `Repair ${row.ticketNumber}: ${body.devices.length} device${body.devices.length === 1 ? '' : 's'}, ${body.collectionMethod === 'pickup' ? 'to be picked up' : 'to be dropped off'}.`,
      data: { repairRequestId: row.publicId, ticketNumber: row.ticketNumber },
    });
    return customerDetail(tx, row);
  });
}

export async function listOwnRepairRequests(
  deps: RepairDeps,
  customer: UserPrincipal,
  query: CustomerRepairListQuery,
): Promise<{ requests: CustomerRepair[]; meta: PageMeta }> {
  const { rows, count } = await repo.listRepairs(
    deps.db,
    { customerId: customer.userId, status: query.status, timeZone: deps.config.STORE_TIMEZONE },
    { by: query.sort, order: query.order },
    pageWindow(query),
  );
  return { requests: await customerViews(deps.db, rows), meta: pageMeta(query, count) };
}

/** Unknown: 404 REPAIR_REQUEST_NOT_FOUND; another customer's: 403 REPAIR_REQUEST_NOT_OWNED (the interface's codes). */
async function ownRequest(db: Db, customer: UserPrincipal, publicId: string): Promise<repo.RepairRow> {
  const row = await repo.findByPublicId(db, publicId);
  if (!row) throw repairErrors.notFound();
  if (row.customerId !== customer.userId) throw repairErrors.notOwned();
  return row;
}

export async function getOwnRepairRequest(
  deps: RepairDeps,
  customer: UserPrincipal,
  publicId: string,
): Promise<CustomerRepairDetail> {
  return customerDetail(deps.db, await ownRequest(deps.db, customer, publicId));
}

export async function cancelOwnRepairRequest(
  deps: RepairDeps,
  customer: UserPrincipal,
  publicId: string,
): Promise<CustomerRepairDetail> {
  return inTransaction(deps.db, async (tx) => {
    const before = await ownRequest(tx, customer, publicId);
    const at = deps.clock.now();
    const row = await repo.cancelIfReceived(tx, before.id, at);
    if (!row) {
      const now = await repo.findById(tx, before.id);
      throw repairErrors.cannotCancel(now?.status ?? before.status);
    }
    await repo.insertHistory(tx, {
      repairRequestId: row.id,
      fromStatus: CUSTOMER_CANCELLABLE,
      toStatus: 'cancelled',
      notes: null,
      actorType: 'customer',
      actorId: customer.userId,
      createdAt: at,
    });
    return customerDetail(tx, row);
  });
}

// ── Admin ───────────────────────────────────────────────────────────────────────────────────

export async function listRepairRequestsForAdmin(
  deps: RepairDeps,
  query: AdminRepairListQuery,
): Promise<{ requests: AdminRepair[]; meta: PageMeta }> {
  const { rows, count } = await repo.listRepairs(
    deps.db,
    {
      customerId: query.userId,
      status: query.status,
      dateFrom: query.dateFrom,
      dateTo: query.dateTo,
      timeZone: deps.config.STORE_TIMEZONE,
      search: query.search,
    },
    { by: query.sort, order: query.order },
    pageWindow(query),
  );
  return { requests: await adminViews(deps.db, rows), meta: pageMeta(query, count) };
}

export async function getRepairRequestForAdmin(
  deps: Pick<RepairDeps, 'db'>,
  id: number,
): Promise<AdminRepairDetail> {
  const row = await repo.findById(deps.db, id);
  if (!row) throw repairErrors.notFound();
  return adminDetail(deps.db, row);
}

function notifyCustomer(
  deps: RepairDeps,
  tx: Db,
  afterCommit: AfterCommit,
  row: repo.RepairRow,
  n: { type: string; title: string; body: string },
) {
  return deps.notifier.notifyCustomer(tx, afterCommit, {
    customerId: row.customerId,
    ...n,
    data: {
      repairRequestId: row.publicId,
      ticketNumber: row.ticketNumber,
      status: row.status,
      collectionMethod: row.collectionMethod,
    },
  });
}

/**
 * A move outside the matrix of docs/decisions.md "Repair statuses" (the same status included):
 * 400 REPAIR_REQUEST_INVALID_STATUS_TRANSITION.
 */
export async function setRepairStatus(
  deps: RepairDeps,
  admin: UserPrincipal,
  id: number,
  body: RepairStatusBody,
): Promise<AdminRepairDetail> {
  return inTransaction(deps.db, async (tx, afterCommit) => {
    const before = await repo.lockById(tx, id);
    if (!before) throw repairErrors.notFound();
    if (!canAdminMove(before.status, body.status))
      throw repairErrors.invalidTransition(before.status, body.status);
    const at = deps.clock.now();
    const row = await repo.updateRepair(tx, id, {
      status: body.status,
      ...(body.estimatedDeliveryAt === undefined
        ? {}
        : {
            estimatedDeliveryAt:
              body.estimatedDeliveryAt === null ? null : new Date(body.estimatedDeliveryAt),
          }),
      updatedAt: at,
    });
    await repo.insertHistory(tx, {
      repairRequestId: id,
      fromStatus: before.status,
      toStatus: body.status,
      notes: body.notes ?? null,
      actorType: 'admin',
      actorId: admin.userId,
      createdAt: at,
    });
    await notifyCustomer(deps, tx, afterCommit, row, {
      type: 'repair.status_changed',
      title: `Repair ${row.ticketNumber}: ${STATUS_LABELS[row.status]}`,
      body: body.notes ?? `Your repair request is now: ${STATUS_LABELS[row.status]}.`,
    });
    await recordActivity(tx, {
      adminId: admin.userId,
      action: 'update_status',
      entityType: ENTITY,
      entityId: id,
      summary: `Repair request ${row.ticketNumber}: status ${before.status} → ${body.status}`,
      at,
    });
    await publishEvent(tx, 'repair.status_changed', { repairRequestId: id, previousStatus: before.status });
    return adminDetail(tx, row);
  });
}

/** Only before collection (`request_received`); the same method again changes and tells nothing. */
export async function setCollectionMethod(
  deps: RepairDeps,
  admin: UserPrincipal,
  id: number,
  collectionMethod: repo.RepairRow['collectionMethod'],
): Promise<AdminRepairDetail> {
  return inTransaction(deps.db, async (tx, afterCommit) => {
    const before = await repo.lockById(tx, id);
    if (!before) throw repairErrors.notFound();
    if (before.collectionMethod === collectionMethod) return adminDetail(tx, before);
    if (before.status !== 'request_received') throw repairErrors.collectionMethodLocked(before.status);
    const at = deps.clock.now();
    const row = await repo.updateRepair(tx, id, { collectionMethod, updatedAt: at });
    await notifyCustomer(deps, tx, afterCommit, row, {
      type: 'repair.collection_method_changed',
      title: `Repair ${row.ticketNumber}: ${collectionMethod === 'pickup' ? 'we will pick up' : 'please drop off'} your device`,
      body:
        collectionMethod === 'pickup'
          ? 'We will collect your device from you.'
          : 'Please bring your device to our service centre.',
    });
    await recordActivity(tx, {
      adminId: admin.userId,
      action: 'update_collection_method',
      entityType: ENTITY,
      entityId: id,
      summary: `Repair request ${row.ticketNumber}: collection ${before.collectionMethod} → ${collectionMethod}`,
      at,
    });
    return adminDetail(tx, row);
  });
}

/** Internal notes: replaced whole, empty or null clears them; the customer never sees them. */
export async function setAdminNotes(
  deps: RepairDeps,
  admin: UserPrincipal,
  id: number,
  adminNotes: string | null,
): Promise<AdminRepairDetail> {
  return inTransaction(deps.db, async (tx) => {
    const before = await repo.lockById(tx, id);
    if (!before) throw repairErrors.notFound();
    const at = deps.clock.now();
    const row = await repo.updateRepair(tx, id, { adminNotes: adminNotes || null, updatedAt: at });
    await recordActivity(tx, {
      adminId: admin.userId,
      action: 'update_notes',
      entityType: ENTITY,
      entityId: id,
      summary: `Repair request ${row.ticketNumber}: notes ${row.adminNotes ? 'updated' : 'cleared'}`,
      at,
    });
    return adminDetail(tx, row);
  });
}
