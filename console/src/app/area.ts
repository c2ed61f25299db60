// What a screen area (a folder under src/screens/) gives the console: its menu entries, its
// routes, and its strings (the namespace named like the folder, in locales/en.json and
// locales/ne.json). console/README.md, "Adding a screen area", shows one end to end.
import type { AnyRoute } from '@tanstack/react-router';
import type { PermissionCode } from '../session/session';

export interface MenuEntry {
  /** i18next key of the label, with its namespace: `orders:menu.orders`. */
  labelKey: string;
  /** Where it leads, under /admin: `/orders`. */
  path: string;
  /** The code the admin must hold to see the entry; null for every admin. */
  permission: PermissionCode | null;
}

export interface ScreenArea {
  /** The folder's name, which is also its i18next namespace: `orders`. */
  namespace: string;
  menu: MenuEntry[];
  /**
   * The area's routes under the signed-in layout (`parent`). Load screens with
   * `lazyRouteComponent(() => import('./OrdersScreen'), 'OrdersScreen')` so each area is its own
   * chunk, and give each route `staticData: { permission }`: the layout shows a "not allowed"
   * panel instead of a screen whose permission the admin lacks (typed URL, stale bookmark).
   */
  routes(parent: AnyRoute): AnyRoute[];
}

declare module '@tanstack/router-core' {
  interface StaticDataRouteOption {
    /** The permission a route's screen needs; null or absent for every signed-in admin. */
    permission?: PermissionCode | null;
  }
}
