// Every query of tax documents. The trigger `tax_documents_locked` refuses any change but the
// print and sync bookkeeping, so the only UPDATEs here are those.
import { and, asc, count, desc, eq, gt, gte, ilike, lt, or, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/database';
import { containsPattern } from '../../platform/db/like';
import type { PageWindow } from '../../platform/http/pagination';
import { type SyncStatus, type TaxDocumentKind, taxDocuments, taxNumberSeries } from './invoices.table';

export type TaxDocumentRow = typeof taxDocuments.$inferSelect;
export type NewTaxDocument = typeof taxDocuments.$inferInsert;

/**
 * The next place in a series, allocated in the caller's transaction: the series row stays
 * locked until it commits, so concurrent issuers wait, and a rolled-back issue gives its
 * number back (no gaps, no repeats).
 */
export async function nextSequence(tx: Db, kind: TaxDocumentKind, fiscalYear: string): Promise<number> {
  const [row] = await tx
    .insert(taxNumberSeries)
    .values({ kind, fiscalYear, nextSequence: 2 })
    .onConflictDoUpdate({
      target: [taxNumberSeries.kind, taxNumberSeries.fiscalYear],
      set: { nextSequence: sql`${taxNumberSeries.nextSequence} + 1` },
    })
    .returning({ next: taxNumberSeries.nextSequence });
  return row!.next - 1;
}

export async function insertDocument(tx: Db, values: NewTaxDocument): Promise<TaxDocumentRow> {
  const [row] = await tx.insert(taxDocuments).values(values).returning();
  return row!;
}

export async function findByOrder(
  db: Db,
  kind: TaxDocumentKind,
  orderId: number,
): Promise<TaxDocumentRow | undefined> {
  const [row] = await db
    .select()
    .from(taxDocuments)
    .where(and(eq(taxDocuments.kind, kind), eq(taxDocuments.orderId, orderId)));
  return row;
}

export async function findDocument(
  db: Db,
  id: number,
  kind?: TaxDocumentKind,
): Promise<TaxDocumentRow | undefined> {
  const [row] = await db
    .select()
    .from(taxDocuments)
    .where(and(eq(taxDocuments.id, id), kind ? eq(taxDocuments.kind, kind) : undefined));
  return row;
}

export interface DocumentFilter {
  kind: TaxDocumentKind;
  fiscalYear?: string;
  from?: Date;
  /** Exclusive. */
  to?: Date;
  syncStatus?: SyncStatus;
  orderId?: number;
  search?: string;
}

function where(f: DocumentFilter): SQL | undefined {
  const pattern = f.search ? containsPattern(f.search) : undefined;
  return and(
    eq(taxDocuments.kind, f.kind),
    f.fiscalYear ? eq(taxDocuments.fiscalYear, f.fiscalYear) : undefined,
    f.from ? gte(taxDocuments.issuedAt, f.from) : undefined,
    f.to ? lt(taxDocuments.issuedAt, f.to) : undefined,
    f.syncStatus ? eq(taxDocuments.syncStatus, f.syncStatus) : undefined,
    f.orderId ? eq(taxDocuments.orderId, f.orderId) : undefined,
    pattern
      ? or(
          ilike(taxDocuments.number, pattern),
          ilike(taxDocuments.buyerName, pattern),
          ilike(taxDocuments.buyerPan, pattern),
        )
      : undefined,
  );
}

export async function listDocuments(
  db: Db,
  filter: DocumentFilter,
  order: 'asc' | 'desc',
  window: PageWindow,
): Promise<{ rows: TaxDocumentRow[]; count: number }> {
  const by = order === 'asc' ? asc : desc;
  const query = db
    .select()
    .from(taxDocuments)
    .where(where(filter))
    .orderBy(by(taxDocuments.issuedAt), by(taxDocuments.id))
    .offset(window.offset);
  const rows = await (window.limit === undefined ? query : query.limit(window.limit));
  const [total] = await db.select({ n: count() }).from(taxDocuments).where(where(filter));
  return { rows, count: total?.n ?? 0 };
}

/**
 * One page of a register (one fiscal year, so one series), in series order: the documents
 * after place `afterSequence`. Keyset paging, so a long register never rescans what it sent.
 */
export function registerBatch(
  db: Db,
  filter: DocumentFilter & { fiscalYear: string },
  afterSequence: number,
  limit: number,
): Promise<TaxDocumentRow[]> {
  return db
    .select()
    .from(taxDocuments)
    .where(and(where(filter), gt(taxDocuments.sequence, afterSequence)))
    .orderBy(asc(taxDocuments.sequence))
    .limit(limit);
}

/** One more rendering: returns the document with its new print count. */
export async function countPrint(tx: Db, id: number, at: Date): Promise<TaxDocumentRow | undefined> {
  const [row] = await tx
    .update(taxDocuments)
    .set({ printCount: sql`${taxDocuments.printCount} + 1`, lastPrintedAt: at })
    .where(eq(taxDocuments.id, id))
    .returning();
  return row;
}

export async function recordSync(
  db: Db,
  id: number,
  values: { syncStatus: SyncStatus; lastSyncReply: string | null; at: Date; attempted: boolean },
): Promise<void> {
  await db
    .update(taxDocuments)
    .set({
      syncStatus: values.syncStatus,
      lastSyncReply: values.lastSyncReply,
      lastSyncAt: values.at,
      ...(values.attempted ? { syncAttempts: sql`${taxDocuments.syncAttempts} + 1` } : {}),
    })
    .where(eq(taxDocuments.id, id));
}
