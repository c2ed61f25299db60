import { and, asc, eq, getTableColumns, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/database';
import { isForeignKeyViolation, isUniqueViolation } from '../../platform/db/errors';
import { contentErrors } from './content.errors';
import type { PageKey, SectionKey } from './content.payloads';
import { contentPages, contentSections } from './content.table';

export type PageRow = typeof contentPages.$inferSelect;
export type SectionRow = typeof contentSections.$inferSelect;

export async function findPage(db: Db, pageKey: PageKey): Promise<PageRow | undefined> {
  const [row] = await db.select().from(contentPages).where(eq(contentPages.pageKey, pageKey));
  return row;
}

/**
 * The page of `pageKey`, made with `title` when missing. Two callers racing to make it both
 * get the same row: the loser's insert does nothing and it reads the winner's.
 */
export async function ensurePage(
  db: Db,
  pageKey: PageKey,
  title: string,
  now: Date,
): Promise<{ page: PageRow; created: boolean }> {
  const [created] = await db
    .insert(contentPages)
    .values({ pageKey, title, createdAt: now, updatedAt: now })
    .onConflictDoNothing({ target: contentPages.pageKey })
    .returning();
  if (created) return { page: created, created: true };
  const page = await findPage(db, pageKey);
  if (!page) throw new Error(`content page ${pageKey} vanished while being made`);
  return { page, created: false };
}

/** Sections of a page by position, then id; only enabled ones when `enabledOnly`. */
export async function listSections(db: Db, pageId: number, enabledOnly: boolean): Promise<SectionRow[]> {
  return db
    .select()
    .from(contentSections)
    .where(
      enabledOnly
        ? and(eq(contentSections.pageId, pageId), eq(contentSections.isEnabled, true))
        : eq(contentSections.pageId, pageId),
    )
    .orderBy(asc(contentSections.position), asc(contentSections.id));
}

/** Sets the page's title and/or SEO link; an SEO record another page holds is 409. */
export async function updatePageMeta(
  db: Db,
  pageId: number,
  patch: { title?: string; seoId?: string | null },
  now: Date,
): Promise<PageRow> {
  try {
    const [row] = await db
      .update(contentPages)
      .set({ ...patch, updatedAt: now })
      .where(eq(contentPages.id, pageId))
      .returning();
    return row!;
  } catch (error) {
    if (patch.seoId && isUniqueViolation(error, 'content_pages_seo_id_unique')) {
      throw contentErrors.seoAlreadyLinked(patch.seoId);
    }
    // The record was deleted between the existence check and this write.
    if (patch.seoId && isForeignKeyViolation(error)) throw contentErrors.seoNotFound(patch.seoId);
    throw error;
  }
}

export async function touchPage(db: Db, pageId: number, now: Date): Promise<void> {
  await db.update(contentPages).set({ updatedAt: now }).where(eq(contentPages.id, pageId));
}

/** Inserts or replaces the section of (page, key) in one statement: concurrent writes, last one wins. */
export async function upsertSection(
  db: Db,
  values: {
    pageId: number;
    sectionKey: SectionKey;
    position: number;
    isEnabled: boolean;
    payloadJson: Record<string, unknown>;
  },
  now: Date,
): Promise<{ row: SectionRow; created: boolean }> {
  const [row] = await db
    .insert(contentSections)
    .values({ ...values, createdAt: now, updatedAt: now })
    .onConflictDoUpdate({
      target: [contentSections.pageId, contentSections.sectionKey],
      set: {
        position: values.position,
        isEnabled: values.isEnabled,
        payloadJson: values.payloadJson,
        updatedAt: now,
      },
    })
    // xmax is 0 exactly when the row was inserted rather than updated.
    .returning({ ...getTableColumns(contentSections), inserted: sql<boolean>`(xmax = 0)` });
  const { inserted, ...section } = row!;
  return { row: section, created: inserted };
}

export async function deleteSection(
  db: Db,
  pageId: number,
  sectionKey: SectionKey,
): Promise<SectionRow | undefined> {
  const [row] = await db
    .delete(contentSections)
    .where(and(eq(contentSections.pageId, pageId), eq(contentSections.sectionKey, sectionKey)))
    .returning();
  return row;
}
