// Stock of physical products: what is on the shelf, what carts and unpaid orders hold, and a
// ledger row for every change. The reservation functions take the caller's transaction (the
// cart's or the order's), so a reservation exists exactly when the caller's write does.
//
// Every function locks the product's stock row before it touches a reservation, so writes to
// one product queue on that row; a caller that reserves several products should do so in
// ascending product id order, so two such callers cannot deadlock.
import type { UserPrincipal } from '../../../platform/auth/principal';
import type { Db } from '../../../platform/db/database';
import { inTransaction } from '../../../platform/db/transaction';
import { publishEvent } from '../../../platform/events/events';
import { type PageMeta, pageMeta, pageWindow } from '../../../platform/http/pagination';
import { newUuid } from '../../../platform/ids';
import type { ModuleContext } from '../../../platform/module';
import { recordActivity } from '../../activity';
import { catalogErrors } from '../catalog.errors';
import { findProduct } from '../products/products.repository';
import { stockErrors } from './stock.errors';
import * as repo from './stock.repository';
import type {
  AdjustStockBody,
  LowStockProduct,
  StockLedgerEntryView,
  StockLedgerQuery,
  StockLevel,
} from './stock.schemas';
import type { ReservationOwnerType } from './stock.table';

export interface StockOwner {
  /** A cart holds stock while the customer shops; an order until it is paid or cancelled. */
  type: ReservationOwnerType;
  id: string;
}

export type ReserveOutcome =
  /** `quantity`: what the owner now holds of the product in all. */
  | { ok: true; quantity: number; stock: StockLevel }
  /** Not enough available: nothing changed. */
  | { ok: false; stock: StockLevel };

export interface ReservationChange {
  productId: number;
  quantity: number;
  owner: StockOwner;
  /**
   * When an idle owner loses the units; null holds until released or finalized. Left out: a
   * new reservation never expires, an existing one keeps its expiry.
   */
  expiresAt?: Date | null;
  at: Date;
  /** The ledger's reason; a default names the owner. */
  reason?: string;
}

const EMPTY: StockLevel = { onHand: 0, reserved: 0, available: 0 };
const stockChange = (productId: number, before: repo.StockRow, after: repo.StockRow) => ({
  productId,
  availableBefore: level(before).available,
  availableAfter: level(after).available,
});
const level = (row: { onHand: number; reserved: number } | undefined): StockLevel =>
  row ? { onHand: row.onHand, reserved: row.reserved, available: row.onHand - row.reserved } : EMPTY;

/** Stock levels by product id; a product that never had stock has all zeros. */
export async function getStockLevels(db: Db, productIds: number[]): Promise<Map<number, StockLevel>> {
  const rows = await repo.stockRows(db, [...new Set(productIds)]);
  const byId = new Map(rows.map((r) => [r.productId, level(r)]));
  return new Map(productIds.map((id) => [id, byId.get(id) ?? EMPTY]));
}

/**
 * Reserves `quantity` more units of a physical product for `owner` (adding to what it already
 * holds). Never oversells: the units are taken with one conditional UPDATE on the locked row.
 */
export async function reserveStock(tx: Db, p: ReservationChange): Promise<ReserveOutcome> {
  if (!Number.isInteger(p.quantity) || p.quantity < 1)
    throw new RangeError('quantity must be a positive integer');
  const locked = await repo.lockExistingStock(tx, p.productId);
  if (!locked) return { ok: false, stock: EMPTY };
  const existing = await repo.findReservation(tx, p.owner, p.productId);
  const held = existing?.quantity ?? 0;
  const after = await repo.takeAvailable(tx, p.productId, p.quantity, p.at);
  if (!after) return { ok: false, stock: level(locked) };
  await publishEvent(tx, 'product.stock_changed', stockChange(p.productId, locked, after));
  await repo.saveReservation(tx, {
    id: newUuid(),
    owner: p.owner,
    productId: p.productId,
    quantity: held + p.quantity,
    expiresAt: p.expiresAt === undefined ? (existing?.expiresAt ?? null) : p.expiresAt,
    at: p.at,
  });
  await repo.insertLedger(tx, {
    productId: p.productId,
    source: 'reservation',
    reason: p.reason ?? `Reserved for ${p.owner.type} ${p.owner.id}`,
    onHandDelta: 0,
    reservedDelta: p.quantity,
    after,
    owner: p.owner,
    at: p.at,
  });
  return { ok: true, quantity: held + p.quantity, stock: level(after) };
}

/**
 * Sets what `owner` holds of a product to `quantity` (a cart line's new quantity): takes or
 * gives back the difference; 0 releases the reservation. Fails, changing nothing, when more
 * is asked than is available. Two statements hold the stock row's lock until the caller
 * commits: the lock, then one conditional write of the counts, the reservation and the ledger
 * (`repo.setHeld`), so a caller that calls this last keeps concurrent buyers of one product
 * waiting on each other for no more than that and its commit (issue 33, the hot product).
 */
export async function setReservedQuantity(tx: Db, p: ReservationChange): Promise<ReserveOutcome> {
  if (!Number.isInteger(p.quantity) || p.quantity < 0) throw new RangeError('quantity must be 0 or more');
  const locked = await repo.lockExistingStock(tx, p.productId);
  if (!locked)
    return p.quantity === 0 ? { ok: true, quantity: 0, stock: EMPTY } : { ok: false, stock: EMPTY };
  const held = await repo.setHeld(tx, {
    id: newUuid(),
    owner: p.owner,
    productId: p.productId,
    quantity: p.quantity,
    expiresAt: p.expiresAt,
    at: p.at,
    reason: p.reason,
  });
  if (!held.ok) return { ok: false, stock: level(locked) };
  const after = held.after ?? locked;
  if (held.delta !== 0) {
    await publishEvent(
      tx,
      'product.stock_changed',
      stockChange(p.productId, locked, { ...locked, ...after }),
    );
  }
  return { ok: true, quantity: p.quantity, stock: level(after) };
}

/**
 * Hands what `from` holds of a product to `to` (a cart's units to the order made from it) and
 * makes it `quantity`: when `from` still holds exactly that, the reservation just changes owner,
 * so the product's counts are not touched; otherwise (it lapsed, or holds another amount) the
 * units are given back and `quantity` reserved for `to`, which can fail like `reserveStock` and,
 * like it, adds to what `to` already holds (a new order holds nothing).
 */
async function handOverReservation(
  tx: Db,
  p: ReservationChange & { from: StockOwner },
): Promise<ReserveOutcome> {
  if (!Number.isInteger(p.quantity) || p.quantity < 1)
    throw new RangeError('quantity must be a positive integer');
  const locked = await repo.lockExistingStock(tx, p.productId);
  if (!locked) return { ok: false, stock: EMPTY };
  const both = await repo.reservationsOfProduct(tx, p.productId, [p.from, p.owner]);
  const holds = (o: StockOwner) => both.find((r) => r.ownerType === o.type && r.ownerId === o.id);
  const held = holds(p.from);
  if (held?.quantity === p.quantity && !holds(p.owner)) {
    const expiresAt = p.expiresAt === undefined ? null : p.expiresAt;
    await repo.moveReservation(tx, held.id, p.owner, expiresAt, p.at);
    await repo.insertLedger(tx, {
      productId: p.productId,
      source: 'reservation',
      reason: p.reason ?? `Handed from ${p.from.type} ${p.from.id} to ${p.owner.type} ${p.owner.id}`,
      onHandDelta: 0,
      reservedDelta: 0,
      after: locked,
      owner: p.owner,
      at: p.at,
    });
    return { ok: true, quantity: p.quantity, stock: level(locked) };
  }
  await endReservations(tx, { owner: p.from, productId: p.productId, at: p.at, reason: p.reason }, false);
  return reserveStock(tx, p);
}

/**
 * `handOverReservation` for several products at once (a cart's lines to its order): the common
 * case, where `from` holds exactly each line's quantity, takes one statement for all of them;
 * any other line takes the one-product path. Returns each product's outcome.
 */
export async function handOverReservations(
  tx: Db,
  p: Omit<ReservationChange, 'productId' | 'quantity'> & {
    from: StockOwner;
    lines: ReadonlyArray<{ productId: number; quantity: number }>;
  },
): Promise<Map<number, ReserveOutcome>> {
  for (const line of p.lines) {
    if (!Number.isInteger(line.quantity) || line.quantity < 1)
      throw new RangeError('quantity must be a positive integer');
  }
  const lines = [...p.lines].sort((a, b) => a.productId - b.productId);
  const outcomes = new Map<number, ReserveOutcome>();
  if (new Set(lines.map((l) => l.productId)).size !== lines.length)
    throw new RangeError('each product may appear once');
  const moved = await repo.moveReservations(tx, {
    from: p.from,
    to: p.owner,
    lines,
    expiresAt: p.expiresAt === undefined ? null : p.expiresAt,
    at: p.at,
    reason: p.reason ?? `Handed from ${p.from.type} ${p.from.id} to ${p.owner.type} ${p.owner.id}`,
  });
  for (const m of moved) {
    const quantity = lines.find((l) => l.productId === m.productId)!.quantity;
    outcomes.set(m.productId, { ok: true, quantity, stock: level(m) });
  }
  for (const line of lines) {
    if (outcomes.has(line.productId)) continue;
    outcomes.set(line.productId, await handOverReservation(tx, { ...p, ...line }));
  }
  return outcomes;
}

/** Ends the owner's reservations (of one product, or all), giving the units back or selling them. */
async function endReservations(
  tx: Db,
  p: { owner: StockOwner; productId?: number; at: Date; reason?: string },
  sold: boolean,
): Promise<number> {
  let units = 0;
  for (const candidate of await repo.reservationsOf(tx, p.owner, p.productId)) {
    await repo.lockExistingStock(tx, candidate.productId);
    // Read again under the stock lock: another call for the same owner may have changed it.
    const reservation = await repo.findReservation(tx, p.owner, candidate.productId);
    if (!reservation) continue;
    const after = await repo.giveBack(tx, reservation.productId, reservation.quantity, sold, p.at);
    await repo.deleteReservation(tx, reservation.id);
    await repo.insertLedger(tx, {
      productId: reservation.productId,
      source: sold ? 'finalize' : 'release',
      reason: p.reason ?? `${sold ? 'Sold to' : 'Released by'} ${p.owner.type} ${p.owner.id}`,
      onHandDelta: sold ? -reservation.quantity : 0,
      reservedDelta: -reservation.quantity,
      after,
      owner: p.owner,
      at: p.at,
    });
    units += reservation.quantity;
  }
  return units;
}

/**
 * Locks the stock rows of `productIds` up front, in the order every stock change locks them, for
 * a transaction that will release some owner's units and then reserve others (a checkout that
 * replaces an earlier unpaid order): taking them in two passes could deadlock with a checkout
 * locking the same rows in one.
 */
export function lockStockOf(tx: Db, productIds: readonly number[]): Promise<void> {
  return repo.lockStockRows(
    tx,
    [...new Set(productIds)].sort((a, b) => a - b),
  );
}

/** Gives back what `owner` holds (of one product, or of every product). Returns the units released. */
export function releaseStock(
  tx: Db,
  p: { owner: StockOwner; productId?: number; at: Date; reason?: string },
): Promise<number> {
  return endReservations(tx, p, false);
}

/** Turns what `owner` holds into a sale: the units leave both `reserved` and `onHand`. */
export function finalizeStock(
  tx: Db,
  p: { owner: StockOwner; productId?: number; at: Date; reason?: string },
): Promise<number> {
  return endReservations(tx, p, true);
}

/**
 * Puts units that `owner` bought back on the shelf: a paid order cancelled or refunded before
 * it left the store. The caller's own conditional change makes sure this runs once. Products
 * without stock (digital, care packages) are skipped. Returns the units put back.
 */
export async function restockSoldUnits(
  tx: Db,
  p: { owner: StockOwner; lines: Array<{ productId: number; quantity: number }>; at: Date; reason?: string },
): Promise<number> {
  const byProduct = new Map<number, number>();
  for (const l of p.lines) byProduct.set(l.productId, (byProduct.get(l.productId) ?? 0) + l.quantity);
  let units = 0;
  // Ascending product ids, like every multi-product stock write, so two callers cannot deadlock.
  for (const [productId, quantity] of [...byProduct].sort(([a], [b]) => a - b)) {
    const row = await repo.lockExistingStock(tx, productId);
    if (!row || quantity <= 0) continue;
    const after = await repo.setOnHand(tx, productId, row.onHand + quantity, p.at);
    await repo.insertLedger(tx, {
      productId,
      source: 'release',
      reason: p.reason ?? `Returned to stock by ${p.owner.type} ${p.owner.id}`,
      onHandDelta: quantity,
      reservedDelta: 0,
      after,
      owner: p.owner,
      at: p.at,
    });
    units += quantity;
  }
  return units;
}

/**
 * Moves the expiry of every reservation of `owner` (a cart that is used again), but those of
 * `exceptProductIds` (changed in the same transaction with their own expiry).
 */
export function extendReservations(
  tx: Db,
  p: { owner: StockOwner; expiresAt: Date | null; at: Date; exceptProductIds?: readonly number[] },
): Promise<number> {
  return repo.setReservationsExpiry(tx, p.owner, p.expiresAt, p.at, p.exceptProductIds);
}

/**
 * Releases reservations whose expiry has passed, each in its own short transaction so one
 * busy product does not hold up the rest. Returns how many were released.
 */
export async function expireStaleReservations(db: Db, p: { at: Date; limit?: number }): Promise<number> {
  const stale = await repo.expiredReservations(db, p.at, p.limit ?? 500);
  let released = 0;
  for (const candidate of stale) {
    released += await inTransaction(db, async (tx) => {
      await repo.lockExistingStock(tx, candidate.productId);
      const current = await repo.findReservation(
        tx,
        { type: candidate.ownerType, id: candidate.ownerId },
        candidate.productId,
      );
      // Extended or changed meanwhile: no longer stale.
      if (!current?.expiresAt || current.expiresAt > p.at) return 0;
      const owner = { type: current.ownerType, id: current.ownerId };
      await endReservations(
        tx,
        { owner, productId: current.productId, at: p.at, reason: 'Reservation expired' },
        false,
      );
      return 1;
    });
  }
  return released;
}

// ---------- admin ----------

type Deps = Pick<ModuleContext, 'db' | 'clock'>;

async function physicalProduct(db: Db, productId: number): Promise<void> {
  const kind = (await findProduct(db, productId))?.productKind;
  if (!kind) throw catalogErrors.productNotFound();
  if (kind !== 'physical') throw stockErrors.notPhysical();
}

export async function adjustStock(
  deps: Deps,
  actor: UserPrincipal,
  productId: number,
  body: AdjustStockBody,
): Promise<StockLevel> {
  const now = deps.clock.now();
  return inTransaction(deps.db, async (tx) => {
    await physicalProduct(tx, productId);
    const before = await repo.lockStock(tx, productId);
    const onHand = 'delta' in body ? before.onHand + body.delta : body.onHand;
    if (onHand < before.reserved) throw stockErrors.belowReserved(onHand, before.reserved);
    const after = await repo.setOnHand(tx, productId, onHand, now);
    await publishEvent(tx, 'product.stock_changed', stockChange(productId, before, after));
    await repo.insertLedger(tx, {
      productId,
      source: 'adjustment',
      reason: body.reason,
      onHandDelta: onHand - before.onHand,
      reservedDelta: 0,
      after,
      actorId: actor.userId,
      at: now,
    });
    await recordActivity(tx, {
      adminId: actor.userId,
      action: 'stock_adjust',
      entityType: 'product',
      entityId: productId,
      summary: `Stock of product ${productId}: ${before.onHand} → ${onHand} on hand (${body.reason})`,
      at: now,
    });
    return level(after);
  });
}

export async function listStockLedger(
  deps: Pick<Deps, 'db'>,
  productId: number,
  query: StockLedgerQuery,
): Promise<{ entries: StockLedgerEntryView[]; meta: PageMeta }> {
  await physicalProduct(deps.db, productId);
  const { rows, count } = await repo.listLedger(deps.db, productId, query.order, pageWindow(query));
  return {
    entries: rows.map((r) => ({
      id: r.id,
      source: r.source,
      reason: r.reason,
      onHandDelta: r.onHandDelta,
      reservedDelta: r.reservedDelta,
      onHand: r.onHand,
      reserved: r.reserved,
      actorId: r.actorId,
      ownerType: r.ownerType,
      ownerId: r.ownerId,
      createdAt: r.createdAt.toISOString(),
    })),
    meta: pageMeta(query, count),
  };
}

/** How many low-stock products the dashboard shows: the ones to reorder first. */
export const LOW_STOCK_LIST_LIMIT = 10;

/** Products low in stock (CATALOG_LOW_STOCK_THRESHOLD), fewest units available first. */
export async function listLowStockProducts(db: Db, threshold: number): Promise<LowStockProduct[]> {
  const rows = await repo.lowStockProducts(db, threshold, LOW_STOCK_LIST_LIMIT);
  return rows.map((r) => ({
    productId: r.productId,
    name: r.title,
    slug: r.slug,
    stock: r.available,
    threshold,
  }));
}
