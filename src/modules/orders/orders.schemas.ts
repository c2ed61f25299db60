import { z } from 'zod';
import { listQuery } from '../../platform/http/pagination';
import { FULFILLMENT_STATUSES, ORDER_TYPES } from './fulfillment/fulfillment.rules';
import { subscriptionInfo } from './fulfillment/fulfillment.schemas';
import {
  ORDER_REQUEST_STATUSES,
  ORDER_SOURCES,
  ORDER_STATUSES,
  PAYMENT_METHODS,
  PAYMENT_STATUSES,
} from './orders.table';

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
