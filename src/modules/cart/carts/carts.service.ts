// The customer's cart: lines with price snapshots and stock reservations, an optional care
// package per line, a coupon revalidated after every change, and a manual shipping location.
// Every change runs in one transaction on the locked cart row, counts against the customer's
// sliding-window limit, and clears the customer's cached cart after commit. How lines are
// priced is carts.lines.ts; a quote without a cart is carts.quote.ts.
import type { Db } from '../../../platform/db/database';
import { inTransaction } from '../../../platform/db/transaction';
import { serializedWith } from '../../../platform/http/envelope';
import type { ModuleContext } from '../../../platform/module';
import {
  extendReservations,
  findProductsForSale,
  findShippingDistrict,
  type ProductForSale,
  releaseStock,
  type StockOwner,
  setReservedQuantity,
} from '../../catalog';
import { type CouponRejection, cartErrors, couponRejectionMessage } from '../cart.errors';
import * as couponRepo from '../coupons/coupons.repository';
import { cachedCartText, forgetCachedCart } from './carts.cache';
import {
  checkCarePackage,
  checkQuantity,
  type LineCarePackage,
  linePackage,
  type PricedLines,
  priceCart,
} from './carts.lines';
import { mergeItems } from './carts.quote';
import { consumeSlidingLimit } from './carts.rate-limit';
import * as repo from './carts.repository';
import {
  type AddItemBody,
  type CarePackageChoiceBody,
  type CartView,
  cart as cartSchema,
  type QuoteItem,
  type SetLocationBody,
  type ShippingLocationView,
} from './carts.schemas';
import type { carts } from './carts.table';

export type CartDeps = Pick<ModuleContext, 'db' | 'clock' | 'cache' | 'config' | 'storage'>;
/** A cart change also counts against the customer's limit, in the security counters. */
export type CartChangeDeps = CartDeps & Pick<ModuleContext, 'counters'>;

export const cartOwner = (cartId: string): StockOwner => ({ type: 'cart', id: cartId });

// ---------- the cart's view ----------

export const locationOf = (cart: repo.CartRow): ShippingLocationView | null =>
  cart.districtName
    ? {
        districtName: cart.districtName,
        addressLine1: cart.addressLine1 ?? '',
        city: cart.city ?? '',
        postalCode: cart.postalCode ?? '',
        latitude: cart.latitude,
        longitude: cart.longitude,
      }
    : null;

export const removedNotice = (code: string | null, reason: CouponRejection) =>
  `Coupon ${code ?? ''} was removed: ${couponRejectionMessage(reason)}`.replace('  ', ' ');

function toView(cart: repo.CartRow, priced: PricedLines, promoNotice: string | null): CartView {
  return {
    id: cart.id,
    items: priced.items,
    totals: priced.totals,
    appliedCoupon: priced.coupon && { code: priced.coupon.code, discount: priced.coupon.discount },
    promoNotice: promoNotice ? { message: promoNotice } : null,
    shippingLocation: locationOf(cart),
    updatedAt: cart.updatedAt.toISOString(),
  };
}

/** The view of a cart read without changing it: a coupon that stopped applying shows as a notice. */
async function readView(deps: CartDeps, db: Db, cart: repo.CartRow): Promise<CartView> {
  const { priced } = await priceCart(deps, db, cart, deps.clock.now());
  const notice =
    cart.couponId && priced.couponRejection
      ? removedNotice(priced.couponCode, priced.couponRejection)
      : cart.promoNotice;
  return toView(cart, priced, notice);
}

// ---------- reads ----------

/**
 * The customer's active cart as GET /api/cart answers it, as JSON text: cached that way, so a
 * hit is sent as it is, with nothing parsed or serialised.
 */
export async function getCartText(deps: CartDeps, customerId: string): Promise<string> {
  const load = async () => {
    const cart = await repo.ensureActiveCart(deps.db, customerId, deps.clock.now());
    return serializedWith(cartSchema, await readView(deps, deps.db, cart));
  };
  const ttl = deps.config.CART_CUSTOMER_CACHE_TTL_SECONDS * 1000;
  return ttl > 0 ? cachedCartText(deps.cache, ttl, customerId, load) : load();
}

export async function getCart(deps: CartDeps, customerId: string): Promise<CartView> {
  return JSON.parse(await getCartText(deps, customerId)) as CartView;
}

export async function adminGetCart(deps: CartDeps, userId: string): Promise<CartView> {
  const cart = await repo.findActiveCart(deps.db, userId);
  if (!cart) throw cartErrors.cartNotFound();
  return readView(deps, deps.db, cart);
}

export async function getLocation(deps: CartDeps, customerId: string) {
  const cart = await repo.findActiveCart(deps.db, customerId);
  const location = cart && locationOf(cart);
  if (!location) return {};
  const district = await findShippingDistrict(deps.db, { name: location.districtName });
  return { ...location, districtId: district?.id ?? null, shippingFee: district?.shippingFee ?? null };
}

// ---------- changes ----------

type CartChanges = Partial<typeof carts.$inferInsert>;

interface Change {
  tx: Db;
  cart: repo.CartRow;
  at: Date;
  /**
   * The cart's lines as they are now (under the cart's lock), kept in step with every line
   * written (`putLine`, `dropLine`) so pricing does not read them again.
   */
  items: repo.CartItemRow[];
  /** The products read so far in this change, by id (`forSale`): pricing reuses them. */
  products: Map<number, ProductForSale>;
  /**
   * What the cart is to hold of each physical product the change touched: taken last, right
   * before the commit (see `change`), so buyers of one product queue on its stock row only for
   * that and the commit.
   */
  holds: Map<number, number>;
}

/**
 * One change of the customer's cart: the rate limit, then in one transaction the locked
 * cart, the change, the coupon check and the new reservation expiry. `strictCoupon`: a coupon
 * that does not apply fails the change (applying one) instead of being removed with a notice.
 */
async function change(
  deps: CartChangeDeps,
  customerId: string,
  work: (c: Change) => Promise<CartChanges | undefined>,
  opts: { strictCoupon?: boolean } = {},
): Promise<CartView> {
  const now = deps.clock.now();
  if (deps.config.RATE_LIMIT_ENABLED) {
    await consumeSlidingLimit(
      deps.counters,
      `cart-ops:${customerId}`,
      {
        max: deps.config.CART_CUSTOMER_OPERATION_RATE_LIMIT,
        windowMs: deps.config.CART_CUSTOMER_RATE_WINDOW_SECONDS * 1000,
      },
      now.getTime(),
    );
  }
  return inTransaction(deps.db, async (tx, afterCommit) => {
    const locked = await repo.lockActiveCart(tx, customerId, now);
    const c: Change = {
      tx,
      cart: locked,
      at: now,
      items: await repo.itemsOf(tx, locked.id),
      products: new Map(),
      holds: new Map(),
    };
    const cartChanges = (await work(c)) ?? {};
    let cart = { ...locked, ...cartChanges } as repo.CartRow;
    const { lines, priced } = await priceCart(deps, tx, cart, now, {
      items: c.items.sort(lineOrder),
      products: c.products,
    });
    let promoNotice: string | null = null;
    if (cart.couponId && priced.couponRejection) {
      if (opts.strictCoupon) throw cartErrors.couponInvalid(priced.couponRejection);
      promoNotice = removedNotice(priced.couponCode, priced.couponRejection);
    }
    const holdsStock = lines.some((l) => l.product.productKind === 'physical');
    const reservedUntil = holdsStock ? new Date(now.getTime() + deps.config.CART_EXPIRE_IDLE_MS) : null;
    cart = await repo.updateCart(tx, cart.id, {
      ...cartChanges,
      couponId: promoNotice ? null : cart.couponId,
      promoNotice,
      reservedUntil,
      updatedAt: now,
    });
    // Every reservation of the cart now lasts until the new idle limit (the ones changed below
    // get it with their change).
    if (holdsStock) {
      await extendReservations(tx, {
        owner: cartOwner(cart.id),
        expiresAt: reservedUntil,
        at: now,
        exceptProductIds: [...c.holds.keys()],
      });
    }
    // The stock last: each product's row is locked from here to the commit (ascending product
    // ids, the order every stock change keeps). Not enough available fails the whole change.
    for (const [productId, quantity] of [...c.holds].sort(([a], [b]) => a - b)) {
      const outcome = await setReservedQuantity(tx, {
        productId,
        quantity,
        owner: cartOwner(cart.id),
        expiresAt: new Date(now.getTime() + deps.config.CART_EXPIRE_IDLE_MS),
        at: now,
      });
      if (!outcome.ok) throw cartErrors.insufficientStock(productId, outcome.stock.available);
    }
    afterCommit(() => forgetCachedCart(deps.cache, customerId));
    return toView(cart, priced, promoNotice);
  });
}

/**
 * The cart is to hold `quantity` of a physical product (0 releases): taken at the end of the
 * change, which fails with CART_INSUFFICIENT_STOCK when that many are not available.
 */
function hold(c: Change, product: { id: number; productKind: string }, quantity: number) {
  if (product.productKind === 'physical') c.holds.set(product.id, quantity);
}

/**
 * Products of a change, read once: the first read takes every line's product with the ones
 * asked for, so pricing the cart afterwards needs no read of its own.
 */
async function forSale(
  deps: CartDeps,
  c: Change,
  productIds: number[],
): Promise<Map<number, ProductForSale>> {
  const missing = [...new Set([...productIds, ...c.items.map((i) => i.productId)])].filter(
    (id) => !c.products.has(id),
  );
  if (missing.length)
    for (const [id, product] of await findProductsForSale(deps, c.tx, missing)) c.products.set(id, product);
  return c.products;
}

async function productOnSale(deps: CartDeps, c: Change, productId: number): Promise<ProductForSale> {
  const product = (await forSale(deps, c, [productId])).get(productId);
  if (!product?.onSale) throw cartErrors.productNotFound(productId);
  return product;
}

/** The order the cart's lines are read in (repo.itemsOf): oldest first, then by id. */
const lineOrder = (a: repo.CartItemRow, b: repo.CartItemRow) =>
  a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** A line written in this change: `c.items` holds it as the database now does. */
function putLine(c: Change, row: repo.CartItemRow) {
  const at = c.items.findIndex((i) => i.id === row.id);
  if (at >= 0) c.items[at] = row;
  else c.items.push(row);
}

async function dropLine(c: Change, line: repo.CartItemRow) {
  await repo.deleteItem(c.tx, line.id);
  c.items = c.items.filter((i) => i.id !== line.id);
}

function lineOf(c: Change, itemId: string): repo.CartItemRow {
  const line = c.items.find((i) => i.id === itemId);
  if (!line) throw cartErrors.itemNotFound();
  return line;
}

export const packageColumns = (p: LineCarePackage | null) => ({
  carePackageId: p?.carePackageId ?? null,
  pricingTierId: p?.pricingTierId ?? null,
  carePackageName: p?.name ?? null,
  tierLabel: p?.tierLabel ?? null,
  carePackageUnitPrice: p?.unitPrice ?? null,
});

/**
 * Puts `quantity` units of a product on the cart (a new line, or the existing line set to it),
 * with fresh price snapshots, a reservation of the same size and, when given, a care package.
 */
async function writeLine(
  c: Change,
  product: ProductForSale,
  quantity: number,
  carePackage: CarePackageChoiceBody | undefined,
) {
  checkQuantity(quantity);
  const existing = c.items.find((i) => i.productId === product.id);
  let pkg: LineCarePackage | null | undefined;
  if (carePackage) {
    const same =
      existing?.carePackageId === carePackage.carePackageId &&
      existing.pricingTierId === carePackage.pricingTierId;
    if (existing?.carePackageId != null && !same) throw cartErrors.carePackageAlreadyAttached();
    if (!same) pkg = linePackage(await checkCarePackage(c.tx, product, carePackage));
  }
  hold(c, product, quantity);
  const values = {
    quantity,
    unitMrp: product.mrp,
    unitSp: product.sp,
    ...(pkg !== undefined ? packageColumns(pkg) : {}),
    updatedAt: c.at,
  };
  putLine(
    c,
    existing
      ? await repo.updateItem(c.tx, existing.id, values)
      : await repo.insertItem(c.tx, { cartId: c.cart.id, productId: product.id, createdAt: c.at, ...values }),
  );
}

export function addItem(deps: CartChangeDeps, customerId: string, body: AddItemBody) {
  checkQuantity(body.quantity);
  return change(deps, customerId, async (c) => {
    const product = await productOnSale(deps, c, body.productId);
    const existing = c.items.find((i) => i.productId === product.id);
    await writeLine(c, product, (existing?.quantity ?? 0) + body.quantity, body.carePackage);
    return undefined;
  });
}

/** Sets a line's quantity: more units need the product on sale and the stock; 0 removes the line. */
async function setLineQuantity(deps: CartDeps, c: Change, line: repo.CartItemRow, quantity: number) {
  checkQuantity(quantity);
  if (quantity === 0) {
    // Whatever the cart holds of the product is given back (a lapsed hold holds nothing).
    c.holds.set(line.productId, 0);
    await dropLine(c, line);
    return;
  }
  if (quantity > line.quantity) {
    const product = await productOnSale(deps, c, line.productId);
    await writeLine(c, product, quantity, undefined);
    return;
  }
  const product = (await forSale(deps, c, [line.productId])).get(line.productId)!;
  hold(c, product, quantity);
  putLine(c, await repo.updateItem(c.tx, line.id, { quantity, updatedAt: c.at }));
}

export function increaseItem(deps: CartChangeDeps, customerId: string, itemId: string) {
  return change(deps, customerId, async (c) => {
    const line = lineOf(c, itemId);
    await setLineQuantity(deps, c, line, line.quantity + 1);
    return undefined;
  });
}

export function decreaseItem(deps: CartChangeDeps, customerId: string, itemId: string) {
  return change(deps, customerId, async (c) => {
    const line = lineOf(c, itemId);
    await setLineQuantity(deps, c, line, line.quantity - 1);
    return undefined;
  });
}

export function setItemQuantity(deps: CartChangeDeps, customerId: string, itemId: string, quantity: number) {
  checkQuantity(quantity);
  return change(deps, customerId, async (c) => {
    await setLineQuantity(deps, c, lineOf(c, itemId), quantity);
    return undefined;
  });
}

export function removeItem(deps: CartChangeDeps, customerId: string, itemId: string) {
  return change(deps, customerId, async (c) => {
    await setLineQuantity(deps, c, lineOf(c, itemId), 0);
    return undefined;
  });
}

export function applyCoupon(deps: CartChangeDeps, customerId: string, code: string) {
  return change(
    deps,
    customerId,
    async (c) => {
      const coupon = await couponRepo.findCouponByCode(c.tx, code);
      if (!coupon) throw cartErrors.couponInvalid('not_found');
      return { couponId: coupon.id };
    },
    { strictCoupon: true },
  );
}

export function removeCoupon(deps: CartChangeDeps, customerId: string) {
  return change(deps, customerId, async () => ({ couponId: null }));
}

export function setLocation(deps: CartChangeDeps, customerId: string, body: SetLocationBody) {
  return change(deps, customerId, async (c) => {
    const district = await findShippingDistrict(c.tx, { name: body.districtName });
    if (!district?.isActive) throw cartErrors.districtInvalid(body.districtName);
    return {
      districtName: district.name,
      addressLine1: body.addressLine1,
      city: body.city,
      postalCode: body.postalCode,
      latitude: body.latitude ?? null,
      longitude: body.longitude ?? null,
    };
  });
}

export function clearLocation(deps: CartChangeDeps, customerId: string) {
  return change(deps, customerId, async () => ({
    districtName: null,
    addressLine1: null,
    city: null,
    postalCode: null,
    latitude: null,
    longitude: null,
  }));
}

/**
 * Automatic location (CART_AUTO_LOCATE_ENABLED). Pasal has no geolocation provider to turn
 * coordinates into a district, so it records them on the location already set manually.
 */
export function autoLocation(
  deps: CartChangeDeps,
  customerId: string,
  body: { latitude: number; longitude: number },
) {
  if (!deps.config.CART_AUTO_LOCATE_ENABLED) throw cartErrors.autoLocationDisabled();
  return change(deps, customerId, async (c) => {
    if (!c.cart.districtName) throw cartErrors.autoLocationUnresolved();
    return { latitude: body.latitude, longitude: body.longitude };
  });
}

export function attachCarePackage(
  deps: CartChangeDeps,
  customerId: string,
  itemId: string,
  choice: CarePackageChoiceBody,
) {
  return change(deps, customerId, async (c) => {
    const line = lineOf(c, itemId);
    if (line.carePackageId !== null) throw cartErrors.carePackageAlreadyAttached();
    const product = (await forSale(deps, c, [line.productId])).get(line.productId)!;
    const pkg = linePackage(await checkCarePackage(c.tx, product, choice));
    putLine(c, await repo.updateItem(c.tx, line.id, { ...packageColumns(pkg), updatedAt: c.at }));
    return undefined;
  });
}

export function detachCarePackage(deps: CartChangeDeps, customerId: string, itemId: string) {
  return change(deps, customerId, async (c) => {
    const line = lineOf(c, itemId);
    if (line.carePackageId === null) throw cartErrors.noCarePackage();
    putLine(c, await repo.updateItem(c.tx, line.id, { ...packageColumns(null), updatedAt: c.at }));
    return undefined;
  });
}

/**
 * A guest cart after login: a product not in the cart is added; for one already there the
 * larger quantity wins, and a care package is attached only to a line without one. So syncing
 * the same guest cart twice changes nothing. All or nothing: one bad item fails the sync.
 */
export function syncCart(deps: CartChangeDeps, customerId: string, items: QuoteItem[]) {
  const merged = mergeItems(items);
  for (const item of merged) checkQuantity(item.quantity);
  return change(deps, customerId, async (c) => {
    // Ascending product ids: the stock rows are locked in the order every caller uses.
    for (const item of merged) {
      const existing = c.items.find((i) => i.productId === item.productId);
      const target = Math.max(existing?.quantity ?? 0, item.quantity);
      const attach = item.carePackage && existing?.carePackageId == null ? item.carePackage : undefined;
      if (existing && target === existing.quantity && !attach) continue;
      const product = await productOnSale(deps, c, item.productId);
      await writeLine(c, product, target, attach);
    }
    return undefined;
  });
}

// ---------- expiry ----------

/**
 * `cart.expire`: carts unchanged for CART_EXPIRE_IDLE_MS give their reserved units back. The
 * lines stay; a line reserves again when it is next changed, and checkout reserves every line
 * for the order. Each cart in its own short transaction. Returns how many carts let go.
 */
export async function expireIdleCarts(
  deps: Pick<CartDeps, 'db' | 'cache'>,
  at: Date,
  limit = 200,
): Promise<number> {
  let expired = 0;
  for (const candidate of await repo.cartsHoldingPast(deps.db, at, limit)) {
    const customerId = await inTransaction(deps.db, async (tx, afterCommit) => {
      const cart = await repo.lockCart(tx, candidate.id);
      // Changed meanwhile (a newer expiry) or ended: not idle.
      if (cart?.status !== 'active' || !cart.reservedUntil || cart.reservedUntil > at) return null;
      await releaseStock(tx, { owner: cartOwner(cart.id), at, reason: 'Cart idle' });
      await repo.updateCart(tx, cart.id, { reservedUntil: null });
      afterCommit(() => forgetCachedCart(deps.cache, cart.customerId));
      return cart.customerId;
    });
    if (customerId) expired += 1;
  }
  return expired;
}
