// Where the store ships and what it charges: Nepal's 77 districts are seeded inactive with fee 0;
// the store turns on the ones it serves. The cart reads fees through `findShippingDistrict`.
import type { UserPrincipal } from '../../../platform/auth/principal';
import type { Cache } from '../../../platform/cache/cache';
import type { Db } from '../../../platform/db/database';
import { inTransaction } from '../../../platform/db/transaction';
import { type PageMeta, pageMeta, pageWindow } from '../../../platform/http/pagination';
import type { ModuleContext } from '../../../platform/module';
import { recordActivity } from '../../activity';
import { copiedDistrict, forgetDistricts } from './shipping-districts.copy';
import { shippingDistrictErrors } from './shipping-districts.errors';
import * as repo from './shipping-districts.repository';
import type {
  PublicShippingDistrictView,
  ShippingDistrictListQuery,
  ShippingDistrictView,
  UpdateShippingDistrictBody,
} from './shipping-districts.schemas';

/** Without a cache (the demo seed's), a change drops this process's copy only. */
type Deps = Pick<ModuleContext, 'db' | 'clock'> & { cache?: Cache };

const toView = (row: repo.ShippingDistrictRow): ShippingDistrictView => ({
  id: row.id,
  name: row.name,
  province: row.province,
  shippingFee: row.shippingFee,
  isActive: row.isActive,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

export async function listShippingDistricts(
  deps: Deps,
  query: ShippingDistrictListQuery,
): Promise<{ districts: ShippingDistrictView[]; meta: PageMeta }> {
  const { rows, count } = await repo.listDistricts(deps.db, query, pageWindow(query));
  return { districts: rows.map(toView), meta: pageMeta(query, count) };
}

export async function getShippingDistrict(deps: Deps, id: number): Promise<ShippingDistrictView> {
  const row = await repo.findDistrictById(deps.db, id);
  if (!row) throw shippingDistrictErrors.notFound(id);
  return toView(row);
}

export async function updateShippingDistrict(
  deps: Deps,
  actor: UserPrincipal,
  id: number,
  body: UpdateShippingDistrictBody,
): Promise<ShippingDistrictView> {
  const now = deps.clock.now();
  return inTransaction(deps.db, async (tx, afterCommit) => {
    const before = await repo.findDistrictById(tx, id);
    if (!before) throw shippingDistrictErrors.notFound(id);
    const row = (await repo.updateDistrict(tx, id, { ...body, updatedAt: now }))!;
    const changes = [
      body.shippingFee !== undefined ? `fee ${before.shippingFee} → ${row.shippingFee} NPR` : undefined,
      body.isActive !== undefined ? (row.isActive ? 'active' : 'inactive') : undefined,
    ].filter(Boolean);
    await recordActivity(tx, {
      adminId: actor.userId,
      action: 'update',
      entityType: 'shipping_district',
      entityId: id,
      summary: `Updated shipping district ${row.name}: ${changes.join(', ')}`,
      at: now,
    });
    afterCommit(() => forgetDistricts(deps.db, deps.cache));
    return toView(row);
  });
}

export async function listActiveShippingDistricts(
  deps: Pick<Deps, 'db'>,
): Promise<PublicShippingDistrictView[]> {
  const rows = await repo.listActiveDistricts(deps.db);
  return rows.map((r) => ({ id: r.id, name: r.name, province: r.province, shippingFee: r.shippingFee }));
}

/**
 * A district by id or by name (case-insensitive), active or not: the caller decides what inactive
 * means. From this process's copy where one is kept (shipping-districts.copy.ts).
 */
export async function findShippingDistrict(
  db: Db,
  by: { id: number } | { name: string },
): Promise<ShippingDistrictView | null> {
  let row = await copiedDistrict(db, by);
  if (row === null) {
    row = 'id' in by ? await repo.findDistrictById(db, by.id) : await repo.findDistrictByName(db, by.name);
  }
  return row ? toView(row) : null;
}
