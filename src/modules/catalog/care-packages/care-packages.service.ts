// Care packages: cover (extended warranty, servicing) sold with physical products, in pricing
// tiers. The cart attaches them to lines and checks eligibility here; orders create and
// activate subscriptions through the functions at the end of this file.
import type { UserPrincipal } from '../../../platform/auth/principal';
import type { Db } from '../../../platform/db/database';
import { inTransaction } from '../../../platform/db/transaction';
import { type PageMeta, pageMeta, pageWindow } from '../../../platform/http/pagination';
import { newUuid } from '../../../platform/ids';
import type { ModuleContext } from '../../../platform/module';
import { recordActivity } from '../../activity';
import { catalogErrors } from '../catalog.errors';
import { addMonths, isEligible } from './care-packages.eligibility';
import { carePackageErrors } from './care-packages.errors';
import * as repo from './care-packages.repository';
import type {
  CarePackageListQuery,
  CarePackageTierView,
  CarePackageView,
  CreateCarePackageBody,
  OfferedCarePackageView,
  SubscriptionView,
  UpdateCarePackageBody,
} from './care-packages.schemas';

type Deps = Pick<ModuleContext, 'db' | 'clock'>;
const ENTITY = 'care_package';

const toTier = (t: repo.TierRow): CarePackageTierView => ({
  id: t.id,
  label: t.label,
  durationMonths: t.durationMonths,
  price: t.price,
  isActive: t.isActive,
});

const toView = (row: repo.CarePackageRow, tiers: repo.TierRow[]): CarePackageView => ({
  id: row.id,
  name: row.name,
  description: row.description,
  isActive: row.isActive,
  rules: {
    categoryIds: row.categoryIds,
    brandIds: row.brandIds,
    productIds: row.productIds,
    minPrice: row.minPrice,
    maxPrice: row.maxPrice,
  },
  tiers: tiers.map(toTier),
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

async function packageView(db: Db, row: repo.CarePackageRow): Promise<CarePackageView> {
  return toView(row, (await repo.tiersOf(db, [row.id])).get(row.id) ?? []);
}

/** Every id a rule names must exist: a typo would silently narrow or widen the cover. */
async function checkRuleIds(
  db: Db,
  rules: { categoryIds?: number[]; brandIds?: number[]; productIds?: number[] },
): Promise<void> {
  const lists = [
    ['categoryIds', 'categories', rules.categoryIds],
    ['brandIds', 'brands', rules.brandIds],
    ['productIds', 'products', rules.productIds],
  ] as const;
  for (const [path, table, ids] of lists) {
    const missing = await repo.missingIds(db, table, ids ?? []);
    if (missing.length) throw carePackageErrors.ruleInvalid(path, missing);
  }
}

export async function listCarePackages(
  deps: Pick<Deps, 'db'>,
  query: CarePackageListQuery,
): Promise<{ packages: CarePackageView[]; meta: PageMeta }> {
  const { rows, count } = await repo.listPackages(deps.db, query, pageWindow(query));
  const tiers = await repo.tiersOf(
    deps.db,
    rows.map((r) => r.id),
  );
  return { packages: rows.map((r) => toView(r, tiers.get(r.id) ?? [])), meta: pageMeta(query, count) };
}

export async function getCarePackage(deps: Pick<Deps, 'db'>, id: number): Promise<CarePackageView> {
  const row = await repo.findPackage(deps.db, id);
  if (!row) throw carePackageErrors.notFound(id);
  return packageView(deps.db, row);
}

export async function createCarePackage(
  deps: Deps,
  actor: UserPrincipal,
  body: CreateCarePackageBody,
): Promise<CarePackageView> {
  const now = deps.clock.now();
  return inTransaction(deps.db, async (tx) => {
    await checkRuleIds(tx, body.rules);
    const row = await repo.insertPackage(tx, {
      name: body.name,
      description: body.description ?? null,
      isActive: body.isActive,
      ...body.rules,
      createdAt: now,
      updatedAt: now,
    });
    await repo.insertTiers(
      tx,
      body.tiers.map((t, position) => ({
        carePackageId: row.id,
        label: t.label,
        durationMonths: t.durationMonths,
        price: t.price,
        isActive: t.isActive ?? true,
        position,
        createdAt: now,
        updatedAt: now,
      })),
    );
    await recordActivity(tx, {
      adminId: actor.userId,
      action: 'create',
      entityType: ENTITY,
      entityId: row.id,
      summary: `Created care package ${row.name} with ${body.tiers.length} tier(s)`,
      at: now,
    });
    return packageView(tx, row);
  });
}

export async function updateCarePackage(
  deps: Deps,
  actor: UserPrincipal,
  id: number,
  body: UpdateCarePackageBody,
): Promise<CarePackageView> {
  const now = deps.clock.now();
  return inTransaction(deps.db, async (tx) => {
    const before = await repo.lockPackage(tx, id);
    if (!before) throw carePackageErrors.notFound(id);
    const rules = { ...body.rules };
    await checkRuleIds(tx, rules);
    const minPrice = rules.minPrice === undefined ? before.minPrice : rules.minPrice;
    const maxPrice = rules.maxPrice === undefined ? before.maxPrice : rules.maxPrice;
    if (minPrice !== null && maxPrice !== null && minPrice > maxPrice) {
      throw carePackageErrors.priceRange();
    }
    const row = await repo.updatePackage(tx, id, {
      ...(body.name !== undefined ? { name: body.name } : {}),
      ...(body.description !== undefined ? { description: body.description } : {}),
      ...(body.isActive !== undefined ? { isActive: body.isActive } : {}),
      ...rules,
      updatedAt: now,
    });
    if (body.tiers) {
      const existing = (await repo.tiersOf(tx, [id])).get(id) ?? [];
      const ours = new Set(existing.map((t) => t.id));
      for (const tier of body.tiers)
        if (tier.id !== undefined && !ours.has(tier.id)) throw carePackageErrors.tierInvalid(tier.id);
      const kept = new Set(body.tiers.flatMap((t) => (t.id === undefined ? [] : [t.id])));
      // Tiers are never deleted: sold subscriptions, cart lines and care-package products name them.
      for (const tier of existing) {
        if (!kept.has(tier.id) && tier.isActive)
          await repo.updateTier(tx, tier.id, { isActive: false, updatedAt: now });
      }
      for (const [position, tier] of body.tiers.entries()) {
        const values = {
          label: tier.label,
          durationMonths: tier.durationMonths,
          price: tier.price,
          isActive: tier.isActive ?? true,
          position,
          updatedAt: now,
        };
        if (tier.id === undefined)
          await repo.insertTiers(tx, [{ ...values, carePackageId: id, createdAt: now }]);
        else await repo.updateTier(tx, tier.id, values);
      }
    }
    const changed = Object.keys(body).filter((k) => body[k as keyof UpdateCarePackageBody] !== undefined);
    await recordActivity(tx, {
      adminId: actor.userId,
      action: 'update',
      entityType: ENTITY,
      entityId: id,
      summary: `Updated care package ${row.name}: ${changed.join(', ')}`,
      at: now,
    });
    return packageView(tx, row);
  });
}

/** Deletes a package nothing refers to; one with subscriptions or products is deactivated instead (409). */
export async function deleteCarePackage(deps: Deps, actor: UserPrincipal, id: number): Promise<void> {
  const now = deps.clock.now();
  await inTransaction(deps.db, async (tx) => {
    const row = await repo.lockPackage(tx, id);
    if (!row) throw carePackageErrors.notFound(id);
    if (await repo.packageInUse(tx, id)) throw carePackageErrors.inUse();
    await repo.deletePackage(tx, id);
    await recordActivity(tx, {
      adminId: actor.userId,
      action: 'delete',
      entityType: ENTITY,
      entityId: id,
      summary: `Deleted care package ${row.name}`,
      at: now,
    });
  });
}

// ---------- for shoppers, the cart and products ----------

/**
 * The active packages, with their active tiers, that may be attached to a product. Null when
 * the product does not exist or is not on sale (published and sellable).
 */
export async function eligibleCarePackages(
  db: Db,
  productId: number,
): Promise<OfferedCarePackageView[] | null> {
  const product = await repo.productForEligibility(db, productId);
  if (product?.status !== 'published' || !product.isSellable) return null;
  if (product.productKind !== 'physical') return [];
  const packages = (await repo.activePackages(db)).filter((p) => isEligible(product, p));
  const tiers = await repo.tiersOf(
    db,
    packages.map((p) => p.id),
  );
  return packages.flatMap((p) => {
    const active = (tiers.get(p.id) ?? []).filter((t) => t.isActive);
    if (!active.length) return [];
    return [
      {
        id: p.id,
        name: p.name,
        description: p.description,
        tiers: active.map((t) => ({
          id: t.id,
          label: t.label,
          durationMonths: t.durationMonths,
          price: t.price,
        })),
      },
    ];
  });
}

export async function offeredCarePackages(
  deps: Pick<Deps, 'db'>,
  productId: number,
): Promise<OfferedCarePackageView[]> {
  const offered = await eligibleCarePackages(deps.db, productId);
  if (!offered) throw catalogErrors.productNotFound();
  return offered;
}

/** A care package on a cart line, as the cart shows it. */
export interface CarePackageChoice {
  carePackageId: number;
  pricingTierId: number;
  name: string;
  tierLabel: string;
  unitPrice: number;
  durationMonths: number;
}

/**
 * The package and tier a customer picked for a product, when they may be bought with it: the
 * product is on sale and physical, the package active and eligible, the tier active and the
 * package's. Null otherwise (the cart answers with its own code).
 */
export async function findEligibleCarePackageChoice(
  db: Db,
  p: { productId: number; carePackageId: number; pricingTierId: number },
): Promise<CarePackageChoice | null> {
  const offered = (await eligibleCarePackages(db, p.productId)) ?? [];
  const pkg = offered.find((o) => o.id === p.carePackageId);
  const tier = pkg?.tiers.find((t) => t.id === p.pricingTierId);
  if (!pkg || !tier) return null;
  return {
    carePackageId: pkg.id,
    pricingTierId: tier.id,
    name: pkg.name,
    tierLabel: tier.label,
    unitPrice: tier.price,
    durationMonths: tier.durationMonths,
  };
}

export interface CarePackageTierInfo extends CarePackageTierView {
  carePackageId: number;
  carePackage: { id: number; name: string; isActive: boolean };
}

/** A tier with its package, or null: a `care_package` product must name an existing tier. */
export async function findCarePackageTier(db: Db, tierId: number): Promise<CarePackageTierInfo | null> {
  const tier = await repo.findTier(db, tierId);
  if (!tier) return null;
  const pkg = (await repo.findPackage(db, tier.carePackageId))!;
  return {
    ...toTier(tier),
    carePackageId: pkg.id,
    carePackage: { id: pkg.id, name: pkg.name, isActive: pkg.isActive },
  };
}

// ---------- subscriptions (created and moved on by orders) ----------

const toSubscription = (row: repo.SubscriptionRow): SubscriptionView => ({
  id: row.id,
  customerId: row.customerId,
  carePackageId: row.carePackageId,
  tierId: row.tierId,
  productId: row.productId,
  orderItemId: row.orderItemId,
  status: row.status,
  durationMonths: row.durationMonths,
  startsAt: row.startsAt?.toISOString() ?? null,
  endsAt: row.endsAt?.toISOString() ?? null,
  cancelledAt: row.cancelledAt?.toISOString() ?? null,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

/** A `pending` subscription to a tier, bought with an order item; its duration is the tier's now. */
export async function createPendingSubscription(
  tx: Db,
  p: { customerId: string; tierId: number; productId?: number | null; orderItemId?: string | null; at: Date },
): Promise<SubscriptionView> {
  const tier = await repo.findTier(tx, p.tierId);
  if (!tier) throw carePackageErrors.tierNotFound(p.tierId);
  const row = await repo.insertSubscription(tx, {
    id: newUuid(),
    customerId: p.customerId,
    carePackageId: tier.carePackageId,
    tierId: tier.id,
    productId: p.productId ?? null,
    orderItemId: p.orderItemId ?? null,
    status: 'pending',
    durationMonths: tier.durationMonths,
    createdAt: p.at,
    updatedAt: p.at,
  });
  return toSubscription(row);
}

async function transition(
  tx: Db,
  id: string,
  from: Array<'pending' | 'active'>,
  values: Parameters<typeof repo.transitionSubscription>[3],
): Promise<SubscriptionView> {
  const row = await repo.transitionSubscription(tx, id, from, values);
  if (row) return toSubscription(row);
  const current = await repo.findSubscription(tx, id);
  if (!current) throw carePackageErrors.subscriptionNotFound(id);
  throw carePackageErrors.subscriptionStatus(id, current.status, values.status);
}

/** `pending` → `active`: the cover starts now and ends after the tier's months. */
export async function activateSubscription(
  tx: Db,
  p: { subscriptionId: string; at: Date },
): Promise<SubscriptionView> {
  const current = await repo.findSubscription(tx, p.subscriptionId);
  if (!current) throw carePackageErrors.subscriptionNotFound(p.subscriptionId);
  return transition(tx, p.subscriptionId, ['pending'], {
    status: 'active',
    startsAt: p.at,
    endsAt: addMonths(p.at, current.durationMonths),
    updatedAt: p.at,
  });
}

/** `pending` or `active` → `cancelled` (an order cancelled or refunded). */
export function cancelSubscription(
  tx: Db,
  p: { subscriptionId: string; at: Date },
): Promise<SubscriptionView> {
  return transition(tx, p.subscriptionId, ['pending', 'active'], {
    status: 'cancelled',
    cancelledAt: p.at,
    updatedAt: p.at,
  });
}

/** The subscriptions sold with some order items, oldest first. */
export async function subscriptionsOfOrderItems(db: Db, orderItemIds: string[]): Promise<SubscriptionView[]> {
  return (await repo.subscriptionsOfOrderItems(db, orderItemIds)).map(toSubscription);
}

/** `active` subscriptions whose cover has ended become `expired`. Returns how many. */
export function expireSubscriptions(db: Db, at: Date): Promise<number> {
  return repo.expireSubscriptions(db, at);
}
