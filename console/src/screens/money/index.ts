// Money: the payments of every order (gateway, status, reference; the ones reconciliation should
// have settled by now flagged), the refunds queue with the order page's decide and settle
// actions, and the refunds late payments owe. Screens load lazily.
import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import type { ScreenArea } from '../../app/area';

export const moneyArea: ScreenArea = {
  namespace: 'money',
  menu: [
    { labelKey: 'money:menu.payments', path: '/money/payments', permission: 'Orders_READ' },
    { labelKey: 'money:menu.refunds', path: '/money/refunds', permission: 'Orders_READ' },
    { labelKey: 'money:menu.lateRefunds', path: '/money/late-refunds', permission: 'Orders_READ' },
  ],
  routes: (parent) => [
    createRoute({
      getParentRoute: () => parent,
      path: '/money/payments',
      staticData: { permission: 'Orders_READ' },
      component: lazyRouteComponent(() => import('./PaymentsScreen'), 'PaymentsScreen'),
    }),
    createRoute({
      getParentRoute: () => parent,
      path: '/money/refunds',
      staticData: { permission: 'Orders_READ' },
      component: lazyRouteComponent(() => import('./RefundsScreen'), 'RefundsScreen'),
    }),
    createRoute({
      getParentRoute: () => parent,
      path: '/money/late-refunds',
      staticData: { permission: 'Orders_READ' },
      component: lazyRouteComponent(() => import('./LateRefundsScreen'), 'LateRefundsScreen'),
    }),
  ],
};
