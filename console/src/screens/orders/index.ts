// Orders: the list staff work from (every filter the API offers, kept in the address) and one
// order's page, where they move it through fulfilment, take COD cash, cancel, refund, note and
// print. Screens load lazily: nothing of them is in the chunk the sign-in screen loads.
import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import type { ScreenArea } from '../../app/area';

export const ordersArea: ScreenArea = {
  namespace: 'orders',
  menu: [{ labelKey: 'orders:menu.orders', path: '/orders', permission: 'Orders_READ' }],
  routes: (parent) => [
    createRoute({
      getParentRoute: () => parent,
      path: '/orders',
      staticData: { permission: 'Orders_READ' },
      component: lazyRouteComponent(() => import('./OrdersScreen'), 'OrdersScreen'),
    }),
    createRoute({
      getParentRoute: () => parent,
      path: '/orders/$orderId',
      staticData: { permission: 'Orders_READ' },
      component: lazyRouteComponent(() => import('./OrderScreen'), 'OrderScreen'),
    }),
  ],
};
