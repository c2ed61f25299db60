// The dashboard: the figures a store owner opens the back office for, gathered from the
// modules that own them, each only for an admin allowed to read its records.
import type { Config } from '../../config';
import type { Clock } from '../../platform/clock';
import type { Db } from '../../platform/db/database';
import { listLowStockProducts, productPermissions } from '../catalog';
import { orderDashboard, orderPermissions } from '../orders';
import { inquiryPermissions, requestPermissions, supportWorkload } from '../support';
import type { DashboardView } from './dashboard.schemas';

export interface DashboardDeps {
  db: Db;
  clock: Clock;
  config: Pick<Config, 'STORE_TIMEZONE' | 'CATALOG_LOW_STOCK_THRESHOLD'>;
}

/**
 * Each section is asked only when `permissions` holds its read permission, and is null
 * otherwise: the sections run side by side, a handful of aggregate queries in all.
 */
export async function getDashboard(
  deps: DashboardDeps,
  permissions: ReadonlySet<string>,
): Promise<DashboardView> {
  const may = (code: string) => permissions.has(code);
  const inquiries = may(inquiryPermissions.READ);
  const requests = may(requestPermissions.READ);
  const [orders, lowStock, support] = await Promise.all([
    may(orderPermissions.READ) ? orderDashboard(deps) : null,
    may(productPermissions.READ)
      ? listLowStockProducts(deps.db, deps.config.CATALOG_LOW_STOCK_THRESHOLD)
      : null,
    inquiries || requests ? supportWorkload(deps.db, { inquiries, requests }) : null,
  ]);
  return {
    timeZone: deps.config.STORE_TIMEZONE,
    today: orders?.today ?? null,
    last30Days: orders?.last30Days ?? null,
    lowStock,
    support,
  };
}
