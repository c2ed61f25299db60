import { z } from 'zod';
import { paginationQuery } from '../../platform/http/pagination';

/** `order` is by creation time: `desc` (newest first) unless asked otherwise. */
export const notificationListQuery = paginationQuery;
export type NotificationListQuery = z.output<typeof notificationListQuery>;

export const notification = z
  .object({
    id: z.uuid(),
    type: z.string(),
    title: z.string(),
    body: z.string(),
    data: z.record(z.string(), z.unknown()),
    isRead: z.boolean(),
    readAt: z.iso.datetime().nullable(),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: 'Notification' });
export type Notification = z.infer<typeof notification>;

export const notificationListEnvelope = z.object({
  message: z.string(),
  data: z.array(notification),
  meta: z.object({
    count: z.number().int(),
    page: z.number().int().optional(),
    size: z.number().int().optional(),
    unreadCount: z.number().int().describe('Unread notifications of the customer, whatever the page'),
  }),
});

export const readAllResult = z.object({
  updated: z.number().int().describe('Notifications marked read now'),
});
