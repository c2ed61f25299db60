// The counter (POS): the till screen a cashier rings up an in-store sale on (scan, customer,
// delivery or pickup, payment, receipt), and the counter's sales: the day's list, the CSV
// export and the takings by gateway and district. Screens load lazily, each area its own chunk.
import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import type { ScreenArea } from '../../app/area';

export const counterArea: ScreenArea = {
  namespace: 'counter',
  menu: [
    { labelKey: 'counter:menu.counter', path: '/counter', permission: 'Pos_CREATE' },
    { labelKey: 'counter:menu.sales', path: '/counter/sales', permission: 'Pos_READ' },
  ],
  routes: (parent) => [
    createRoute({
      getParentRoute: () => parent,
      path: '/counter',
      staticData: { permission: 'Pos_CREATE' },
      component: lazyRouteComponent(() => import('./CounterScreen'), 'CounterScreen'),
    }),
    createRoute({
      getParentRoute: () => parent,
      path: '/counter/sales',
      staticData: { permission: 'Pos_READ' },
      component: lazyRouteComponent(() => import('./CounterSalesScreen'), 'CounterSalesScreen'),
    }),
  ],
};
