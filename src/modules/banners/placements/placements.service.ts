// Placements: the slots (by slug) a storefront asks banners for.
import type { UserPrincipal } from '../../../platform/auth/principal';
import { pageMeta, pageWindow } from '../../../platform/http/pagination';
import { newUuid } from '../../../platform/ids';
import { bannerErrors } from '../banners.errors';
import type * as areaRepo from '../banners.repository';
import { type BannerDeps, bannerAreaWrite, cachedAdminList } from '../banners.service';
import * as repo from './placements.repository';
import type {
  AdminPlacement,
  CreatePlacementBody,
  PlacementListQuery,
  UpdatePlacementBody,
} from './placements.schemas';

export const toAdminPlacement = (r: areaRepo.PlacementRow): AdminPlacement => ({
  publicId: r.publicId,
  slug: r.slug,
  label: r.label,
  layoutType: r.layoutType,
  pageContext: r.pageContext,
  maxBanners: r.maxBanners,
  recommendedWidth: r.recommendedWidth,
  recommendedHeight: r.recommendedHeight,
  recommendedAspectRatio: r.recommendedAspectRatio,
  notes: r.notes,
  isActive: r.isActive,
  sortOrder: r.sortOrder,
  fallbackPlaceholderUrl: r.fallbackPlaceholderUrl,
  allowPartialRender: r.allowPartialRender,
  createdAt: r.createdAt.toISOString(),
  updatedAt: r.updatedAt.toISOString(),
});

export function createPlacement(
  deps: BannerDeps,
  actor: UserPrincipal,
  body: CreatePlacementBody,
): Promise<AdminPlacement> {
  return bannerAreaWrite(deps, actor, async (tx, now) => {
    const row = await repo.insertPlacement(tx, {
      ...body,
      publicId: newUuid(),
      createdAt: now,
      updatedAt: now,
    });
    return {
      result: toAdminPlacement(row),
      activity: {
        action: 'create',
        entityType: 'placement',
        entityId: row.publicId,
        summary: `Created placement ${row.slug}`,
      },
    };
  });
}

export async function getPlacement(deps: Pick<BannerDeps, 'db'>, publicId: string): Promise<AdminPlacement> {
  const row = await repo.findPlacement(deps.db, publicId);
  if (!row) throw bannerErrors.placementNotFound();
  return toAdminPlacement(row);
}

export function listPlacements(deps: BannerDeps, q: PlacementListQuery) {
  return cachedAdminList(deps, 'placements', q, async () => {
    const { rows, count } = await repo.listPlacements(deps.db, q, q.sort, q.order, pageWindow(q));
    return { placements: rows.map(toAdminPlacement), meta: pageMeta(q, count) };
  });
}

export function updatePlacement(
  deps: BannerDeps,
  actor: UserPrincipal,
  publicId: string,
  body: UpdatePlacementBody,
  action = 'update',
): Promise<AdminPlacement> {
  return bannerAreaWrite(deps, actor, async (tx, now) => {
    const current = await repo.lockPlacement(tx, publicId);
    if (!current) throw bannerErrors.placementNotFound();
    const row = await repo.updatePlacement(tx, current.id, { ...body, updatedAt: now });
    if (!row) throw bannerErrors.placementNotFound();
    const fields = Object.keys(body).join(', ');
    return {
      result: toAdminPlacement(row),
      activity: {
        action,
        entityType: 'placement',
        entityId: publicId,
        summary:
          action === 'update'
            ? `Updated placement ${row.slug}: ${fields}`
            : `${action === 'activate' ? 'Activated' : 'Deactivated'} placement ${row.slug}`,
      },
    };
  });
}

/**
 * Deletes a placement with its links and inactive assignments. Active assignments make it
 * 409; the placement row is locked, and assignment writes lock it too, so none slips in.
 */
export function deletePlacement(deps: BannerDeps, actor: UserPrincipal, publicId: string): Promise<void> {
  return bannerAreaWrite(deps, actor, async (tx) => {
    const current = await repo.lockPlacement(tx, publicId);
    if (!current) throw bannerErrors.placementNotFound();
    if ((await repo.countActiveAssignmentsOfPlacement(tx, current.id)) > 0)
      throw bannerErrors.placementHasActiveAssignments();
    await repo.deletePlacement(tx, current.id);
    return {
      result: undefined,
      activity: {
        action: 'delete',
        entityType: 'placement',
        entityId: publicId,
        summary: `Deleted placement ${current.slug}`,
      },
    };
  });
}
