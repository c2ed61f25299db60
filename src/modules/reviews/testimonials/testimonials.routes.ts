// Testimonials: back-office CRUD (/api/admin/reviews/testimonials, Reviews_*) and the visible
// ones on both storefront surfaces (/api/reviews/testimonials, /api/mobile/reviews/testimonials).
import { access } from '../../../platform/auth/access';
import { currentUser } from '../../../platform/http/access-hook';
import { envelopeSchema, listEnvelopeSchema, ok, okWithMeta } from '../../../platform/http/envelope';
import { intIdParams } from '../../../platform/http/params';
import type { ApiApp } from '../../../platform/module';
import { reviewPermissions } from '../reviews.permissions';
import { testimonialErrors } from './testimonials.errors';
import * as s from './testimonials.schemas';
import * as testimonials from './testimonials.service';

export function testimonialRoutes(app: ApiApp, deps: testimonials.TestimonialDeps) {
  const tags = ['testimonials'];
  const base = '/api/admin/reviews/testimonials';
  const one = { 200: envelopeSchema(s.testimonial) };

  app.get(
    base,
    {
      config: { access: access.admin(reviewPermissions.READ) },
      schema: {
        tags,
        summary: 'Testimonials; search matches name and comment',
        querystring: s.adminTestimonialListQuery,
        response: { 200: listEnvelopeSchema(s.testimonial) },
      },
    },
    async (request) => {
      const { testimonials: list, meta } = await testimonials.listAdminTestimonials(deps, request.query);
      return okWithMeta(list, meta, 'Testimonials');
    },
  );

  app.get(
    `${base}/:id`,
    {
      config: { access: access.admin(reviewPermissions.READ), errors: [testimonialErrors.notFound()] },
      schema: { tags, summary: 'One testimonial', params: intIdParams, response: one },
    },
    async (request) => ok(await testimonials.getTestimonial(deps, request.params.id), 'Testimonial'),
  );

  app.post(
    base,
    {
      config: { access: access.admin(reviewPermissions.CREATE), errors: [testimonialErrors.createFailed()] },
      schema: {
        tags,
        summary: 'Create a testimonial (visible unless isVisible is false)',
        body: s.createTestimonialBody,
        response: { 201: envelopeSchema(s.testimonial) },
      },
    },
    async (request, reply) => {
      const record = await testimonials.createTestimonial(deps, currentUser(request), request.body);
      reply.status(201);
      return ok(record, 'Testimonial created');
    },
  );

  app.patch(
    `${base}/:id`,
    {
      config: { access: access.admin(reviewPermissions.UPDATE), errors: [testimonialErrors.notFound()] },
      schema: {
        tags,
        summary: 'Change fields of a testimonial',
        params: intIdParams,
        body: s.updateTestimonialBody,
        response: one,
      },
    },
    async (request) =>
      ok(
        await testimonials.updateTestimonial(deps, currentUser(request), request.params.id, request.body),
        'Testimonial updated',
      ),
  );

  app.delete(
    `${base}/:id`,
    {
      config: { access: access.admin(reviewPermissions.DELETE), errors: [testimonialErrors.notFound()] },
      schema: {
        tags,
        summary: 'Delete a testimonial (answers the deleted record)',
        params: intIdParams,
        response: one,
      },
    },
    async (request) =>
      ok(
        await testimonials.deleteTestimonial(deps, currentUser(request), request.params.id),
        'Testimonial deleted',
      ),
  );

  for (const path of ['/api/reviews/testimonials', '/api/mobile/reviews/testimonials']) {
    app.get(
      path,
      {
        config: { access: access.public(), errors: [testimonialErrors.invalidSort('', [])] },
        schema: {
          tags,
          summary: 'Visible testimonials; sort order, createdAt or rating',
          querystring: s.publicTestimonialListQuery,
          response: { 200: listEnvelopeSchema(s.publicTestimonial) },
        },
      },
      async (request) => {
        const { testimonials: list, meta } = await testimonials.listPublicTestimonials(deps, request.query);
        return okWithMeta(list, meta, 'Testimonials');
      },
    );
  }
}
