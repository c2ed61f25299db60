// The back office's order rules: the list and detail with everything staff need, any async
// request, and the admin's commands. Cancel and refund decisions are async (a request row and
// a job, decided by `cancelOrder` / `processRefund` in orders.commands.ts); notes, serial
// numbers and COD collection are answered at once. Every write is in the activity log.

import type { UserPrincipal } from '../../../platform/auth/principal';
import type { Db } from '../../../platform/db/database';
import { inTransaction, readTogether } from '../../../platform/db/transaction';
import { pageSchema, serializedWith } from '../../../platform/http/envelope';
import { pageMeta } from '../../../platform/http/pagination';
import { newUuid } from '../../../platform/ids';
import { recordActivity } from '../../activity';
import { customerIdsMatching, findUserContacts, type UserContact } from '../../identity';
import { subscriptionInfoOf } from '../fulfillment/fulfillment.commands';
import { eligibleFulfillmentActions } from '../fulfillment/fulfillment.rules';
import { forgetOrder, orderCache } from '../orders.cache';
import { collectCod, notifyOrder, type OrderDeps, orderKeysDelivered } from '../orders.commands';
import { orderErrors } from '../orders.errors';
import { cancelJob, processRefundJob } from '../orders.jobs';
import * as orders from '../orders.repository';
import type { AsyncRequestView, OrderItemView } from '../orders.schemas';
import { toDetail, toItemView, toListItem, toRequestView } from '../orders.views';
import * as repo from './admin-orders.repository';
import {
  type AdminNoteView,
  type AdminOrderDetail,
  type AdminOrderListItem,
  type AdminOrderListQuery,
  adminOrderListItem,
  type CodCollectionView,
  type OrderRefundView,
  type ProcessRefundBody,
  type SettleRefundBody,
} from './admin-orders.schemas';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

// An order's customer always exists (foreign key; an anonymised account keeps its row).
export const customerOf = (contacts: Map<string, UserContact>, id: string): UserContact =>
  contacts.get(id) ?? { id, name: '', email: '', phone: null };

async function existingOrder(db: Db, orderId: number): Promise<orders.OrderRow> {
  const order = await orders.findOrder(db, orderId);
  if (!order) throw orderErrors.notFound();
  return order;
}

// ---------- reads ----------

/** A page of the back office's order list as the JSON text of `{ data, meta }` (cached that way). */
export function listAdminOrdersText(
  deps: Pick<OrderDeps, 'db' | 'cache' | 'config'>,
  q: AdminOrderListQuery,
): Promise<string> {
  return orderCache.adminList(deps.cache, deps.config.ORDER_ADMIN_CACHE_TTL_SECONDS, q, async () =>
    serializedWith(pageSchema(adminOrderListItem), await loadAdminOrders(deps, q)),
  );
}

async function loadAdminOrders(
  deps: Pick<OrderDeps, 'db'>,
  q: AdminOrderListQuery,
): Promise<{ data: AdminOrderListItem[]; meta: ReturnType<typeof pageMeta> }> {
  const term = q.search?.trim();
  const search = term ? { term, matchingCustomers: customerIdsMatching(deps.db, term) } : null;
  const { rows, count } = await repo.listOrders(deps.db, q, search);
  const items = await orders.itemsOf(
    deps.db,
    rows.map((r) => r.id),
  );
  const contacts = await findUserContacts(
    deps.db,
    rows.map((r) => r.customerId),
  );
  return {
    data: rows.map((r) => ({
      ...toListItem(
        r,
        items.filter((i) => i.orderId === r.id),
      ),
      customer: customerOf(contacts, r.customerId),
    })),
    meta: pageMeta(q, count),
  };
}

const codCollectionOf = (order: orders.OrderRow): CodCollectionView | null =>
  order.paymentMethod === 'cod' && order.paymentStatus === 'cod_collected' && order.paidAt
    ? {
        orderId: order.id,
        orderNumber: order.orderNumber,
        orderStatus: order.status,
        paymentStatus: order.paymentStatus,
        amount: order.finalPayable,
        collectedAt: order.paidAt.toISOString(),
        collectedByAdminId: order.codCollectedByAdminId,
        remarks: order.codRemarks,
      }
    : null;

export function getAdminOrder(
  deps: Pick<OrderDeps, 'db' | 'cache' | 'config'>,
  orderId: number,
): Promise<AdminOrderDetail> {
  return orderCache.adminDetail(deps.cache, deps.config.ORDER_ADMIN_CACHE_TTL_SECONDS, orderId, () =>
    loadAdminOrder(deps, orderId),
  );
}

export async function loadAdminOrder(
  deps: Pick<OrderDeps, 'db'>,
  orderId: number,
): Promise<AdminOrderDetail> {
  const order = await existingOrder(deps.db, orderId);
  const [items, history, fulfilment, notes, refunds] = await readTogether(deps.db, [
    () => orders.itemsOf(deps.db, [order.id]),
    () => orders.statusHistoryOf(deps.db, order.id),
    () => repo.fulfillmentHistoryOf(deps.db, order.id),
    () => repo.notesOf(deps.db, order.id),
    () => orders.refundsOf(deps.db, order.id),
  ]);
  const people = await findUserContacts(deps.db, [
    order.customerId,
    ...history.flatMap((h) => [h.createdByCustomerId, h.createdByAdminId]).filter((id): id is string => !!id),
    ...notes.map((n) => n.adminId),
  ]);
  const nameOf = (id: string | null) => (id ? (people.get(id)?.name ?? null) : null);
  const subscriptions = await subscriptionInfoOf(deps.db, items);
  const pendingSubscription =
    order.orderType === 'care_package' && [...subscriptions.values()].some((s) => s.status === 'pending');
  const cod = codCollectionOf(order);
  return {
    ...toDetail(order, items, subscriptions),
    customer: customerOf(people, order.customerId),
    statusHistory: history.map((h) => ({
      status: h.status,
      notes: h.notes,
      noteCode: h.noteCode,
      noteParams: h.noteParams,
      actorType: h.actorType,
      createdByCustomerId: h.createdByCustomerId,
      createdByAdminId: h.createdByAdminId,
      createdBy: nameOf(h.createdByAdminId ?? h.createdByCustomerId),
      createdAt: h.createdAt.toISOString(),
    })),
    fulfillmentHistory: fulfilment.map((f) => ({
      fromStatus: f.fromStatus,
      toStatus: f.toStatus,
      remarks: f.remarks,
      remarksCode: f.remarksCode,
      actorType: f.actorType,
      createdByAdminId: f.actorId,
      createdAt: f.createdAt.toISOString(),
    })),
    eligibleFulfillmentActions: order.fulfillmentStatus
      ? eligibleFulfillmentActions(order.orderType, order.fulfillmentStatus, pendingSubscription)
      : [],
    adminNotes: notes.map((n) => noteView(n, nameOf(n.adminId))),
    refunds: refunds.map(refundView),
    codCollection: cod && {
      amount: cod.amount,
      collectedAt: cod.collectedAt,
      collectedByAdminId: cod.collectedByAdminId,
      remarks: cod.remarks,
    },
  };
}

/** Any async order request, a customer's or an admin's. */
export async function getAnyRequest(
  deps: Pick<OrderDeps, 'db'>,
  requestId: string,
): Promise<AsyncRequestView> {
  const row = await orders.findRequest(deps.db, requestId);
  if (!row) throw orderErrors.requestNotFound();
  return toRequestView(row);
}

// ---------- async commands ----------

async function newAdminRequest(deps: OrderDeps, adminId: string, orderId: number, command: string) {
  await existingOrder(deps.db, orderId);
  return orders.insertRequest(deps.db, {
    requestId: newUuid(),
    orderId,
    command,
    adminId,
    status: 'pending',
    createdAt: deps.clock.now(),
  });
}

/** `POST /admin/orders/:id/cancel`: the same `order.cancel` job as the customer's, as an admin. */
export async function requestAdminCancel(
  deps: OrderDeps,
  admin: UserPrincipal,
  orderId: number,
  reason: string | undefined,
): Promise<AsyncRequestView> {
  const row = await newAdminRequest(deps, admin.userId, orderId, 'cancel');
  await deps.jobs.enqueue(cancelJob(deps), {
    orderId,
    reason: reason ?? null,
    cancelledBy: admin.userId,
    cancelledByActorType: 'admin',
    requestId: row.requestId,
  });
  return toRequestView(row);
}

/** `POST /admin/orders/:id/process-refund`: queues `order.process_refund`; the job decides. */
export async function requestProcessRefund(
  deps: OrderDeps,
  admin: UserPrincipal,
  orderId: number,
  body: ProcessRefundBody,
): Promise<AsyncRequestView> {
  if (body.action === 'approve' && !body.revokeKeys && (await orderKeysDelivered(deps.db, orderId)))
    throw orderErrors.refundNotAllowed('digital_keys_delivered');
  const row = await newAdminRequest(deps, admin.userId, orderId, 'process_refund');
  await deps.jobs.enqueue(processRefundJob(deps), {
    orderId,
    adminId: admin.userId,
    action: body.action,
    remarks: body.remarks,
    revokeKeys: body.revokeKeys ?? false,
    requestId: row.requestId,
  });
  return toRequestView(row);
}

// ---------- answered at once ----------

const noteView = (n: repo.AdminNoteRow, createdBy: string | null): AdminNoteView => ({
  id: n.id,
  note: n.note,
  createdByAdminId: n.adminId,
  createdBy,
  createdAt: n.createdAt.toISOString(),
});

export async function addNote(
  deps: Pick<OrderDeps, 'db' | 'clock' | 'cache'>,
  admin: UserPrincipal,
  orderId: number,
  note: string,
): Promise<AdminNoteView> {
  const at = deps.clock.now();
  const row = await inTransaction(deps.db, async (tx, afterCommit) => {
    const order = await existingOrder(tx, orderId);
    const inserted = await repo.insertNote(tx, { orderId, note, adminId: admin.userId, at });
    forgetOrder(deps.cache, afterCommit, order);
    await recordActivity(tx, {
      adminId: admin.userId,
      action: 'note',
      entityType: 'order',
      entityId: orderId,
      summary: `Added a note to order ${order.orderNumber}`,
      at,
    });
    return inserted;
  });
  const contacts = await findUserContacts(deps.db, [admin.userId]);
  return noteView(row, contacts.get(admin.userId)?.name ?? null);
}

/** Physical items only: a serial number identifies one unit the store hands over. */
export async function setSerialNumber(
  deps: Pick<OrderDeps, 'db' | 'clock' | 'cache'>,
  admin: UserPrincipal,
  orderId: number,
  orderItemId: number,
  serialNumber: string,
): Promise<OrderItemView> {
  const at = deps.clock.now();
  return inTransaction(deps.db, async (tx, afterCommit) => {
    const order = await existingOrder(tx, orderId);
    const item = await repo.findItem(tx, orderId, orderItemId);
    if (!item) throw orderErrors.itemNotFound();
    if (item.productKind !== 'physical') throw orderErrors.itemNotPhysical();
    const updated = await repo.setSerialNumber(tx, item.id, serialNumber);
    forgetOrder(deps.cache, afterCommit, order);
    await recordActivity(tx, {
      adminId: admin.userId,
      action: 'serial_number',
      entityType: 'order',
      entityId: orderId,
      summary: `Serial number of ${item.productTitle} in order ${order.orderNumber}: ${item.serialNumber ?? 'none'} → ${serialNumber}`,
      at,
    });
    return toItemView(updated);
  });
}

/** A refund record as the back office sees it, with its settlement once the money went back. */
export function refundView(r: orders.OrderRefundRow): OrderRefundView {
  return {
    id: r.id,
    amount: r.amount,
    status: r.status,
    reason: r.reason,
    remarks: r.remarks,
    processedByAdminId: r.processedByAdminId,
    processedAt: iso(r.processedAt),
    settlement:
      r.settledAt && r.settlementMethod
        ? {
            method: r.settlementMethod,
            reference: r.settlementReference,
            remarks: r.settlementRemarks ?? '',
            settledByAdminId: r.settledByAdminId,
            settledAt: r.settledAt.toISOString(),
          }
        : null,
    createdAt: r.createdAt.toISOString(),
  };
}

/** Refund records whose money the shop still holds until someone gives it back. */
export const OWED: ReadonlySet<string> = new Set(['pending', 'approved']);

/**
 * `POST /admin/orders/:id/refunds/:refundId/settle`: the money a refund owes (pending: a paid
 * order cancelled by the shop, a late payment; approved: a refund decided) went back to the
 * customer by hand. Records how, with an activity record and a notice to the customer. Asking
 * again once settled answers the same record and writes nothing; a refund not owed (requested,
 * rejected) is refused with ORDER_REFUND_NOT_OWED. The credit note, when tax invoices are on,
 * was issued when the refund became owed (cancel or approval), so none is made here.
 */
export async function settleRefund(
  deps: OrderDeps,
  admin: UserPrincipal,
  p: { orderId: number; refundId: number; body: SettleRefundBody },
): Promise<OrderRefundView> {
  return inTransaction(deps.db, async (tx, afterCommit) => {
    const order = await orders.lockOrder(tx, p.orderId);
    if (!order) throw orderErrors.notFound();
    const refund = await orders.lockRefund(tx, p.orderId, p.refundId);
    if (!refund) throw orderErrors.refundNotFound();
    if (refund.settledAt) return refundView(refund);
    if (!OWED.has(refund.status)) throw orderErrors.refundNotOwed(refund.status);
    const at = deps.clock.now();
    const settled = await orders.markRefundSettled(tx, refund.id, {
      method: p.body.method,
      reference: p.body.reference ?? null,
      remarks: p.body.remarks,
      adminId: admin.userId,
      at,
    });
    forgetOrder(deps.cache, afterCommit, order);
    await recordActivity(tx, {
      adminId: admin.userId,
      action: 'refund_settle',
      entityType: 'order',
      entityId: order.id,
      summary: `Gave back ${settled.amount} NPR for order ${order.orderNumber} (${p.body.method}${p.body.reference ? `, ${p.body.reference}` : ''})`,
      at,
    });
    await notifyOrder(deps, tx, afterCommit, order, 'ORDER_REFUND_SETTLED');
    return refundView(settled);
  });
}

/**
 * `PUT /admin/orders/:id/cod-collect`: a COD order waiting for its cash becomes paid. Asking
 * again once collected answers the same record and writes nothing; any other order is
 * refused with ORDER_NOT_COD_PENDING. The row lock makes two admins at once one collection.
 */
export async function collectCodPayment(
  deps: OrderDeps,
  admin: UserPrincipal,
  orderId: number,
  remarks: string,
): Promise<CodCollectionView> {
  return inTransaction(deps.db, async (tx, afterCommit) => {
    const current = await orders.lockOrder(tx, orderId);
    if (!current) throw orderErrors.notFound();
    const already = codCollectionOf(current);
    if (already) return already;
    const outcome = await collectCod(deps, tx, afterCommit, { orderId, adminId: admin.userId, remarks });
    if (!outcome.changed) throw orderErrors.notCodPending();
    return codCollectionOf(outcome.order)!;
  });
}
