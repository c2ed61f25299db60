// Content pages: the storefront's fixed pages (home, about, FAQ, legal, product landing pages,
// footer) and their sections. Loads lazily.
import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import type { ScreenArea } from '../../app/area';

export const contentArea: ScreenArea = {
  namespace: 'content',
  menu: [{ labelKey: 'content:menu.pages', path: '/content', permission: 'Content_READ' }],
  routes: (parent) => [
    createRoute({
      getParentRoute: () => parent,
      path: '/content',
      staticData: { permission: 'Content_READ' },
      component: lazyRouteComponent(() => import('./ContentPagesScreen'), 'ContentPagesScreen'),
    }),
    createRoute({
      getParentRoute: () => parent,
      path: '/content/$pageKey',
      staticData: { permission: 'Content_READ' },
      component: lazyRouteComponent(() => import('./ContentPageScreen'), 'ContentPageScreen'),
    }),
  ],
};
