// Notifications: what the store tells a customer (a ticket reply, an order update). Each one
// is kept as an in-app notification the app lists, and pushed to the customer's devices.
// Other modules notify through a `Notifier` they create in their register with
// `createNotifier(ctx)`: it needs the push port, and a port is handed over, never global.
import type { PasalModule } from '../../platform/module';
import { notificationsRoutes } from './notifications.routes';

export type { CustomerNotice, Notifier } from './notifications.service';
export { createNotifier } from './notifications.service';

export const notificationsModule: PasalModule = {
  name: 'notifications',
  register(ctx) {
    notificationsRoutes(ctx);
  },
};
