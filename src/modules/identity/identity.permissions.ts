import type { PermissionGroup } from '../../platform/module';

/**
 * The codes customers hold: the built-in `customer` role carries this default set (seeded by
 * a migration, editable through the roles routes). The commerce interface checks
 * ORDERS_REORDER on reorder.
 */
export const customerPermissions: PermissionGroup = { module: 'Customer', codes: ['ORDERS_REORDER'] };
