import { and, asc, count, eq, ilike, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Db } from '../../../platform/db/database';
import { preparedPerDb } from '../../../platform/db/prepared';
import type { PageWindow } from '../../../platform/http/pagination';
import { containsPattern, orderBy, paged } from '../catalog.repository';
import type { ShippingDistrictListQuery } from './shipping-districts.schemas';
import { shippingDistricts } from './shipping-districts.table';

export type ShippingDistrictRow = typeof shippingDistricts.$inferSelect;

const sortColumns: Record<ShippingDistrictListQuery['sort'], AnyPgColumn> = {
  name: shippingDistricts.name,
  province: shippingDistricts.province,
  shippingFee: shippingDistricts.shippingFee,
  updatedAt: shippingDistricts.updatedAt,
};

export async function listDistricts(
  db: Db,
  query: ShippingDistrictListQuery,
  page: PageWindow,
): Promise<{ rows: ShippingDistrictRow[]; count: number }> {
  const where = and(
    query.search ? ilike(shippingDistricts.name, containsPattern(query.search)) : undefined,
    query.province ? eq(shippingDistricts.province, query.province) : undefined,
    query.isActive === undefined ? undefined : eq(shippingDistricts.isActive, query.isActive),
  );
  const rows = await paged(
    db
      .select()
      .from(shippingDistricts)
      .where(where)
      .orderBy(...orderBy(sortColumns[query.sort], query.order, shippingDistricts.id))
      .$dynamic(),
    page,
  );
  const [total] = await db.select({ n: count() }).from(shippingDistricts).where(where);
  return { rows, count: total?.n ?? 0 };
}

export async function listActiveDistricts(db: Db): Promise<ShippingDistrictRow[]> {
  return db
    .select()
    .from(shippingDistricts)
    .where(eq(shippingDistricts.isActive, true))
    .orderBy(asc(shippingDistricts.name));
}

/** Every district, active or not: each process's copy (shipping-districts.copy.ts). */
export async function listAllDistricts(db: Db): Promise<ShippingDistrictRow[]> {
  return db.select().from(shippingDistricts).orderBy(asc(shippingDistricts.id));
}

export async function findDistrictById(db: Db, id: number): Promise<ShippingDistrictRow | undefined> {
  const [row] = await db.select().from(shippingDistricts).where(eq(shippingDistricts.id, id));
  return row;
}

// Every cart change and checkout prices the cart's district: prepared (platform/db/prepared.ts).
const districtByNameQuery = preparedPerDb((db) =>
  db
    .select()
    .from(shippingDistricts)
    .where(sql`lower(${shippingDistricts.name}) = lower(${sql.placeholder('name')}::text)`)
    .prepare('shipping_district_by_name'),
);

/** Case-insensitive and trimmed: clients send the name a customer picked or typed. */
export async function findDistrictByName(db: Db, name: string): Promise<ShippingDistrictRow | undefined> {
  const [row] = await districtByNameQuery(db).execute({ name: name.trim() });
  return row;
}

export async function updateDistrict(
  db: Db,
  id: number,
  values: { shippingFee?: number; isActive?: boolean; updatedAt: Date },
): Promise<ShippingDistrictRow | undefined> {
  const [row] = await db
    .update(shippingDistricts)
    .set(values)
    .where(eq(shippingDistricts.id, id))
    .returning();
  return row;
}

/**
 * Every district's name, served or not, in alphabetical order: reports that must list all of
 * them (the POS analytics' district breakdown) read this.
 */
export async function allShippingDistrictNames(db: Db): Promise<string[]> {
  const rows = await db
    .select({ name: shippingDistricts.name })
    .from(shippingDistricts)
    .orderBy(asc(shippingDistricts.name));
  return rows.map((r) => r.name);
}
