import { AppError } from '../../../platform/http/errors';

// Codes of fulfilment (docs/api-notes.md, "Fulfilment"). The interface fixes
// ORDER_ACTIVATE_CARE_PACKAGE_NOT_APPLICABLE; docs/decisions.md "Fulfilment route"
// ORDER_FULFILLMENT_INVALID_TRANSITION and ORDER_FULFILLMENT_CLOSED. The others name the
// interface's unnamed 400 and 409 cases.
export const fulfillmentErrors = {
  invalidTransition: (from: string | null, to: string, hint?: string) =>
    new AppError(
      400,
      'ORDER_FULFILLMENT_INVALID_TRANSITION',
      `Fulfilment cannot move from ${from ?? 'not started'} to ${to}${hint ? `: ${hint}` : ''}`,
      { fromStatus: from, toStatus: to },
    ),
  closed: (why: string) =>
    new AppError(409, 'ORDER_FULFILLMENT_CLOSED', `Fulfilment of this order is closed (${why})`),
  notDigital: () =>
    new AppError(
      400,
      'ORDER_DIGITAL_DELIVERY_NOT_APPLICABLE',
      'Only a digital or mixed order has digital items to deliver',
    ),
  notPaid: () => new AppError(400, 'ORDER_NOT_PAID', 'The order is not paid'),
  keysUnavailable: (productId: number, needed: number, available: number) =>
    new AppError(
      409,
      'ORDER_DIGITAL_KEYS_UNAVAILABLE',
      `Product ${productId} has ${available} available key(s); ${needed} needed. Add keys and try again`,
      { productId, needed, available },
    ),
  carePackageNotApplicable: () =>
    new AppError(
      400,
      'ORDER_ACTIVATE_CARE_PACKAGE_NOT_APPLICABLE',
      'Only a care_package order is activated with this action',
    ),
  noPendingSubscriptions: () =>
    new AppError(400, 'ORDER_NO_PENDING_SUBSCRIPTIONS', 'The order has no pending care-package subscription'),
};
