// Support inquiry routes: the storefront/app side (customer JWT or `si_` guest token) and
// the back office side (SupportInquiries_READ / _UPDATE).
import { z } from 'zod';
import { access } from '../../../platform/auth/access';
import { currentUser } from '../../../platform/http/access-hook';
import { envelopeSchema, listEnvelopeSchema, ok, okWithMeta } from '../../../platform/http/envelope';
import { intIdParams } from '../../../platform/http/params';
import type { ApiApp } from '../../../platform/module';
import { inquiryPermissions } from '../support.permissions';
import { assignBody, messageBody } from '../support.schemas';
import type { SupportDeps } from '../support.service';
import { INQUIRY_TOKEN_PREFIX } from './inquiries.access';
import { inquiryErrors } from './inquiries.errors';
import * as s from './inquiries.schemas';
import * as inquiries from './inquiries.service';

/** Per-IP throttles of docs/decisions.md "Throttle" (Support). */
export const INQUIRY_THROTTLES = {
  create: { max: 10, timeWindow: 3_600_000 },
  message: { max: 30, timeWindow: 60_000 },
  identify: { max: 10, timeWindow: 60_000 },
  verifyRequest: { max: 5, timeWindow: 15 * 60_000 },
  verifyConfirm: { max: 10, timeWindow: 15 * 60_000 },
};

export function inquiryRoutes(app: ApiApp, deps: SupportDeps) {
  const tags = ['support inquiries'];
  const visitor = access.customerOrGuest(INQUIRY_TOKEN_PREFIX, inquiryErrors.tokenInvalid);
  const detail = { 200: envelopeSchema(s.visitorInquiryDetail) };

  app.post(
    '/api/support-inquiries',
    {
      config: { access: access.optionalCustomer(), rateLimit: INQUIRY_THROTTLES.create },
      schema: {
        tags,
        summary: 'Open an inquiry (customer JWT optional); a guest receives its `si_` token once',
        body: s.createInquiryBody,
        response: { 201: envelopeSchema(s.visitorInquiryDetail) },
      },
    },
    async (request, reply) => {
      const principal = request.principal;
      const customer = principal && principal.actor !== 'guest' ? principal : null;
      const inquiry = await inquiries.createInquiry(deps, customer, request.body);
      reply.status(201);
      return ok(inquiry, 'Support inquiry created');
    },
  );

  app.get(
    '/api/support-inquiries',
    {
      config: { access: access.customer() },
      schema: {
        tags,
        summary: "The customer's own inquiries",
        querystring: s.customerListQuery,
        response: { 200: listEnvelopeSchema(s.visitorInquiry) },
      },
    },
    async (request) => {
      const { inquiries: list, meta } = await inquiries.listOwnInquiries(
        deps,
        currentUser(request),
        request.query,
      );
      return okWithMeta(list, meta, 'Support inquiries');
    },
  );

  app.get(
    '/api/support-inquiries/:id',
    {
      config: { access: visitor, errors: [inquiryErrors.notFound(), inquiryErrors.accessDenied()] },
      schema: { tags, summary: 'One inquiry with its messages', params: intIdParams, response: detail },
    },
    async (request) =>
      ok(await inquiries.getInquiry(deps, request.principal!, request.params.id), 'Support inquiry'),
  );

  app.get(
    '/api/support-inquiries/:id/messages',
    {
      config: { access: visitor, errors: [inquiryErrors.notFound(), inquiryErrors.accessDenied()] },
      schema: {
        tags,
        summary: 'The messages of an inquiry, oldest first',
        params: intIdParams,
        response: { 200: envelopeSchema(z.array(s.visitorMessage)) },
      },
    },
    async (request) =>
      ok(await inquiries.listInquiryMessages(deps, request.principal!, request.params.id), 'Messages'),
  );

  app.post(
    '/api/support-inquiries/:id/messages',
    {
      config: {
        access: visitor,
        rateLimit: INQUIRY_THROTTLES.message,
        errors: [inquiryErrors.notFound(), inquiryErrors.accessDenied(), inquiryErrors.closed()],
      },
      schema: {
        tags,
        summary: 'Write a message (refused when the inquiry is closed or spam)',
        params: intIdParams,
        body: messageBody,
        response: { 201: envelopeSchema(s.visitorInquiryDetail) },
      },
    },
    async (request, reply) => {
      const inquiry = await inquiries.addVisitorMessage(
        deps,
        request.principal!,
        request.params.id,
        request.body.body,
      );
      reply.status(201);
      return ok(inquiry, 'Message sent');
    },
  );

  app.patch(
    '/api/support-inquiries/:id/identify',
    {
      config: {
        access: visitor,
        rateLimit: INQUIRY_THROTTLES.identify,
        errors: [inquiryErrors.notFound(), inquiryErrors.accessDenied(), inquiryErrors.closed()],
      },
      schema: {
        tags,
        summary: 'Add or change contact details; empty values keep the stored ones',
        params: intIdParams,
        body: s.identifyBody,
        response: detail,
      },
    },
    async (request) =>
      ok(
        await inquiries.identify(deps, request.principal!, request.params.id, request.body),
        'Contact saved',
      ),
  );

  app.post(
    '/api/support-inquiries/:id/verify-email/request',
    {
      config: {
        access: visitor,
        rateLimit: INQUIRY_THROTTLES.verifyRequest,
        operation: 'requestSupportInquiryEmailVerification',
        errors: [
          inquiryErrors.notFound(),
          inquiryErrors.accessDenied(),
          inquiryErrors.emailVerificationInvalid(),
        ],
      },
      schema: {
        tags,
        summary: 'Email a 6-digit code to the stored address (valid 10 minutes)',
        params: intIdParams,
        response: { 200: envelopeSchema(z.object({ sent: z.literal(true) })) },
      },
    },
    async (request) =>
      ok(
        await inquiries.requestEmailVerification(deps, request.principal!, request.params.id),
        'Verification code sent',
      ),
  );

  app.post(
    '/api/support-inquiries/:id/verify-email/confirm',
    {
      config: {
        access: visitor,
        rateLimit: INQUIRY_THROTTLES.verifyConfirm,
        operation: 'confirmSupportInquiryEmailVerification',
        errors: [
          inquiryErrors.notFound(),
          inquiryErrors.accessDenied(),
          inquiryErrors.emailVerificationInvalid(),
        ],
      },
      schema: {
        tags,
        summary: 'Confirm the emailed code; five wrong codes invalidate it',
        params: intIdParams,
        body: s.confirmEmailBody,
        response: detail,
      },
    },
    async (request) =>
      ok(
        await inquiries.confirmEmailVerification(
          deps,
          request.principal!,
          request.params.id,
          request.body.otp,
        ),
        'Email verified',
      ),
  );
}

export function adminInquiryRoutes(app: ApiApp, deps: SupportDeps) {
  const tags = ['support inquiries (admin)'];
  const read = access.admin(inquiryPermissions.READ);
  const update = access.admin(inquiryPermissions.UPDATE);
  const detail = { 200: envelopeSchema(s.adminInquiryDetail) };

  app.get(
    '/api/admin/support-inquiries',
    {
      config: { access: read },
      schema: {
        tags,
        summary: 'Inquiries with filters; search matches tracking code, subject and guest contact',
        querystring: s.adminListQuery,
        response: { 200: listEnvelopeSchema(s.adminInquiry) },
      },
    },
    async (request) => {
      const { inquiries: list, meta } = await inquiries.listInquiriesForAdmin(deps, request.query);
      return okWithMeta(list, meta, 'Support inquiries');
    },
  );

  app.get(
    '/api/admin/support-inquiries/:id',
    {
      config: { access: read, errors: [inquiryErrors.notFound()] },
      schema: { tags, summary: 'One inquiry with its full history', params: intIdParams, response: detail },
    },
    async (request) => ok(await inquiries.getInquiryForAdmin(deps, request.params.id), 'Support inquiry'),
  );

  app.post(
    '/api/admin/support-inquiries/:id/messages',
    {
      config: { access: update, errors: [inquiryErrors.notFound(), inquiryErrors.closed()] },
      schema: {
        tags,
        summary: 'Reply (refused when closed or spam); an open inquiry becomes active',
        params: intIdParams,
        body: messageBody,
        response: { 201: envelopeSchema(s.adminInquiryDetail) },
      },
    },
    async (request, reply) => {
      const inquiry = await inquiries.adminReply(
        deps,
        currentUser(request),
        request.params.id,
        request.body.body,
      );
      reply.status(201);
      return ok(inquiry, 'Reply sent');
    },
  );

  app.patch(
    '/api/admin/support-inquiries/:id/assign',
    {
      config: { access: update, errors: [inquiryErrors.notFound()] },
      schema: {
        tags,
        summary: 'Assign to an admin, or unassign with null',
        params: intIdParams,
        body: assignBody,
        response: detail,
      },
    },
    async (request) =>
      ok(
        await inquiries.assignInquiry(
          deps,
          currentUser(request),
          request.params.id,
          request.body.assignedAdminId,
        ),
        'Support inquiry assigned',
      ),
  );

  app.patch(
    '/api/admin/support-inquiries/:id/status',
    {
      config: { access: update, errors: [inquiryErrors.notFound()] },
      schema: {
        tags,
        summary: 'Set any of the seven statuses; closed and spam set closedAt, leaving them clears it',
        params: intIdParams,
        body: s.statusBody,
        response: detail,
      },
    },
    async (request) =>
      ok(
        await inquiries.setInquiryStatus(deps, currentUser(request), request.params.id, request.body.status),
        'Support inquiry status updated',
      ),
  );

  app.post(
    '/api/admin/support-inquiries/:id/revoke-token',
    {
      config: { access: update, operation: 'revokeSupportInquiryToken', errors: [inquiryErrors.notFound()] },
      schema: {
        tags,
        summary: "Revoke the inquiry's guest token: its requests are refused and its sockets closed at once",
        params: intIdParams,
        response: { 200: envelopeSchema(s.revokeTokenView) },
      },
    },
    async (request) =>
      ok(
        await inquiries.revokeGuestTokens(deps, currentUser(request), request.params.id),
        'Guest access token revoked',
      ),
  );

  app.post(
    '/api/admin/support-inquiries/:id/link-support-request',
    {
      config: {
        access: update,
        operation: 'linkSupportInquiryToSupportRequest',
        errors: [
          inquiryErrors.notFound(),
          inquiryErrors.linkInvalid(),
          inquiryErrors.supportRequestRequired(),
        ],
      },
      schema: {
        tags,
        summary:
          '`{ subject }` creates a ticket copying the messages (201); `{ supportRequestId }` links an existing ticket of the same customer (200)',
        params: intIdParams,
        body: s.linkBody,
        response: { 200: envelopeSchema(s.adminInquiryDetail), 201: envelopeSchema(s.adminInquiryDetail) },
      },
    },
    async (request, reply) => {
      const { inquiry, created } = await inquiries.linkSupportRequest(
        deps,
        currentUser(request),
        request.params.id,
        request.body,
      );
      reply.status(created ? 201 : 200);
      return ok(inquiry, created ? 'Support request created' : 'Support request linked');
    },
  );
}
