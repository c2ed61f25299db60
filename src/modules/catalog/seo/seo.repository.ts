import { count, eq, ilike, or } from 'drizzle-orm';
import type { Db } from '../../../platform/db/database';
import { isForeignKeyViolation } from '../../../platform/db/errors';
import type { PageWindow } from '../../../platform/http/pagination';
import { catalogErrors } from '../catalog.errors';
import { containsPattern, orderBy, paged } from '../catalog.repository';
import type { SeoListQuery } from './seo.schemas';
import { seoRecords } from './seo.table';

export type SeoRow = typeof seoRecords.$inferSelect;
export type NewSeoRow = typeof seoRecords.$inferInsert;

export async function findSeo(db: Db, id: string): Promise<SeoRow | undefined> {
  const [row] = await db.select().from(seoRecords).where(eq(seoRecords.id, id));
  return row;
}

export async function seoIdExists(db: Db, id: string): Promise<boolean> {
  const [row] = await db.select({ id: seoRecords.id }).from(seoRecords).where(eq(seoRecords.id, id));
  return row !== undefined;
}

export async function listSeo(db: Db, q: SeoListQuery, page: PageWindow) {
  const where = q.search
    ? or(
        ilike(seoRecords.metaTitle, containsPattern(q.search)),
        ilike(seoRecords.ogTitle, containsPattern(q.search)),
        ilike(seoRecords.canonicalUrl, containsPattern(q.search)),
      )
    : undefined;
  const column = {
    createdAt: seoRecords.createdAt,
    updatedAt: seoRecords.updatedAt,
    metaTitle: seoRecords.metaTitle,
  }[q.sort];
  const rows = await paged(
    db
      .select()
      .from(seoRecords)
      .where(where)
      .orderBy(...orderBy(column, q.order, seoRecords.createdAt))
      .$dynamic(),
    page,
  );
  const [total] = await db.select({ n: count() }).from(seoRecords).where(where);
  return { rows, count: total?.n ?? 0 };
}

export async function insertSeo(db: Db, row: NewSeoRow): Promise<SeoRow> {
  const [created] = await db.insert(seoRecords).values(row).returning();
  return created!;
}

export async function updateSeo(db: Db, id: string, patch: Partial<NewSeoRow>): Promise<SeoRow | undefined> {
  const [row] = await db.update(seoRecords).set(patch).where(eq(seoRecords.id, id)).returning();
  return row;
}

/** Deletes the record; a category or product that points at it makes it 409. */
export async function deleteSeo(db: Db, id: string): Promise<boolean> {
  try {
    const rows = await db.delete(seoRecords).where(eq(seoRecords.id, id)).returning({ id: seoRecords.id });
    return rows.length > 0;
  } catch (error) {
    if (isForeignKeyViolation(error)) throw catalogErrors.seoInUse();
    throw error;
  }
}
