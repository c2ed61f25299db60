// The demo store's reviews and testimonials (part of `npm run seed:demo`): approved reviews
// seeded by the demo admin on a few products (their list and detail ratings follow, as for
// any approval), and storefront testimonials. Written through the reviews services; a second
// run adds nothing.
import { count, eq, inArray } from 'drizzle-orm';
import pino from 'pino';
import type { ProductDeps } from '../src/modules/catalog/products/products.service';
import { products } from '../src/modules/catalog/products/products.table';
import { seedReviewBody } from '../src/modules/reviews/product-reviews/product-reviews.schemas';
import { seedReview } from '../src/modules/reviews/product-reviews/product-reviews.service';
import { productReviews } from '../src/modules/reviews/product-reviews/product-reviews.table';
import { createTestimonialBody } from '../src/modules/reviews/testimonials/testimonials.schemas';
import { createTestimonial } from '../src/modules/reviews/testimonials/testimonials.service';
import { testimonials } from '../src/modules/reviews/testimonials/testimonials.table';
import type { UserPrincipal } from '../src/platform/auth/principal';

/** Reviews by product title: [reviewer, rating, comment]. */
export const DEMO_REVIEWS: Record<string, Array<[string, number, string]>> = {
  'Seven Metal Singing Bowl, 15 cm': [
    ['Anjali Maharjan', 5, 'A deep, long tone. It arrived well packed in a padded box.'],
    ['Tom Becker', 4, 'Lovely sound; the striker could be a little heavier.'],
  ],
  'Medicine Buddha Thangka': [['Pema Sherpa', 5, 'Fine brushwork and real gold. Framed it at once.']],
  'Lenovo ThinkPad E14 Gen 5': [
    ['Suman Adhikari', 4, 'Fast and quiet, good keyboard. Delivered in two days to Pokhara.'],
    ['Rita Gurung', 5, 'Works well for office work and video calls.'],
  ],
};

export const DEMO_TESTIMONIALS = [
  {
    name: 'Bishnu Prasad Koirala',
    rating: 5,
    comment: 'Ordered a thangka from Biratnagar; it came in four days, rolled with care.',
    order: 1,
  },
  {
    name: 'Sarah Collins',
    rating: 5,
    comment: 'They answered every question about the singing bowls before I bought one.',
    order: 2,
  },
  {
    name: 'Nirmala Thapa',
    rating: 4,
    comment: 'Cash on delivery made it easy, and the laptop had the local warranty card.',
    order: 3,
  },
];

export async function seedDemoReviews(
  deps: ProductDeps,
  actor: UserPrincipal,
): Promise<{ reviews: number; testimonials: number }> {
  const { db } = deps;
  let reviews = 0;
  const titles = Object.keys(DEMO_REVIEWS);
  const found = await db
    .select({ id: products.id, title: products.title })
    .from(products)
    .where(inArray(products.title, titles));
  for (const product of found) {
    const [existing] = await db
      .select({ n: count() })
      .from(productReviews)
      .where(eq(productReviews.productId, product.id));
    if (existing && existing.n > 0) continue;
    for (const [reviewerName, rating, comment] of DEMO_REVIEWS[product.title] ?? []) {
      await seedReview(
        deps,
        actor,
        seedReviewBody.parse({ productId: product.id, reviewerName, rating, comment }),
      );
      reviews += 1;
    }
  }
  let added = 0;
  const [shown] = await db.select({ n: count() }).from(testimonials);
  if (!shown || shown.n === 0) {
    const log = pino({ level: 'silent' });
    for (const t of DEMO_TESTIMONIALS) {
      await createTestimonial({ ...deps, log }, actor, createTestimonialBody.parse(t));
      added += 1;
    }
  }
  return { reviews, testimonials: added };
}
