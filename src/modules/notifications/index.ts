// Notifications: what the store tells people. Customers get an in-app inbox that is also
// pushed to their devices (a ticket reply, an order update); staff get a back-office feed that
// is also sent to their open sockets (a late payment to refund). Other modules notify through
// a `Notifier` they create in their register with `createNotifier(ctx)`: it needs the push and
// realtime ports, and a port is handed over, never global.
import type { PasalModule } from '../../platform/module';
import { notificationsRoutes } from './notifications.routes';
import { adminNotificationRoom } from './notifications.service';

export type { AdminNotice, CustomerNotice, Notifier } from './notifications.service';
export { ADMIN_NOTIFICATION_EVENT, createNotifier } from './notifications.service';

export const notificationsModule: PasalModule = {
  name: 'notifications',
  tags: {
    notifications: 'In-app notifications of admins and customers.',
  },
  register(ctx) {
    notificationsRoutes(ctx);
    // Each admin socket hears that admin's new notifications (`admin.notification`).
    ctx.realtime.onConnection(async (socket) => {
      const p = socket.data.principal;
      if (p.actor === 'admin') await socket.join(adminNotificationRoom(p.userId));
    });
  },
};
