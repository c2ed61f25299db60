// The back office's side of a support conversation, the same for a chat inquiry and a customer
// ticket: read one, assign it, set its status, reply. Each kind hands in its `Desk`: its
// queries, its admin view, its errors, how the activity log names it, and how its reply is
// written and announced (an inquiry's goes to its live room; a ticket's also notifies the
// customer). The rules (who may be assigned, a reply to a closed conversation refused, one
// activity record per change, all in one transaction) are written once, here.
import type { UserPrincipal } from '../../platform/auth/principal';
import type { Db } from '../../platform/db/database';
import { type AfterCommit, inTransaction } from '../../platform/db/transaction';
import { type AppError, httpErrors } from '../../platform/http/errors';
import { recordActivity } from '../activity';
import { findUserCard } from '../identity';
import type { SupportDeps } from './support.service';

export interface Desk<
  Row extends { id: number; status: string },
  Detail,
  StatusChange extends { status: string },
> {
  /** The activity log's entity type (`support_inquiry`, `support_request`). */
  entity: string;
  /** How the activity log names the conversation mid-sentence: "support inquiry SI-…". */
  nameOf(row: Row): string;
  notFound(): AppError;
  /** A reply to a conversation that no longer takes them. */
  closed(): AppError;
  find(db: Db, id: number): Promise<Row | undefined>;
  lock(tx: Db, id: number): Promise<Row | undefined>;
  assign(
    tx: Db,
    id: number,
    values: { assignedAdminId: string | null; updatedAt: Date },
  ): Promise<Row | undefined>;
  setStatus(tx: Db, id: number, change: StatusChange, at: Date): Promise<Row | undefined>;
  /** Marks an admin reply on the conversation; undefined when it is missing or closed. */
  noteAdminReply(tx: Db, id: number, at: Date): Promise<Row | undefined>;
  detail(db: Db, row: Row): Promise<Detail>;
  /** Stores the reply and tells whoever must hear of it (in the reply's transaction). */
  writeReply(
    deps: SupportDeps,
    tx: Db,
    afterCommit: AfterCommit,
    p: { row: Row; admin: UserPrincipal; body: string; at: Date },
  ): Promise<void>;
}

const sentence = (name: string) => `${name.charAt(0).toUpperCase()}${name.slice(1)}`;

/** An assignee must be an active admin account; anything else is a validation error. */
export async function assertAssignableAdmin(db: Db, adminId: string | null): Promise<void> {
  if (adminId === null) return;
  const card = await findUserCard(db, adminId);
  if (!card?.isAdmin || !card.isActive) {
    throw httpErrors.validation([{ path: 'assignedAdminId', message: 'must be the id of an active admin' }]);
  }
}

export async function deskDetail<
  Row extends { id: number; status: string },
  Detail,
  C extends { status: string },
>(desk: Desk<Row, Detail, C>, deps: Pick<SupportDeps, 'db'>, id: number): Promise<Detail> {
  const row = await desk.find(deps.db, id);
  if (!row) throw desk.notFound();
  return desk.detail(deps.db, row);
}

export function deskAssign<Row extends { id: number; status: string }, Detail, C extends { status: string }>(
  desk: Desk<Row, Detail, C>,
  deps: SupportDeps,
  p: { admin: UserPrincipal; id: number; assignedAdminId: string | null },
): Promise<Detail> {
  return inTransaction(deps.db, async (tx) => {
    const at = deps.clock.now();
    await assertAssignableAdmin(tx, p.assignedAdminId);
    const row = await desk.assign(tx, p.id, { assignedAdminId: p.assignedAdminId, updatedAt: at });
    if (!row) throw desk.notFound();
    const name = sentence(desk.nameOf(row));
    await recordActivity(tx, {
      adminId: p.admin.userId,
      action: p.assignedAdminId ? 'assign' : 'unassign',
      entityType: desk.entity,
      entityId: p.id,
      summary: p.assignedAdminId ? `${name} assigned to ${p.assignedAdminId}` : `${name} unassigned`,
      at,
    });
    return desk.detail(tx, row);
  });
}

export function deskSetStatus<
  Row extends { id: number; status: string },
  Detail,
  C extends { status: string },
>(
  desk: Desk<Row, Detail, C>,
  deps: SupportDeps,
  p: { admin: UserPrincipal; id: number; change: C },
): Promise<Detail> {
  return inTransaction(deps.db, async (tx) => {
    const at = deps.clock.now();
    const before = await desk.lock(tx, p.id);
    if (!before) throw desk.notFound();
    const row = await desk.setStatus(tx, p.id, p.change, at);
    await recordActivity(tx, {
      adminId: p.admin.userId,
      action: 'update_status',
      entityType: desk.entity,
      entityId: p.id,
      summary: `${sentence(desk.nameOf(before))}: status ${before.status} → ${p.change.status}`,
      at,
    });
    return desk.detail(tx, row!);
  });
}

export function deskReply<Row extends { id: number; status: string }, Detail, C extends { status: string }>(
  desk: Desk<Row, Detail, C>,
  deps: SupportDeps,
  p: { admin: UserPrincipal; id: number; body: string },
): Promise<Detail> {
  return inTransaction(deps.db, async (tx, afterCommit) => {
    const at = deps.clock.now();
    const row = await desk.noteAdminReply(tx, p.id, at);
    if (!row) {
      if (!(await desk.find(tx, p.id))) throw desk.notFound();
      throw desk.closed();
    }
    await desk.writeReply(deps, tx, afterCommit, { row, admin: p.admin, body: p.body, at });
    await recordActivity(tx, {
      adminId: p.admin.userId,
      action: 'reply',
      entityType: desk.entity,
      entityId: p.id,
      summary: `Replied to ${desk.nameOf(row)}`,
      at,
    });
    return desk.detail(tx, row);
  });
}
