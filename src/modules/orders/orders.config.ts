// The orders' settings: cash on delivery, unpaid online orders, the caches of order reads, and the
// refund window. src/config.ts composes them with the others.
import { bool, int, setting } from '../../platform/settings';

export const orderSettings = {
  COD_REQUIRES_VERIFIED_PHONE: setting({
    doc: 'When true, a cash-on-delivery checkout or buy-now by a customer without a verified phone answers 400 `ORDER_PHONE_VERIFICATION_REQUIRED`.',
    schema: bool,
    default: 'false',
  }),
  ORDER_PAYMENT_TIMEOUT_MINUTES: setting({
    doc: 'An online order still `payment_pending` this many minutes after checkout is cancelled by `order.auto_cancel` and its stock released.',
    schema: int(1, 10_080),
    default: '30',
  }),
  ORDER_MAX_PENDING_ONLINE_PER_CUSTOMER: setting({
    doc: 'Online orders a customer may have waiting for payment at once; another online checkout or buy-now answers 409 `ORDER_TOO_MANY_PENDING_PAYMENTS` (0: no limit).',
    schema: int(0, 1000),
    default: '3',
  }),
  ORDER_HISTORY_CACHE_TTL_SECONDS: setting({
    doc: "A customer's order list and order details are kept this long in the cache (0: off); every change of one of the customer's orders clears them.",
    schema: int(0, 3600),
    default: '120',
  }),
  ORDER_ADMIN_CACHE_TTL_SECONDS: setting({
    doc: "The back office's order list and order details (`/api/admin/orders`) are kept this long in the cache (0: off); every change of an order clears them.",
    schema: int(0, 3600),
    default: '60',
  }),
  REFUND_WINDOW_DAYS: setting({
    doc: 'A paid order may ask for a refund before dispatch, or within this many days of delivery.',
    schema: int(0, 365),
    default: '7',
  }),
};
