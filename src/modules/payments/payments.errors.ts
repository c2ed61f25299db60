import { AppError } from '../../platform/http/errors';

export const paymentErrors = {
  returnUrlNotAllowed: () =>
    new AppError(
      400,
      'PAYMENT_RETURN_URL_NOT_ALLOWED',
      'The return URL is not one this store sends customers back to',
    ),
  notFound: () => new AppError(404, 'PAYMENT_NOT_FOUND', 'Payment not found'),
  /** Without a gateway: the order's payment could not be started (checkout). */
  gatewayUnavailable: (gateway?: string) =>
    new AppError(
      502,
      'PAYMENT_GATEWAY_UNAVAILABLE',
      gateway
        ? `Payment gateway ${gateway} is not available`
        : 'The payment gateway cannot be reached; try again',
    ),
  amountBelowMinimum: (gateway: string, minimum: number) =>
    new AppError(
      400,
      'PAYMENT_AMOUNT_BELOW_GATEWAY_MINIMUM',
      `Payment gateway ${gateway} takes no amount under ${minimum} NPR`,
    ),
  notPending: () => new AppError(409, 'PAYMENT_NOT_PENDING', 'This payment is no longer waiting to be paid'),
};
