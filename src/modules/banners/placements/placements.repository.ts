// Queries of placements.
import { and, count, eq, ilike, or } from 'drizzle-orm';
import type { Db } from '../../../platform/db/database';
import { isUniqueViolation } from '../../../platform/db/errors';
import type { PageWindow } from '../../../platform/http/pagination';
import { bannerErrors } from '../banners.errors';
import {
  containsPattern,
  listPage,
  type NewPlacementRow,
  orderBy,
  type PlacementRow,
} from '../banners.repository';
import { bannerAssignments, placements } from '../banners.table';

const PLACEMENT_SLUG_UNIQUE = 'banner_placements_slug_unique';

async function slugSafe<T>(slug: string | undefined, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isUniqueViolation(error, PLACEMENT_SLUG_UNIQUE)) throw bannerErrors.placementSlugExists(slug ?? '');
    throw error;
  }
}

export function insertPlacement(tx: Db, row: NewPlacementRow): Promise<PlacementRow> {
  return slugSafe(row.slug, async () => {
    const [created] = await tx.insert(placements).values(row).returning();
    return created!;
  });
}

export async function findPlacement(db: Db, publicId: string): Promise<PlacementRow | undefined> {
  const [row] = await db.select().from(placements).where(eq(placements.publicId, publicId));
  return row;
}

export async function findPlacementBySlug(db: Db, slug: string): Promise<PlacementRow | undefined> {
  const [row] = await db.select().from(placements).where(eq(placements.slug, slug));
  return row;
}

/** FOR UPDATE: a delete waits for (and blocks) assignment writes, which take the row FOR SHARE. */
export async function lockPlacement(
  tx: Db,
  publicId: string,
  strength: 'update' | 'share' = 'update',
): Promise<PlacementRow | undefined> {
  const [row] = await tx.select().from(placements).where(eq(placements.publicId, publicId)).for(strength);
  return row;
}

export function updatePlacement(
  tx: Db,
  id: number,
  patch: Partial<NewPlacementRow>,
): Promise<PlacementRow | undefined> {
  return slugSafe(patch.slug, async () => {
    const [row] = await tx.update(placements).set(patch).where(eq(placements.id, id)).returning();
    return row;
  });
}

export async function countActiveAssignmentsOfPlacement(tx: Db, placementId: number): Promise<number> {
  const [row] = await tx
    .select({ n: count() })
    .from(bannerAssignments)
    .where(and(eq(bannerAssignments.placementId, placementId), eq(bannerAssignments.isActive, true)));
  return row?.n ?? 0;
}

export async function deletePlacement(tx: Db, id: number): Promise<void> {
  await tx.delete(placements).where(eq(placements.id, id));
}

export interface PlacementFilters {
  search?: string;
  isActive?: boolean;
  pageContext?: string;
  layoutType?: PlacementRow['layoutType'];
}
const PLACEMENT_SORT_COLUMNS = {
  sortOrder: placements.sortOrder,
  createdAt: placements.createdAt,
  updatedAt: placements.updatedAt,
  slug: placements.slug,
  label: placements.label,
} as const;

export function listPlacements(
  db: Db,
  f: PlacementFilters,
  sort: keyof typeof PLACEMENT_SORT_COLUMNS,
  order: 'asc' | 'desc',
  page: PageWindow,
) {
  const pattern = f.search ? containsPattern(f.search) : undefined;
  const where = and(
    pattern ? or(ilike(placements.slug, pattern), ilike(placements.label, pattern)) : undefined,
    f.isActive === undefined ? undefined : eq(placements.isActive, f.isActive),
    f.pageContext ? eq(placements.pageContext, f.pageContext) : undefined,
    f.layoutType ? eq(placements.layoutType, f.layoutType) : undefined,
  );
  return listPage<PlacementRow>(
    db,
    placements,
    where,
    orderBy(PLACEMENT_SORT_COLUMNS[sort], order, placements.id),
    page,
  );
}
