// Reviews: product reviews (`product-reviews/`: customers review items of their delivered
// orders, admins seed and moderate, the storefront lists approved ones with a summary, and the
// catalog's review aggregates follow every approval and rejection) and storefront
// testimonials (`testimonials/`: admin CRUD, public lists of the visible ones).
import type { PasalModule } from '../../platform/module';
import { productReviewRoutes } from './product-reviews/product-reviews.routes';
import { reviewPermissions } from './reviews.permissions';
import { testimonialRoutes } from './testimonials/testimonials.routes';

export { getAdminReview } from './product-reviews/product-reviews.service';
export { reviewPermissions } from './reviews.permissions';

export const reviewsModule: PasalModule = {
  name: 'reviews',
  events: { publishes: ['review.submitted'], subscribes: [] },
  tags: {
    reviews: 'Product reviews by customers and their moderation.',
    testimonials: 'Testimonials shown on the storefront.',
  },
  permissions: [{ module: reviewPermissions.module, codes: reviewPermissions.codes }],
  async register(ctx) {
    // Testimonials first: their static paths sit under /api/admin/reviews beside `:id`.
    testimonialRoutes(ctx.app, ctx);
    productReviewRoutes(ctx.app, ctx);
  },
};
