import { AppError } from '../../platform/http/errors';

export const notificationErrors = {
  notFound: () => new AppError(404, 'NOTIFICATION_NOT_FOUND', 'Notification not found'),
};
