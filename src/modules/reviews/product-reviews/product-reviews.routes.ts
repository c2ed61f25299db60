// Product reviews: customers submit and list their own (/api/mobile/reviews), the back office
// lists, reads, seeds, moderates and deletes (/api/admin/reviews, Reviews_*), the storefront reads the
// approved ones by slug (with slug history) or by product id.
import { access } from '../../../platform/auth/access';
import { currentUser } from '../../../platform/http/access-hook';
import { envelopeSchema, listEnvelopeSchema, ok, okWithMeta } from '../../../platform/http/envelope';
import { intIdParams } from '../../../platform/http/params';
import type { ApiApp } from '../../../platform/module';
import { catalogErrors } from '../../catalog';
import { reviewPermissions } from '../reviews.permissions';
import { reviewErrors } from './product-reviews.errors';
import * as s from './product-reviews.schemas';
import * as reviews from './product-reviews.service';

export function productReviewRoutes(app: ApiApp, deps: reviews.ReviewDeps) {
  const tags = ['reviews'];

  app.post(
    '/api/mobile/reviews',
    {
      config: {
        access: access.customer(),
        errors: [catalogErrors.productNotFound(), reviewErrors.notAllowed(), reviewErrors.alreadyExists()],
      },
      schema: {
        tags,
        summary: 'Review an item of one of your delivered orders (pending until approved)',
        body: s.submitReviewBody,
        response: { 201: envelopeSchema(s.review) },
      },
    },
    async (request, reply) => {
      const review = await reviews.submitReview(deps, currentUser(request), request.body);
      reply.status(201);
      return ok(review, 'Review submitted');
    },
  );

  app.get(
    '/api/mobile/reviews',
    {
      config: { access: access.customer() },
      schema: {
        tags,
        summary: 'Your own reviews, newest first, whatever their status',
        querystring: s.ownReviewListQuery,
        response: { 200: listEnvelopeSchema(s.review) },
      },
    },
    async (request) => {
      const { reviews: list, meta } = await reviews.listOwnReviews(deps, currentUser(request), request.query);
      return okWithMeta(list, meta, 'Reviews');
    },
  );

  app.get(
    '/api/admin/reviews',
    {
      config: { access: access.admin(reviewPermissions.READ) },
      schema: {
        tags,
        summary: 'Reviews with filters; search matches reviewer name and comment',
        querystring: s.adminReviewListQuery,
        response: { 200: listEnvelopeSchema(s.adminReview) },
      },
    },
    async (request) => {
      const { reviews: list, meta } = await reviews.listAdminReviews(deps, request.query);
      return okWithMeta(list, meta, 'Reviews');
    },
  );

  app.get(
    '/api/admin/reviews/:id',
    {
      config: { access: access.admin(reviewPermissions.READ), errors: [reviewErrors.notFound()] },
      schema: {
        tags,
        summary: 'One review',
        params: intIdParams,
        response: { 200: envelopeSchema(s.adminReview) },
      },
    },
    async (request) => ok(await reviews.getAdminReview(deps, request.params.id), 'Review'),
  );

  app.post(
    '/api/admin/reviews',
    {
      config: {
        access: access.admin(reviewPermissions.UPDATE),
        errors: [catalogErrors.productNotFound(), reviewErrors.alreadyExists()],
      },
      schema: {
        tags,
        summary: 'Seed a review (admin_seeded, approved at once)',
        body: s.seedReviewBody,
        response: { 201: envelopeSchema(s.adminReview) },
      },
    },
    async (request, reply) => {
      const review = await reviews.seedReview(deps, currentUser(request), request.body);
      reply.status(201);
      return ok(review, 'Review created');
    },
  );

  app.patch(
    '/api/admin/reviews/:id/status',
    {
      config: { access: access.admin(reviewPermissions.UPDATE), errors: [reviewErrors.notFound()] },
      schema: {
        tags,
        summary: 'Approve or reject a review (a rejection may give a reason); the product aggregates follow',
        params: intIdParams,
        body: s.reviewStatusBody,
        response: { 200: envelopeSchema(s.adminReview) },
      },
    },
    async (request) =>
      ok(
        await reviews.setReviewStatus(deps, currentUser(request), request.params.id, request.body),
        'Review status updated',
      ),
  );

  app.delete(
    '/api/admin/reviews/:id',
    {
      config: { access: access.admin(reviewPermissions.DELETE), errors: [reviewErrors.notFound()] },
      schema: {
        tags,
        summary: 'Delete a review for good; the product aggregates follow (answers the deleted review)',
        params: intIdParams,
        response: { 200: envelopeSchema(s.adminReview) },
      },
    },
    async (request) =>
      ok(await reviews.deleteReview(deps, currentUser(request), request.params.id), 'Review deleted'),
  );

  app.get(
    '/api/products/:slug/reviews',
    {
      config: {
        access: access.public(),
        operation: 'listProductReviewsBySlug',
        errors: [catalogErrors.productNotFound()],
      },
      schema: {
        tags,
        summary: 'Approved reviews of a product by slug (an old slug finds it too), newest first',
        params: s.slugParams,
        querystring: s.productReviewListQuery,
        response: { 200: s.slugReviewsEnvelope },
      },
    },
    async (request) => {
      const { data, meta } = await reviews.productReviewsBySlug(deps, request.params.slug, request.query);
      return okWithMeta(data, meta, 'Reviews');
    },
  );

  for (const prefix of ['/api/products', '/api/mobile/products']) {
    app.get(
      `${prefix}/id/:productId/reviews`,
      {
        config: { access: access.public(), errors: [catalogErrors.productNotFound()] },
        schema: {
          tags,
          summary: 'Approved reviews of a product by id, newest first; totalReviews and summary beside meta',
          params: s.productIdParams,
          querystring: s.productReviewListQuery,
          response: { 200: s.idReviewsEnvelope },
        },
      },
      async (request) => {
        const page = await reviews.productReviewsById(deps, request.params.productId, request.query);
        return {
          ...okWithMeta(page.items, page.meta, 'Reviews'),
          totalReviews: page.summary.totalReviews,
          summary: page.summary,
        };
      },
    );
  }
}
