// Settings: how the store connects to other systems. Webhooks: endpoints that are told what
// happened (signed Standard Webhooks messages), their health, secrets and delivery log.
import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import type { ScreenArea } from '../../app/area';

export const settingsArea: ScreenArea = {
  namespace: 'settings',
  menu: [{ labelKey: 'settings:menu.webhooks', path: '/settings/webhooks', permission: 'Webhooks_READ' }],
  routes: (parent) => [
    createRoute({
      getParentRoute: () => parent,
      path: '/settings/webhooks',
      staticData: { permission: 'Webhooks_READ' },
      component: lazyRouteComponent(() => import('./WebhooksScreen'), 'WebhooksScreen'),
    }),
    createRoute({
      getParentRoute: () => parent,
      path: '/settings/webhooks/$webhookId',
      staticData: { permission: 'Webhooks_READ' },
      component: lazyRouteComponent(() => import('./WebhookScreen'), 'WebhookScreen'),
    }),
  ],
};
