// Rows to the API's shapes: the order list item (docs/decisions.md "Order list item"), the order
// detail (the customer's; the back office's extends it), an order item, an async request.
import { fulfillmentTimeline } from './fulfillment/fulfillment.rules';
import type { SubscriptionInfo } from './fulfillment/fulfillment.schemas';
import type { OrderItemRow, OrderRequestRow, OrderRow } from './orders.repository';
import type { AsyncRequestView, OrderDetail, OrderItemView, OrderListItem } from './orders.schemas';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function toListItem(order: OrderRow, items: OrderItemRow[]): OrderListItem {
  const thumbnails = [...new Set(items.map((i) => i.thumbnailUrl).filter((u): u is string => !!u))];
  return {
    id: order.id,
    orderNumber: order.orderNumber,
    orderType: order.orderType,
    orderStatus: order.status,
    paymentStatus: order.paymentStatus,
    paymentMethod: order.paymentMethod,
    fulfillmentStatus: order.fulfillmentStatus,
    finalPayable: order.finalPayable,
    itemCount: items.reduce((n, i) => n + i.quantity, 0),
    orderThumbnails: thumbnails.slice(0, 2),
    createdAt: order.createdAt.toISOString(),
    updatedAt: order.updatedAt.toISOString(),
  };
}

export function toDetail(
  order: OrderRow,
  items: OrderItemRow[],
  subscriptions: ReadonlyMap<number, SubscriptionInfo> = new Map(),
): OrderDetail {
  return {
    ...toListItem(order, items),
    orderThumbnails: [...new Set(items.map((i) => i.thumbnailUrl).filter((u): u is string => !!u))],
    orderSource: order.orderSource,
    gateway: order.gateway,
    totalMrp: order.totalMrp,
    totalSp: order.totalSp,
    couponCode: order.couponCode,
    couponDiscount: order.couponDiscount,
    shippingFee: order.shippingFee,
    carePackageTotal: order.carePackageTotal,
    shippingDistrict: order.shippingDistrict,
    shippingMobileNum: order.shippingMobileNum,
    shippingAddressLine1: order.shippingAddressLine1,
    shippingAddressLine2: order.shippingAddressLine2,
    shippingCity: order.shippingCity,
    shippingState: order.shippingState,
    shippingPostalCode: order.shippingPostalCode,
    shippingLandmark: order.shippingLandmark,
    shippingLatitude: order.shippingLatitude,
    shippingLongitude: order.shippingLongitude,
    receiver: order.receiver,
    contactNumber: order.contactNumber,
    fulfillmentTimeline: order.fulfillmentStatus
      ? fulfillmentTimeline(order.orderType, order.fulfillmentStatus)
      : fulfillmentTimeline(order.orderType, 'received').map((s) => ({
          ...s,
          completed: false,
          current: false,
        })),
    refundReason: order.refundReason,
    paidAt: iso(order.paidAt),
    cancelledAt: iso(order.cancelledAt),
    items: items.map((i) => toItemView(i, subscriptions.get(i.id) ?? null)),
  };
}

export function toItemView(i: OrderItemRow, subscriptionInfo: SubscriptionInfo | null = null): OrderItemView {
  return {
    id: i.id,
    productId: i.productId,
    productKind: i.productKind,
    quantity: i.quantity,
    unitMrp: i.unitMrp,
    unitSp: i.unitSp,
    discount: i.discount,
    finalValue: i.finalValue,
    thumbnailUrl: i.thumbnailUrl,
    productTitle: i.productTitle,
    productSlug: i.productSlug,
    serialNumber: i.serialNumber,
    carePackage:
      i.carePackageId !== null
        ? {
            carePackageId: i.carePackageId,
            pricingTierId: i.pricingTierId ?? 0,
            name: i.carePackageName ?? '',
            tierLabel: i.carePackageTierLabel ?? '',
            unitPrice: i.carePackageUnitPrice ?? 0,
          }
        : null,
    subscriptionInfo,
  };
}

export const toRequestView = (r: OrderRequestRow): AsyncRequestView => ({
  requestId: r.requestId,
  status: r.status,
  result: r.result ?? null,
  error: r.error,
  createdAt: r.createdAt.toISOString(),
  completedAt: r.completedAt?.toISOString() ?? null,
});
