// EMI (instalments): the shop's offer (on or off, the periods), its partner banks, and the
// inquiries customers (and the counter) send. Screens load lazily: the area is its own chunk.
import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import type { ScreenArea } from '../../app/area';

export const emiArea: ScreenArea = {
  namespace: 'emi',
  menu: [
    { labelKey: 'emi:menu.inquiries', path: '/emi/inquiries', permission: 'EmiInquiries_READ' },
    { labelKey: 'emi:menu.settings', path: '/emi/settings', permission: 'EmiConfig_READ' },
  ],
  routes: (parent) => [
    createRoute({
      getParentRoute: () => parent,
      path: '/emi/inquiries',
      staticData: { permission: 'EmiInquiries_READ' },
      component: lazyRouteComponent(() => import('./EmiInquiriesScreen'), 'EmiInquiriesScreen'),
    }),
    createRoute({
      getParentRoute: () => parent,
      path: '/emi/settings',
      staticData: { permission: 'EmiConfig_READ' },
      component: lazyRouteComponent(() => import('./EmiSettingsScreen'), 'EmiSettingsScreen'),
    }),
  ],
};
