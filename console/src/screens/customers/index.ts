// Customers: the store's customer accounts, searchable, and each customer's page with their
// orders, inquiries and tickets.
import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import type { ScreenArea } from '../../app/area';

export const customersArea: ScreenArea = {
  namespace: 'customers',
  menu: [{ labelKey: 'customers:menu.customers', path: '/customers', permission: 'Customers_READ' }],
  routes: (parent) => [
    createRoute({
      getParentRoute: () => parent,
      path: '/customers',
      staticData: { permission: 'Customers_READ' },
      component: lazyRouteComponent(() => import('./CustomersScreen'), 'CustomersScreen'),
    }),
    createRoute({
      getParentRoute: () => parent,
      path: '/customers/$customerId',
      staticData: { permission: 'Customers_READ' },
      component: lazyRouteComponent(() => import('./CustomerScreen'), 'CustomerScreen'),
    }),
  ],
};
