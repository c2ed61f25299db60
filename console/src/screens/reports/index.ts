// Reports: sales by day and by shipping district over a range, as tables and a chart, each
// exported as CSV; and the system information superadmins use to see that jobs are running.
import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import type { ScreenArea } from '../../app/area';

export const reportsArea: ScreenArea = {
  namespace: 'reports',
  menu: [
    { labelKey: 'reports:menu.sales', path: '/reports/sales', permission: 'Orders_READ' },
    { labelKey: 'reports:menu.system', path: '/reports/system', permission: 'System_READ' },
  ],
  routes: (parent) => [
    createRoute({
      getParentRoute: () => parent,
      path: '/reports/sales',
      staticData: { permission: 'Orders_READ' },
      component: lazyRouteComponent(() => import('./SalesReportScreen'), 'SalesReportScreen'),
    }),
    createRoute({
      getParentRoute: () => parent,
      path: '/reports/system',
      staticData: { permission: 'System_READ' },
      component: lazyRouteComponent(() => import('./SystemScreen'), 'SystemScreen'),
    }),
  ],
};
