// In-app notifications: the customer app's inbox (`/api/mobile/notifications`) and each
// admin's back-office feed (`/api/admin/notifications`), newest first, with the unread count.
// Both inboxes have the same three routes; only the prefix, the actor and the method of
// read-all differ (the customer one predates the staff feed's decision).
import { access } from '../../platform/auth/access';
import { currentUser } from '../../platform/http/access-hook';
import { envelopeSchema, ok, okWithMeta } from '../../platform/http/envelope';
import { uuidIdParams } from '../../platform/http/params';
import type { ModuleContext } from '../../platform/module';
import { notificationErrors } from './notifications.errors';
import * as s from './notifications.schemas';
import * as notifications from './notifications.service';

interface Inbox {
  audience: notifications.Audience;
  prefix: string;
  whose: string;
  access: ReturnType<typeof access.customer>;
  readAllMethod: 'PATCH' | 'POST';
}

export function notificationsRoutes(ctx: ModuleContext) {
  const inboxes: Inbox[] = [
    {
      audience: 'customer',
      prefix: '/api/mobile/notifications',
      whose: "The customer's",
      access: access.customer(),
      readAllMethod: 'PATCH',
    },
    // Staff: any signed-in admin reads their own feed (docs/decisions.md, "Admin notifications").
    {
      audience: 'admin',
      prefix: '/api/admin/notifications',
      whose: "The admin's own",
      access: access.admin(),
      readAllMethod: 'POST',
    },
  ];
  for (const inbox of inboxes) inboxRoutes(ctx, inbox);
}

function inboxRoutes(ctx: ModuleContext, inbox: Inbox) {
  const { app } = ctx;
  const tags = ['notifications'];
  const config = { access: inbox.access };

  app.get(
    inbox.prefix,
    {
      config,
      schema: {
        tags,
        summary: `${inbox.whose} notifications, newest first, with the unread count`,
        querystring: s.notificationListQuery,
        response: { 200: s.notificationListEnvelope },
      },
    },
    async (request) => {
      const { notifications: list, meta } = await notifications.listNotifications(
        ctx.db,
        inbox.audience,
        currentUser(request).userId,
        request.query,
      );
      return okWithMeta(list, meta, 'Notifications');
    },
  );

  app.route({
    method: inbox.readAllMethod,
    url: `${inbox.prefix}/read-all`,
    config,
    schema: {
      tags,
      summary: `Mark every one of ${inbox.whose.toLowerCase()} notifications read`,
      response: { 200: envelopeSchema(s.readAllResult) },
    },
    handler: async (request) =>
      ok(
        await notifications.markAllNotificationsRead(ctx, inbox.audience, currentUser(request).userId),
        'Notifications read',
      ),
  });

  app.patch(
    `${inbox.prefix}/:id/read`,
    {
      config: { ...config, errors: [notificationErrors.notFound()] },
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
          inbox.audience,
          currentUser(request).userId,
          request.params.id,
        ),
        'Notification read',
      ),
  );
}
