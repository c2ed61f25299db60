// Every query of the repairs module.
import { and, asc, count, desc, eq, ilike, inArray, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/database';
import { containsPattern } from '../../platform/db/like';
import type { PageWindow } from '../../platform/http/pagination';
import type { RepairStatus } from './repairs.rules';
import { repairRequestDevices, repairRequestStatusHistory, repairRequests } from './repairs.table';

export type RepairRow = typeof repairRequests.$inferSelect;
export type NewRepair = typeof repairRequests.$inferInsert;
export type DeviceRow = typeof repairRequestDevices.$inferSelect;
export type NewDevice = Omit<typeof repairRequestDevices.$inferInsert, 'repairRequestId'>;
export type HistoryRow = typeof repairRequestStatusHistory.$inferSelect;

/** Inserts unless the ticket number is taken (then undefined: the caller draws another). */
export async function insertRepair(db: Db, values: NewRepair): Promise<RepairRow | undefined> {
  const [row] = await db
    .insert(repairRequests)
    .values(values)
    .onConflictDoNothing({ target: repairRequests.ticketNumber })
    .returning();
  return row;
}

export async function insertDevices(db: Db, repairRequestId: number, devices: NewDevice[]): Promise<void> {
  await db.insert(repairRequestDevices).values(devices.map((d) => ({ ...d, repairRequestId })));
}

export async function findByPublicId(db: Db, publicId: string): Promise<RepairRow | undefined> {
  const [row] = await db.select().from(repairRequests).where(eq(repairRequests.publicId, publicId));
  return row;
}

export async function findById(db: Db, id: number): Promise<RepairRow | undefined> {
  const [row] = await db.select().from(repairRequests).where(eq(repairRequests.id, id));
  return row;
}

/** The request locked for the rest of the transaction (status moves are decided under it). */
export async function lockById(db: Db, id: number): Promise<RepairRow | undefined> {
  const [row] = await db.select().from(repairRequests).where(eq(repairRequests.id, id)).for('update');
  return row;
}

export async function updateRepair(db: Db, id: number, values: Partial<NewRepair>): Promise<RepairRow> {
  const [row] = await db.update(repairRequests).set(values).where(eq(repairRequests.id, id)).returning();
  return row!;
}

/** Cancels only while the request is still `request_received` (one conditional UPDATE). */
export async function cancelIfReceived(db: Db, id: number, at: Date): Promise<RepairRow | undefined> {
  const [row] = await db
    .update(repairRequests)
    .set({ status: 'cancelled', updatedAt: at })
    .where(and(eq(repairRequests.id, id), eq(repairRequests.status, 'request_received')))
    .returning();
  return row;
}

export async function insertHistory(db: Db, values: typeof repairRequestStatusHistory.$inferInsert) {
  await db.insert(repairRequestStatusHistory).values(values);
}

export async function devicesOf(db: Db, requestIds: number[]): Promise<Map<number, DeviceRow[]>> {
  const out = new Map<number, DeviceRow[]>(requestIds.map((id) => [id, []]));
  if (requestIds.length === 0) return out;
  const rows = await db
    .select()
    .from(repairRequestDevices)
    .where(inArray(repairRequestDevices.repairRequestId, requestIds))
    .orderBy(asc(repairRequestDevices.id));
  for (const r of rows) out.get(r.repairRequestId)?.push(r);
  return out;
}

export function historyOf(db: Db, requestId: number): Promise<HistoryRow[]> {
  return db
    .select()
    .from(repairRequestStatusHistory)
    .where(eq(repairRequestStatusHistory.repairRequestId, requestId))
    .orderBy(asc(repairRequestStatusHistory.id));
}

export interface RepairFilter {
  customerId?: string;
  status?: RepairStatus;
  /** Store-local days, inclusive, in `timeZone`. */
  dateFrom?: string;
  dateTo?: string;
  timeZone: string;
  search?: string;
}

export async function listRepairs(
  db: Db,
  filter: RepairFilter,
  sort: { by: 'createdAt' | 'updatedAt'; order: 'asc' | 'desc' },
  page: PageWindow,
): Promise<{ rows: RepairRow[]; count: number }> {
  const c: SQL[] = [];
  if (filter.customerId) c.push(eq(repairRequests.customerId, filter.customerId));
  if (filter.status) c.push(eq(repairRequests.status, filter.status));
  if (filter.dateFrom) {
    c.push(
      sql`${repairRequests.createdAt} >= ((${filter.dateFrom}::date)::timestamp at time zone ${filter.timeZone})`,
    );
  }
  if (filter.dateTo) {
    c.push(
      sql`${repairRequests.createdAt} < ((${filter.dateTo}::date + 1)::timestamp at time zone ${filter.timeZone})`,
    );
  }
  if (filter.search) {
    c.push(ilike(repairRequests.ticketNumber, containsPattern(filter.search)));
  }
  const where = c.length ? and(...c) : undefined;
  const dir = sort.order === 'asc' ? asc : desc;
  const column = sort.by === 'updatedAt' ? repairRequests.updatedAt : repairRequests.createdAt;
  const query = db
    .select()
    .from(repairRequests)
    .where(where)
    .orderBy(dir(column), dir(repairRequests.id))
    .offset(page.offset);
  const rows = page.limit === undefined ? await query : await query.limit(page.limit);
  const [total] = await db.select({ n: count() }).from(repairRequests).where(where);
  return { rows, count: total?.n ?? 0 };
}
