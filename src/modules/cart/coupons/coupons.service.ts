// Coupons: the admin's records (/api/admin/coupons), the lookup the cart applies, and the uses
// orders claim when an order is placed (and give back when it is given up), with the usage
// limits held under concurrency.
import type { UserPrincipal } from '../../../platform/auth/principal';
import type { Db } from '../../../platform/db/database';
import { inTransaction } from '../../../platform/db/transaction';
import { httpErrors } from '../../../platform/http/errors';
import { type PageMeta, pageMeta, pageWindow } from '../../../platform/http/pagination';
import type { ModuleContext } from '../../../platform/module';
import { recordActivity } from '../../activity';
import { cartErrors } from '../cart.errors';
import { forgetAllCachedCarts } from '../carts/carts.cache';
import * as repo from './coupons.repository';
import type { CouponListQuery, CouponView, CreateCouponBody, UpdateCouponBody } from './coupons.schemas';

type Deps = Pick<ModuleContext, 'db' | 'clock' | 'cache'>;
const ENTITY = 'coupon';

const iso = (d: Date | null) => d?.toISOString() ?? null;

export const toCouponView = (r: repo.CouponRow): CouponView => ({
  id: r.id,
  code: r.code,
  discountType: r.discountType,
  value: r.value,
  minOrderTotal: r.minOrderTotal,
  maxDiscount: r.maxDiscount,
  startsAt: iso(r.startsAt),
  endsAt: iso(r.endsAt),
  usageLimit: r.usageLimit,
  perCustomerLimit: r.perCustomerLimit,
  usedCount: r.usedCount,
  isActive: r.isActive,
  productIds: r.productIds,
  categoryIds: r.categoryIds,
  createdAt: r.createdAt.toISOString(),
  updatedAt: r.updatedAt.toISOString(),
});

const date = (v: string | null | undefined) =>
  v === undefined ? undefined : v === null ? null : new Date(v);

/** Rules across fields: a percent is at most 100; the window ends after it starts. */
function checkTerms(t: { discountType: string; value: number; startsAt: Date | null; endsAt: Date | null }) {
  if (t.discountType === 'percent' && t.value > 100)
    throw httpErrors.validation([{ path: 'value', message: 'a percent discount is at most 100' }]);
  if (t.startsAt && t.endsAt && t.endsAt <= t.startsAt)
    throw httpErrors.validation([{ path: 'endsAt', message: 'must be after startsAt' }]);
}

export async function listCoupons(
  deps: Pick<Deps, 'db'>,
  query: CouponListQuery,
): Promise<{ coupons: CouponView[]; meta: PageMeta }> {
  const { rows, count } = await repo.listCoupons(deps.db, query, pageWindow(query));
  return { coupons: rows.map(toCouponView), meta: pageMeta(query, count) };
}

export async function getCoupon(deps: Pick<Deps, 'db'>, id: number): Promise<CouponView> {
  const row = await repo.findCoupon(deps.db, id);
  if (!row) throw cartErrors.couponNotFound(id);
  return toCouponView(row);
}

export async function createCoupon(
  deps: Pick<Deps, 'db' | 'clock'>,
  actor: UserPrincipal,
  body: CreateCouponBody,
): Promise<CouponView> {
  const now = deps.clock.now();
  const startsAt = date(body.startsAt) ?? null;
  const endsAt = date(body.endsAt) ?? null;
  checkTerms({ discountType: body.discountType, value: body.value, startsAt, endsAt });
  return inTransaction(deps.db, async (tx) => {
    const row = await repo.insertCoupon(tx, {
      code: body.code,
      discountType: body.discountType,
      value: body.value,
      minOrderTotal: body.minOrderTotal ?? null,
      maxDiscount: body.maxDiscount ?? null,
      startsAt,
      endsAt,
      usageLimit: body.usageLimit ?? null,
      perCustomerLimit: body.perCustomerLimit ?? null,
      isActive: body.isActive,
      productIds: [...new Set(body.productIds ?? [])],
      categoryIds: [...new Set(body.categoryIds ?? [])],
      createdAt: now,
      updatedAt: now,
    });
    await recordActivity(tx, {
      adminId: actor.userId,
      action: 'create',
      entityType: ENTITY,
      entityId: row.id,
      summary: `Created coupon ${row.code} (${row.discountType} ${row.value})`,
      at: now,
    });
    return toCouponView(row);
  });
}

export async function updateCoupon(
  deps: Deps,
  actor: UserPrincipal,
  id: number,
  body: UpdateCouponBody,
): Promise<CouponView> {
  const now = deps.clock.now();
  const view = await inTransaction(deps.db, async (tx) => {
    const before = await repo.lockCoupon(tx, id);
    if (!before) throw cartErrors.couponNotFound(id);
    const next = {
      discountType: body.discountType ?? before.discountType,
      value: body.value ?? before.value,
      startsAt: body.startsAt === undefined ? before.startsAt : date(body.startsAt)!,
      endsAt: body.endsAt === undefined ? before.endsAt : date(body.endsAt)!,
    };
    checkTerms(next);
    if (body.usageLimit != null && body.usageLimit < before.usedCount)
      throw httpErrors.validation([
        { path: 'usageLimit', message: `the coupon has already been used ${before.usedCount} times` },
      ]);
    const changes = Object.entries(body)
      .filter(([, v]) => v !== undefined)
      .map(([k]) => k);
    const row = await repo.updateCoupon(tx, id, {
      ...(body.code !== undefined ? { code: body.code } : {}),
      ...(body.isActive !== undefined ? { isActive: body.isActive } : {}),
      ...(body.minOrderTotal !== undefined ? { minOrderTotal: body.minOrderTotal } : {}),
      ...(body.maxDiscount !== undefined ? { maxDiscount: body.maxDiscount } : {}),
      ...(body.usageLimit !== undefined ? { usageLimit: body.usageLimit } : {}),
      ...(body.perCustomerLimit !== undefined ? { perCustomerLimit: body.perCustomerLimit } : {}),
      ...(body.productIds !== undefined ? { productIds: [...new Set(body.productIds)] } : {}),
      ...(body.categoryIds !== undefined ? { categoryIds: [...new Set(body.categoryIds)] } : {}),
      ...next,
      updatedAt: now,
    });
    await recordActivity(tx, {
      adminId: actor.userId,
      action: 'update',
      entityType: ENTITY,
      entityId: id,
      summary: `Updated coupon ${row.code}: ${changes.join(', ')}`,
      at: now,
    });
    return toCouponView(row);
  });
  // Carts that show this coupon are priced again on their next read.
  await forgetAllCachedCarts(deps.cache);
  return view;
}

/** Soft delete: the coupon disappears, its redemptions stay, and its code is free again. */
export async function deleteCoupon(deps: Deps, actor: UserPrincipal, id: number): Promise<void> {
  const now = deps.clock.now();
  await inTransaction(deps.db, async (tx) => {
    const before = await repo.lockCoupon(tx, id);
    if (!before) throw cartErrors.couponNotFound(id);
    await repo.softDeleteCoupon(tx, id, now);
    await recordActivity(tx, {
      adminId: actor.userId,
      action: 'delete',
      entityType: ENTITY,
      entityId: id,
      summary: `Deleted coupon ${before.code}`,
      at: now,
    });
  });
  await forgetAllCachedCarts(deps.cache);
}

// ---------- uses (claimed by orders when an order is placed, given back when it is given up) ----------

export type RedemptionOutcome =
  /** `alreadyRecorded`: this order's use was counted before (a retried job); nothing changed. */
  { ok: true; alreadyRecorded: boolean } | { ok: false; reason: 'not_found' | 'usage_limit_reached' };

/**
 * Whether the customer may still use the coupon, with the coupon row locked for the rest of the
 * caller's transaction: a claim made later in that transaction (`claimCouponUse`) then cannot
 * find the limits reached by someone else. Checkout asks before it makes the order, so a coupon
 * used up meanwhile refuses the checkout instead of an order made and rolled back.
 */
export async function couponClaimable(
  tx: Db,
  p: { couponId: number; customerId: string },
): Promise<{ ok: true } | { ok: false; reason: 'not_found' | 'usage_limit_reached' }> {
  const coupon = await repo.lockCouponEvenDeleted(tx, p.couponId);
  if (!coupon) return { ok: false, reason: 'not_found' };
  if (
    coupon.perCustomerLimit !== null &&
    (await repo.redemptionsByCustomer(tx, coupon.id, p.customerId)) >= coupon.perCustomerLimit
  )
    return { ok: false, reason: 'usage_limit_reached' };
  if (coupon.usageLimit !== null && coupon.usedCount >= coupon.usageLimit)
    return { ok: false, reason: 'usage_limit_reached' };
  return { ok: true };
}

/**
 * Claims one use of a coupon for an order, in the caller's transaction (docs/api-notes.md,
 * "Coupon uses": at placement, online or COD). The coupon row is locked, so concurrent claims
 * of one coupon queue: `usageLimit` and `perCustomerLimit` hold exactly. Idempotent per
 * `orderId` (a unique constraint backs the check). A refusal changes nothing; the caller
 * refuses the order. A coupon deleted or past its window since the cart applied it is still
 * counted (the window was checked when the order was priced).
 */
export async function claimCouponUse(
  tx: Db,
  p: { couponId: number; customerId: string; orderId: string | number; at?: Date },
): Promise<RedemptionOutcome> {
  const at = p.at ?? new Date();
  const orderId = String(p.orderId);
  const claimable = await couponClaimable(tx, p);
  if (await repo.findRedemptionOfOrder(tx, orderId)) return { ok: true, alreadyRecorded: true };
  if (!claimable.ok) return claimable;
  if (!(await repo.takeUse(tx, p.couponId, at))) return { ok: false, reason: 'usage_limit_reached' };
  await repo.insertRedemption(tx, { couponId: p.couponId, customerId: p.customerId, orderId, at });
  return { ok: true, alreadyRecorded: false };
}

/**
 * Gives an order's coupon use back (its payment failed or expired, or it was cancelled before
 * payment), in the caller's transaction, so the next buyer may have it. Idempotent: an order
 * without a claimed use changes nothing. Answers whether a use went back.
 */
export async function releaseCouponUse(tx: Db, p: { orderId: string | number; at: Date }): Promise<boolean> {
  const released = await repo.deleteRedemptionOfOrder(tx, String(p.orderId));
  if (!released) return false;
  await repo.giveBackUse(tx, released.couponId, p.at);
  return true;
}
