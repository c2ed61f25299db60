// Queries of carts and their lines. One active cart per customer is the database's rule (a
// partial unique index): `ensureActiveCart` inserts and, when another request won, reads.
import { and, asc, desc, eq, isNotNull, lte, sql } from 'drizzle-orm';
import type { Db } from '../../../platform/db/database';
import { preparedPerDb } from '../../../platform/db/prepared';
import { newUuid } from '../../../platform/ids';
import { cartItems, carts } from './carts.table';

export type CartRow = typeof carts.$inferSelect;
export type CartItemRow = typeof cartItems.$inferSelect;
type NewCartItemRow = typeof cartItems.$inferInsert;

// The reads every cart change, cart read and checkout makes are prepared (platform/db/prepared.ts).
const activeCartQuery = (lock: boolean) =>
  preparedPerDb((db) => {
    const query = db
      .select()
      .from(carts)
      .where(and(eq(carts.customerId, sql.placeholder('customerId')), eq(carts.status, 'active')));
    return (lock ? query.for('update') : query).prepare(lock ? 'cart_lock_active' : 'cart_find_active');
  });
const findActiveCartQuery = activeCartQuery(false);
const lockActiveCartQuery = activeCartQuery(true);

const itemsOfQuery = preparedPerDb((db) =>
  db
    .select()
    .from(cartItems)
    .where(eq(cartItems.cartId, sql.placeholder('cartId')))
    .orderBy(asc(cartItems.createdAt), asc(cartItems.id))
    .prepare('cart_items_of'),
);

export async function findActiveCart(db: Db, customerId: string): Promise<CartRow | undefined> {
  const [row] = await findActiveCartQuery(db).execute({ customerId });
  return row;
}

/**
 * The customer's active cart, created when there is none; racing first requests get one cart.
 * A new cart starts with the shipping location of the customer's last cart (the one an order
 * just ended, usually): the address does not have to be typed again for every order.
 */
export async function ensureActiveCart(db: Db, customerId: string, at: Date): Promise<CartRow> {
  const existing = await findActiveCart(db, customerId);
  if (existing) return existing;
  const [last] = await db
    .select({
      districtName: carts.districtName,
      addressLine1: carts.addressLine1,
      city: carts.city,
      postalCode: carts.postalCode,
      latitude: carts.latitude,
      longitude: carts.longitude,
    })
    .from(carts)
    .where(eq(carts.customerId, customerId))
    .orderBy(desc(carts.updatedAt))
    .limit(1);
  const [created] = await db
    .insert(carts)
    .values({ id: newUuid(), customerId, status: 'active', ...last, createdAt: at, updatedAt: at })
    .onConflictDoNothing({ target: carts.customerId, where: sql`status = 'active'` })
    .returning();
  return created ?? (await findActiveCart(db, customerId))!;
}

/**
 * Locks the customer's active cart, if there is one. A cart that stops being active while
 * this waits for its lock is not returned (PostgreSQL checks the condition again).
 */
export async function lockActiveCartIfAny(tx: Db, customerId: string): Promise<CartRow | undefined> {
  const [row] = await lockActiveCartQuery(tx).execute({ customerId });
  return row;
}

/** Locks the customer's active cart (creating it first), so one customer's changes queue. */
export async function lockActiveCart(tx: Db, customerId: string, at: Date): Promise<CartRow> {
  const existing = await lockActiveCartIfAny(tx, customerId);
  if (existing) return existing;
  await ensureActiveCart(tx, customerId, at);
  return (await lockActiveCartIfAny(tx, customerId))!;
}

export async function lockCart(tx: Db, cartId: string): Promise<CartRow | undefined> {
  const [row] = await tx.select().from(carts).where(eq(carts.id, cartId)).for('update');
  return row;
}

// Every checkout hands its cart to the order in its transaction: prepared, and nothing read back.
// Instants go as text (a placeholder inside an SQL expression reaches the driver as it is).
const handToOrderQuery = preparedPerDb((db) =>
  db
    .update(carts)
    .set({
      orderId: sql`${sql.placeholder('orderId')}::text`,
      reservedUntil: null,
      updatedAt: sql`${sql.placeholder('at')}::timestamptz`,
      status: sql`case when ${sql.placeholder('confirmed')}::boolean then 'ordered' else ${carts.status} end`,
    })
    .where(eq(carts.id, sql.placeholder('cartId')))
    .prepare('cart_hand_to_order'),
);

/** The cart is the order's now, holding nothing of its own; `confirmed` (COD) also ends it. */
export async function handCartToOrder(
  db: Db,
  p: { cartId: string; orderId: string; at: Date; confirmed: boolean },
): Promise<void> {
  await handToOrderQuery(db).execute({
    cartId: p.cartId,
    orderId: p.orderId,
    at: p.at.toISOString(),
    confirmed: p.confirmed,
  });
}

export async function updateCart(db: Db, cartId: string, values: Partial<typeof carts.$inferInsert>) {
  const [row] = await db.update(carts).set(values).where(eq(carts.id, cartId)).returning();
  return row!;
}

export function itemsOf(db: Db, cartId: string): Promise<CartItemRow[]> {
  return itemsOfQuery(db).execute({ cartId });
}

export async function insertItem(db: Db, values: Omit<NewCartItemRow, 'id'>): Promise<CartItemRow> {
  const [row] = await db
    .insert(cartItems)
    .values({ id: newUuid(), ...values })
    .returning();
  return row!;
}

export async function updateItem(db: Db, id: string, values: Partial<NewCartItemRow>): Promise<CartItemRow> {
  const [row] = await db.update(cartItems).set(values).where(eq(cartItems.id, id)).returning();
  return row!;
}

export async function deleteItem(db: Db, id: string): Promise<void> {
  await db.delete(cartItems).where(eq(cartItems.id, id));
}

/** Active carts whose reservations are past their time: what `cart.expire` releases. */
export async function cartsHoldingPast(db: Db, at: Date, limit: number): Promise<Array<{ id: string }>> {
  return db
    .select({ id: carts.id })
    .from(carts)
    .where(and(eq(carts.status, 'active'), isNotNull(carts.reservedUntil), lte(carts.reservedUntil, at)))
    .limit(limit);
}
