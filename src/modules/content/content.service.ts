// Content pages: admins edit a page's meta and upsert or delete its sections; the storefront
// and the app read the enabled sections. Reads go through the cache (public and admin views
// apart, each with its lifetime); every successful write clears both views of its page; when
// the cache fails, reads fall back to the database and writes still succeed.
import type { UserPrincipal } from '../../platform/auth/principal';
import type { LocalCopy } from '../../platform/cache/cache';
import type { Db } from '../../platform/db/database';
import { inTransaction, readTogether } from '../../platform/db/transaction';
import type { ModuleContext } from '../../platform/module';
import { recordActivity } from '../activity';
import { findSeoRecord, seoExists } from '../catalog';
import { contentErrors } from './content.errors';
import {
  ALLOWED_SECTIONS,
  isSectionAllowed,
  type PageKey,
  parseSectionPayload,
  type SectionKey,
} from './content.payloads';
import * as repo from './content.repository';
import type {
  ContentPageView,
  ContentSectionView,
  ContentSeo,
  UpdateMetaBody,
  UpsertSectionBody,
} from './content.schemas';

export type ContentDeps = Pick<ModuleContext, 'db' | 'clock' | 'cache' | 'config' | 'log'>;

const PAGE = 'content_page';

/** The title a page gets when an admin call makes it. */
export const DEFAULT_PAGE_TITLES: Record<PageKey, string> = {
  home: 'Home',
  about: 'About us',
  faq: 'Frequently asked questions',
  privacy_policy: 'Privacy policy',
  terms_of_service: 'Terms of service',
  products_thangkas: 'Thangka paintings',
  products_singing_bowls: 'Singing bowls',
  products_statues: 'Statues',
  products_jewellery: 'Jewellery',
  global_footer: 'Global footer',
};

// ── Cache ───────────────────────────────────────────────────────────────────────────────────

export const publicCacheKey = (pageKey: PageKey) => `content:page:public:${pageKey}`;
export const adminCacheKey = (pageKey: PageKey) => `content:page:admin:${pageKey}`;
/**
 * A read that loaded the old page just before a write committed may store it just after the
 * write cleared the cache; clearing once more a moment later removes such a stale entry.
 */
const SECOND_CLEAR_MS = 1_000;

/**
 * Reads through the cache; a failing cache is logged and the database answers (the Redis cache
 * fails a command that hangs after `CACHE_COMMAND_TIMEOUT_MS`).
 */
async function readThrough<T>(
  deps: ContentDeps,
  key: string,
  ttlSeconds: number,
  load: () => Promise<T>,
  options?: LocalCopy,
) {
  if (ttlSeconds === 0) return load();
  let hit: T | undefined;
  try {
    hit = await deps.cache.get<T>(key, options);
  } catch (error) {
    deps.log.warn({ err: error, key }, 'content cache read failed; reading the database');
    return load();
  }
  if (hit !== undefined) return hit;
  const value = await load();
  try {
    await deps.cache.set(key, value, ttlSeconds * 1000, options);
  } catch (error) {
    deps.log.warn({ err: error, key }, 'content cache write failed');
  }
  return value;
}

async function clearPageCaches(deps: ContentDeps, pageKey: PageKey): Promise<void> {
  for (const key of [publicCacheKey(pageKey), adminCacheKey(pageKey)]) {
    try {
      await deps.cache.delete(key);
    } catch (error) {
      deps.log.warn({ err: error, key }, 'content cache clear failed');
    }
  }
}

/** Clears both views of a page now and once more shortly after (see SECOND_CLEAR_MS). */
export async function forgetPage(deps: ContentDeps, pageKey: PageKey): Promise<void> {
  await clearPageCaches(deps, pageKey);
  setTimeout(() => void clearPageCaches(deps, pageKey), SECOND_CLEAR_MS).unref();
}

// ── Views ───────────────────────────────────────────────────────────────────────────────────

const toSectionView = (row: repo.SectionRow): ContentSectionView => ({
  id: row.id,
  sectionKey: row.sectionKey as SectionKey,
  position: row.position,
  isEnabled: row.isEnabled,
  payloadJson: row.payloadJson,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

async function resolveSeo(db: Db, seoId: string | null): Promise<ContentSeo | null> {
  if (!seoId) return null;
  const record = await findSeoRecord(db, seoId);
  if (!record) return null;
  const { createdAt: _c, updatedAt: _u, ...seo } = record;
  return seo;
}

async function toPageView(db: Db, page: repo.PageRow, enabledOnly: boolean): Promise<ContentPageView> {
  // db may be the transaction of the write that answers this view.
  const [sections, seo] = await readTogether(db, [
    () => repo.listSections(db, page.id, enabledOnly),
    () => resolveSeo(db, page.seoId),
  ]);
  return {
    id: page.id,
    pageKey: page.pageKey as PageKey,
    title: page.title,
    seoId: page.seoId,
    seo,
    sections: sections.map(toSectionView),
    createdAt: page.createdAt.toISOString(),
    updatedAt: page.updatedAt.toISOString(),
  };
}

// ── Reads ───────────────────────────────────────────────────────────────────────────────────

/**
 * The storefront's and the app's view, as JSON text: enabled sections only; never makes a
 * page. The cache holds the text itself, so a cached read costs no parsing or serialising.
 */
export async function getPublicPageJson(deps: ContentDeps, pageKey: PageKey): Promise<string> {
  const json = await readThrough<string | null>(
    deps,
    publicCacheKey(pageKey),
    deps.config.CONTENT_PAGE_PUBLIC_CACHE_TTL_SECONDS,
    async () => {
      const row = await repo.findPage(deps.db, pageKey);
      return row ? JSON.stringify(await toPageView(deps.db, row, true)) : null;
    },
    { local: true },
  );
  if (json === null) throw contentErrors.notFound(`Content page ${pageKey}`);
  return json;
}

/** The admin view: every section, disabled ones too; makes the page when it is missing. */
export async function getAdminPage(deps: ContentDeps, pageKey: PageKey): Promise<ContentPageView> {
  return readThrough(
    deps,
    adminCacheKey(pageKey),
    deps.config.CONTENT_PAGE_ADMIN_CACHE_TTL_SECONDS,
    async () => {
      const { page, created } = await repo.ensurePage(
        deps.db,
        pageKey,
        DEFAULT_PAGE_TITLES[pageKey],
        deps.clock.now(),
      );
      // A public read may have cached "no such page".
      if (created) await clearPageCaches(deps, pageKey);
      return toPageView(deps.db, page, false);
    },
  );
}

// ── Writes ──────────────────────────────────────────────────────────────────────────────────

function checkSectionKey(pageKey: PageKey, sectionKey: SectionKey): void {
  if (!isSectionAllowed(pageKey, sectionKey)) {
    throw contentErrors.sectionKeyInvalid(pageKey, sectionKey, ALLOWED_SECTIONS[pageKey]);
  }
}

/** Title and SEO link of a page (made when missing); an unknown SEO record is 400. */
export async function updatePageMeta(
  deps: ContentDeps,
  actor: UserPrincipal,
  pageKey: PageKey,
  body: UpdateMetaBody,
): Promise<ContentPageView> {
  const now = deps.clock.now();
  const patch = {
    ...(body.title !== undefined ? { title: body.title } : {}),
    ...(body.seoId !== undefined ? { seoId: body.seoId } : {}),
  };
  return inTransaction(deps.db, async (tx, afterCommit) => {
    if (patch.seoId && !(await seoExists(tx, patch.seoId))) throw contentErrors.seoNotFound(patch.seoId);
    const { page } = await repo.ensurePage(tx, pageKey, DEFAULT_PAGE_TITLES[pageKey], now);
    const row = await repo.updatePageMeta(tx, page.id, patch, now);
    await recordActivity(tx, {
      adminId: actor.userId,
      action: 'update',
      entityType: PAGE,
      entityId: row.id,
      summary: `Updated ${Object.keys(patch).join(', ')} of content page ${pageKey}`,
      at: now,
    });
    afterCommit(() => forgetPage(deps, pageKey));
    return toPageView(tx, row, false);
  });
}

/**
 * Creates or replaces one section (the page is made when missing). The payload is checked
 * against its section's schema before anything is written.
 */
export async function upsertSection(
  deps: ContentDeps,
  actor: UserPrincipal,
  pageKey: PageKey,
  sectionKey: SectionKey,
  body: UpsertSectionBody,
): Promise<ContentSectionView> {
  checkSectionKey(pageKey, sectionKey);
  const parsed = parseSectionPayload(sectionKey, body.payloadJson);
  if (!parsed.ok) throw contentErrors.payloadInvalid(sectionKey, parsed.issues);
  const now = deps.clock.now();
  return inTransaction(deps.db, async (tx, afterCommit) => {
    const { page } = await repo.ensurePage(tx, pageKey, DEFAULT_PAGE_TITLES[pageKey], now);
    const { row, created } = await repo.upsertSection(
      tx,
      {
        pageId: page.id,
        sectionKey,
        position: body.position,
        isEnabled: body.isEnabled,
        payloadJson: parsed.payload,
      },
      now,
    );
    await repo.touchPage(tx, page.id, now);
    await recordActivity(tx, {
      adminId: actor.userId,
      action: created ? 'create_section' : 'update_section',
      entityType: PAGE,
      entityId: page.id,
      summary: `${created ? 'Added' : 'Updated'} section ${sectionKey} of content page ${pageKey}${
        body.isEnabled ? '' : ' (disabled)'
      }`,
      at: now,
    });
    afterCommit(() => forgetPage(deps, pageKey));
    return toSectionView(row);
  });
}

export async function deleteSection(
  deps: ContentDeps,
  actor: UserPrincipal,
  pageKey: PageKey,
  sectionKey: SectionKey,
): Promise<void> {
  checkSectionKey(pageKey, sectionKey);
  const now = deps.clock.now();
  await inTransaction(deps.db, async (tx, afterCommit) => {
    const page = await repo.findPage(tx, pageKey);
    if (!page) throw contentErrors.notFound(`Content page ${pageKey}`);
    const removed = await repo.deleteSection(tx, page.id, sectionKey);
    if (!removed) throw contentErrors.notFound(`Section ${sectionKey} of content page ${pageKey}`);
    await repo.touchPage(tx, page.id, now);
    await recordActivity(tx, {
      adminId: actor.userId,
      action: 'delete_section',
      entityType: PAGE,
      entityId: page.id,
      summary: `Deleted section ${sectionKey} of content page ${pageKey}`,
      at: now,
    });
    afterCommit(() => forgetPage(deps, pageKey));
  });
}
