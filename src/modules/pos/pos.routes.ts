// The in-store counter, `/api/admin/pos`: every success is 200 (POST included, interface).
// The export route is declared before the list, as the interface asks (Fastify matches static
// segments first anyway). The EMI inquiry from the counter is the EMI module's.
import { z } from 'zod';
import { access } from '../../platform/auth/access';
import { currentUser } from '../../platform/http/access-hook';
import { envelopeSchema, listEnvelopeSchema, ok, okWithMeta } from '../../platform/http/envelope';
import { rateLimiter } from '../../platform/http/openapi';
import { cartErrors } from '../cart';
import { emiErrors, emiInquiryBody, emiInquiryView, submitEmiInquiry } from '../emi';
import { orderErrors } from '../orders';
import { posErrors } from './pos.errors';
import { posPermissions as perms } from './pos.permissions';
import * as s from './pos.schemas';
import type { PosDeps } from './pos.service';
import * as pos from './pos.service';

const pdfResponse = {
  description: 'The receipt, a PDF one 80 mm (226.77 pt) wide page as long as the sale, shown inline',
  content: { 'application/pdf': { schema: z.any().meta({ type: 'string', format: 'binary' }) } },
};

const exportResponse = {
  description:
    'JSON (default): the envelope with `data` the flat array of list items. CSV (`format=csv` or `Accept: text/csv`): a UTF-8 file with a byte-order mark, CRLF lines, RFC 4180 quoting',
  content: {
    'application/json': { schema: envelopeSchema(z.array(s.posListItem)) },
    'text/csv': { schema: z.any().meta({ type: 'string' }) },
  },
};

export function posRoutes(ctx: PosDeps) {
  const { app } = ctx;
  const tags = ['pos'];
  const base = '/api/admin/pos';

  // Per admin user (interface, Limits); after the access check, so it always knows the admin.
  const customerCreationLimit = rateLimiter(app, {
    max: pos.CUSTOMER_CREATIONS_PER_WINDOW,
    timeWindow: pos.CUSTOMER_CREATION_WINDOW_MS,
    skipOnError: true,
    keyGenerator: (request) =>
      `pos-customer-create:${request.principal?.actor === 'admin' ? request.principal.userId : request.ip}`,
  });

  app.get(
    `${base}/customers/lookup`,
    {
      config: { access: access.admin(perms.READ), operation: 'lookupPosCustomer' },
      schema: {
        tags,
        summary: 'Find a customer account by email; `data` is null when none matches',
        querystring: s.lookupQuery,
        response: { 200: envelopeSchema(s.posCustomer.nullable()) },
      },
    },
    async (request) => {
      const found = await pos.lookupCustomer(ctx, request.query.email);
      return ok(found, found ? 'Customer found' : 'No customer with this email');
    },
  );

  app.post(
    `${base}/customers`,
    {
      config: {
        access: access.admin(perms.CREATE),
        idempotency: 'required',
        errors: [posErrors.duplicateEmail(), posErrors.duplicatePhone()],
      },
      onRequest: customerCreationLimit,
      schema: {
        tags,
        summary:
          'Create a customer account at the counter (unverified, random password, password-reset email); 10 per hour per admin',
        body: s.createCustomerBody,
        response: { 200: envelopeSchema(s.posCustomer) },
      },
    },
    async (request) =>
      ok(await pos.createCustomer(ctx, currentUser(request).userId, request.body), 'Customer created'),
  );

  app.post(
    `${base}/orders`,
    {
      config: {
        access: access.admin(perms.CREATE),
        idempotency: 'required',
        errors: [
          posErrors.customerNotFound(),
          cartErrors.productNotFound(0),
          orderErrors.productNotAvailable(0),
          cartErrors.insufficientStock(0, 0),
        ],
      },
      schema: {
        tags,
        summary: 'Create an in-store order (payment_pending); Idempotency-Key required',
        body: s.createOrderBody,
        response: { 200: envelopeSchema(s.orderCreated) },
      },
    },
    async (request) =>
      ok(await pos.createOrder(ctx, currentUser(request).userId, request.body), 'Order created'),
  );

  app.post(
    `${base}/orders/:orderId/payment`,
    {
      config: {
        access: access.admin(perms.RECORD_PAYMENT),
        idempotency: 'required',
        operation: 'recordPosOrderPayment',
        errors: [
          posErrors.orderNotFound(),
          posErrors.notPosSale(),
          posErrors.notPaymentPending('', ''),
          posErrors.invalidGateway([]),
          posErrors.amountMismatch(0),
          posErrors.duplicateReference(),
        ],
      },
      schema: {
        tags,
        summary:
          'Record the counter payment: the order becomes paid, fulfilment received; Idempotency-Key required (its own key)',
        params: s.orderIdParams,
        body: s.recordPaymentBody,
        response: { 200: envelopeSchema(s.paymentRecorded) },
      },
    },
    async (request) =>
      ok(
        await pos.recordPayment(ctx, currentUser(request).userId, request.params.orderId, request.body),
        'Payment recorded',
      ),
  );

  app.post(
    `${base}/orders/:orderId/payment-failure`,
    {
      config: {
        access: access.admin(perms.UPDATE),
        idempotency: 'required',
        operation: 'recordPosOrderPaymentFailure',
        errors: [posErrors.orderNotFound(), posErrors.notPosSale()],
      },
      schema: {
        tags,
        summary: 'Note a failed payment attempt (the order stays payment_pending; retry allowed)',
        params: s.orderIdParams,
        body: s.paymentFailureBody,
        response: { 200: envelopeSchema(z.null()) },
      },
    },
    async (request) => {
      await pos.recordPaymentFailure(
        ctx,
        currentUser(request).userId,
        request.params.orderId,
        request.body.reason,
      );
      return ok(null, 'Payment failure noted');
    },
  );

  app.post(
    `${base}/orders/:orderId/pickup-confirm`,
    {
      config: {
        access: access.admin(perms.UPDATE),
        idempotency: 'required',
        operation: 'confirmPosOrderPickup',
        errors: [posErrors.orderNotFound(), posErrors.notPosSale(), posErrors.pickupNotInStore(null)],
      },
      schema: {
        tags,
        summary: 'The customer collected the order: fulfilment received or ready → picked_up',
        params: s.orderIdParams,
        response: { 200: envelopeSchema(s.pickupConfirmed) },
      },
    },
    async (request) =>
      ok(
        await pos.confirmPickup(ctx, currentUser(request).userId, request.params.orderId),
        'Pickup confirmed',
      ),
  );

  // The counter's EMI inquiry is the app's (same body, rules and answer), submitted by staff for
  // a walk-in customer; 200 like every POS success.
  app.post(
    `${base}/emi-inquiry`,
    {
      config: {
        access: access.admin(perms.CREATE),
        idempotency: 'required',
        errors: [emiErrors.disabled(), emiErrors.bankNotFound(), emiErrors.productNotFound()],
      },
      schema: {
        tags,
        summary: 'Send an EMI inquiry for a walk-in customer (the app inquiry, from the counter)',
        body: emiInquiryBody,
        response: { 200: envelopeSchema(emiInquiryView) },
      },
    },
    async (request) => ok(await submitEmiInquiry(ctx, request.body), 'EMI inquiry submitted'),
  );

  app.get(
    `${base}/orders/export`,
    {
      config: {
        access: access.admin(perms.READ),
        operation: 'exportPosOrders',
        errors: [posErrors.rangeTooLarge(0)],
      },
      schema: {
        tags,
        summary: 'Every POS order of a range of at most 90 days, newest first, as JSON or CSV',
        querystring: s.exportQuery,
        response: { 200: exportResponse },
      },
    },
    async (request, reply) => {
      const q = request.query;
      const csv =
        q.format === 'csv' || (q.format === undefined && /\btext\/csv\b/.test(request.headers.accept ?? ''));
      if (!csv) return ok(await pos.exportOrders(ctx, q), 'POS orders');
      const stream = pos.exportOrdersCsv(ctx, q);
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="pos-orders-${q.startDate}-to-${q.endDate}.csv"`)
        .header('cache-control', 'private, no-store')
        .send(stream);
    },
  );

  app.get(
    `${base}/orders`,
    {
      config: { access: access.admin(perms.READ) },
      schema: {
        tags,
        summary: 'POS orders, newest first, by page',
        querystring: s.listQuery,
        response: { 200: listEnvelopeSchema(s.posListItem) },
      },
    },
    async (request) => {
      const { data, meta } = await pos.listOrders(ctx, request.query);
      return okWithMeta(data, meta, 'POS orders');
    },
  );

  app.get(
    `${base}/orders/:orderId/receipt`,
    {
      config: {
        access: access.admin(perms.READ),
        errors: [posErrors.orderNotFound(), posErrors.notPosSale()],
      },
      schema: {
        tags,
        summary:
          'The sale as a receipt for an 80 mm thermal printer (PDF); with tax invoices on, a paid sale prints its tax invoice (original first, then numbered copies)',
        params: s.orderIdParams,
        response: { 200: pdfResponse },
      },
    },
    async (request, reply) => {
      const { fileName, pdf } = await pos.orderReceipt(
        ctx,
        request.params.orderId,
        currentUser(request).userId,
      );
      return reply
        .type('application/pdf')
        .header('content-disposition', `inline; filename="${fileName}"`)
        .header('cache-control', 'private, no-store')
        .send(pdf);
    },
  );

  app.get(
    `${base}/analytics`,
    {
      config: { access: access.admin(perms.READ) },
      schema: {
        tags,
        summary: 'Revenue of completed POS payments, per gateway and per district (every district listed)',
        querystring: s.analyticsQuery,
        response: { 200: envelopeSchema(s.posAnalytics) },
      },
    },
    async (request) => ok(await pos.analytics(ctx, request.query), 'POS analytics'),
  );
}
