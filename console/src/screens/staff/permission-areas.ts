// How the role editor arranges the server's permission codes for people: each code's group (the
// part before the first `_`) belongs to one area of the back office, named in both languages in
// this folder's locales (`permissionAreas`, `permissionGroups`, `permissions`). Customers' codes
// are not staff's to give and are not shown. test/console/permission-names.test.ts checks that
// every code the server knows is placed and named here.

export type PermissionArea = 'sales' | 'catalog' | 'customers' | 'content' | 'staff' | 'apiOnly';

/** Areas in the order the editor shows them; `apiOnly` holds groups no console screen uses. */
export const PERMISSION_AREAS: ReadonlyArray<{ area: PermissionArea; groups: readonly string[] }> = [
  {
    area: 'sales',
    groups: [
      'Orders',
      'Pos',
      'Invoices',
      'Coupons',
      'CarePackageSubscriptions',
      'RepairRequests',
      'EmiInquiries',
      'EmiConfig',
      'EmiBanks',
    ],
  },
  {
    area: 'catalog',
    groups: [
      'Products',
      'Inventory',
      'Categories',
      'Brands',
      'Tags',
      'Seo',
      'ShippingDistricts',
      'CarePackages',
      'DigitalKeys',
      'Uploads',
    ],
  },
  { area: 'customers', groups: ['Customers', 'SupportInquiries', 'SupportRequests', 'Feedback', 'Reviews'] },
  { area: 'content', groups: ['Content'] },
  { area: 'staff', groups: ['AdminUsers', 'Roles', 'ActivityLogs', 'System', 'Webhooks'] },
  {
    area: 'apiOnly',
    groups: ['Banners', 'Placements', 'Campaigns', 'Assignments', 'TargetingRules', 'Blog', 'Cart'],
  },
];

/** The group of the codes customers hold (identity's `customerPermissions`): never offered to staff. */
export const CUSTOMER_PERMISSION_GROUP = 'Customer';

export interface PermissionGroup {
  module: string;
  codes: readonly string[];
}

/**
 * The catalog's groups by area, in the editor's order, without customers' codes. A group the
 * console does not know yet (a newer server) goes with `apiOnly`: it has no screen here either.
 */
export function arrangePermissions(
  catalog: readonly PermissionGroup[],
): Array<{ area: PermissionArea; groups: PermissionGroup[] }> {
  const byModule = new Map(catalog.map((g) => [g.module, g]));
  const placed = new Set(PERMISSION_AREAS.flatMap((a) => a.groups));
  const unknown = catalog.filter((g) => !placed.has(g.module) && g.module !== CUSTOMER_PERMISSION_GROUP);
  return PERMISSION_AREAS.map(({ area, groups }) => ({
    area,
    groups: [
      ...groups.flatMap((module) => {
        const group = byModule.get(module);
        return group ? [group] : [];
      }),
      ...(area === 'apiOnly' ? unknown : []),
    ],
  })).filter((a) => a.groups.length > 0);
}

/** "Orders_READ" → ["Orders", "READ"]; "DigitalKeys_SEND_DELIVERY" → ["DigitalKeys", "SEND_DELIVERY"]. */
export function splitCode(code: string): [group: string, action: string] {
  const cut = code.indexOf('_');
  return cut > 0 ? [code.slice(0, cut), code.slice(cut + 1)] : [code, code];
}
