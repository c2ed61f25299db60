// The role editor names permissions for people (issue 27, item 6): every code the server knows
// is placed in an area of the back office and named in English and Nepali, and customers' codes
// are never offered to staff.
import { describe, expect, it } from 'vitest';
import en from '../../console/src/screens/staff/locales/en.json';
import ne from '../../console/src/screens/staff/locales/ne.json';
import {
  arrangePermissions,
  CUSTOMER_PERMISSION_GROUP,
  PERMISSION_AREAS,
  splitCode,
} from '../../console/src/screens/staff/permission-areas';
import { permissionCatalog } from '../../src/app';
import { customerPermissions } from '../../src/modules/identity/identity.permissions';

const staffGroups = permissionCatalog.filter((g) => g.module !== CUSTOMER_PERMISSION_GROUP);

describe('permission names', () => {
  it("the console's customer group is the server's", () => {
    expect(customerPermissions.module).toBe(CUSTOMER_PERMISSION_GROUP);
  });

  it('places every staff group in exactly one area', () => {
    const placed = PERMISSION_AREAS.flatMap((a) => a.groups);
    expect(new Set(placed).size).toBe(placed.length);
    expect(staffGroups.map((g) => g.module).filter((m) => !placed.includes(m))).toEqual([]);
  });

  it.each([
    ['en', en],
    ['ne', ne],
  ] as const)('names every code, group, action and area in %s', (_language, strings) => {
    const names = strings.permissions as Record<string, string>;
    const groups = strings.permissionGroups as Record<string, string>;
    const actions = strings.permissionActions as Record<string, string>;
    const areas = strings.permissionAreas as Record<string, string>;
    for (const group of staffGroups) {
      expect(groups[group.module], group.module).toBeTruthy();
      for (const code of group.codes) {
        expect(names[code], code).toBeTruthy();
        expect(names[code]).not.toContain('_');
        expect(actions[splitCode(code)[1]], code).toBeTruthy();
      }
    }
    for (const { area } of PERMISSION_AREAS) expect(areas[area], area).toBeTruthy();
    // Each name says which permission it is: no two codes read the same.
    const all = staffGroups.flatMap((g) => g.codes.map((c) => names[c]));
    expect(new Set(all).size).toBe(all.length);
  });

  it('arranges the catalog without the customer group, unknown groups with the API-only area', () => {
    const arranged = arrangePermissions([
      ...permissionCatalog,
      { module: 'Loyalty', codes: ['Loyalty_READ'] },
    ]);
    const modules = arranged.flatMap((a) => a.groups.map((g) => g.module));
    expect(modules).not.toContain(CUSTOMER_PERMISSION_GROUP);
    expect(arranged.at(-1)).toMatchObject({ area: 'apiOnly' });
    expect(arranged.at(-1)!.groups.at(-1)!.module).toBe('Loyalty');
    expect(arranged[0]).toMatchObject({ area: 'sales' });
    expect(arranged[0]!.groups[0]!.module).toBe('Orders');
  });
});
