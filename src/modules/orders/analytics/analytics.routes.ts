// The back office's order analytics (Orders_READ): totals with a series, and per district.
import { access } from '../../../platform/auth/access';
import { envelopeSchema, listEnvelopeSchema, ok, okWithMeta } from '../../../platform/http/envelope';
import type { ModuleContext } from '../../../platform/module';
import { orderPermissions } from '../orders.permissions';
import { analyticsErrors } from './analytics.errors';
import * as s from './analytics.schemas';
import * as analytics from './analytics.service';

export function analyticsRoutes(ctx: ModuleContext) {
  const { app } = ctx;
  const tags = ['orders'];
  const options = {
    config: { access: access.admin(orderPermissions.READ), errors: [analyticsErrors.rangeTooLarge(0)] },
  };

  app.get(
    '/api/admin/orders/analytics',
    {
      ...options,
      schema: {
        tags,
        summary:
          'Revenue and orders over a store-local date range (STORE_TIMEZONE), per day, week (from Sunday) or month',
        description:
          'Empty buckets are listed with zeros. Revenue counts orders whose payment is completed or cod_collected. A custom range longer than 366 days: 400 ORDER_DATE_RANGE_TOO_LARGE.',
        querystring: s.analyticsQuery,
        response: { 200: envelopeSchema(s.analyticsView) },
      },
    },
    async (request) => ok(await analytics.orderAnalytics(ctx, request.query), 'Order analytics'),
  );

  app.get(
    '/api/admin/orders/analytics/districts',
    {
      ...options,
      schema: {
        tags,
        summary:
          'Revenue and orders per shipping district over the same range (orders without one are left out)',
        querystring: s.analyticsQuery,
        response: { 200: envelopeSchema(s.districtAnalyticsView) },
      },
    },
    async (request) =>
      ok(await analytics.districtAnalytics(ctx, request.query), 'Order analytics by district'),
  );

  app.get(
    '/api/admin/orders/analytics/gateways',
    {
      ...options,
      schema: {
        tags,
        summary:
          'Orders, gross sales, refunds and net sales per payment gateway over the same range (bucket ignored)',
        description:
          "Gross sales count orders whose payment is completed or cod_collected; refunds are those pending or approved on those orders, at most each order's total.",
        querystring: s.analyticsQuery,
        response: { 200: envelopeSchema(s.gatewayAnalyticsView) },
      },
    },
    async (request) => ok(await analytics.gatewayAnalytics(ctx, request.query), 'Order analytics by gateway'),
  );

  app.get(
    '/api/admin/orders/analytics/products',
    {
      ...options,
      schema: {
        tags,
        summary:
          'Units and sales per product on the paid orders of the same range, most sales first, a page at a time',
        querystring: s.productAnalyticsQuery,
        response: { 200: listEnvelopeSchema(s.productAnalyticsItem) },
      },
    },
    async (request) => {
      const { data, meta } = await analytics.productAnalytics(ctx, request.query);
      return okWithMeta(data, meta, 'Order analytics by product');
    },
  );
}
