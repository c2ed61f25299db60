// Staff: the back office's admin accounts, the roles that say what each may do (their
// permission codes), and the activity log of what admins did.
import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import type { ScreenArea } from '../../app/area';

export const staffArea: ScreenArea = {
  namespace: 'staff',
  menu: [
    { labelKey: 'staff:menu.staff', path: '/staff', permission: 'AdminUsers_READ' },
    { labelKey: 'staff:menu.roles', path: '/roles', permission: 'Roles_READ' },
    { labelKey: 'staff:menu.activity', path: '/activity', permission: 'ActivityLogs_READ' },
  ],
  routes: (parent) => [
    createRoute({
      getParentRoute: () => parent,
      path: '/staff',
      staticData: { permission: 'AdminUsers_READ' },
      component: lazyRouteComponent(() => import('./StaffScreen'), 'StaffScreen'),
    }),
    createRoute({
      getParentRoute: () => parent,
      path: '/roles',
      staticData: { permission: 'Roles_READ' },
      component: lazyRouteComponent(() => import('./RolesScreen'), 'RolesScreen'),
    }),
    createRoute({
      getParentRoute: () => parent,
      path: '/activity',
      staticData: { permission: 'ActivityLogs_READ' },
      component: lazyRouteComponent(() => import('./ActivityScreen'), 'ActivityScreen'),
    }),
  ],
};
