// Brands as other modules need them (a repair request names the brand of a device).
import { inArray } from 'drizzle-orm';
import type { Db } from '../../../platform/db/database';
import { brands } from './taxonomy.table';

export interface BrandRef {
  id: number;
  name: string;
  isActive: boolean;
}

/** Brands by id, active or not; unknown ids are missing from the map. */
export async function findBrands(db: Db, ids: number[]): Promise<Map<number, BrandRef>> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return new Map();
  const rows = await db
    .select({ id: brands.id, name: brands.name, isActive: brands.isActive })
    .from(brands)
    .where(inArray(brands.id, unique));
  return new Map(rows.map((b) => [b.id, b]));
}
