// Every query of the EMI module.
import { and, asc, count, desc, eq, ilike, inArray, or, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/database';
import { containsPattern } from '../../platform/db/like';
import type { PageWindow } from '../../platform/http/pagination';
import { emiBanks, emiConfig, emiInquiries, emiInquiryBanks } from './emi.table';

export type ConfigRow = typeof emiConfig.$inferSelect;
export type BankRow = typeof emiBanks.$inferSelect;
export type InquiryRow = typeof emiInquiries.$inferSelect;
export type NewInquiry = typeof emiInquiries.$inferInsert;

// ── Config ──

export async function findConfig(db: Db): Promise<ConfigRow | undefined> {
  const [row] = await db.select().from(emiConfig).where(eq(emiConfig.id, 1));
  return row;
}

export async function saveConfig(db: Db, values: { isEnabled: boolean; periods: number[]; at: Date }) {
  const [row] = await db
    .insert(emiConfig)
    .values({ id: 1, isEnabled: values.isEnabled, periods: values.periods, updatedAt: values.at })
    .onConflictDoUpdate({
      target: emiConfig.id,
      set: { isEnabled: values.isEnabled, periods: values.periods, updatedAt: values.at },
    })
    .returning();
  return row!;
}

// ── Banks ──

export async function insertBank(db: Db, values: typeof emiBanks.$inferInsert): Promise<BankRow> {
  const [row] = await db.insert(emiBanks).values(values).returning();
  return row!;
}

export async function findBank(db: Db, id: number): Promise<BankRow | undefined> {
  const [row] = await db.select().from(emiBanks).where(eq(emiBanks.id, id));
  return row;
}

export async function updateBank(
  db: Db,
  id: number,
  values: Partial<typeof emiBanks.$inferInsert>,
): Promise<BankRow | undefined> {
  const [row] = await db.update(emiBanks).set(values).where(eq(emiBanks.id, id)).returning();
  return row;
}

const bankSorts = {
  displayOrder: [emiBanks.displayOrder, emiBanks.id],
  name: [emiBanks.name, emiBanks.id],
  createdAt: [emiBanks.createdAt, emiBanks.id],
} as const;

export async function listBanks(
  db: Db,
  filter: { isActive?: boolean },
  sort: { by: keyof typeof bankSorts; order: 'asc' | 'desc' },
  page: PageWindow,
): Promise<{ rows: BankRow[]; count: number }> {
  const where = filter.isActive === undefined ? undefined : eq(emiBanks.isActive, filter.isActive);
  const dir = sort.order === 'asc' ? asc : desc;
  const query = db
    .select()
    .from(emiBanks)
    .where(where)
    .orderBy(...bankSorts[sort.by].map((c) => dir(c)))
    .offset(page.offset);
  const rows = page.limit === undefined ? await query : await query.limit(page.limit);
  const [total] = await db.select({ n: count() }).from(emiBanks).where(where);
  return { rows, count: total?.n ?? 0 };
}

/** The active banks in the order shoppers see them. */
export function activeBanks(db: Db): Promise<BankRow[]> {
  return db
    .select()
    .from(emiBanks)
    .where(eq(emiBanks.isActive, true))
    .orderBy(asc(emiBanks.displayOrder), asc(emiBanks.id));
}

/**
 * The active banks among `ids`, read under a share lock: a bank deactivated by a concurrent
 * admin write waits for (or is seen by) this inquiry, never linked half-way.
 */
export function lockActiveBanks(db: Db, ids: number[]): Promise<Array<{ id: number }>> {
  return db
    .select({ id: emiBanks.id })
    .from(emiBanks)
    .where(and(inArray(emiBanks.id, ids), eq(emiBanks.isActive, true)))
    .for('share');
}

// ── Inquiries ──

export async function insertInquiry(db: Db, values: NewInquiry, bankIds: number[]): Promise<InquiryRow> {
  const [row] = await db.insert(emiInquiries).values(values).returning();
  await db.insert(emiInquiryBanks).values(bankIds.map((bankId) => ({ inquiryId: row!.id, bankId })));
  return row!;
}

export async function findInquiry(db: Db, id: number): Promise<InquiryRow | undefined> {
  const [row] = await db.select().from(emiInquiries).where(eq(emiInquiries.id, id));
  return row;
}

/** The banks of each inquiry, in display order. */
export async function banksOfInquiries(db: Db, inquiryIds: number[]): Promise<Map<number, BankRow[]>> {
  const out = new Map<number, BankRow[]>(inquiryIds.map((id) => [id, []]));
  if (inquiryIds.length === 0) return out;
  const rows = await db
    .select({ inquiryId: emiInquiryBanks.inquiryId, bank: emiBanks })
    .from(emiInquiryBanks)
    .innerJoin(emiBanks, eq(emiBanks.id, emiInquiryBanks.bankId))
    .where(inArray(emiInquiryBanks.inquiryId, inquiryIds))
    .orderBy(asc(emiBanks.displayOrder), asc(emiBanks.id));
  for (const r of rows) out.get(r.inquiryId)?.push(r.bank);
  return out;
}

export async function listInquiries(
  db: Db,
  filter: { status?: InquiryRow['status']; productId?: number; bankId?: number; search?: string },
  order: 'asc' | 'desc',
  page: PageWindow,
): Promise<{ rows: InquiryRow[]; count: number }> {
  const conditions: SQL[] = [];
  if (filter.status) conditions.push(eq(emiInquiries.status, filter.status));
  if (filter.productId) conditions.push(eq(emiInquiries.productId, filter.productId));
  if (filter.bankId) {
    conditions.push(
      sql`exists (select 1 from ${emiInquiryBanks} where ${emiInquiryBanks.inquiryId} = ${emiInquiries.id} and ${emiInquiryBanks.bankId} = ${filter.bankId})`,
    );
  }
  if (filter.search) {
    const term = containsPattern(filter.search);
    conditions.push(
      or(
        ilike(emiInquiries.customerName, term),
        ilike(emiInquiries.customerEmail, term),
        ilike(emiInquiries.customerMobile, term),
      )!,
    );
  }
  const where = conditions.length ? and(...conditions) : undefined;
  const dir = order === 'asc' ? asc : desc;
  const query = db
    .select()
    .from(emiInquiries)
    .where(where)
    .orderBy(dir(emiInquiries.createdAt), dir(emiInquiries.id))
    .offset(page.offset);
  const rows = page.limit === undefined ? await query : await query.limit(page.limit);
  const [total] = await db.select({ n: count() }).from(emiInquiries).where(where);
  return { rows, count: total?.n ?? 0 };
}

export async function setInquiryStatus(
  db: Db,
  id: number,
  values: { status: InquiryRow['status']; statusNote?: string; at: Date },
): Promise<InquiryRow | undefined> {
  const [row] = await db
    .update(emiInquiries)
    .set({
      status: values.status,
      ...(values.statusNote === undefined ? {} : { statusNote: values.statusNote }),
      updatedAt: values.at,
    })
    .where(eq(emiInquiries.id, id))
    .returning();
  return row;
}
