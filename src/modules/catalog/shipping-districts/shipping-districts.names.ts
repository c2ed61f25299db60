// Every district's name, served or not: reports that must list all of them (the POS analytics'
// district breakdown) read this, in alphabetical order.
import { asc } from 'drizzle-orm';
import type { Db } from '../../../platform/db/database';
import { shippingDistricts } from './shipping-districts.table';

export async function allShippingDistrictNames(db: Db): Promise<string[]> {
  const rows = await db
    .select({ name: shippingDistricts.name })
    .from(shippingDistricts)
    .orderBy(asc(shippingDistricts.name));
  return rows.map((r) => r.name);
}
