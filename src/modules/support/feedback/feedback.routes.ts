// Feedback routes: customers send it from the app; the back office reads and reviews it.
import { access } from '../../../platform/auth/access';
import { currentUser } from '../../../platform/http/access-hook';
import { envelopeSchema, listEnvelopeSchema, ok, okWithMeta } from '../../../platform/http/envelope';
import { intIdParams } from '../../../platform/http/params';
import type { ApiApp } from '../../../platform/module';
import { feedbackPermissions } from '../support.permissions';
import type { SupportDeps } from '../support.service';
import { feedbackErrors } from './feedback.errors';
import * as s from './feedback.schemas';
import * as feedback from './feedback.service';

export function feedbackRoutes(app: ApiApp, deps: SupportDeps) {
  const tags = ['feedback'];

  app.post(
    '/api/mobile/feedback',
    {
      config: { access: access.customer() },
      schema: {
        tags,
        summary: 'Send feedback',
        body: s.createFeedbackBody,
        response: { 201: envelopeSchema(s.feedback) },
      },
    },
    async (request, reply) => {
      const record = await feedback.submitFeedback(deps, currentUser(request), request.body);
      reply.status(201);
      return ok(record, 'Feedback received');
    },
  );

  app.get(
    '/api/admin/feedback',
    {
      config: { access: access.admin(feedbackPermissions.READ) },
      schema: {
        tags,
        summary: 'Feedback with filters; search matches subject and message',
        querystring: s.feedbackListQuery,
        response: { 200: listEnvelopeSchema(s.feedback) },
      },
    },
    async (request) => {
      const { feedback: list, meta } = await feedback.listFeedback(deps, request.query);
      return okWithMeta(list, meta, 'Feedback');
    },
  );

  app.get(
    '/api/admin/feedback/:id',
    {
      config: { access: access.admin(feedbackPermissions.READ), errors: [feedbackErrors.notFound()] },
      schema: {
        tags,
        summary: 'One feedback record',
        params: intIdParams,
        response: { 200: envelopeSchema(s.feedback) },
      },
    },
    async (request) => ok(await feedback.getFeedback(deps, request.params.id), 'Feedback'),
  );

  app.patch(
    '/api/admin/feedback/:id/review',
    {
      config: { access: access.admin(feedbackPermissions.UPDATE), errors: [feedbackErrors.notFound()] },
      schema: {
        tags,
        summary: 'Mark reviewed (no body); reviewing again answers the record unchanged',
        params: intIdParams,
        response: { 200: envelopeSchema(s.feedback) },
      },
    },
    async (request) =>
      ok(await feedback.reviewFeedback(deps, currentUser(request), request.params.id), 'Feedback reviewed'),
  );
}
