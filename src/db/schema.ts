// Every module's tables, for drizzle-kit (migrations) and nothing else.
export * from '../modules/activity/activity.table';
export * from '../modules/banners/banners.table';
export * from '../modules/blog/blog.table';
export * from '../modules/cart/carts/carts.table';
export * from '../modules/cart/coupons/coupons.table';
export * from '../modules/catalog/care-packages/care-packages.table';
export * from '../modules/catalog/digital-keys/digital-keys.table';
export * from '../modules/catalog/products/products.table';
export * from '../modules/catalog/seo/seo.table';
export * from '../modules/catalog/shipping-districts/shipping-districts.table';
export * from '../modules/catalog/stock/stock.table';
export * from '../modules/catalog/taxonomy/taxonomy.table';
export * from '../modules/content/content.table';
export * from '../modules/emi/emi.table';
export * from '../modules/idempotency/idempotency.table';
export * from '../modules/identity/identity.table';
export * from '../modules/invoices/invoices.table';
export * from '../modules/notifications/notifications.table';
export * from '../modules/orders/orders.table';

// Only the table: the status and method enums share names with the orders' own.
export { payments } from '../modules/payments/payments.table';
export * from '../modules/repairs/repairs.table';
export * from '../modules/reviews/product-reviews/product-reviews.table';
export * from '../modules/reviews/testimonials/testimonials.table';
export * from '../modules/support/feedback/feedback.table';
export * from '../modules/support/inquiries/inquiries.table';
export * from '../modules/support/realtime/support-events.table';
export * from '../modules/support/requests/requests.table';
export * from '../modules/system/system.table';
export * from '../modules/uploads/uploads.table';
export * from '../modules/webhooks/webhooks.table';
