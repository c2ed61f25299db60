import { and, asc, count, eq, ilike, inArray, lte, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Db } from '../../../platform/db/database';
import type { PageWindow } from '../../../platform/http/pagination';
import { containsPattern, orderBy, paged, rowsOf } from '../catalog.repository';
import { products } from '../products/products.table';
import { brands, categories } from '../taxonomy/taxonomy.table';
import type { CarePackageListQuery } from './care-packages.schemas';
import {
  carePackageSubscriptions,
  carePackages,
  carePackageTiers,
  type SubscriptionStatus,
} from './care-packages.table';

export type CarePackageRow = typeof carePackages.$inferSelect;
export type TierRow = typeof carePackageTiers.$inferSelect;
export type SubscriptionRow = typeof carePackageSubscriptions.$inferSelect;

const sortColumns: Record<CarePackageListQuery['sort'], AnyPgColumn> = {
  createdAt: carePackages.createdAt,
  name: carePackages.name,
  updatedAt: carePackages.updatedAt,
};

export async function listPackages(
  db: Db,
  query: CarePackageListQuery,
  page: PageWindow,
): Promise<{ rows: CarePackageRow[]; count: number }> {
  const where = and(
    query.search ? ilike(carePackages.name, containsPattern(query.search)) : undefined,
    query.isActive === undefined ? undefined : eq(carePackages.isActive, query.isActive),
  );
  const rows = await paged(
    db
      .select()
      .from(carePackages)
      .where(where)
      .orderBy(...orderBy(sortColumns[query.sort], query.order, carePackages.id))
      .$dynamic(),
    page,
  );
  const [total] = await db.select({ n: count() }).from(carePackages).where(where);
  return { rows, count: total?.n ?? 0 };
}

export async function activePackages(db: Db): Promise<CarePackageRow[]> {
  return db.select().from(carePackages).where(eq(carePackages.isActive, true)).orderBy(asc(carePackages.id));
}

export async function findPackage(db: Db, id: number): Promise<CarePackageRow | undefined> {
  const [row] = await db.select().from(carePackages).where(eq(carePackages.id, id));
  return row;
}

/** The package row, locked for a write. */
export async function lockPackage(db: Db, id: number): Promise<CarePackageRow | undefined> {
  const [row] = await db.select().from(carePackages).where(eq(carePackages.id, id)).for('update');
  return row;
}

export async function tiersOf(db: Db, packageIds: number[]): Promise<Map<number, TierRow[]>> {
  const out = new Map<number, TierRow[]>(packageIds.map((id) => [id, []]));
  if (!packageIds.length) return out;
  const rows = await db
    .select()
    .from(carePackageTiers)
    .where(inArray(carePackageTiers.carePackageId, packageIds))
    .orderBy(asc(carePackageTiers.position), asc(carePackageTiers.id));
  for (const row of rows) out.get(row.carePackageId)?.push(row);
  return out;
}

export async function findTier(db: Db, id: number): Promise<TierRow | undefined> {
  const [row] = await db.select().from(carePackageTiers).where(eq(carePackageTiers.id, id));
  return row;
}

type PackageValues = Omit<typeof carePackages.$inferInsert, 'id' | 'createdAt'>;

export async function insertPackage(
  db: Db,
  values: PackageValues & { createdAt: Date },
): Promise<CarePackageRow> {
  const [row] = await db.insert(carePackages).values(values).returning();
  return row!;
}

export async function updatePackage(
  db: Db,
  id: number,
  values: Partial<PackageValues>,
): Promise<CarePackageRow> {
  const [row] = await db.update(carePackages).set(values).where(eq(carePackages.id, id)).returning();
  return row!;
}

export async function deletePackage(db: Db, id: number): Promise<void> {
  await db.delete(carePackages).where(eq(carePackages.id, id));
}

type TierValues = Omit<typeof carePackageTiers.$inferInsert, 'id'>;

export async function insertTiers(db: Db, values: TierValues[]): Promise<void> {
  if (values.length) await db.insert(carePackageTiers).values(values);
}

export async function updateTier(db: Db, id: number, values: Partial<TierValues>): Promise<void> {
  await db.update(carePackageTiers).set(values).where(eq(carePackageTiers.id, id));
}

/** Whether anything refers to the package: a subscription, or a product that sells one of its tiers. */
export async function packageInUse(db: Db, id: number): Promise<boolean> {
  const [subscription] = await db
    .select({ id: carePackageSubscriptions.id })
    .from(carePackageSubscriptions)
    .where(eq(carePackageSubscriptions.carePackageId, id))
    .limit(1);
  if (subscription) return true;
  const [product] = await db
    .select({ id: products.id })
    .from(products)
    .innerJoin(carePackageTiers, eq(carePackageTiers.id, products.carePackageTierId))
    .where(eq(carePackageTiers.carePackageId, id))
    .limit(1);
  return Boolean(product);
}

/** The ids among `ids` that name no row of the table. */
export async function missingIds(
  db: Db,
  table: 'categories' | 'brands' | 'products',
  ids: number[],
): Promise<number[]> {
  if (!ids.length) return [];
  const column = { categories: categories.id, brands: brands.id, products: products.id }[table];
  const tableRef = { categories, brands, products }[table];
  const found = await db.select({ id: column }).from(tableRef).where(inArray(column, ids));
  const known = new Set(found.map((r) => r.id));
  return [...new Set(ids)].filter((id) => !known.has(id));
}

export interface ProductForEligibility {
  id: number;
  productKind: string;
  status: string;
  isSellable: boolean;
  brandId: number | null;
  effectivePrice: number;
  categoryPath: number[];
}

/** A product with its category and every ancestor of it (`union`: even a cycle would end). */
export async function productForEligibility(
  db: Db,
  productId: number,
): Promise<ProductForEligibility | undefined> {
  const [row] = await db
    .select({
      id: products.id,
      productKind: products.productKind,
      status: products.status,
      isSellable: products.isSellable,
      brandId: products.brandId,
      effectivePrice: products.effectivePrice,
      categoryId: products.categoryId,
    })
    .from(products)
    .where(eq(products.id, productId));
  if (!row) return undefined;
  let categoryPath: number[] = [];
  if (row.categoryId !== null) {
    const path = await rowsOf<{ id: number }>(
      db,
      sql`
      with recursive path(id, parent_id) as (
        select id, parent_id from categories where id = ${row.categoryId}
        union
        select c.id, c.parent_id from categories c join path p on c.id = p.parent_id
      )
      select id from path`,
    );
    categoryPath = path.map((r) => Number(r.id));
  }
  const { categoryId: _, ...rest } = row;
  return { ...rest, categoryPath };
}

// ---------- subscriptions ----------

type SubscriptionValues = typeof carePackageSubscriptions.$inferInsert;

export async function insertSubscription(db: Db, values: SubscriptionValues): Promise<SubscriptionRow> {
  const [row] = await db.insert(carePackageSubscriptions).values(values).returning();
  return row!;
}

export async function findSubscription(db: Db, id: string): Promise<SubscriptionRow | undefined> {
  const [row] = await db.select().from(carePackageSubscriptions).where(eq(carePackageSubscriptions.id, id));
  return row;
}

export async function subscriptionsOfOrderItems(db: Db, orderItemIds: string[]): Promise<SubscriptionRow[]> {
  if (!orderItemIds.length) return [];
  return db
    .select()
    .from(carePackageSubscriptions)
    .where(inArray(carePackageSubscriptions.orderItemId, orderItemIds))
    .orderBy(asc(carePackageSubscriptions.createdAt));
}

/** Moves a subscription on only from the statuses given: the conditional UPDATE settles races. */
export async function transitionSubscription(
  db: Db,
  id: string,
  from: SubscriptionStatus[],
  values: Partial<SubscriptionValues> & { status: SubscriptionStatus; updatedAt: Date },
): Promise<SubscriptionRow | undefined> {
  const [row] = await db
    .update(carePackageSubscriptions)
    .set(values)
    .where(and(eq(carePackageSubscriptions.id, id), inArray(carePackageSubscriptions.status, from)))
    .returning();
  return row;
}

export async function expireSubscriptions(db: Db, at: Date): Promise<number> {
  const rows = await db
    .update(carePackageSubscriptions)
    .set({ status: 'expired', updatedAt: at })
    .where(and(eq(carePackageSubscriptions.status, 'active'), lte(carePackageSubscriptions.endsAt, at)))
    .returning({ id: carePackageSubscriptions.id });
  return rows.length;
}
