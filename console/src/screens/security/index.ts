// Security: the signed-in admin's own two-factor sign-in and signed-in devices. Every admin
// may open it (no permission); with STAFF_2FA_REQUIRED it is the only page until 2FA is on.
import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import type { ScreenArea } from '../../app/area';

export const SECURITY_PATH = '/security';

export const securityArea: ScreenArea = {
  namespace: 'security',
  menu: [{ labelKey: 'security:menu.security', path: SECURITY_PATH, permission: null }],
  routes: (parent) => [
    createRoute({
      getParentRoute: () => parent,
      path: SECURITY_PATH,
      staticData: { permission: null },
      component: lazyRouteComponent(() => import('./SecurityScreen'), 'SecurityScreen'),
    }),
  ],
};
