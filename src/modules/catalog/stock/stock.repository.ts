// Stock queries. Every change locks the product's stock row first (or changes it with one
// conditional UPDATE), so concurrent callers queue on that row and never oversell.
import { and, asc, count, desc, eq, inArray, lte, or, sql } from 'drizzle-orm';
import type { Db } from '../../../platform/db/database';
import { preparedPerDb } from '../../../platform/db/prepared';
import type { PageWindow } from '../../../platform/http/pagination';
import { intArray, paged, rowsOf } from '../catalog.repository';
import { products } from '../products/products.table';
import {
  productStock,
  type ReservationOwnerType,
  type StockSource,
  stockLedger,
  stockReservations,
} from './stock.table';

export type StockRow = typeof productStock.$inferSelect;
export type LedgerRow = typeof stockLedger.$inferSelect;
export type ReservationRow = typeof stockReservations.$inferSelect;

export interface Owner {
  type: ReservationOwnerType;
  id: string;
}

const ownedBy = (owner: Owner) =>
  and(eq(stockReservations.ownerType, owner.type), eq(stockReservations.ownerId, owner.id));

export async function stockRows(db: Db, productIds: number[]): Promise<StockRow[]> {
  if (!productIds.length) return [];
  return db.select().from(productStock).where(inArray(productStock.productId, productIds));
}

/** The stock row, locked until the transaction ends; created (empty) when missing. */
export async function lockStock(db: Db, productId: number): Promise<StockRow> {
  await db.insert(productStock).values({ productId }).onConflictDoNothing();
  const [row] = await db
    .select()
    .from(productStock)
    .where(eq(productStock.productId, productId))
    .for('update');
  return row!;
}

// Taken by every add to a cart and every buy-now, inside their transactions: prepared
// (platform/db/prepared.ts), like the reservations' expiry below.
const lockExistingStockQuery = preparedPerDb((db) =>
  db
    .select()
    .from(productStock)
    .where(eq(productStock.productId, sql.placeholder('productId')))
    .for('update')
    .prepare('stock_lock_existing'),
);

/** The stock row, locked, or undefined when the product never had stock. */
export async function lockExistingStock(db: Db, productId: number): Promise<StockRow | undefined> {
  const [row] = await lockExistingStockQuery(db).execute({ productId });
  return row;
}

/** Locks the stock rows of several products in ascending product id (the order every caller keeps). */
export async function lockStockRows(db: Db, productIds: readonly number[]): Promise<void> {
  if (!productIds.length) return;
  await db
    .select({ productId: productStock.productId })
    .from(productStock)
    .where(inArray(productStock.productId, [...productIds]))
    .orderBy(asc(productStock.productId))
    .for('update');
}

export async function setOnHand(db: Db, productId: number, onHand: number, at: Date): Promise<StockRow> {
  const [row] = await db
    .update(productStock)
    .set({ onHand, updatedAt: at })
    .where(eq(productStock.productId, productId))
    .returning();
  return row!;
}

/**
 * Reserves `quantity` more units when that many are available: one conditional UPDATE, so
 * two callers can never both take the last unit. Undefined when not enough are available.
 */
export async function takeAvailable(
  db: Db,
  productId: number,
  quantity: number,
  at: Date,
): Promise<StockRow | undefined> {
  const [row] = await db
    .update(productStock)
    .set({ reserved: sql`${productStock.reserved} + ${quantity}`, updatedAt: at })
    .where(
      and(
        eq(productStock.productId, productId),
        sql`${productStock.onHand} - ${productStock.reserved} >= ${quantity}`,
      ),
    )
    .returning();
  return row;
}

/**
 * Sets what `owner` holds of one product to `quantity` in one statement, for a caller that
 * holds the product's stock row lock (`lockExistingStock`, taken first, so this statement's
 * snapshot sees the owner's reservation as the last holder of the lock left it): the
 * difference is taken from what is available (only when that many are, like `takeAvailable`)
 * or given back, the reservation is written (or deleted at 0), and a ledger row records a
 * change of the counts. `expiresAt` undefined keeps a reservation's expiry (a new one: none).
 * Answers whether it was done, the change and the stock after it (undefined when the counts
 * did not move).
 */
export async function setHeld(
  db: Db,
  p: {
    id: string;
    owner: Owner;
    productId: number;
    quantity: number;
    expiresAt: Date | null | undefined;
    at: Date;
    reason: string | undefined;
  },
): Promise<{ ok: boolean; delta: number; after: { onHand: number; reserved: number } | undefined }> {
  const { type, id: ownerId } = p.owner;
  const keepExpiry = p.expiresAt === undefined;
  const [row] = await rowsOf<{ ok: boolean; delta: number; on_hand: number | null; reserved: number | null }>(
    db,
    sql`
    with cur as (
      select quantity, expires_at from ${stockReservations}
      where owner_type = ${type} and owner_id = ${ownerId} and product_id = ${p.productId}
    ),
    d as (select ${p.quantity}::int - coalesce((select quantity from cur), 0) as delta),
    s as (
      update ${productStock} ps
      set reserved = ps.reserved + d.delta, updated_at = ${p.at}
      from d
      where ps.product_id = ${p.productId} and d.delta <> 0
        and (d.delta < 0 or ps.on_hand - ps.reserved >= d.delta)
      returning ps.on_hand, ps.reserved
    ),
    ok as (select (select delta from d) = 0 or exists (select 1 from s) as ok),
    removed as (
      delete from ${stockReservations} r using ok
      where ok.ok and ${p.quantity}::int = 0
        and r.owner_type = ${type} and r.owner_id = ${ownerId} and r.product_id = ${p.productId}
    ),
    saved as (
      insert into ${stockReservations}
        (id, owner_type, owner_id, product_id, quantity, expires_at, created_at, updated_at)
      select ${p.id}::uuid, ${type}, ${ownerId}, ${p.productId}, ${p.quantity}::int,
        case when ${keepExpiry} then (select expires_at from cur) else ${p.expiresAt ?? null}::timestamptz end,
        ${p.at}, ${p.at}
      from ok where ok.ok and ${p.quantity}::int > 0
      on conflict (owner_type, owner_id, product_id) do update
      set quantity = excluded.quantity, expires_at = excluded.expires_at, updated_at = excluded.updated_at
    ),
    ledger as (
      insert into ${stockLedger}
        (product_id, source, reason, on_hand_delta, reserved_delta, on_hand, reserved, owner_type, owner_id, created_at)
      select ${p.productId}, case when d.delta > 0 then 'reservation' else 'release' end,
        coalesce(${p.reason ?? null}::text,
          case when d.delta > 0 then 'Reserved for ' else 'Released by ' end || ${type} || ' ' || ${ownerId}),
        0, d.delta, s.on_hand, s.reserved, ${type}, ${ownerId}, ${p.at}
      from s, d
    )
    select ok.ok, d.delta, s.on_hand, s.reserved from ok cross join d left join s on true`,
  );
  return {
    ok: Boolean(row!.ok),
    delta: Number(row!.delta),
    after:
      row!.on_hand === null || row!.on_hand === undefined
        ? undefined
        : { onHand: Number(row!.on_hand), reserved: Number(row!.reserved) },
  };
}

/** Gives back `quantity` reserved units; with `sold`, they also leave the shelf. */
export async function giveBack(
  db: Db,
  productId: number,
  quantity: number,
  sold: boolean,
  at: Date,
): Promise<StockRow> {
  const [row] = await db
    .update(productStock)
    .set({
      reserved: sql`${productStock.reserved} - ${quantity}`,
      ...(sold ? { onHand: sql`${productStock.onHand} - ${quantity}` } : {}),
      updatedAt: at,
    })
    .where(eq(productStock.productId, productId))
    .returning();
  return row!;
}

export async function findReservation(
  db: Db,
  owner: Owner,
  productId: number,
): Promise<ReservationRow | undefined> {
  const [row] = await db
    .select()
    .from(stockReservations)
    .where(and(ownedBy(owner), eq(stockReservations.productId, productId)));
  return row;
}

/** Gives a reservation to another owner (its units stay reserved); call it under the stock lock. */
export async function moveReservation(
  db: Db,
  id: string,
  to: Owner,
  expiresAt: Date | null,
  at: Date,
): Promise<void> {
  await db
    .update(stockReservations)
    .set({ ownerType: to.type, ownerId: to.id, expiresAt, updatedAt: at })
    .where(eq(stockReservations.id, id));
}

/**
 * Moves what `from` holds of each product to `to` in one statement, where `from` holds exactly
 * the wanted quantity and `to` holds none of it yet: the products' stock rows are locked first
 * (in product order, like every other stock change, so two callers cannot deadlock), the
 * reservations change owner, and a ledger row records each hand-over with the stock as it
 * stands (a change of owner moves no counts). Returns the products moved with their stock;
 * the others are left as they were for the caller's slower path.
 */
export async function moveReservations(
  db: Db,
  p: {
    from: Owner;
    to: Owner;
    lines: ReadonlyArray<{ productId: number; quantity: number }>;
    expiresAt: Date | null;
    at: Date;
    reason: string;
  },
): Promise<Array<{ productId: number; onHand: number; reserved: number }>> {
  if (!p.lines.length) return [];
  const ids = intArray(p.lines.map((l) => l.productId));
  const quantities = intArray(p.lines.map((l) => l.quantity));
  const rows = await rowsOf<{ product_id: number; on_hand: number; reserved: number }>(
    db,
    sql`
    with wanted as (
      select * from unnest(${ids}::int[], ${quantities}::int[]) as w(product_id, quantity)
    ),
    locked as materialized (
      select s.product_id, s.on_hand, s.reserved from ${productStock} s
      where s.product_id in (select product_id from wanted)
      order by s.product_id
      for update
    ),
    moved as (
      update ${stockReservations} r
      set owner_type = ${p.to.type}, owner_id = ${p.to.id}, expires_at = ${p.expiresAt},
          updated_at = ${p.at}
      from wanted w, locked l
      where r.product_id = w.product_id and l.product_id = w.product_id
        and r.owner_type = ${p.from.type} and r.owner_id = ${p.from.id} and r.quantity = w.quantity
        and not exists (
          select 1 from ${stockReservations} o
          where o.owner_type = ${p.to.type} and o.owner_id = ${p.to.id} and o.product_id = w.product_id
        )
      returning r.product_id
    )
    insert into ${stockLedger}
      (product_id, source, reason, on_hand_delta, reserved_delta, on_hand, reserved, owner_type, owner_id, created_at)
    select l.product_id, 'reservation', ${p.reason}, 0, 0, l.on_hand, l.reserved, ${p.to.type}, ${p.to.id}, ${p.at}
    from locked l join moved m on m.product_id = l.product_id
    returning product_id, on_hand, reserved`,
  );
  return rows.map((r) => ({
    productId: Number(r.product_id),
    onHand: Number(r.on_hand),
    reserved: Number(r.reserved),
  }));
}

/** What each of `owners` holds of one product (one read for a hand-over's two sides). */
export async function reservationsOfProduct(
  db: Db,
  productId: number,
  owners: Owner[],
): Promise<ReservationRow[]> {
  return db
    .select()
    .from(stockReservations)
    .where(and(eq(stockReservations.productId, productId), or(...owners.map(ownedBy))));
}

export async function reservationsOf(db: Db, owner: Owner, productId?: number): Promise<ReservationRow[]> {
  return db
    .select()
    .from(stockReservations)
    .where(
      and(ownedBy(owner), productId === undefined ? undefined : eq(stockReservations.productId, productId)),
    )
    .orderBy(asc(stockReservations.productId));
}

export async function saveReservation(
  db: Db,
  values: { id: string; owner: Owner; productId: number; quantity: number; expiresAt: Date | null; at: Date },
): Promise<ReservationRow> {
  const [row] = await db
    .insert(stockReservations)
    .values({
      id: values.id,
      ownerType: values.owner.type,
      ownerId: values.owner.id,
      productId: values.productId,
      quantity: values.quantity,
      expiresAt: values.expiresAt,
      createdAt: values.at,
      updatedAt: values.at,
    })
    .onConflictDoUpdate({
      target: [stockReservations.ownerType, stockReservations.ownerId, stockReservations.productId],
      set: { quantity: values.quantity, expiresAt: values.expiresAt, updatedAt: values.at },
    })
    .returning();
  return row!;
}

export async function deleteReservation(db: Db, id: string): Promise<void> {
  await db.delete(stockReservations).where(eq(stockReservations.id, id));
}

// A placeholder's value reaches the driver as it is (no column mapping): instants go as text.
const reservationsExpiryQuery = preparedPerDb((db) =>
  db
    .update(stockReservations)
    .set({
      expiresAt: sql`${sql.placeholder('expiresAt')}::timestamptz`,
      updatedAt: sql`${sql.placeholder('at')}::timestamptz`,
    })
    .where(
      and(
        eq(stockReservations.ownerType, sql.placeholder('ownerType')),
        eq(stockReservations.ownerId, sql.placeholder('ownerId')),
        sql`${stockReservations.productId} <> all(${sql.placeholder('exceptProductIds')}::int[])`,
      ),
    )
    .returning({ id: stockReservations.id })
    .prepare('stock_reservations_expiry'),
);

export async function setReservationsExpiry(
  db: Db,
  owner: Owner,
  expiresAt: Date | null,
  at: Date,
  exceptProductIds: readonly number[] = [],
): Promise<number> {
  const rows = await reservationsExpiryQuery(db).execute({
    expiresAt: expiresAt?.toISOString() ?? null,
    at: at.toISOString(),
    ownerType: owner.type,
    ownerId: owner.id,
    exceptProductIds: [...exceptProductIds],
  });
  return rows.length;
}

/** Reservations whose expiry has passed, oldest first. */
export async function expiredReservations(db: Db, at: Date, limit: number): Promise<ReservationRow[]> {
  return db
    .select()
    .from(stockReservations)
    .where(lte(stockReservations.expiresAt, at))
    .orderBy(asc(stockReservations.expiresAt))
    .limit(limit);
}

export async function insertLedger(
  db: Db,
  values: {
    productId: number;
    source: StockSource;
    reason: string;
    onHandDelta: number;
    reservedDelta: number;
    after: StockRow;
    actorId?: string | null;
    owner?: Owner | null;
    at: Date;
  },
): Promise<void> {
  await db.insert(stockLedger).values({
    productId: values.productId,
    source: values.source,
    reason: values.reason,
    onHandDelta: values.onHandDelta,
    reservedDelta: values.reservedDelta,
    onHand: values.after.onHand,
    reserved: values.after.reserved,
    actorId: values.actorId ?? null,
    ownerType: values.owner?.type ?? null,
    ownerId: values.owner?.id ?? null,
    createdAt: values.at,
  });
}

export async function listLedger(
  db: Db,
  productId: number,
  order: 'asc' | 'desc',
  page: PageWindow,
): Promise<{ rows: LedgerRow[]; count: number }> {
  const where = eq(stockLedger.productId, productId);
  const rows = await paged(
    db
      .select()
      .from(stockLedger)
      .where(where)
      .orderBy(order === 'asc' ? asc(stockLedger.id) : desc(stockLedger.id))
      .$dynamic(),
    page,
  );
  const [total] = await db.select({ n: count() }).from(stockLedger).where(where);
  return { rows, count: total?.n ?? 0 };
}

export interface LowStockRow {
  productId: number;
  title: string;
  slug: string;
  available: number;
}

/**
 * Published, sellable physical products with at most `threshold` units available, fewest
 * first; a product that never had a stock row has none. One query on the product list.
 */
export async function lowStockProducts(db: Db, threshold: number, limit: number): Promise<LowStockRow[]> {
  const available = sql<number>`(coalesce(${productStock.onHand}, 0) - coalesce(${productStock.reserved}, 0))::int`;
  return db
    .select({ productId: products.id, title: products.title, slug: products.slug, available })
    .from(products)
    .leftJoin(productStock, eq(productStock.productId, products.id))
    .where(
      and(
        eq(products.productKind, 'physical'),
        eq(products.status, 'published'),
        eq(products.isSellable, true),
        lte(available, threshold),
      ),
    )
    .orderBy(asc(available), asc(products.title), asc(products.id))
    .limit(limit);
}
