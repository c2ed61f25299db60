// Stock: admin adjustments, the ledger, and the reservation functions the cart and orders call.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  expireStaleReservations,
  extendReservations,
  finalizeStock,
  getStockLevels,
  handOverReservations,
  releaseStock,
  reserveStock,
  type StockOwner,
  setReservedQuantity,
} from '../../../src/modules/catalog';
import { stockReservations } from '../../../src/modules/catalog/stock/stock.table';
import type { Db } from '../../../src/platform/db/database';
import { inTransaction } from '../../../src/platform/db/transaction';
import type { TestApp } from '../../helpers/app';
import { type SignedIn, signedInAdmin } from '../../helpers/factories';
import { type caller, catalogTestApp, insertProduct } from './calls';

interface LedgerEntry {
  id: number;
  source: string;
  reason: string;
  onHandDelta: number;
  reservedDelta: number;
  onHand: number;
  reserved: number;
  actorId: string | null;
  ownerType: string | null;
  ownerId: string | null;
}

describe('stock', () => {
  let t: TestApp;
  let db: Db;
  let admin: SignedIn;
  let customer: SignedIn;
  let http: ReturnType<typeof caller>;
  beforeAll(async () => {
    ({ t, db, http, admin, customer } = await catalogTestApp());
  });
  afterAll(() => t.close());

  const at = () => new Date();
  const adjust = (id: number, body: unknown, headers = admin.headers) =>
    http.call('PATCH', `/api/admin/products/${id}/stock`, headers, body);
  const ledger = async (id: number, query = '') => {
    const res = await http.call(
      'GET',
      `/api/admin/products/${id}/stock/ledger?pagination=false${query}`,
      admin.headers,
    );
    expect(res.statusCode).toBe(200);
    return res.json().data as LedgerEntry[];
  };
  async function stocked(onHand: number) {
    const id = await insertProduct(t, { productKind: 'physical' });
    if (onHand) expect((await adjust(id, { onHand, reason: 'initial count' })).statusCode).toBe(200);
    return id;
  }
  const levelOf = async (id: number) => (await getStockLevels(db, [id])).get(id)!;
  const reserve = (productId: number, quantity: number, owner: StockOwner, expiresAt?: Date | null) =>
    inTransaction(db, (tx) => reserveStock(tx, { productId, quantity, owner, expiresAt, at: at() }));

  describe('PATCH /api/admin/products/:id/stock', () => {
    it('adds with delta and sets with onHand, writing the ledger and the activity trail', async () => {
      const editor = await signedInAdmin(t, { permissions: ['Inventory_UPDATE'] });
      const id = await insertProduct(t, { productKind: 'physical' });
      const first = await adjust(id, { delta: 5, reason: 'delivery from Patan' }, editor.headers);
      expect(first.statusCode).toBe(200);
      expect(first.json().data).toEqual({ onHand: 5, reserved: 0, available: 5 });
      const second = await adjust(id, { onHand: 12, reason: 'stock count' }, editor.headers);
      expect(second.json().data).toEqual({ onHand: 12, reserved: 0, available: 12 });
      const third = await adjust(id, { delta: -2, reason: 'damaged' }, editor.headers);
      expect(third.json().data).toEqual({ onHand: 10, reserved: 0, available: 10 });

      const rows = await ledger(id);
      expect(rows.map((r) => [r.source, r.reason, r.onHandDelta, r.onHand, r.reserved, r.actorId])).toEqual([
        ['adjustment', 'damaged', -2, 10, 0, editor.userId],
        ['adjustment', 'stock count', 7, 12, 0, editor.userId],
        ['adjustment', 'delivery from Patan', 5, 5, 0, editor.userId],
      ]);
      const trail = await http.activityOf(admin, 'product', id);
      expect(trail[0]).toMatchObject({ adminId: editor.userId, action: 'stock_adjust' });
      expect(trail).toHaveLength(3);
    });

    it('never goes below what is reserved: 400 STOCK_BELOW_RESERVED, nothing changes', async () => {
      const id = await stocked(5);
      expect((await reserve(id, 3, { type: 'cart', id: 'c-below' })).ok).toBe(true);
      for (const body of [
        { delta: -3, reason: 'lost' },
        { onHand: 2, reason: 'count' },
        { delta: -10, reason: 'lost' },
      ]) {
        const res = await adjust(id, body);
        expect(res.statusCode).toBe(400);
        expect(res.json().errorCode).toBe('STOCK_BELOW_RESERVED');
      }
      expect((await adjust(id, { onHand: 3, reason: 'count' })).json().data).toEqual({
        onHand: 3,
        reserved: 3,
        available: 0,
      });
      expect((await ledger(id)).filter((r) => r.source === 'adjustment')).toHaveLength(2);
    });

    it('404 PRODUCT_NOT_FOUND, 400 PRODUCT_NOT_PHYSICAL, 400 on bad bodies', async () => {
      const missing = await adjust(999999, { delta: 1, reason: 'x' });
      expect(missing.statusCode).toBe(404);
      expect(missing.json().errorCode).toBe('PRODUCT_NOT_FOUND');
      const digital = await insertProduct(t, { productKind: 'digital' });
      const notPhysical = await adjust(digital, { delta: 1, reason: 'x' });
      expect(notPhysical.statusCode).toBe(400);
      expect(notPhysical.json().errorCode).toBe('PRODUCT_NOT_PHYSICAL');
      const ledgerOfDigital = await http.call(
        'GET',
        `/api/admin/products/${digital}/stock/ledger`,
        admin.headers,
      );
      expect(ledgerOfDigital.json().errorCode).toBe('PRODUCT_NOT_PHYSICAL');

      const id = await insertProduct(t, { productKind: 'physical' });
      for (const body of [
        {},
        { delta: 1 },
        { reason: 'x' },
        { delta: 0, reason: 'x' },
        { delta: 1.5, reason: 'x' },
        { onHand: -1, reason: 'x' },
        { delta: 1, onHand: 2, reason: 'x' },
        { delta: 1, reason: '  ' },
      ]) {
        const res = await adjust(id, body);
        expect(res.statusCode, JSON.stringify(body)).toBe(400);
        expect(res.json().errorCode).toBe('VALIDATION_ERROR');
      }
      expect((await adjust(0, { delta: 1, reason: 'x' })).json().errorCode).toBe('VALIDATION_ERROR');
    });

    it('needs Inventory_UPDATE', async () => {
      const id = await insertProduct(t, { productKind: 'physical' });
      await http.expectGuarded('PATCH', `/api/admin/products/${id}/stock`, 'Inventory_UPDATE', customer, {
        delta: 1,
        reason: 'x',
      });
      const reader = await signedInAdmin(t, { permissions: ['Inventory_READ'] });
      expect((await adjust(id, { delta: 1, reason: 'x' }, reader.headers)).json().errorCode).toBe(
        'AUTH_PERMISSION_DENIED',
      );
    });
  });

  describe('GET /api/admin/products/:id/stock/ledger', () => {
    it('pages newest first, oldest first on request', async () => {
      const id = await stocked(1);
      for (let i = 0; i < 4; i++) await adjust(id, { delta: 1, reason: `batch ${i}` });
      const reader = await signedInAdmin(t, { permissions: ['Inventory_READ'] });
      const page = await http.call(
        'GET',
        `/api/admin/products/${id}/stock/ledger?size=2&page=1`,
        reader.headers,
      );
      expect(page.statusCode).toBe(200);
      expect(page.json().meta).toEqual({ count: 5, page: 1, size: 2 });
      expect(page.json().data.map((r: LedgerEntry) => r.reason)).toEqual(['batch 3', 'batch 2']);
      const asc = await ledger(id, '&order=asc');
      expect(asc.map((r) => r.onHand)).toEqual([1, 2, 3, 4, 5]);
      const missing = await http.call('GET', '/api/admin/products/999999/stock/ledger', admin.headers);
      expect(missing.json().errorCode).toBe('PRODUCT_NOT_FOUND');
      const bad = await http.call('GET', `/api/admin/products/${id}/stock/ledger?size=1000`, admin.headers);
      expect(bad.json().errorCode).toBe('VALIDATION_ERROR');
    });

    it('needs Inventory_READ', async () => {
      const id = await insertProduct(t, { productKind: 'physical' });
      await http.expectGuarded('GET', `/api/admin/products/${id}/stock/ledger`, 'Inventory_READ', customer);
    });
  });

  describe('reservation functions', () => {
    it('reserves, adds to an owner’s hold, and refuses more than is available', async () => {
      const id = await stocked(5);
      const cart: StockOwner = { type: 'cart', id: 'cart-1' };
      const first = await reserve(id, 2, cart);
      expect(first).toEqual({ ok: true, quantity: 2, stock: { onHand: 5, reserved: 2, available: 3 } });
      const more = await reserve(id, 1, cart);
      expect(more).toMatchObject({ ok: true, quantity: 3 });
      const tooMany = await reserve(id, 3, { type: 'cart', id: 'cart-2' });
      expect(tooMany).toEqual({ ok: false, stock: { onHand: 5, reserved: 3, available: 2 } });
      // A product that never had stock cannot be reserved.
      const empty = await insertProduct(t, { productKind: 'physical' });
      expect(await reserve(empty, 1, cart)).toEqual({
        ok: false,
        stock: { onHand: 0, reserved: 0, available: 0 },
      });

      const rows = await ledger(id, '&order=asc');
      expect(
        rows.slice(1).map((r) => [r.source, r.reservedDelta, r.reserved, r.ownerType, r.ownerId]),
      ).toEqual([
        ['reservation', 2, 2, 'cart', 'cart-1'],
        ['reservation', 1, 3, 'cart', 'cart-1'],
      ]);
    });

    it('follows a quantity change, and 0 releases', async () => {
      const id = await stocked(6);
      const cart: StockOwner = { type: 'cart', id: 'cart-q' };
      const set = (quantity: number) =>
        inTransaction(db, (tx) =>
          setReservedQuantity(tx, { productId: id, quantity, owner: cart, at: at() }),
        );
      expect(await set(4)).toMatchObject({ ok: true, quantity: 4, stock: { reserved: 4, available: 2 } });
      expect(await set(2)).toMatchObject({ ok: true, quantity: 2, stock: { reserved: 2 } });
      expect(await set(7)).toEqual({ ok: false, stock: { onHand: 6, reserved: 2, available: 4 } });
      expect(await set(6)).toMatchObject({ ok: true, quantity: 6, stock: { reserved: 6, available: 0 } });
      expect(await set(0)).toMatchObject({ ok: true, quantity: 0, stock: { reserved: 0, available: 6 } });
      expect(await db.select().from(stockReservations)).not.toContainEqual(
        expect.objectContaining({ ownerId: 'cart-q' }),
      );
      const rows = await ledger(id, '&order=asc');
      expect(rows.slice(1).map((r) => [r.source, r.reservedDelta, r.reserved])).toEqual([
        ['reservation', 4, 4],
        ['release', -2, 2],
        ['reservation', 4, 6],
        ['release', -6, 0],
      ]);
    });

    it('hands a cart’s hold to an order: the same units change owner, a lapsed hold is taken again', async () => {
      const id = await stocked(5);
      const cart: StockOwner = { type: 'cart', id: 'cart-h' };
      const order: StockOwner = { type: 'order', id: 'order-h' };
      const handOver = (quantity: number, to = order) =>
        inTransaction(db, async (tx) =>
          (
            await handOverReservations(tx, {
              from: cart,
              owner: to,
              lines: [{ productId: id, quantity }],
              expiresAt: null,
              at: at(),
            })
          ).get(id),
        );
      await reserve(id, 2, cart, new Date(Date.now() + 60_000));
      expect(await handOver(2)).toEqual({
        ok: true,
        quantity: 2,
        stock: { onHand: 5, reserved: 2, available: 3 },
      });
      const held = await db.select().from(stockReservations);
      expect(held.filter((r) => r.ownerId === 'cart-h')).toEqual([]);
      expect(held.filter((r) => r.ownerId === 'order-h')).toEqual([
        expect.objectContaining({ productId: id, quantity: 2, expiresAt: null }),
      ]);
      // Nothing held any more (it lapsed): the units are taken again, and only if they are there.
      const second: StockOwner = { type: 'order', id: 'order-h2' };
      expect(await handOver(3, second)).toMatchObject({ ok: true, quantity: 3, stock: { reserved: 5 } });
      expect(await handOver(1, { type: 'order', id: 'order-h3' })).toEqual({
        ok: false,
        stock: { onHand: 5, reserved: 5, available: 0 },
      });
      // A hold of another size: given back, then the new quantity reserved.
      await inTransaction(db, (tx) => releaseStock(tx, { owner: second, at: at() }));
      await reserve(id, 1, cart);
      expect(await handOver(2, second)).toMatchObject({ ok: true, quantity: 2, stock: { reserved: 4 } });
      const rows = await ledger(id, '&order=asc');
      expect(rows.slice(1).map((r) => [r.source, r.reservedDelta, r.reserved, r.ownerId])).toEqual([
        ['reservation', 2, 2, 'cart-h'],
        ['reservation', 0, 2, 'order-h'],
        ['reservation', 3, 5, 'order-h2'],
        ['release', -3, 2, 'order-h2'],
        ['reservation', 1, 3, 'cart-h'],
        ['release', -1, 2, 'cart-h'],
        ['reservation', 2, 4, 'order-h2'],
      ]);
    });

    it('hands several products at once: exact holds change owner together, the others take the one-product path', async () => {
      const [exact, lapsed, other, scarce] = [
        await stocked(5),
        await stocked(5),
        await stocked(5),
        await stocked(1),
      ];
      const cart: StockOwner = { type: 'cart', id: 'cart-m' };
      const order: StockOwner = { type: 'order', id: 'order-m' };
      await reserve(exact, 2, cart);
      await reserve(other, 1, cart); // holds 1, the order wants 3
      await reserve(scarce, 1, { type: 'cart', id: 'someone-else' }); // nothing left to take
      const handOver = (lines: Array<{ productId: number; quantity: number }>, to = order) =>
        inTransaction(db, (tx) =>
          handOverReservations(tx, { from: cart, owner: to, lines, expiresAt: null, at: at() }),
        );
      const outcomes = await handOver([
        { productId: other, quantity: 3 },
        { productId: exact, quantity: 2 },
        { productId: lapsed, quantity: 1 },
      ]);
      expect(Object.fromEntries(outcomes)).toEqual({
        [exact]: { ok: true, quantity: 2, stock: { onHand: 5, reserved: 2, available: 3 } },
        [lapsed]: { ok: true, quantity: 1, stock: { onHand: 5, reserved: 1, available: 4 } },
        [other]: { ok: true, quantity: 3, stock: { onHand: 5, reserved: 3, available: 2 } },
      });
      const held = await db.select().from(stockReservations);
      expect(held.filter((r) => r.ownerId === 'cart-m')).toEqual([]);
      expect(
        held
          .filter((r) => r.ownerId === 'order-m')
          .map((r) => [r.productId, r.quantity])
          .sort((a, b) => a[0]! - b[0]!),
      ).toEqual([
        [exact, 2],
        [lapsed, 1],
        [other, 3],
      ]);
      expect(
        (await ledger(exact, '&order=asc')).slice(1).map((r) => [r.source, r.reservedDelta, r.ownerId]),
      ).toEqual([
        ['reservation', 2, 'cart-m'],
        ['reservation', 0, 'order-m'],
      ]);
      // A product the order already holds is not moved onto it: the cart's units go back and
      // the order reserves the line's quantity more, as `reserveStock` does.
      await reserve(exact, 1, cart);
      expect((await handOver([{ productId: exact, quantity: 1 }])).get(exact)).toEqual({
        ok: true,
        quantity: 3,
        stock: { onHand: 5, reserved: 3, available: 2 },
      });
      // Not enough stock: that line fails, and the caller's transaction decides.
      expect(
        (await handOver([{ productId: scarce, quantity: 1 }], { type: 'order', id: 'order-s' })).get(scarce),
      ).toEqual({
        ok: false,
        stock: { onHand: 1, reserved: 1, available: 0 },
      });
    });

    it('releases and finalizes what an owner holds; a write that rolls back leaves nothing', async () => {
      const a = await stocked(10);
      const b = await stocked(10);
      const order: StockOwner = { type: 'order', id: 'order-1' };
      await reserve(a, 2, order);
      await reserve(b, 3, order);
      await reserve(a, 1, { type: 'cart', id: 'someone-else' });

      const sold = await inTransaction(db, (tx) => finalizeStock(tx, { owner: order, at: at() }));
      expect(sold).toBe(5);
      expect(await levelOf(a)).toEqual({ onHand: 8, reserved: 1, available: 7 });
      expect(await levelOf(b)).toEqual({ onHand: 7, reserved: 0, available: 7 });
      expect((await ledger(a))[0]).toMatchObject({
        source: 'finalize',
        onHandDelta: -2,
        reservedDelta: -2,
        onHand: 8,
      });
      // Nothing left to finalize or release.
      expect(await inTransaction(db, (tx) => releaseStock(tx, { owner: order, at: at() }))).toBe(0);

      const cancelled: StockOwner = { type: 'order', id: 'order-2' };
      await reserve(a, 4, cancelled);
      const released = await inTransaction(db, (tx) =>
        releaseStock(tx, { owner: cancelled, productId: a, at: at() }),
      );
      expect(released).toBe(4);
      expect(await levelOf(a)).toEqual({ onHand: 8, reserved: 1, available: 7 });

      await expect(
        inTransaction(db, async (tx) => {
          await reserveStock(tx, {
            productId: a,
            quantity: 5,
            owner: { type: 'cart', id: 'rolled-back' },
            at: at(),
          });
          throw new Error('the cart write failed');
        }),
      ).rejects.toThrow('the cart write failed');
      expect(await levelOf(a)).toEqual({ onHand: 8, reserved: 1, available: 7 });
    });

    it('expires stale reservations, keeps extended ones', async () => {
      const id = await stocked(10);
      const past = new Date(Date.now() - 60_000);
      const future = new Date(Date.now() + 3_600_000);
      await reserve(id, 2, { type: 'cart', id: 'idle-cart' }, past);
      await reserve(id, 3, { type: 'cart', id: 'busy-cart' }, past);
      await reserve(id, 1, { type: 'order', id: 'no-expiry' }, null);
      await inTransaction(db, (tx) =>
        extendReservations(tx, { owner: { type: 'cart', id: 'busy-cart' }, expiresAt: future, at: at() }),
      );
      // Adding to a reservation without an expiry keeps the one it has.
      await reserve(id, 1, { type: 'cart', id: 'idle-cart' });

      const expired = await expireStaleReservations(db, { at: at() });
      expect(expired).toBe(1);
      expect(await levelOf(id)).toEqual({ onHand: 10, reserved: 4, available: 6 });
      expect((await ledger(id))[0]).toMatchObject({
        source: 'release',
        reason: 'Reservation expired',
        reservedDelta: -3,
        ownerId: 'idle-cart',
      });
      expect(await expireStaleReservations(db, { at: at() })).toBe(0);
    });

    it('keeps the ledger whole when adjustments, reservations, changes and releases race', async () => {
      const id = await stocked(10);
      const owner = (i: number): StockOwner => ({ type: 'cart', id: `mixed-${i}` });
      await Promise.all(Array.from({ length: 5 }, (_, i) => reserve(id, 1, owner(i))));
      await Promise.all([
        // 10 more units arrive while carts reserve, change and give back.
        ...Array.from({ length: 10 }, () => adjust(id, { delta: 1, reason: 'delivery' })),
        ...Array.from({ length: 10 }, (_, i) => reserve(id, 1, owner(100 + i))),
        ...Array.from({ length: 5 }, (_, i) =>
          inTransaction(db, (tx) =>
            setReservedQuantity(tx, { productId: id, quantity: 2, owner: owner(i), at: at() }),
          ),
        ),
        ...Array.from({ length: 5 }, (_, i) =>
          inTransaction(db, (tx) => releaseStock(tx, { owner: owner(100 + i), at: at() })),
        ),
      ]);
      const level = await levelOf(id);
      expect(level.onHand).toBe(20);
      const held = (await db.select().from(stockReservations)).filter((r) => r.productId === id);
      expect(level.reserved).toBe(held.reduce((sum, r) => sum + r.quantity, 0));
      let onHand = 0;
      let reserved = 0;
      for (const row of await ledger(id, '&order=asc')) {
        onHand += row.onHandDelta;
        reserved += row.reservedDelta;
        expect([row.onHand, row.reserved]).toEqual([onHand, reserved]);
      }
      expect([onHand, reserved]).toEqual([level.onHand, level.reserved]);
    });

    it('never oversells: 50 concurrent reservations of 1 at a stock of 10', async () => {
      const id = await stocked(10);
      const outcomes = await Promise.all(
        Array.from({ length: 50 }, (_, i) => reserve(id, 1, { type: 'cart', id: `race-${i}` })),
      );
      expect(outcomes.filter((o) => o.ok)).toHaveLength(10);
      expect(outcomes.filter((o) => !o.ok)).toHaveLength(40);
      expect(await levelOf(id)).toEqual({ onHand: 10, reserved: 10, available: 0 });

      const reservations = (await db.select().from(stockReservations)).filter((r) => r.productId === id);
      expect(reservations).toHaveLength(10);
      // The ledger replays to the final stock, one step at a time, in id order.
      const rows = await ledger(id, '&order=asc');
      expect(rows).toHaveLength(11);
      let onHand = 0;
      let reserved = 0;
      for (const row of rows) {
        onHand += row.onHandDelta;
        reserved += row.reservedDelta;
        expect([row.onHand, row.reserved]).toEqual([onHand, reserved]);
      }
      expect(rows.slice(1).map((r) => r.reserved)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    });
  });
});
