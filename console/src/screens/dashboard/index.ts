// The dashboard: the first screen after sign-in, for every admin. Its sections follow the
// admin's permissions on the API's side (a section the role may not see comes back null).
import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import type { ScreenArea } from '../../app/area';

export const dashboardArea: ScreenArea = {
  namespace: 'dashboard',
  menu: [{ labelKey: 'dashboard:menu.dashboard', path: '/', permission: null }],
  routes: (parent) => [
    createRoute({
      getParentRoute: () => parent,
      path: '/',
      staticData: { permission: null },
      component: lazyRouteComponent(() => import('./DashboardScreen'), 'DashboardScreen'),
    }),
  ],
};
