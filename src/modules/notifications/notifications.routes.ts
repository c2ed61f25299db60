// In-app notifications: the customer app's inbox (`/api/mobile/notifications`) and each
// admin's back-office feed (`/api/admin/notifications`), newest first, with the unread count.
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
        'customer',
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
        await notifications.markAllNotificationsRead(ctx, 'customer', currentUser(request).userId),
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
        await notifications.markNotificationRead(
          ctx,
          'customer',
          currentUser(request).userId,
          request.params.id,
        ),
        'Notification read',
      ),
  );

  // Staff: any signed-in admin reads their own feed (decisions.md, "Admin notifications").
  app.get(
    '/api/admin/notifications',
    {
      config: { access: access.admin() },
      schema: {
        tags,
        summary: "The admin's own notifications, newest first, with the unread count",
        querystring: s.notificationListQuery,
        response: { 200: s.notificationListEnvelope },
      },
    },
    async (request) => {
      const { notifications: list, meta } = await notifications.listNotifications(
        ctx.db,
        'admin',
        currentUser(request).userId,
        request.query,
      );
      return okWithMeta(list, meta, 'Notifications');
    },
  );

  app.post(
    '/api/admin/notifications/read-all',
    {
      config: { access: access.admin() },
      schema: {
        tags,
        summary: "Mark every one of the admin's notifications read",
        response: { 200: envelopeSchema(s.readAllResult) },
      },
    },
    async (request) =>
      ok(
        await notifications.markAllNotificationsRead(ctx, 'admin', currentUser(request).userId),
        'Notifications read',
      ),
  );

  app.patch(
    '/api/admin/notifications/:id/read',
    {
      config: { access: access.admin() },
      schema: {
        tags,
        summary: "Mark one of the admin's notifications read (again: unchanged)",
        params: uuidIdParams,
        response: { 200: envelopeSchema(s.notification) },
      },
    },
    async (request) =>
      ok(
        await notifications.markNotificationRead(
          ctx,
          'admin',
          currentUser(request).userId,
          request.params.id,
        ),
        'Notification read',
      ),
  );
}
