// The customer's in-app notifications: the app's inbox, newest first, with the unread count.
import { access } from '../../platform/auth/access';
import { currentUser } from '../../platform/http/access-hook';
import { envelopeSchema, ok, okWithMeta } from '../../platform/http/envelope';
import { uuidIdParams } from '../../platform/http/params';
import type { ModuleContext } from '../../platform/module';
import * as s from './notifications.schemas';
import * as notifications from './notifications.service';

export function notificationsRoutes(ctx: ModuleContext) {
  const { app } = ctx;
  const tags = ['notifications'];

  app.get(
    '/api/mobile/notifications',
    {
      config: { access: access.customer() },
      schema: {
        tags,
        summary: "The customer's notifications, newest first, with the unread count",
        querystring: s.notificationListQuery,
        response: { 200: s.notificationListEnvelope },
      },
    },
    async (request) => {
      const { notifications: list, meta } = await notifications.listNotifications(
        ctx.db,
        currentUser(request).userId,
        request.query,
      );
      return okWithMeta(list, meta, 'Notifications');
    },
  );

  app.patch(
    '/api/mobile/notifications/read-all',
    {
      config: { access: access.customer() },
      schema: {
        tags,
        summary: "Mark every one of the customer's notifications read",
        response: { 200: envelopeSchema(s.readAllResult) },
      },
    },
    async (request) =>
      ok(
        await notifications.markAllNotificationsRead(ctx, currentUser(request).userId),
        'Notifications read',
      ),
  );

  app.patch(
    '/api/mobile/notifications/:id/read',
    {
      config: { access: access.customer() },
      schema: {
        tags,
        summary: 'Mark one notification read (again: unchanged)',
        params: uuidIdParams,
        response: { 200: envelopeSchema(s.notification) },
      },
    },
    async (request) =>
      ok(
        await notifications.markNotificationRead(ctx, currentUser(request).userId, request.params.id),
        'Notification read',
      ),
  );
}
