import { AppError } from '../../platform/http/errors';

export const webhookErrors = {
  notFound: () => new AppError(404, 'WEBHOOK_NOT_FOUND', 'Webhook endpoint not found'),
  deliveryNotFound: () =>
    new AppError(404, 'WEBHOOK_DELIVERY_NOT_FOUND', 'Webhook delivery not found for this endpoint'),
  urlNotAllowed: (reason: string) =>
    new AppError(
      400,
      'WEBHOOK_URL_NOT_ALLOWED',
      'The webhook URL points at a loopback, private, link-local, unique-local or unspecified address',
      { reason },
    ),
};
