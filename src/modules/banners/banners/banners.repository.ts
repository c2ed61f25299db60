// Queries of banners, and the schedule sync of banners, campaigns and assignments.
import { and, eq, gte, ilike, inArray, isNull, lt, lte, or } from 'drizzle-orm';
import type { Db } from '../../../platform/db/database';
import { isForeignKeyViolation } from '../../../platform/db/errors';
import type { PageWindow } from '../../../platform/http/pagination';
import { bannerErrors } from '../banners.errors';
import { type BannerRow, containsPattern, listPage, type NewBannerRow, orderBy } from '../banners.repository';
import { banners, campaigns } from '../banners.table';

const BANNER_FKS = [
  ['banners_brand_id_brands_id_fk', 'BRAND', 'brandId'],
  ['banners_category_id_categories_id_fk', 'CATEGORY', 'categoryId'],
  ['banners_product_id_products_id_fk', 'PRODUCT', 'productId'],
] as const;

/** A reference removed between the service's check and the write still answers its code. */
async function bannerWrite<T>(row: Partial<NewBannerRow>, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    for (const [constraint, what, field] of BANNER_FKS) {
      if (isForeignKeyViolation(error, constraint))
        throw bannerErrors.referenceInvalid(what, row[field] ?? 0);
    }
    if (isForeignKeyViolation(error, 'banners_seo_id_seo_records_id_fk'))
      throw bannerErrors.seoNotFound(row.seoId ?? '');
    throw error;
  }
}

export function insertBanner(tx: Db, row: NewBannerRow): Promise<BannerRow> {
  return bannerWrite(row, async () => {
    const [created] = await tx.insert(banners).values(row).returning();
    return created!;
  });
}

export async function findBanner(db: Db, publicId: string): Promise<BannerRow | undefined> {
  const [row] = await db.select().from(banners).where(eq(banners.publicId, publicId));
  return row;
}

export async function lockBanner(tx: Db, publicId: string): Promise<BannerRow | undefined> {
  const [row] = await tx.select().from(banners).where(eq(banners.publicId, publicId)).for('update');
  return row;
}

export function updateBanner(tx: Db, id: number, patch: Partial<NewBannerRow>): Promise<BannerRow> {
  return bannerWrite(patch, async () => {
    const [row] = await tx.update(banners).set(patch).where(eq(banners.id, id)).returning();
    return row!;
  });
}

export interface BannerFilters {
  search?: string;
  isActive?: boolean;
  scheduleStatus?: BannerRow['scheduleStatus'];
  brandId?: number;
  categoryId?: number;
  includeDeleted: boolean;
}

const BANNER_SORT_COLUMNS = {
  updatedAt: banners.updatedAt,
  createdAt: banners.createdAt,
  priority: banners.priority,
  publishAt: banners.publishAt,
  expiresAt: banners.expiresAt,
  title: banners.title,
} as const;

export function listBanners(
  db: Db,
  f: BannerFilters,
  sort: keyof typeof BANNER_SORT_COLUMNS,
  order: 'asc' | 'desc',
  page: PageWindow,
) {
  const pattern = f.search ? containsPattern(f.search) : undefined;
  const where = and(
    f.includeDeleted ? undefined : isNull(banners.deletedAt),
    pattern ? or(ilike(banners.title, pattern), ilike(banners.description, pattern)) : undefined,
    f.isActive === undefined ? undefined : eq(banners.isActive, f.isActive),
    f.scheduleStatus ? eq(banners.scheduleStatus, f.scheduleStatus) : undefined,
    f.brandId ? eq(banners.brandId, f.brandId) : undefined,
    f.categoryId ? eq(banners.categoryId, f.categoryId) : undefined,
  );
  return listPage<BannerRow>(db, banners, where, orderBy(BANNER_SORT_COLUMNS[sort], order, banners.id), page);
}

/** The four condition-based updates of the sync job; a missed minute is caught up by the next. */
export async function syncScheduleStatuses(tx: Db, now: Date): Promise<number> {
  const expired = await tx
    .update(banners)
    .set({ scheduleStatus: 'expired', updatedAt: now })
    .where(
      and(
        inArray(banners.scheduleStatus, ['scheduled', 'active']),
        lt(banners.expiresAt, now),
        isNull(banners.deletedAt),
      ),
    )
    .returning({ id: banners.id });
  const activated = await tx
    .update(banners)
    .set({ scheduleStatus: 'active', updatedAt: now })
    .where(
      and(
        eq(banners.scheduleStatus, 'scheduled'),
        lte(banners.publishAt, now),
        or(isNull(banners.expiresAt), gte(banners.expiresAt, now)),
        isNull(banners.deletedAt),
      ),
    )
    .returning({ id: banners.id });
  const ended = await tx
    .update(campaigns)
    .set({ status: 'ended', updatedAt: now })
    .where(and(inArray(campaigns.status, ['scheduled', 'active']), lt(campaigns.endsAt, now)))
    .returning({ id: campaigns.id });
  const started = await tx
    .update(campaigns)
    .set({ status: 'active', updatedAt: now })
    .where(
      and(
        eq(campaigns.status, 'scheduled'),
        lte(campaigns.startsAt, now),
        or(isNull(campaigns.endsAt), gte(campaigns.endsAt, now)),
        isNull(campaigns.deletedAt),
      ),
    )
    .returning({ id: campaigns.id });
  return expired.length + activated.length + ended.length + started.length;
}
