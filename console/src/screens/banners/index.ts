// Banners and campaigns: the storefront's banner slots (placements) with their size rules, the
// banners (image, link, schedule), campaigns that put banners in placements for the visitors
// their targeting rules describe, and their impressions and clicks by day. Loads lazily; the
// performance chart is a chunk of its own.
import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import type { ScreenArea } from '../../app/area';

export const bannersArea: ScreenArea = {
  namespace: 'banners',
  menu: [
    { labelKey: 'banners:menu.banners', path: '/banners', permission: 'Banners_READ' },
    { labelKey: 'banners:menu.campaigns', path: '/banners/campaigns', permission: 'Campaigns_READ' },
    { labelKey: 'banners:menu.placements', path: '/banners/placements', permission: 'Placements_READ' },
    { labelKey: 'banners:menu.performance', path: '/banners/performance', permission: 'Campaigns_READ' },
  ],
  routes: (parent) => [
    createRoute({
      getParentRoute: () => parent,
      path: '/banners',
      staticData: { permission: 'Banners_READ' },
      component: lazyRouteComponent(() => import('./BannersScreen'), 'BannersScreen'),
    }),
    createRoute({
      getParentRoute: () => parent,
      path: '/banners/placements',
      staticData: { permission: 'Placements_READ' },
      component: lazyRouteComponent(() => import('./PlacementsScreen'), 'PlacementsScreen'),
    }),
    createRoute({
      getParentRoute: () => parent,
      path: '/banners/campaigns',
      staticData: { permission: 'Campaigns_READ' },
      component: lazyRouteComponent(() => import('./CampaignsScreen'), 'CampaignsScreen'),
    }),
    createRoute({
      getParentRoute: () => parent,
      path: '/banners/campaigns/$publicId',
      staticData: { permission: 'Campaigns_READ' },
      component: lazyRouteComponent(() => import('./CampaignScreen'), 'CampaignScreen'),
    }),
    createRoute({
      getParentRoute: () => parent,
      path: '/banners/performance',
      staticData: { permission: 'Campaigns_READ' },
      component: lazyRouteComponent(() => import('./PerformanceScreen'), 'PerformanceScreen'),
    }),
  ],
};
