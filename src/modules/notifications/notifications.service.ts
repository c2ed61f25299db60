import type { Clock } from '../../platform/clock';
import type { Db } from '../../platform/db/database';
import type { AfterCommit } from '../../platform/db/transaction';
import type { Outgoing } from '../../platform/delivery/delivery';
import { pageMeta, pageWindow } from '../../platform/http/pagination';
import { newUuid } from '../../platform/ids';
import type { PushMessage } from '../../platform/push/push';
import type { Realtime } from '../../platform/realtime/realtime';
import { activeAdminIdsWithPermission, livePushTokens } from '../identity';
import { notificationErrors } from './notifications.errors';
import * as repo from './notifications.repository';
import type { Notification, NotificationListQuery } from './notifications.schemas';
import { adminNotifications, customerNotifications, type NotificationRow } from './notifications.table';

/** Whose inbox: the customer app's, or the back office's feed of one admin. */
export type Audience = 'customer' | 'admin';
const inbox = { customer: customerNotifications, admin: adminNotifications } as const;

/** The realtime event that carries a new staff notification to that admin's sockets. */
export const ADMIN_NOTIFICATION_EVENT = 'admin.notification';
/** Every socket of an admin joins this room at connection. */
export const adminNotificationRoom = (adminId: string): `admin-notifications:${string}` =>
  `admin-notifications:${adminId}`;

declare module '../../platform/realtime/realtime' {
  interface RealtimeRooms {
    /** One admin's sockets: their in-app notifications, live. */
    'admin-notifications': `admin-notifications:${string}`;
  }
  interface RealtimeEvents {
    'admin.notification': Notification;
  }
}

export interface CustomerNotice {
  customerId: string;
  /** What happened, e.g. `support.request_reply`; the app picks its screen from it. */
  type: string;
  title: string;
  body: string;
  /** Ids the app needs to open the right screen (e.g. `{ supportRequestId }`). */
  data?: Record<string, unknown>;
}

export interface AdminNotice {
  /** Every active admin whose role grants this permission is told (superadmins always). */
  permission: string;
  /** What happened, e.g. `payment.late_payment`; the back office picks its screen from it. */
  type: string;
  title: string;
  body: string;
  data?: Record<string, unknown>;
}

export interface Notifier {
  /**
   * Call INSIDE the caller's transaction: writes the in-app notification there, and after
   * commit queues one push per device the customer is signed in on.
   */
  notifyCustomer(tx: Db, afterCommit: AfterCommit, n: CustomerNotice): Promise<void>;
  /**
   * Call INSIDE the caller's transaction: one notification for each admin who holds
   * `n.permission`, sent after commit to their open back-office sockets. Returns how many.
   */
  notifyAdmins(tx: Db, afterCommit: AfterCommit, n: AdminNotice): Promise<number>;
}

export function createNotifier(deps: {
  /** Read after commit (the devices to push to), outside the caller's transaction. */
  db: Db;
  push: Outgoing<PushMessage>;
  clock: Clock;
  realtime: Pick<Realtime, 'emitToRoom'>;
}): Notifier {
  return {
    async notifyCustomer(tx, afterCommit, n) {
      const now = deps.clock.now();
      const row = {
        id: newUuid(),
        recipientId: n.customerId,
        type: n.type,
        title: n.title,
        body: n.body,
        data: n.data ?? {},
        createdAt: now,
      };
      await repo.insertCustomerNotification(tx, row);
      afterCommit(async () => {
        // The devices are looked up once the notification is committed, so the caller's
        // transaction (often holding stock or order locks) does not wait for this read.
        const tokens = await livePushTokens(deps.db, n.customerId, now);
        const data = { ...row.data, type: row.type, notificationId: row.id };
        for (const to of tokens) await deps.push.send({ to, title: row.title, body: row.body, data });
      });
    },

    async notifyAdmins(tx, afterCommit, n) {
      const now = deps.clock.now();
      const adminIds = await activeAdminIdsWithPermission(tx, n.permission);
      const rows = await repo.insertNotifications(
        tx,
        adminNotifications,
        adminIds.map((recipientId) => ({
          id: newUuid(),
          recipientId,
          type: n.type,
          title: n.title,
          body: n.body,
          data: n.data ?? {},
          createdAt: now,
        })),
      );
      afterCommit(() => {
        for (const row of rows) {
          deps.realtime.emitToRoom(
            adminNotificationRoom(row.recipientId),
            ADMIN_NOTIFICATION_EVENT,
            toNotification(row),
          );
        }
      });
      return rows.length;
    },
  };
}

export function toNotification(row: NotificationRow): Notification {
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

export async function listNotifications(
  db: Db,
  audience: Audience,
  recipientId: string,
  q: NotificationListQuery,
) {
  const { rows, count, unreadCount } = await repo.listNotifications(
    db,
    inbox[audience],
    recipientId,
    pageWindow(q),
    q.order,
  );
  return { notifications: rows.map(toNotification), meta: { ...pageMeta(q, count), unreadCount } };
}

export async function markNotificationRead(
  deps: { db: Db; clock: Clock },
  audience: Audience,
  recipientId: string,
  id: string,
): Promise<Notification> {
  const row = await repo.markRead(deps.db, inbox[audience], recipientId, id, deps.clock.now());
  // Someone else's notification is "not found" too: its existence is not theirs to learn.
  if (!row) throw notificationErrors.notFound();
  return toNotification(row);
}

export async function markAllNotificationsRead(
  deps: { db: Db; clock: Clock },
  audience: Audience,
  recipientId: string,
) {
  return { updated: await repo.markAllRead(deps.db, inbox[audience], recipientId, deps.clock.now()) };
}
