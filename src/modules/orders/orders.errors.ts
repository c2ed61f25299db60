import { AppError } from '../../platform/http/errors';
import { paymentErrors } from '../payments';

// Codes of orders (docs/api-notes.md, "Orders"). The interface fixes ORDER_NOT_FOUND,
// ORDER_ACCESS_DENIED, ORDER_SHIPPING_DISTRICT_REQUIRED, ORDER_PRODUCT_NOT_AVAILABLE;
// docs/decisions.md "Checkout, payments, orders" and "Phone verification" ORDER_REFUND_NOT_ALLOWED,
// ORDER_REQUEST_NOT_FOUND, ORDER_PHONE_VERIFICATION_REQUIRED,
// PAYMENT_RETURN_URL_NOT_ALLOWED, PAYMENT_GATEWAY_UNAVAILABLE, and for the back office
// ORDER_NOT_COD_PENDING, ORDER_ITEM_NOT_PHYSICAL, ORDER_ITEM_NOT_FOUND; "Money paths, tightened"
// ORDER_TOO_MANY_PENDING_PAYMENTS and the refund's `digital_keys_delivered`. ORDER_CART_EMPTY is ours.
export const orderErrors = {
  notFound: () => new AppError(404, 'ORDER_NOT_FOUND', 'Order not found'),
  accessDenied: () => new AppError(403, 'ORDER_ACCESS_DENIED', 'This order belongs to another customer'),
  requestNotFound: () => new AppError(404, 'ORDER_REQUEST_NOT_FOUND', 'Order request not found'),
  shippingDistrictRequired: () =>
    new AppError(
      400,
      'ORDER_SHIPPING_DISTRICT_REQUIRED',
      'Physical items need a shipping district: set the cart location first',
    ),
  cartEmpty: () => new AppError(400, 'ORDER_CART_EMPTY', 'The cart is empty'),
  productNotAvailable: (productId: number) =>
    new AppError(400, 'ORDER_PRODUCT_NOT_AVAILABLE', `Product ${productId} is no longer on sale`, {
      productId,
    }),
  phoneVerificationRequired: () =>
    new AppError(400, 'ORDER_PHONE_VERIFICATION_REQUIRED', 'Cash on delivery needs a verified phone number'),
  returnUrlNotAllowed: paymentErrors.returnUrlNotAllowed,
  gatewayUnavailable: () => paymentErrors.gatewayUnavailable(),
  notCodPending: () =>
    new AppError(
      400,
      'ORDER_NOT_COD_PENDING',
      'Only a cash-on-delivery order awaiting its cash can be collected',
    ),
  itemNotFound: () => new AppError(404, 'ORDER_ITEM_NOT_FOUND', 'Order item not found'),
  itemNotPhysical: () =>
    new AppError(400, 'ORDER_ITEM_NOT_PHYSICAL', 'Serial numbers are kept for physical items only'),
  refundNotAllowed: (reason?: 'digital_keys_delivered') =>
    new AppError(
      400,
      'ORDER_REFUND_NOT_ALLOWED',
      reason === 'digital_keys_delivered'
        ? 'The licence keys of this order have been delivered; a refund needs them revoked'
        : 'A refund cannot be requested for this order',
      reason ? { reason } : undefined,
    ),
  refundNotFound: () => new AppError(404, 'ORDER_REFUND_NOT_FOUND', 'No such refund of this order'),
  refundNotOwed: (status: string) =>
    new AppError(
      400,
      'ORDER_REFUND_NOT_OWED',
      `Only a refund owed to the customer (pending or approved) can be settled; this one is ${status}`,
      { status },
    ),
  tooManyPendingPayments: (limit: number) =>
    new AppError(
      409,
      'ORDER_TOO_MANY_PENDING_PAYMENTS',
      `You have ${limit} online orders waiting for payment; pay or cancel one first`,
      { limit },
    ),
};
