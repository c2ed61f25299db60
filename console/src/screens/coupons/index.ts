// Coupons: codes shoppers type at checkout, with every rule the API has. Loads lazily.
import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import type { ScreenArea } from '../../app/area';

export const couponsArea: ScreenArea = {
  namespace: 'coupons',
  menu: [{ labelKey: 'coupons:menu.coupons', path: '/coupons', permission: 'Coupons_READ' }],
  routes: (parent) => [
    createRoute({
      getParentRoute: () => parent,
      path: '/coupons',
      staticData: { permission: 'Coupons_READ' },
      component: lazyRouteComponent(() => import('./CouponsScreen'), 'CouponsScreen'),
    }),
  ],
};
