// Reviews and testimonials: the moderation queue of product reviews (pending first) and the
// testimonials the storefront shows. Screens load lazily: this area is its own chunk.
import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import type { ScreenArea } from '../../app/area';

export const reviewsArea: ScreenArea = {
  namespace: 'reviews',
  menu: [
    { labelKey: 'reviews:menu.reviews', path: '/reviews', permission: 'Reviews_READ' },
    { labelKey: 'reviews:menu.testimonials', path: '/reviews/testimonials', permission: 'Reviews_READ' },
  ],
  routes: (parent) => [
    createRoute({
      getParentRoute: () => parent,
      path: '/reviews',
      staticData: { permission: 'Reviews_READ' },
      component: lazyRouteComponent(() => import('./ReviewsScreen'), 'ReviewsScreen'),
    }),
    createRoute({
      getParentRoute: () => parent,
      path: '/reviews/testimonials',
      staticData: { permission: 'Reviews_READ' },
      component: lazyRouteComponent(() => import('./TestimonialsScreen'), 'TestimonialsScreen'),
    }),
  ],
};
