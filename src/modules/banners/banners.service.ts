// Banners: admin writes (soft delete, restore, schedule, activation) and the admin list, plus
// what every write of the banner area shares: one transaction with its activity entry, and
// the admin list and serving caches cleared after commit (decisions.md, "Lists and caches").
import type { UserPrincipal } from '../../platform/auth/principal';
import { cached } from '../../platform/cache/cache';
import type { Db } from '../../platform/db/database';
import { inTransaction } from '../../platform/db/transaction';
import { pageMeta, pageWindow } from '../../platform/http/pagination';
import { newUuid } from '../../platform/ids';
import type { ModuleContext } from '../../platform/module';
import { recordActivity } from '../activity';
import { seoExists } from '../catalog';
import { bannerErrors } from './banners.errors';
import * as repo from './banners.repository';
import type {
  AdminBanner,
  BannerListQuery,
  CreateBannerBody,
  ScheduleBannerBody,
  UpdateBannerBody,
} from './banners.schemas';

export type BannerDeps = Pick<ModuleContext, 'db' | 'clock' | 'cache' | 'config' | 'log' | 'jobs'>;

export const SERVE_CACHE_PREFIX = 'banners:serve:';
export const ADMIN_LIST_CACHE_PREFIX = 'banners:admin:';
/** Interface, "Limits": banner admin list caches live 300 s. */
export const ADMIN_LIST_CACHE_TTL_MS = 300_000;

/** Forgets every cached serving result and admin list page; a failure is logged, never thrown. */
export async function clearBannerCaches(deps: Pick<BannerDeps, 'cache' | 'log'>): Promise<void> {
  for (const prefix of [SERVE_CACHE_PREFIX, ADMIN_LIST_CACHE_PREFIX]) {
    try {
      await deps.cache.deleteByPrefix(prefix);
    } catch (error) {
      deps.log.warn({ err: error, prefix }, 'banner cache could not be cleared');
    }
  }
}

/** An admin list page read through the admin list cache. */
export function cachedAdminList<T>(deps: BannerDeps, kind: string, query: object, load: () => Promise<T>) {
  return cached(
    deps.cache,
    `${ADMIN_LIST_CACHE_PREFIX}${kind}:${JSON.stringify(query)}`,
    ADMIN_LIST_CACHE_TTL_MS,
    load,
  );
}

export interface WriteOutcome<R> {
  result: R;
  /** The activity entry; none when the write changed nothing worth recording. */
  activity?: { action: string; entityType: string; entityId: string; summary: string };
}

/** One admin write of the banner area: its transaction, activity entry and cache clearing. */
export function bannerAreaWrite<R>(
  deps: BannerDeps,
  actor: UserPrincipal,
  work: (tx: Db, now: Date) => Promise<WriteOutcome<R>>,
): Promise<R> {
  const now = deps.clock.now();
  return inTransaction(
    deps.db,
    async (tx, afterCommit) => {
      const { result, activity } = await work(tx, now);
      if (activity) await recordActivity(tx, { adminId: actor.userId, at: now, ...activity });
      afterCommit(() => clearBannerCaches(deps));
      return result;
    },
    (error) => deps.log.warn({ err: error }, 'after-commit effect of a banner write failed'),
  );
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export const toAdminBanner = (r: repo.BannerRow): AdminBanner => ({
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
async function liveBanner(tx: Db, publicId: string): Promise<repo.BannerRow> {
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
