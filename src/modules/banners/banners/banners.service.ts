// Banners: admin writes (soft delete, restore, schedule, activation) and the admin list.
import type { UserPrincipal } from '../../../platform/auth/principal';
import type { Db } from '../../../platform/db/database';
import { pageMeta, pageWindow } from '../../../platform/http/pagination';
import { newUuid } from '../../../platform/ids';
import { seoExists } from '../../catalog';
import { bannerErrors } from '../banners.errors';
import type * as areaRepo from '../banners.repository';
import { type BannerDeps, bannerAreaWrite, cachedAdminList } from '../banners.service';
import * as repo from './banners.repository';
import type {
  AdminBanner,
  BannerListQuery,
  CreateBannerBody,
  ScheduleBannerBody,
  UpdateBannerBody,
} from './banners.schemas';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export const toAdminBanner = (r: areaRepo.BannerRow): AdminBanner => ({
  publicId: r.publicId,
  title: r.title,
  description: r.description,
  source: r.source,
  isActive: r.isActive,
  primaryImageUrl: r.primaryImageUrl,
  primaryImageAlt: r.primaryImageAlt,
  mobileImageUrl: r.mobileImageUrl,
  videoUrl: r.videoUrl,
  mediaVariants: r.mediaVariants,
  headline: r.headline,
  subheadline: r.subheadline,
  ctaLabel: r.ctaLabel,
  ctaUrl: r.ctaUrl,
  ctaOpenNewTab: r.ctaOpenNewTab,
  utmSource: r.utmSource,
  utmMedium: r.utmMedium,
  utmCampaign: r.utmCampaign,
  utmContent: r.utmContent,
  brandId: r.brandId,
  categoryId: r.categoryId,
  productId: r.productId,
  tags: r.tags,
  bgColor: r.bgColor,
  priority: r.priority,
  seoId: r.seoId,
  publishAt: iso(r.publishAt),
  expiresAt: iso(r.expiresAt),
  scheduleTimezone: r.scheduleTimezone,
  recurrenceRule: r.recurrenceRule,
  recurrenceWindowStart: r.recurrenceWindowStart,
  recurrenceWindowEnd: r.recurrenceWindowEnd,
  scheduleStatus: r.scheduleStatus,
  isEvergreenFallback: r.isEvergreenFallback,
  fallbackPlaceholderUrl: r.fallbackPlaceholderUrl,
  createdBy: r.createdBy,
  createdAt: r.createdAt.toISOString(),
  updatedAt: r.updatedAt.toISOString(),
  deletedAt: iso(r.deletedAt),
});

function checkWindow(publishAt: Date | null | undefined, expiresAt: Date | null | undefined) {
  if (publishAt && expiresAt && publishAt.getTime() >= expiresAt.getTime())
    throw bannerErrors.scheduleInvalid();
}

async function checkSeo(tx: Db, seoId: string | null | undefined) {
  if (seoId && !(await seoExists(tx, seoId))) throw bannerErrors.seoNotFound(seoId);
}

/** Fields of the body that are set, for activity summaries. */
const changed = (body: object) =>
  Object.entries(body)
    .filter(([, v]) => v !== undefined)
    .map(([k]) => k)
    .join(', ');

export function createBanner(
  deps: BannerDeps,
  actor: UserPrincipal,
  body: CreateBannerBody,
): Promise<AdminBanner> {
  checkWindow(body.publishAt, body.expiresAt);
  return bannerAreaWrite(deps, actor, async (tx, now) => {
    await checkSeo(tx, body.seoId);
    const row = await repo.insertBanner(tx, {
      ...body,
      publicId: newUuid(),
      createdBy: actor.userId,
      createdAt: now,
      updatedAt: now,
    });
    return {
      result: toAdminBanner(row),
      activity: {
        action: 'create',
        entityType: 'banner',
        entityId: row.publicId,
        summary: `Created banner ${row.title}`,
      },
    };
  });
}

export async function getBanner(deps: Pick<BannerDeps, 'db'>, publicId: string): Promise<AdminBanner> {
  const row = await repo.findBanner(deps.db, publicId);
  if (!row) throw bannerErrors.bannerNotFound();
  return toAdminBanner(row);
}

export function listBanners(deps: BannerDeps, q: BannerListQuery) {
  return cachedAdminList(deps, 'banners', q, async () => {
    const { rows, count } = await repo.listBanners(deps.db, q, q.sort, q.order, pageWindow(q));
    const meta = pageMeta(q, count);
    return {
      banners: rows.map(toAdminBanner),
      pagination: q.pagination ? { count, page: meta.page!, size: meta.size! } : undefined,
    };
  });
}

/** A live (not deleted) banner, locked for the write; deleted banners are only restored. */
async function liveBanner(tx: Db, publicId: string): Promise<areaRepo.BannerRow> {
  const row = await repo.lockBanner(tx, publicId);
  if (!row || row.deletedAt) throw bannerErrors.bannerNotFound();
  return row;
}

function patchBanner(
  deps: BannerDeps,
  actor: UserPrincipal,
  publicId: string,
  body: UpdateBannerBody | ScheduleBannerBody,
  action: string,
): Promise<AdminBanner> {
  return bannerAreaWrite(deps, actor, async (tx, now) => {
    const current = await liveBanner(tx, publicId);
    checkWindow(
      body.publishAt === undefined ? current.publishAt : body.publishAt,
      body.expiresAt === undefined ? current.expiresAt : body.expiresAt,
    );
    if ('seoId' in body) await checkSeo(tx, body.seoId);
    const row = await repo.updateBanner(tx, current.id, { ...body, updatedAt: now });
    return {
      result: toAdminBanner(row),
      activity: {
        action,
        entityType: 'banner',
        entityId: publicId,
        summary: `${action === 'schedule' ? 'Scheduled' : 'Updated'} banner ${row.title}: ${changed(body)}`,
      },
    };
  });
}

export const updateBanner = (
  deps: BannerDeps,
  actor: UserPrincipal,
  publicId: string,
  body: UpdateBannerBody,
) => patchBanner(deps, actor, publicId, body, 'update');

export const scheduleBanner = (
  deps: BannerDeps,
  actor: UserPrincipal,
  publicId: string,
  body: ScheduleBannerBody,
) => patchBanner(deps, actor, publicId, body, 'schedule');

export function setBannerActive(
  deps: BannerDeps,
  actor: UserPrincipal,
  publicId: string,
  isActive: boolean,
): Promise<AdminBanner> {
  return bannerAreaWrite(deps, actor, async (tx, now) => {
    const current = await liveBanner(tx, publicId);
    const row = await repo.updateBanner(tx, current.id, { isActive, updatedAt: now });
    const action = isActive ? 'activate' : 'deactivate';
    return {
      result: toAdminBanner(row),
      activity: {
        action,
        entityType: 'banner',
        entityId: publicId,
        summary: `${isActive ? 'Activated' : 'Deactivated'} banner ${row.title}`,
      },
    };
  });
}

export function deleteBanner(deps: BannerDeps, actor: UserPrincipal, publicId: string): Promise<AdminBanner> {
  return bannerAreaWrite(deps, actor, async (tx, now) => {
    const current = await repo.lockBanner(tx, publicId);
    if (!current) throw bannerErrors.bannerNotFound();
    if (current.deletedAt) throw bannerErrors.bannerAlreadyDeleted();
    const row = await repo.updateBanner(tx, current.id, { deletedAt: now, updatedAt: now });
    return {
      result: toAdminBanner(row),
      activity: {
        action: 'delete',
        entityType: 'banner',
        entityId: publicId,
        summary: `Deleted banner ${row.title}`,
      },
    };
  });
}

export function restoreBanner(
  deps: BannerDeps,
  actor: UserPrincipal,
  publicId: string,
): Promise<AdminBanner> {
  return bannerAreaWrite(deps, actor, async (tx, now) => {
    const current = await repo.lockBanner(tx, publicId);
    if (!current) throw bannerErrors.bannerNotFound();
    if (!current.deletedAt) throw bannerErrors.bannerNotDeleted();
    const row = await repo.updateBanner(tx, current.id, { deletedAt: null, updatedAt: now });
    return {
      result: toAdminBanner(row),
      activity: {
        action: 'restore',
        entityType: 'banner',
        entityId: publicId,
        summary: `Restored banner ${row.title}`,
      },
    };
  });
}
