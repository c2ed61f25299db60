// SEO records: metadata that categories, products, content pages, banners and blog posts
// point at. Every write records its activity entry in its own transaction.
import type { UserPrincipal } from '../../../platform/auth/principal';
import type { Db } from '../../../platform/db/database';
import { inTransaction } from '../../../platform/db/transaction';
import { type PageMeta, pageMeta, pageWindow } from '../../../platform/http/pagination';
import { newUuid } from '../../../platform/ids';
import type { ModuleContext } from '../../../platform/module';
import { recordActivity } from '../../activity';
import { catalogErrors } from '../catalog.errors';
import * as repo from './seo.repository';
import type { CreateSeoBody, SeoListQuery, SeoView, UpdateSeoBody } from './seo.schemas';

export type SeoDeps = Pick<ModuleContext, 'db' | 'clock'>;
const SEO = 'seo_record';

export const toSeoView = (row: repo.SeoRow): SeoView => ({
  id: row.id,
  metaTitle: row.metaTitle,
  metaDescription: row.metaDescription,
  metaKeywords: row.metaKeywords,
  canonicalUrl: row.canonicalUrl,
  robotsIndex: row.robotsIndex,
  robotsFollow: row.robotsFollow,
  robotsAdvanced: row.robotsAdvanced,
  ogTitle: row.ogTitle,
  ogDescription: row.ogDescription,
  ogType: row.ogType,
  ogUrl: row.ogUrl,
  ogImageUrl: row.ogImageUrl,
  ogSiteName: row.ogSiteName,
  socialCard: row.socialCard,
  socialSite: row.socialSite,
  socialCreator: row.socialCreator,
  socialTitle: row.socialTitle,
  socialDescription: row.socialDescription,
  socialImageUrl: row.socialImageUrl,
  alternates: row.alternates,
  structuredDataJsonLd: row.structuredDataJsonLd,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

const label = (row: repo.SeoRow) => row.metaTitle ?? row.id;

/** Whether an SEO record exists: content pages, banners and blog posts check their `seoId` with it. */
export async function seoExists(db: Db, id: string): Promise<boolean> {
  return repo.seoIdExists(db, id);
}

/** The resolved record of an `seoId`, or null: what pages and posts embed as `seo`. */
export async function findSeoRecord(db: Db, id: string): Promise<SeoView | null> {
  const row = await repo.findSeo(db, id);
  return row ? toSeoView(row) : null;
}

export async function listSeo(
  deps: SeoDeps,
  query: SeoListQuery,
): Promise<{ records: SeoView[]; meta: PageMeta }> {
  const { rows, count } = await repo.listSeo(deps.db, query, pageWindow(query));
  return { records: rows.map(toSeoView), meta: pageMeta(query, count) };
}

export async function getSeo(deps: SeoDeps, id: string): Promise<SeoView> {
  const row = await repo.findSeo(deps.db, id);
  if (!row) throw catalogErrors.seoNotFound(id);
  return toSeoView(row);
}

export async function createSeo(deps: SeoDeps, actor: UserPrincipal, body: CreateSeoBody): Promise<SeoView> {
  const now = deps.clock.now();
  return inTransaction(deps.db, async (tx) => {
    const row = await repo.insertSeo(tx, { ...body, id: newUuid(), createdAt: now, updatedAt: now });
    await recordActivity(tx, {
      adminId: actor.userId,
      action: 'create',
      entityType: SEO,
      entityId: row.id,
      summary: `Created SEO record ${label(row)}`,
      at: now,
    });
    return toSeoView(row);
  });
}

export async function updateSeo(
  deps: SeoDeps,
  actor: UserPrincipal,
  id: string,
  body: UpdateSeoBody,
): Promise<SeoView> {
  const now = deps.clock.now();
  return inTransaction(deps.db, async (tx) => {
    const row = await repo.updateSeo(tx, id, { ...body, updatedAt: now });
    if (!row) throw catalogErrors.seoNotFound(id);
    await recordActivity(tx, {
      adminId: actor.userId,
      action: 'update',
      entityType: SEO,
      entityId: id,
      summary: `Updated SEO record ${label(row)}: ${Object.keys(body).join(', ')}`,
      at: now,
    });
    return toSeoView(row);
  });
}

export async function deleteSeo(deps: SeoDeps, actor: UserPrincipal, id: string): Promise<void> {
  const now = deps.clock.now();
  await inTransaction(deps.db, async (tx) => {
    const row = await repo.findSeo(tx, id);
    if (!row || !(await repo.deleteSeo(tx, id))) throw catalogErrors.seoNotFound(id);
    await recordActivity(tx, {
      adminId: actor.userId,
      action: 'delete',
      entityType: SEO,
      entityId: id,
      summary: `Deleted SEO record ${label(row)}`,
      at: now,
    });
  });
}
