import { z } from 'zod';
import { listQuery } from '../../platform/http/pagination';
import { intId } from '../../platform/http/params';
import { PAYMENT_GATEWAYS } from '../payments';
import { FULFILLMENT_STATUSES, ORDER_TYPES } from './fulfillment/fulfillment.rules';
import { subscriptionInfo } from './fulfillment/fulfillment.schemas';
import {
  ORDER_REQUEST_STATUSES,
  ORDER_SOURCES,
  ORDER_STATUSES,
  PAYMENT_METHODS,
  PAYMENT_STATUSES,
} from './orders.table';

// The gateways are the payments module's list: checkout accepts exactly what it can take.
export type { OnlineGateway, PaymentGatewayName as Gateway } from '../payments';

const returnUrl = z.url().max(2000);

/** Who a tax invoice names (optional, additive): a name, and a PAN of exactly 9 digits. */
export const buyerFields = {
  buyerName: z
    .string()
    .trim()
    .min(1)
    .max(100)
    .optional()
    .describe('The name the tax invoice gives the buyer'),
  buyerPan: z
    .string()
    .regex(/^\d{9}$/, 'must be exactly 9 digits')
    .optional()
    .describe("The buyer's PAN/VAT number for the tax invoice (exactly 9 digits)"),
};

export const checkoutBody = z.object({ gateway: z.enum(PAYMENT_GATEWAYS), returnUrl, ...buyerFields });
export type CheckoutBody = z.output<typeof checkoutBody>;

export const buyNowBody = z.object({
  productId: intId,
  gateway: z.enum(PAYMENT_GATEWAYS),
  returnUrl,
  promoCode: z.string().trim().min(1).max(64).optional(),
  ...buyerFields,
});
export type BuyNowBody = z.output<typeof buyNowBody>;

export const paymentInit = z.object({
  orderId: z.number().int(),
  status: z.literal('payment_pending'),
  paymentId: z.string(),
  gatewayTransactionId: z.string().nullable(),
  initiationType: z.enum(['none', 'redirect', 'form_post']),
  redirectUrl: z.string().nullable(),
  gatewayPayload: z.record(z.string(), z.unknown()),
});
export type PaymentInitView = z.infer<typeof paymentInit>;

export const orderItem = z.object({
  id: z.number().int(),
  productId: z.number().int(),
  productKind: z.string(),
  quantity: z.number().int(),
  unitMrp: z.number().int(),
  unitSp: z.number().int(),
  discount: z.number().int(),
  finalValue: z.number().int(),
  thumbnailUrl: z.string().nullable(),
  productTitle: z.string(),
  productSlug: z.string(),
  serialNumber: z.string().nullable(),
  carePackage: z
    .object({
      carePackageId: z.number().int(),
      pricingTierId: z.number().int(),
      name: z.string(),
      tierLabel: z.string(),
      unitPrice: z.number().int(),
    })
    .nullable(),
  subscriptionInfo: subscriptionInfo.nullable(),
});
export type OrderItemView = z.infer<typeof orderItem>;

const timelineStep = z.object({
  status: z.enum(FULFILLMENT_STATUSES),
  label: z.string(),
  completed: z.boolean(),
  current: z.boolean(),
});

export const orderListItem = z.object({
  id: z.number().int(),
  orderNumber: z.string(),
  orderType: z.enum(ORDER_TYPES),
  orderStatus: z.enum(ORDER_STATUSES),
  paymentStatus: z.enum(PAYMENT_STATUSES),
  paymentMethod: z.enum(PAYMENT_METHODS),
  fulfillmentStatus: z.enum(FULFILLMENT_STATUSES).nullable(),
  finalPayable: z.number().int(),
  itemCount: z.number().int(),
  orderThumbnails: z.array(z.string()),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});
export type OrderListItem = z.infer<typeof orderListItem>;

export const orderDetail = orderListItem.extend({
  orderSource: z.enum(ORDER_SOURCES),
  gateway: z.string(),
  totalMrp: z.number().int(),
  totalSp: z.number().int(),
  couponCode: z.string().nullable(),
  couponDiscount: z.number().int(),
  shippingFee: z.number().int(),
  carePackageTotal: z.number().int(),
  shippingDistrict: z.string().nullable(),
  shippingMobileNum: z.string().nullable(),
  shippingAddressLine1: z.string().nullable(),
  shippingAddressLine2: z.string().nullable(),
  shippingCity: z.string().nullable(),
  shippingState: z.string().nullable(),
  shippingPostalCode: z.string().nullable(),
  shippingLandmark: z.string().nullable(),
  shippingLatitude: z.number().nullable(),
  shippingLongitude: z.number().nullable(),
  receiver: z.string().nullable(),
  contactNumber: z.string().nullable(),
  fulfillmentTimeline: z.array(timelineStep),
  refundReason: z.string().nullable(),
  paidAt: z.iso.datetime().nullable(),
  cancelledAt: z.iso.datetime().nullable(),
  items: z.array(orderItem),
});
export type OrderDetail = z.infer<typeof orderDetail>;

export const orderListQuery = listQuery(['createdAt', 'updatedAt'] as const).extend({
  status: z.enum(ORDER_STATUSES).optional(),
  fulfillmentStatus: z.enum(FULFILLMENT_STATUSES).optional(),
});
export type OrderListQuery = z.output<typeof orderListQuery>;

export const asyncRequest = z.object({
  requestId: z.string(),
  status: z.enum(ORDER_REQUEST_STATUSES),
  result: z.record(z.string(), z.unknown()).nullable(),
  error: z.string().nullable(),
  createdAt: z.iso.datetime(),
  completedAt: z.iso.datetime().nullable(),
});
export type AsyncRequestView = z.infer<typeof asyncRequest>;

export const requestIdParams = z.object({ requestId: z.string().min(1).max(100) });

export const cancelBody = z.object({ reason: z.string().trim().min(1).max(1000).optional() }).nullish();
export const refundBody = z.object({
  reason: z.string().trim().min(1).max(1000),
  remarks: z.string().trim().max(2000).optional(),
});
export type RefundBody = z.output<typeof refundBody>;
