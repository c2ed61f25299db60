import type { Clock } from '../../platform/clock';
import type { Db } from '../../platform/db/database';
import type { AfterCommit } from '../../platform/db/transaction';
import type { Outgoing } from '../../platform/delivery/delivery';
import { pageMeta, pageWindow } from '../../platform/http/pagination';
import { newUuid } from '../../platform/ids';
import type { PushMessage } from '../../platform/push/push';
import { livePushTokens } from '../identity';
import { notificationErrors } from './notifications.errors';
import * as repo from './notifications.repository';
import type { Notification, NotificationListQuery } from './notifications.schemas';
import type { CustomerNotificationRow } from './notifications.table';

export interface CustomerNotice {
  customerId: string;
  /** What happened, e.g. `support.request_reply`; the app picks its screen from it. */
  type: string;
  title: string;
  body: string;
  /** Ids the app needs to open the right screen (e.g. `{ supportRequestId }`). */
  data?: Record<string, unknown>;
}

export interface Notifier {
  /**
   * Call INSIDE the caller's transaction: writes the in-app notification there, and after
   * commit queues one push per signed-in device of the customer.
   */
  notifyCustomer(tx: Db, afterCommit: AfterCommit, n: CustomerNotice): Promise<void>;
}

export function createNotifier(deps: { push: Outgoing<PushMessage>; clock: Clock }): Notifier {
  return {
    async notifyCustomer(tx, afterCommit, n) {
      const now = deps.clock.now();
      const row = await repo.insertNotification(tx, {
        id: newUuid(),
        customerId: n.customerId,
        type: n.type,
        title: n.title,
        body: n.body,
        data: n.data ?? {},
        createdAt: now,
      });
      const tokens = await livePushTokens(tx, n.customerId, now);
      afterCommit(async () => {
        const data = { ...row.data, type: row.type, notificationId: row.id };
        for (const to of tokens) await deps.push.send({ to, title: row.title, body: row.body, data });
      });
    },
  };
}

export function toNotification(row: CustomerNotificationRow): Notification {
  return {
    id: row.id,
    type: row.type,
    title: row.title,
    body: row.body,
    data: row.data,
    isRead: row.readAt !== null,
    readAt: row.readAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
  };
}

export async function listNotifications(db: Db, customerId: string, q: NotificationListQuery) {
  const { rows, count, unreadCount } = await repo.listNotifications(db, customerId, pageWindow(q), q.order);
  return { notifications: rows.map(toNotification), meta: { ...pageMeta(q, count), unreadCount } };
}

export async function markNotificationRead(
  deps: { db: Db; clock: Clock },
  customerId: string,
  id: string,
): Promise<Notification> {
  const row = await repo.markRead(deps.db, customerId, id, deps.clock.now());
  // Another customer's notification is "not found" too: its existence is not theirs to learn.
  if (!row) throw notificationErrors.notFound();
  return toNotification(row);
}

export async function markAllNotificationsRead(deps: { db: Db; clock: Clock }, customerId: string) {
  return { updated: await repo.markAllRead(deps.db, customerId, deps.clock.now()) };
}
