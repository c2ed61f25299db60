// Every query of testimonials.
import { and, asc, count, desc, eq, ilike, or, type SQL } from 'drizzle-orm';
import type { Db } from '../../../platform/db/database';
import { containsPattern as contains } from '../../../platform/db/like';
import type { PageWindow } from '../../../platform/http/pagination';
import type { TestimonialSort } from './testimonials.schemas';
import { testimonials } from './testimonials.table';

export type TestimonialRow = typeof testimonials.$inferSelect;
export type NewTestimonial = typeof testimonials.$inferInsert;

export async function insertTestimonial(db: Db, values: NewTestimonial): Promise<TestimonialRow> {
  const [row] = await db.insert(testimonials).values(values).returning();
  return row!;
}

export async function findTestimonial(db: Db, id: number): Promise<TestimonialRow | undefined> {
  const [row] = await db.select().from(testimonials).where(eq(testimonials.id, id));
  return row;
}

export async function updateTestimonial(
  db: Db,
  id: number,
  patch: Partial<NewTestimonial>,
): Promise<TestimonialRow | undefined> {
  const [row] = await db.update(testimonials).set(patch).where(eq(testimonials.id, id)).returning();
  return row;
}

export async function deleteTestimonial(db: Db, id: number): Promise<TestimonialRow | undefined> {
  const [row] = await db.delete(testimonials).where(eq(testimonials.id, id)).returning();
  return row;
}

export interface TestimonialFilter {
  search?: string;
  isVisible?: boolean;
  rating?: number;
}

const SORT_COLUMNS = {
  order: testimonials.displayOrder,
  createdAt: testimonials.createdAt,
  updatedAt: testimonials.updatedAt,
  rating: testimonials.rating,
} as const;

/** One page, ordered by `sort` then id in the same direction (ties keep insertion order), and the total. */
export async function listTestimonials(
  db: Db,
  f: TestimonialFilter,
  sort: { by: TestimonialSort; order: 'asc' | 'desc' },
  page: PageWindow,
): Promise<{ rows: TestimonialRow[]; count: number }> {
  const term = f.search ? contains(f.search) : undefined;
  const where: SQL | undefined = and(
    f.isVisible === undefined ? undefined : eq(testimonials.isVisible, f.isVisible),
    f.rating === undefined ? undefined : eq(testimonials.rating, f.rating),
    term ? or(ilike(testimonials.name, term), ilike(testimonials.comment, term)) : undefined,
  );
  const direction = sort.order === 'asc' ? asc : desc;
  const query = db
    .select()
    .from(testimonials)
    .where(where)
    .orderBy(direction(SORT_COLUMNS[sort.by]), direction(testimonials.id))
    .offset(page.offset)
    .$dynamic();
  const rows = await (page.limit === undefined ? query : query.limit(page.limit));
  const [total] = await db.select({ n: count() }).from(testimonials).where(where);
  return { rows, count: Number(total?.n ?? 0) };
}
