// Reviews under concurrency (really at once on PostgreSQL; PGlite serialises them): one review
// per order item holds when the same item is submitted many times at once (the unique index
// answers the losers 409 REVIEW_ALREADY_EXISTS), and approvals of one product's reviews at
// once leave aggregates that count every one of them.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { productReviews } from '../../../src/modules/reviews/product-reviews/product-reviews.table';
import { expectError } from '../cart/calls';
import { type ReviewsTestApp, reviewsTestApp } from './calls';

let c: ReviewsTestApp;
beforeAll(async () => {
  c = await reviewsTestApp({ env: { DATABASE_POOL_SIZE: '25' } });
});
afterAll(() => c?.t.close());

describe('reviews under concurrency', () => {
  it('one order item submitted 8 times at once: one review, the others 409 REVIEW_ALREADY_EXISTS', async () => {
    const me = await c.namedCustomer('Race Runner');
    const { orderItemId } = await c.deliveredOrder(me, await c.product());
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        c.submit(me, { orderItemId, rating: (i % 5) + 1, comment: `try ${i}` }),
      ),
    );
    const created = answers.filter((r) => r.statusCode === 201);
    expect(created).toHaveLength(1);
    for (const res of answers.filter((r) => r.statusCode !== 201))
      expectError(res, 409, 'REVIEW_ALREADY_EXISTS');
    const rows = await c.db.select().from(productReviews).where(eq(productReviews.orderItemId, orderItemId));
    expect(rows).toHaveLength(1);
    expect(rows[0]!.id).toBe(created[0]!.json().data.id);
  });

  it('six reviews of one product approved at once: the aggregates count all six', async () => {
    const productId = await c.product({ onHand: 20 });
    const ratings = [5, 4, 4, 3, 5, 2];
    const ids: number[] = [];
    for (const rating of ratings) {
      const who = await c.customer();
      const { orderItemId } = await c.deliveredOrder(who, productId);
      ids.push((await c.submitted(who, { orderItemId, rating })).id);
    }
    const answers = await Promise.all(
      ids.map((id) =>
        c.http.call('PATCH', `/api/admin/reviews/${id}/status`, c.admin.headers, { status: 'approved' }),
      ),
    );
    for (const res of answers) expect(res.statusCode, res.body).toBe(200);
    const detail = await c.productDetail(await c.slugOf(productId));
    expect(detail).toMatchObject({ totalReviews: 6, averageRating: 3.83 });
    expect(await c.adminListItem(productId)).toMatchObject({ reviewCount: 6, averageRating: 3.83 });

    // And rejected at once, half of them: the figures follow exactly.
    const rejected = await Promise.all(
      ids
        .slice(0, 3)
        .map((id) =>
          c.http.call('PATCH', `/api/admin/reviews/${id}/status`, c.admin.headers, { status: 'rejected' }),
        ),
    );
    for (const res of rejected) expect(res.statusCode, res.body).toBe(200);
    expect(await c.productDetail(await c.slugOf(productId))).toMatchObject({
      totalReviews: 3,
      averageRating: 3.33,
    });
  });
});
