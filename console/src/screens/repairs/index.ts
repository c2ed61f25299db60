// Repairs desk: the repair requests customers book (list by status, search by ticket, dates) and
// one request's page, where staff move it through the workshop's steps; the API tells the
// customer of each move. Screens load lazily: the area is its own chunk.
import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import type { ScreenArea } from '../../app/area';

export const repairsArea: ScreenArea = {
  namespace: 'repairs',
  menu: [{ labelKey: 'repairs:menu.repairs', path: '/repairs', permission: 'RepairRequests_READ' }],
  routes: (parent) => [
    createRoute({
      getParentRoute: () => parent,
      path: '/repairs',
      staticData: { permission: 'RepairRequests_READ' },
      component: lazyRouteComponent(() => import('./RepairsScreen'), 'RepairsScreen'),
    }),
    createRoute({
      getParentRoute: () => parent,
      path: '/repairs/$repairId',
      staticData: { permission: 'RepairRequests_READ' },
      component: lazyRouteComponent(() => import('./RepairScreen'), 'RepairScreen'),
    }),
  ],
};
