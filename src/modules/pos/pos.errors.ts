import { AppError } from '../../platform/http/errors';
import { analyticsErrors, orderErrors } from '../orders';

// The interface's POS codes (commerce, "In-store sales" and Errors), plus ORDER_NOT_FOUND and
// ORDER_DATE_RANGE_TOO_LARGE it names for these routes (the orders module's, imported). POS_PAYMENT_AMOUNT_MISMATCH and
// POS_PICKUP_NOT_IN_STORE's use for digital orders are ours (docs/api-notes.md, "In-store sales").
export const posErrors = {
  duplicateEmail: () => new AppError(409, 'POS_DUPLICATE_EMAIL', 'An account with this email exists already'),
  duplicatePhone: () =>
    new AppError(409, 'POS_DUPLICATE_PHONE', 'An account with this phone number exists already'),
  customerNotFound: () => new AppError(404, 'POS_CUSTOMER_NOT_FOUND', 'Customer not found'),
  orderNotFound: orderErrors.notFound,
  notPosSale: () => new AppError(400, 'POS_ORDER_NOT_POS_SALE', 'This order was not made at the counter'),
  notPaymentPending: (orderStatus: string, paymentStatus: string) =>
    new AppError(
      400,
      'POS_ORDER_NOT_PAYMENT_PENDING',
      'Only an in-store order awaiting its payment can take one',
      { orderStatus, paymentStatus },
    ),
  invalidGateway: (gateways: readonly string[]) =>
    new AppError(400, 'POS_INVALID_GATEWAY', `The gateway must be one of ${gateways.join(', ')}`, {
      gateways,
    }),
  amountMismatch: (expected: number) =>
    new AppError(
      400,
      'POS_PAYMENT_AMOUNT_MISMATCH',
      `The amount must be the order's total payable, ${expected} NPR`,
      { expected },
    ),
  duplicateReference: () =>
    new AppError(
      400,
      'POS_DUPLICATE_PAYMENT_REFERENCE',
      'A payment with this transaction reference was recorded already on this gateway',
    ),
  pickupNotInStore: (fulfillmentStatus: string | null, hint?: string) =>
    new AppError(
      400,
      'POS_PICKUP_NOT_IN_STORE',
      hint ?? 'The order is not waiting in the store (fulfilment must be received or ready)',
      { fulfillmentStatus },
    ),
  rangeTooLarge: (maxDays: number) => analyticsErrors.rangeTooLarge(maxDays, 'An export'),
};
